package shell

import "testing"

// TestPowerShellSpec: PowerShell 5.1 as Microsoft's documentation gives
// it, for what the mined corpus's scripts use (testdata/mined).
func TestPowerShellSpec(t *testing.T) {
	const (
		version  = "https://learn.microsoft.com/dotnet/api/system.version.compareto"
		convert  = "https://learn.microsoft.com/powershell/scripting/lang-spec/chapter-06 (§6.4: a double converts to int rounding half to even)"
		streams  = "https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_preference_variables"
		startPro = "https://learn.microsoft.com/powershell/module/microsoft.powershell.management/start-process?view=powershell-5.1"
	)
	servercore := func(f *fixture) {
		f.env.Image = ImageOf(Windows, "mcr.microsoft.com/windows/servercore:ltsc2022", false)
	}
	runCases(t, []tcase{
		// sig-windows-tools test-kube-proxy-images.ps1: [Version]($tag.TrimStart('v')) -lt [Version]$min
		{name: version + ": versions compare by component, not as text", argv: ps(`[version]'10.0.17763' -gt [version]'10.0.9'; [Version]('v1.22.0'.TrimStart('v')) -lt [Version]'1.9'`), out: "True\r\nFalse\r\n"},
		{name: version + ": the right side converts to a version", argv: ps(`[version]'1.2.3' -lt '1.10'; [version]'1.2' -eq '1.2'; [version]'1.2' -eq '1.2.0'`), out: "True\r\nTrue\r\nFalse\r\n"},
		{name: "https://learn.microsoft.com/dotnet/api/system.version.-ctor: [version]::new and its members", argv: ps(`$v = [version]::new(1, 2, 3); $v.ToString(); $v.Build; $v.Revision; [version]::Parse('4.5').Major`), out: "1.2.3\r\n3\r\n-1\r\n4\r\n"},
		{name: "https://learn.microsoft.com/dotnet/api/system.version.parse: a value that is no version does not convert", argv: ps(`[version]'abc'; 'after'`), out: "after\r\n", errHas: []string{`Cannot convert value "abc" to type "System.Version".`}},
		// sig-windows-tools PrepareNode.ps1: [version]$CurrentVersion = $($KubernetesVersion.Split("v") | Select -Index 1)
		{name: "https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_variables (type-constrained variables keep converting)",
			argv: ps(`[version]$v = $('v1.25.3'.Split("v") | Select -Index 1); $v.Minor; $v -lt [version]'1.26'; $v = '2.0'; $v.GetType().Name; [int]$n = '5'; $n + 1; [string]$s = 5; $s + 1`),
			out:  "25\r\nTrue\r\nVersion\r\n6\r\n51\r\n"},
		{name: "https://learn.microsoft.com/dotnet/api/system.datetime.parseexact", argv: ps(`([datetime]::ParseExact('2024-01-02', 'yyyy-MM-dd', $null)).Day`), out: "2\r\n"},
		{name: convert, argv: ps(`[int]2.5; [int]3.5; [int]-2.5; [int]'7'`), out: "2\r\n4\r\n-2\r\n7\r\n"},
		{name: streams + ": verbose and debug are hidden until asked for", argv: ps(`Write-Verbose 'v1'; Write-Verbose 'v2' -Verbose; $VerbosePreference = 'Continue'; Write-Verbose 'v3'; Write-Debug 'd1'; $DebugPreference = 'Continue'; Write-Debug 'd2'`),
			out: "VERBOSE: v2\r\nVERBOSE: v3\r\nDEBUG: d2\r\n"},
		{name: streams + ": warnings show until silenced", argv: ps(`Write-Warning 'w1'; $WarningPreference = 'SilentlyContinue'; Write-Warning 'w2'; Write-Warning 'w3' -WarningAction Continue`), out: "WARNING: w1\r\nWARNING: w3\r\n"},
		{name: streams + ": information is hidden by default", argv: ps(`Write-Information 'i1'; Write-Information 'i2' -InformationAction Continue; $InformationPreference = 'Continue'; Write-Information 'i3'`), out: "i2\r\ni3\r\n"},
		{name: streams + ": Stop ends the statement", argv: ps(`try { Write-Warning 'w' -WarningAction Stop } catch { $_.FullyQualifiedErrorId }`), out: "WARNING: w\r\nActionPreferenceStop,Microsoft.PowerShell.Commands.WriteWarningCommand\r\n"},
		{name: startPro + ": -Wait -PassThru gives the exit code", setup: servercore, argv: ps(`$p = Start-Process cmd -ArgumentList '/c', 'exit 3' -Wait -PassThru -NoNewWindow; $p.HasExited; $p.ExitCode`), out: "True\r\n3\r\n"},
		{name: startPro + ": -NoNewWindow shares the console", setup: servercore, argv: ps(`Start-Process cmd -ArgumentList '/c echo hi' -NoNewWindow -Wait`), out: "hi\r\n"},
		{name: startPro + ": output goes to a file with -RedirectStandardOutput", setup: servercore, argv: ps(`Start-Process cmd -ArgumentList '/c echo hi' -RedirectStandardOutput C:\rw\out.txt -Wait; Get-Content C:\rw\out.txt`), out: "hi\r\n"},
		{name: startPro + ": a program the image lacks is a non-terminating error", setup: servercore, argv: ps(`Start-Process C:\nope.exe; 'after'`), out: "after\r\n",
			errHas: []string{"Start-Process : This command cannot be run due to the error: The system cannot find the file specified.", "InvalidOperationException,Microsoft.PowerShell.Commands.StartProcessCommand"}},
		{name: "https://learn.microsoft.com/powershell/module/microsoft.powershell.utility/select-string?view=powershell-5.1: MatchInfo objects with their Matches",
			argv: ps(`$m = 'key=value' | Select-String -Pattern '(\w+)=(\w+)'; $m.Matches[0].Groups[2].Value; $m.Line; $m.LineNumber; $m.Filename; ('a1b22c333' | Select-String '\d+' -AllMatches).Matches.Value`),
			out:  "value\r\nkey=value\r\n1\r\nInputStream\r\n1\r\n22\r\n333\r\n"},
		{name: "https://learn.microsoft.com/dotnet/api/microsoft.powershell.commands.matchinfo.tostring: a file's match shows its path and line number",
			argv: ps(`Select-String -Path C:\data\hello.txt -Pattern 'from (\w)' | ForEach-Object { $_.Matches[0].Groups[1].Value; "$_" }`), out: "a\r\nC:\\data\\hello.txt:1:hello from a configmap\r\n"},
		{name: "https://learn.microsoft.com/powershell/module/microsoft.powershell.management/push-location?view=powershell-5.1: pushd and popd",
			argv: ps(`Push-Location C:\data; Get-Content hello.txt; pushd C:\rw; popd; (Get-Location).Path; Pop-Location; "$pwd"`), out: "hello from a configmap\r\nC:\\data\r\nC:\\\r\n"},
		{name: "https://learn.microsoft.com/powershell/module/microsoft.powershell.management/resolve-path?view=powershell-5.1",
			argv: ps(`(Resolve-Path C:\data\hello.txt).Path; Resolve-Path C:\nope; 'after'`), out: "C:\\data\\hello.txt\r\nafter\r\n", errHas: []string{"Resolve-Path : Cannot find path 'C:\\nope' because it does not exist."}},
		{name: "https://learn.microsoft.com/powershell/module/microsoft.powershell.utility/tee-object?view=powershell-5.1: the input passes on and goes to the file (Unicode in 5.1)",
			argv:   ps(`'a', 'b' | Tee-Object -FilePath C:\rw\t.txt; (Get-Content C:\rw\t.txt) -join ','; [IO.File]::ReadAllBytes('C:\rw\t.txt')[0]; 'x' | Tee-Object -Variable v | Out-Null; $v`),
			outHas: []string{"a\r\nb\r\na,b\r\n", "x\r\n"}},
		{name: startPro + ": WaitForExit on the process -PassThru returns", setup: servercore, argv: ps(`$p = Start-Process cmd -ArgumentList '/c exit 4' -PassThru; $p.WaitForExit(); $p.ExitCode`), out: "4\r\n"},
	})
}

// TestPowerShellProviders: the env:, variable:, function: and registry
// drives (about_Providers, about_Environment_Provider,
// about_Variable_Provider, about_Function_Provider, about_Registry_Provider).
func TestPowerShellProviders(t *testing.T) {
	const (
		env      = "https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_environment_provider"
		variable = "https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_variable_provider"
		function = "https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_function_provider"
		registry = "https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_registry_provider"
		cv       = `'HKLM:\SOFTWARE\Microsoft\Windows NT\CurrentVersion'`
	)
	runCases(t, []tcase{
		{name: env + ": items of env:", argv: ps(`Test-Path env:GREETING; (Get-Item env:GREETING).Value; Get-Content env:GREETING; Test-Path env:NOPE`), out: "True\r\nhello world\r\nhello world\r\nFalse\r\n"},
		{name: env + ": Set-Item, New-Item and Remove-Item change the environment", argv: ps(`Set-Item -Path env:FOO -Value bar; $env:FOO; New-Item -Path env: -Name BAZ -Value qux | Out-Null; $env:BAZ; Remove-Item env:FOO; Test-Path env:FOO`), out: "bar\r\nqux\r\nFalse\r\n"},
		{name: env + ": an item that is not there", argv: ps(`Get-Item env:NOPE; 'after'`), out: "after\r\n", errHas: []string{"Get-Item : Cannot find path 'NOPE' because it does not exist."}},
		{name: variable, argv: ps(`$a = 5; Test-Path variable:a; (Get-Item variable:a).Value; Get-Content Variable:\a; Remove-Item variable:a; Test-Path variable:a`), out: "True\r\n5\r\n5\r\nFalse\r\n"},
		{name: function, argv: ps(`function hello { 'hi' }; Test-Path function:hello; (Get-Item function:hello).Name; & (Get-Content function:hello); Remove-Item function:hello; Test-Path function:hello`), out: "True\r\nhello\r\nhi\r\nFalse\r\n"},
		{name: registry + ": the build of the image", argv: ps(`(Get-ItemProperty ` + cv + `).CurrentBuild; Get-ItemPropertyValue ` + cv + ` -Name CurrentMajorVersionNumber, UBR`), out: "20348\r\n10\r\n2655\r\n"},
		{name: registry + ": the node's build", setup: func(f *fixture) { f.env.OSVersion = "10.0.17763.6893" }, argv: ps(`(Get-ItemProperty ` + cv + ` -Name ReleaseId).ReleaseId; (Get-Item ` + cv + `).GetValue('CurrentBuildNumber')`), out: "1809\r\n17763\r\n"},
		{name: registry + ": keys and values that are not there", argv: ps(`Test-Path HKLM:\SOFTWARE\Microsoft; Get-ItemPropertyValue ` + cv + ` -Name Nope; Get-Item HKLM:\SOFTWARE\Nope\Deeper; 'after'`), out: "True\r\nafter\r\n",
			errHas: []string{`Property Nope does not exist at path HKEY_LOCAL_MACHINE\SOFTWARE\Microsoft\Windows NT\CurrentVersion.`}},
	})
}

// TestRegAndSetx: reg.exe query over the simulated keys, and setx
// (https://learn.microsoft.com/windows-server/administration/windows-commands/reg-query,
// .../setx).
func TestRegAndSetx(t *testing.T) {
	admin := func(f *fixture) { f.env.User = "ContainerAdministrator" }
	// batch runs a batch file (cmd /c with one quoted argument would take
	// the first and last quote of the line away: cmd /?).
	batch := func(text string) func(f *fixture) {
		return func(f *fixture) { f.fs.add(`C:\t.cmd`, "@echo off\r\n"+text+"\r\n") }
	}
	bat := []string{"cmd", "/c", `C:\t.cmd`}
	runCases(t, []tcase{
		{name: "reg query /v", setup: batch(`reg query "HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion" /v CurrentBuild`), argv: bat,
			out: "\r\nHKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\r\n    CurrentBuild    REG_SZ    20348\r\n\r\n"},
		{name: "reg query a DWORD", argv: []string{"cmd", "/c", "reg", "query", `HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion`, "/v", "CurrentMajorVersionNumber"},
			out: "\r\nHKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\r\n    CurrentMajorVersionNumber    REG_DWORD    0xa\r\n\r\n"},
		{name: "reg query a value that is not there", setup: batch(`reg query "HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion" /v Nope`), argv: bat, code: 1,
			errOut: "ERROR: The system was unable to find the specified registry key or value.\r\n"},
		{name: "for /f over reg query's output", setup: batch(`for /f "tokens=3" %%a in ('reg query "HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion" /v CurrentBuild ^| findstr CurrentBuild') do echo build %%a`), argv: bat,
			out: "build 20348\r\n"},
		{name: "reg add to HKLM as ContainerUser", argv: []string{"cmd", "/c", `reg add HKLM\SOFTWARE\x /v a /t REG_SZ /d b /f`}, code: 1, errOut: "ERROR: Access is denied.\r\n"},
		{name: "reg add to HKLM as ContainerAdministrator", setup: admin, argv: []string{"cmd", "/c", `reg add HKLM\SOFTWARE\x /v a /t REG_SZ /d b /f`}, out: "The operation completed successfully.\r\n"},
		{name: "setx saves for later processes", argv: []string{"cmd", "/c", `setx FOO bar & echo [%FOO%]`}, out: "\r\nSUCCESS: Specified value was saved.\r\n[%FOO%]\r\n"},
		{name: "setx /M needs an administrator", argv: []string{"cmd", "/c", `setx FOO bar /M`}, code: 1, errOut: "ERROR: Access to the registry path is denied.\r\n"},
		{name: "setx /M as ContainerAdministrator", setup: admin, argv: []string{"cmd", "/c", `setx FOO bar /M`}, out: "\r\nSUCCESS: Specified value was saved.\r\n"},
	})
}
