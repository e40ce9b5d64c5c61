package posix

import (
	"strings"
	"testing"
)

// TestInstrumentText: every loop passes a checkpoint, in the order of the
// script (issue 18); eval's, trap's and .'s texts are instrumented too and
// still parse.
func TestInstrumentText(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"while [[ 1 ]]; do x=$x$x; done", "while\n\t<" + stepPath + "\n\t[[ 1 ]]\ndo x=$x$x; done"},
		{"until false; do :; done", "until\n\t<" + stepPath + "\n\tfalse\ndo :; done"},
		{"for i in a b; do echo $i; done", "for i in a b; do\n\t<" + stepPath + "\n\techo $i\ndone"},
		{"for ((;;)); do x=1; done", "for (( ; ; )); do\n\t<" + stepPath + "\n\tx=1\ndone"},
		{"echo 'no loop'", "echo 'no loop'"},
		{"echo 'unterminated", "echo 'unterminated"},
		{"cat <(ls)", "cat $({ ls; } | " + procSubstCmd + ")"},
		{"tee >(ls)", "false"},
	} {
		if got := strings.TrimSpace(instrumentText(c.src)); got != c.want {
			t.Errorf("instrumentText(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}
