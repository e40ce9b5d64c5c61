package shell

import "testing"

// TestApplets covers the busybox applets and Debian tools scripts use, and
// bash's process substitution, each case drawn from a mined script or the
// documentation it cites.
func TestApplets(t *testing.T) {
	for i := range appletCases {
		appletCases[i].os = Linux
	}
	runCases(t, appletCases)
}

var appletCases = []tcase{
	// https://www.gnu.org/software/bash/manual/bash.html#Process-Substitution:
	// the list's output is read through a /dev/fd file name (kind's
	// images/base/files/usr/local/bin/entrypoint, `head -n1 <(getent ...) | cut`)
	{name: "process substitution arg", argv: sh(`echo "$( (head -n1 <(printf 'a b\nc d\n') | cut -d' ' -f1) || true)"`), out: "a\n"},
	// kind's images/local-path-helper/stage-binary-and-deps.sh: `done < <(...)`
	{name: "process substitution redirect", argv: []string{"bash", "-c", `while read -r l; do echo "<$l>"; done < <(printf 'x\ny\n')`}, out: "<x>\n<y>\n"},
	{name: "process substitution path", argv: []string{"bash", "-c", `echo <(true)`}, out: "/dev/fd/63\n"},
}
