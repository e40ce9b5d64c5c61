package shell

import (
	"encoding/base64"
	"strings"
	"testing"
	"unicode/utf16"

	"wink.dev/wink/simnode/shell/powershell"
)

func ps(script string) []string { return []string{"powershell.exe", "-NoProfile", "-Command", script} }

// TestPowerShell covers the PowerShell language and cmdlets (row E).
func TestPowerShell(t *testing.T) {
	runCases(t, []tcase{
		{name: "not recognized (row E)", argv: ps("frobnicate -x"), out: "-", code: 1,
			errOut: "frobnicate : The term 'frobnicate' is not recognized as the name of a cmdlet, function, script file, or operable program. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.\r\n" +
				"At line:1 char:1\r\n+ frobnicate -x\r\n+ ~~~~~~~~~~\r\n" +
				"    + CategoryInfo          : ObjectNotFound: (frobnicate:String) [], CommandNotFoundException\r\n" +
				"    + FullyQualifiedErrorId : CommandNotFoundException\r\n \r\n"},
		{name: "not recognized later on the line", argv: ps("echo a; nope"), out: "a\r\n", errHas: []string{"At line:1 char:9\r\n+ echo a; nope\r\n+         ~~~~\r\n"}, code: 1},
		{name: "pwsh not recognized", argv: []string{"pwsh", "-c", "nope"}, code: 1,
			errOut: "nope: The term 'nope' is not recognized as a name of a cmdlet, function, script file, or executable program.\r\nCheck the spelling of the name, or if a path was included, verify that the path is correct and try again.\r\n"},
		{name: "error then success exits 0", argv: ps("nope; echo ok"), out: "ok\r\n", code: 0},
		{name: "write-output and echo", argv: ps("Write-Output 'a'; echo b c; 'd'"), out: "a\r\nb\r\nc\r\nd\r\n"},
		{name: "write-host joins", argv: ps("Write-Host a b -NoNewline; Write-Host ('x' + 1)"), out: "a bx1\r\n"},
		{name: "env read", argv: ps("$env:GREETING"), out: "hello world\r\n"},
		{name: "env case-insensitive", argv: ps("$env:greeting.ToUpper()"), out: "HELLO WORLD\r\n"},
		{name: "env set and child sees it", argv: ps(`$env:FOO = "bar"; cmd /c echo %FOO%`), out: "bar\r\n"},
		{name: "variables and interpolation", argv: ps(`$name = "pod"; $n = 2 + 3 * 4; "$name has $n and $($n * 2) ` + "`t" + `x"`), out: "pod has 14 and 28 \tx\r\n"},
		{name: "single quotes literal", argv: ps(`'$env:GREETING it''s'`), out: "$env:GREETING it's\r\n"},
		{name: "format operator", argv: ps(`'{0}-{1,3}|{2:N1}' -f 'a', 7, 2.25`), out: "a-  7|2.3\r\n"},
		{name: "comparison", argv: ps(`if ('Abc' -eq 'abc' -and 'Abc' -cne 'abc' -and 5 -gt 3 -and 'x.txt' -like '*.TXT' -and 'ab12' -match '\d+') { $Matches[0] }`), out: "12\r\n"},
		{name: "array filter", argv: ps(`(1,2,3,4 -gt 2).Count; @(1,2,3) -contains 2; 3 -in 1..5`), out: "2\r\nTrue\r\nTrue\r\n"},
		{name: "if elseif else", argv: ps("$x = 5; if ($x -lt 3) { 'small' } elseif ($x -lt 10) { 'medium' } else { 'large' }"), out: "medium\r\n"},
		{name: "foreach and break", argv: ps("foreach ($i in 1..10) { if ($i -eq 3) { break }; $i }"), out: "1\r\n2\r\n"},
		{name: "for loop", argv: ps("for ($i = 0; $i -lt 3; $i++) { $i }"), out: "0\r\n1\r\n2\r\n"},
		{name: "for loop +=", argv: ps("for ($i = 0; $i -lt 3; $i += 1) { $i }"), out: "0\r\n1\r\n2\r\n"},
		{name: "while with counter", argv: ps("$i = 0; while ($i -lt 3) { $i += 1; Start-Sleep -Milliseconds 10 }; $i"), out: "3\r\n"},
		{name: "do until", argv: ps("$i = 0; do { $i += 2 } until ($i -ge 5); $i"), out: "6\r\n"},
		{name: "pipeline foreach where", argv: ps("1..5 | Where-Object { $_ % 2 -eq 1 } | ForEach-Object { $_ * 10 }"), out: "10\r\n30\r\n50\r\n"},
		{name: "percent alias", argv: ps("'a','b' | % { $_.ToUpper() }"), out: "A\r\nB\r\n"},
		{name: "select first", argv: ps("1..9 | Select-Object -First 2"), out: "1\r\n2\r\n"},
		{name: "function", argv: ps("function Add($a, $b) { return $a + $b }; Add 2 3"), out: "5\r\n"},
		{name: "scriptblock invoke", argv: ps("& { param($x) 'inside' }"), out: "inside\r\n"},
		{name: "hashtable", argv: ps("$h = @{}; $h['a'] = 1; $h.Set_Item('b', 2); $h.Count; $h.a + $h.Get_Item('b')"), out: "2\r\n3\r\n"},
		{name: "hashtable display", argv: ps("@{ k = 'v' }"), outHas: []string{"Name                           Value\r\n----                           -----\r\nk                              v\r\n"}},
		{name: "try catch", argv: ps("try { throw 'boom' } catch { 'caught ' + $_.Exception.Message }"), out: "caught boom\r\n"},
		{name: "throw exits 1", argv: ps(`throw "bad thing"`), code: 1, errOut: "bad thing\r\nAt line:1 char:1\r\n+ throw \"bad thing\"\r\n+ ~~~~~~~~~~~~~~~~~\r\n    + CategoryInfo          : OperationStopped: (bad thing:String) [], RuntimeException\r\n    + FullyQualifiedErrorId : bad thing\r\n \r\n"},
		{name: "exit N", argv: ps("Write-Output before; exit 7; Write-Output after"), out: "before\r\n", code: 7},
		{name: "native exit code", argv: ps("cmd /c exit 5; $LASTEXITCODE"), out: "5\r\n", code: 0},
		{name: "native failure last", argv: ps("cmd /c exit 5"), code: 1},
		{name: "native output captured", argv: ps("$h = hostname; \"[$h]\""), out: "[win-pod-1]\r\n"},
		{name: "parse error", argv: ps("if ("), code: 1, errHas: []string{"At line:1 char:5", "+ FullyQualifiedErrorId : "}},
		{name: "encoded command", argv: []string{"powershell", "-EncodedCommand", encodePS("Write-Output 'enc'")}, out: "enc\r\n"},
		{name: "bare args after options", argv: []string{"powershell", "-NoLogo", "-ExecutionPolicy", "Bypass", "Write-Output", "x"}, out: "x\r\n"},
		{name: "script on stdin", argv: []string{"powershell"}, stdin: "Write-Output one\r\nWrite-Output two\r\n", out: "one\r\ntwo\r\n"},
		{name: "-File with args", argv: []string{"powershell", "-File", `C:\data\s.ps1`, "a1"}, setup: func(f *fixture) { f.fs.add(`C:\data\s.ps1`, "Write-Output \"arg=$($args[0])\"\r\nexit 3\r\n") }, out: "arg=a1\r\n", code: 3},
		// files (rows B11, B12)
		{name: "Get-Content", argv: ps(`Get-Content C:\data\hello.txt; cat C:\data\hello.txt; type C:\data\hello.txt`), out: "hello from a configmap\r\nhello from a configmap\r\nhello from a configmap\r\n"},
		{name: "Get-Content missing", argv: ps(`Get-Content C:\nope.txt`), code: 1,
			errOut: "Get-Content : Cannot find path 'C:\\nope.txt' because it does not exist.\r\nAt line:1 char:1\r\n+ Get-Content C:\\nope.txt\r\n+ ~~~~~~~~~~~~~~~~~~~~~~~\r\n" +
				"    + CategoryInfo          : ObjectNotFound: (C:\\nope.txt:String) [Get-Content], ItemNotFoundException\r\n" +
				"    + FullyQualifiedErrorId : PathNotFound,Microsoft.PowerShell.Commands.GetContentCommand\r\n \r\n"},
		{name: "Set-Content read-only (row B11)", argv: ps(`Set-Content -Path C:\test-volume\x.txt -Value hi`), code: 1,
			errHas: []string{"Set-Content : Access to the path 'C:\\test-volume\\x.txt' is denied.\r\n", "    + CategoryInfo          : PermissionDenied: (C:\\test-volume\\x.txt:String) [Set-Content], UnauthorizedAccessException\r\n", "    + FullyQualifiedErrorId : System.UnauthorizedAccessException,Microsoft.PowerShell.Commands.SetContentCommand\r\n"}},
		{name: "redirect read-only (row B11)", argv: ps(`echo hi > C:\test-volume\x.txt`), code: 1,
			errHas: []string{"out-file : Access to the path 'C:\\test-volume\\x.txt' is denied.\r\n", "[out-file], UnauthorizedAccessException"}},
		{name: "redirect writes UTF-16 in 5.1", argv: ps(`'This is a test file.' > C:\rw\t.txt; Get-Content C:\rw\t.txt`), out: "This is a test file.\r\n",
			check: func(t *testing.T, f *fixture, r result) {
				got, _ := f.fs.get(`C:\rw\t.txt`)
				if !strings.HasPrefix(got, "\xff\xfe") || powershell.DecodeText([]byte(got)) != "This is a test file.\r\n" {
					t.Errorf("file %q", got)
				}
			}},
		{name: "redirect UTF-8 in pwsh", argv: []string{"pwsh", "-c", `'x' > C:\rw\t.txt`}, check: func(t *testing.T, f *fixture, r result) {
			if got, _ := f.fs.get(`C:\rw\t.txt`); got != "x\r\n" {
				t.Errorf("file %q", got)
			}
		}},
		{name: "Add-Content", argv: ps(`Set-Content C:\rw\a.txt one; Add-Content C:\rw\a.txt two; (Get-Content C:\rw\a.txt).Count`), out: "2\r\n"},
		{name: "Out-File append", argv: ps(`'a' | Out-File C:\rw\o.txt; 'b' | Out-File C:\rw\o.txt -Append; Get-Content C:\rw\o.txt -Raw`), out: "a\r\nb\r\n\r\n"},
		{name: "Test-Path", argv: ps(`Test-Path C:\data\hello.txt; Test-Path C:\nope; Test-Path C:\data -PathType Container; Test-Path env:GREETING`), out: "True\r\nFalse\r\nTrue\r\nTrue\r\n"},
		{name: "Get-ChildItem dir", argv: ps(`Get-ChildItem C:\data`), outHas: []string{"\r\n    Directory: C:\\data\r\n\r\n\r\nMode                LastWriteTime         Length Name\r\n----                -------------         ------ ----\r\n-a----        4/23/2024  10:00 AM             24 hello.txt\r\n"}},
		{name: "dir -Name", argv: ps(`dir C:\data -Name`), out: "hello.txt\r\n"},
		{name: "ls env:", argv: ps(`ls env: | Select-Object -First 1`), outHas: []string{"Name                           Value", "ALLUSERSPROFILE                C:\\ProgramData"}},
		{name: "Get-ChildItem missing", argv: ps(`Get-ChildItem C:\nope`), code: 1, errHas: []string{"Get-ChildItem : Cannot find path 'C:\\nope' because it does not exist."}},
		{name: "Get-Location and cd", argv: ps(`cd C:\data; (Get-Location).Path; Get-Content hello.txt`), out: "C:\\data\r\nhello from a configmap\r\n"},
		{name: "New-Item file", argv: ps(`New-Item -ItemType File -Path C:\rw\n.txt -Value v | Out-Null; Get-Content C:\rw\n.txt`), out: "v\r\n"},
		{name: "Copy-Item", argv: ps(`Copy-Item C:\data\hello.txt C:\rw; Get-Content C:\rw\hello.txt`), out: "hello from a configmap\r\n"},
		{name: "Select-String", argv: ps(`ipconfig | Select-String IPv4`), out: "   IPv4 Address. . . . . . . . . . . : 10.244.1.5\r\n"},
		{name: "Out-String", argv: ps(`$s = 1,2 | Out-String; $s.Length`), out: "6\r\n"},
		{name: "ErrorAction SilentlyContinue", argv: ps(`Get-Content C:\nope -ErrorAction SilentlyContinue; 'after'`), out: "after\r\n", errOut: "-"},
		{name: "ErrorAction Stop", argv: ps(`Get-Content C:\nope -ErrorAction Stop; 'after'`), out: "-", code: 1, errHas: []string{"Cannot find path"}},
		{name: "2>$null", argv: ps(`Get-Content C:\nope 2>$null`), errOut: "-", code: 1},
		{name: "2>&1", argv: ps(`Get-Content C:\nope 2>&1`), errOut: "-", outHas: []string{"Get-Content : Cannot find path"}, code: 1},
		{name: "unknown parameter", argv: ps(`Get-Content -Bogus x`), code: 1, errHas: []string{"A parameter cannot be found that matches parameter name 'Bogus'.", "NamedParameterNotFound,Microsoft.PowerShell.Commands.GetContentCommand"}},
		{name: "Start-Sleep positional", argv: ps(`Start-Sleep 2; sleep -m 500; 'done'`), out: "done\r\n", check: func(t *testing.T, f *fixture, r result) {
			if f.clock.slept.Milliseconds() != 2500 {
				t.Errorf("slept %v", f.clock.slept)
			}
		}},
		{name: "Get-Date format", argv: ps(`Get-Date -Format yyyy-MM-dd`), out: "2024-04-23\r\n"},
		{name: "New-Object PSObject", argv: ps(`$o = New-Object PSObject -Property @{ A = 1 }; $o.A`), out: "1\r\n"},
		{name: "static members", argv: ps(`[Environment]::MachineName; [int]'42' + 1; [System.Text.Encoding]::UTF8.GetBytes('AB')`), out: "WIN-POD-1\r\n43\r\n65\r\n66\r\n"},
		{name: "Get-Help lists", argv: ps(`Get-Help Test-NetConnection`), outHas: []string{"Test-NetConnection"}},
		{name: "iex", argv: ps(`Invoke-Expression "'from iex'"`), out: "from iex\r\n"},
		{name: "comments", argv: ps("<# block #> 'a' # trailing"), out: "a\r\n"},
		{name: "pwsh chain", argv: []string{"pwsh", "-c", "nope 2>$null || 'fallback'; 'x' && 'y'"}, out: "fallback\r\nx\r\ny\r\n"},
		{name: "pwsh script file default", argv: []string{"pwsh", `C:\data\s.ps1`}, setup: func(f *fixture) { f.fs.add(`C:\data\s.ps1`, "'pwsh file'") }, out: "pwsh file\r\n"},
	})
}

func encodePS(s string) string {
	u := utf16.Encode([]rune(s))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		b[2*i], b[2*i+1] = byte(c), byte(c>>8)
	}
	return base64.StdEncoding.EncodeToString(b)
}
