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
		{name: startPro + ": WaitForExit on the process -PassThru returns", setup: servercore, argv: ps(`$p = Start-Process cmd -ArgumentList '/c exit 4' -PassThru; $p.WaitForExit(); $p.ExitCode`), out: "4\r\n"},
	})
}
