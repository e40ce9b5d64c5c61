# source: https://github.com/microsoft/Windows-Containers/blob/d08f0514f9afece81df76b98e744d1ac0bfc33c1/helpful_tools/LogCollector/collectlog.ps1

Invoke-Expression "c:\k\debug\collect-windows-logs.ps1"
$latestZipFile = Get-ChildItem -Path "C:" -Filter *.zip -Recurse | Sort-Object CreationTime -Descending | Select-Object -First 1
Copy-Item $latestZipFile.FullName d:\perf\latestdebuglog.zip


