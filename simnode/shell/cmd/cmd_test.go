package cmd

import (
	"strings"
	"testing"
)

func TestCmdQuoteRules(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"echo hi"`, `echo hi`},
		{`"echo hi" > "x y"`, `echo hi" > "x y`}, // first and last quote go
		{`"C:\Program Files\x.exe" arg`, `"C:\Program Files\x.exe" arg`},
		{`echo "a"`, `echo "a"`},
		{`"`, ``},
	} {
		if got := cmdStripQuotes(tc.in, false, nil); got != tc.want {
			t.Errorf("cmdStripQuotes(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := cmdStripQuotes(`"C:\Program Files\x.exe" arg`, true, nil); got != `C:\Program Files\x.exe arg` {
		t.Errorf("/S: %q", got)
	}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{`a b`, []string{"a", "b"}},
		{`"a b" c`, []string{"a b", "c"}},
		{`a\"b`, []string{`a"b`}},
		{`"a\\" b`, []string{`a\`, "b"}},
		{`""`, []string{""}},
	} {
		if got := splitWinArgs(tc.in); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("splitWinArgs(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := splitWinArgs(joinWinArgs(tc.want)); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("round trip %q: %q", tc.want, got)
		}
	}
}
