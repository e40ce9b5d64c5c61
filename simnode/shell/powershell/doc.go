// Package powershell is the simulated Windows PowerShell 5.1 / pwsh of
// Windows containers (rows E, B9, B11, H1–H6): Run, the parser (package
// parser), the interpreter and the cmdlets of the pipeline (package
// engine), and here the other cmdlets, a file per noun family: item.go
// (*-Item, *-Content, Test-Path, Get-ChildItem, Set-Location, Out-File),
// providers.go (the env:, variable:, function: and registry drives,
// *-ItemProperty), variable.go (*-Variable), net.go (Resolve-DnsName,
// Test-NetConnection, Invoke-WebRequest/-RestMethod, Get-NetIPAddress),
// process.go (Start-Process), streams.go (Write-Warning/-Verbose/-Debug/
// -Information), data.go (JSON, Group-Object, New-TimeSpan) and wmi.go
// (Get-WmiObject, Get-CimInstance).
package powershell
