package powershell

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"wink.dev/wink/simnode/shell/process"
)

// TestGrammarOfMinedScripts: constructs the mined corpus's scripts use
// (testdata/mined/powershell), each valid for Windows PowerShell 5.1, run
// for the output the documentation gives them.
func TestGrammarOfMinedScripts(t *testing.T) {
	for _, tc := range []struct {
		name, docs, script string
		want               []string
	}{
		{"param keyword with its list on the next line, a type on its own line",
			"https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_functions_advanced_parameters",
			"function f {\n    param\n    (\n        [string]\n        $EtlFile = 'C:\\server.etl'\n    )\n    $EtlFile\n}\nf", []string{`C:\server.etl`}},
		{"attribute and type separated by a blank",
			"https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_functions_advanced_parameters",
			"function f {\n param(\n  [parameter(Mandatory = $false)] [string] $Mode = 'Normal'\n )\n $Mode\n}\nf", []string{"Normal"}},
		{"function name on the line after the keyword",
			"https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_functions",
			"function\nUpdate-NetConfig\n{\n    'updated'\n}\nUpdate-NetConfig", []string{"updated"}},
		{"a statement after a block's closing brace on its line",
			"https://learn.microsoft.com/powershell/scripting/lang-spec/chapter-08",
			"function f {\n    foreach ($d in 1, 2) { $d }   return 'done'\n}\nf", []string{"1", "2", "done"}},
		{"numeric member name of $Matches",
			"https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_automatic_variables#matches",
			"if ('v1.25.3' -match 'v([0-9])\\.([0-9]+)') {\n    $major = $Matches.1 -as [int]\n    $minor = $Matches.2 -as [int]\n    $major + $minor\n}", []string{"26"}},
		{"assignment to a member of a parenthesised expression",
			"https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_assignment_operators",
			"$h = @{ Name = 'a' }\n($h).Name = 'b'\n$h.Name", []string{"b"}},
		{"postfix increment inside a comma list of the for iterator",
			"https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_for",
			"$e = 3\nfor ($i=0; $e -gt 0; $i++, ($e = $e - 1)) { \"$i\" }", []string{"0", "1", "2"}},
		{"postfix increment in an expression gives the value before it",
			"https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_assignment_operators",
			"$i = 5\n($i++)\n$i", []string{"5", "6"}},
		{"method calls chained across lines after the dot",
			"https://learn.microsoft.com/powershell/scripting/lang-spec/chapter-07",
			"$t = 'a={{x}};b={{y}}'\n$t.Replace('{{x}}', '1').\n    Replace('{{y}}', '2')", []string{"a=1;b=2"}},
		{"a command name that starts with a digit",
			"https://learn.microsoft.com/powershell/scripting/lang-spec/chapter-02",
			"function 7z { 'seven ' + $args[0] }\n7z x", []string{"seven x"}},
		{"a hexadecimal number is no command name",
			"https://learn.microsoft.com/powershell/scripting/lang-spec/chapter-02 (§2.3.5.1.1 hexadecimal-integer-literal)",
			"0x0002 -bor 0x0010\n0x50", []string{"18", "80"}},
		{"a parameter followed by a script block without a blank",
			"https://learn.microsoft.com/powershell/scripting/lang-spec/chapter-02",
			"function Mock { param($CommandName, $MockWith) & $MockWith }\nMock Set-ExitCode -MockWith{ 'mocked' }", []string{"mocked"}},
		{"no-break spaces are whitespace",
			"https://learn.microsoft.com/powershell/scripting/lang-spec/chapter-02",
			"$Readhost\u00a0=\u00a0'y'\n$Readhost", []string{"y"}},
		{"a class definition is passed over whole, braces in its strings too",
			"https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_classes",
			"class Backend \n{\n    [string] $IpAddress\n    [string] ToString() { return \"}\" }\n}\n'after'", []string{"after"}},
		{"an argument that starts with a parenthesis ends with it",
			"https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_parsing",
			"Write-Output (1)a", []string{"1", "a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			p := process.NewProc(context.Background(), &process.Env{OS: process.Windows}, nil, nil, &out, &errs)
			code := Run(p, []string{"powershell", "-Command", tc.script}, false)
			want := strings.Join(tc.want, "\r\n") + "\r\n"
			if code != 0 || out.String() != want || errs.Len() != 0 {
				t.Errorf("%s (%s):\nexit %d, stdout %q, stderr %q; want exit 0, stdout %q", tc.script, tc.docs, code, out.String(), errs.String(), want)
			}
		})
	}
}
