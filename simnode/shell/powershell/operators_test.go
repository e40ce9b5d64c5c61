package powershell

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"wink.dev/wink/simnode/shell/process"
)

// TestOperatorPrecedence checks one precedence chain, for expressions and
// method arguments alike, against what Windows PowerShell 5.1 prints
// (about_Operator_Precedence: unary operators, then .., the comma, -f,
// * / %, + -, the comparison group, and -and -or -xor, each level left to
// right; row E).
func TestOperatorPrecedence(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		want         []string
	}{
		{"multiplication before addition", `2 + 3 * 4`, []string{"14"}},
		{"parentheses first", `(2 + 3) * 4`, []string{"20"}},
		{"subtraction is left-associative", `10 - 4 - 3`, []string{"3"}},
		{"division and multiplication left to right", `12 / 2 * 3`, []string{"18"}},
		{"modulo and multiplication left to right", `7 % 4 * 2`, []string{"6"}},
		{"unary minus before multiplication", `-2 * -3`, []string{"6"}},
		{"-f before multiplication", `'{0}' -f 2 * 3`, []string{"222"}},
		{"comma before -f", `'{0}{1}' -f 1, 2`, []string{"12"}},
		{"-f before addition", `'{0}' -f 1 + 1`, []string{"11"}},
		{"addition before comparison", `1 + 2 -eq 3`, []string{"True"}},
		{"comparison group left to right", `5 -gt 3 -eq $true`, []string{"True"}},
		{"split then join", `'a,b' -split ',' -join ';'`, []string{"a;b"}},
		{"addition and comma before -replace", `'a' + 'b' -replace 'b', 'c'`, []string{"ac"}},
		{"comparison before -and", `1 -eq 1 -and 2 -eq 3`, []string{"False"}},
		{"comparison before -or", `1 -eq 2 -or 3 -eq 3`, []string{"True"}},
		{"-or and -and have equal precedence", `$true -or $false -and $false`, []string{"False"}},
		{"-xor and -and have equal precedence", `$true -xor $true -and $false`, []string{"False"}},
		{"-xor after comparison", `1 -eq 1 -xor 2 -eq 2`, []string{"False"}},
		{"-not before -and", `-not $false -and $false`, []string{"False"}},
		{"range before addition", `1..3 + 4`, []string{"1", "2", "3", "4"}},
		{"comma before addition", `1, 2 + 3`, []string{"1", "2", "3"}},
		{"method argument: multiplication before addition", `'abcdefgh'.Substring(1 + 2 * 2)`, []string{"fgh"}},
		{"method argument: -f", `'x'.Replace('x', '{0}' -f 7)`, []string{"7"}},
		{"method argument: -xor", `'x'.Replace('x', ($true -xor $false))`, []string{"True"}},
		{"method argument: -xor unparenthesised", `'x'.Replace('x', $true -xor $true)`, []string{"False"}},
		{"method arguments: commas separate", `'abcdefgh'.Substring(1 + 1, 2 * 2)`, []string{"cdef"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			p := process.NewProc(context.Background(), &process.Env{OS: process.Windows}, nil, nil, &out, &errs)
			code := Run(p, []string{"powershell", "-Command", tc.script}, false)
			want := strings.Join(tc.want, "\r\n") + "\r\n"
			if code != 0 || out.String() != want || errs.Len() != 0 {
				t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 0, stdout %q", tc.script, code, out.String(), errs.String(), want)
			}
		})
	}
}
