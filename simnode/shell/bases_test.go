package shell

import (
	"strings"
	"testing"
	"time"
)

// TestLinuxBases: a Linux base image has the programs inbox.yaml lists
// (issue 18): an applet wink does not simulate runs (and is reported as
// not simulated), a server applet runs until stopped, and an exact base
// lacks what its list lacks, even a program the shell's table simulates.
func TestLinuxBases(t *testing.T) {
	for _, c := range []struct {
		image string
		argv  []string
		want  bool
	}{
		{"busybox:1.36", []string{"crond", "-f"}, true},
		{"busybox:1.36", []string{"/bin/sed", "-n", "p"}, true},
		{"busybox:1.36", []string{"curl", "http://web/"}, false},
		{"busybox:1.36", []string{"bash", "-c", "true"}, false},
		{"registry.k8s.io/e2e-test-images/agnhost:2.53", []string{"curl"}, true},
		{"alpine:3.20", []string{"apk", "add", "curl"}, true},
		{"alpine:3.20", []string{"curl"}, false},
		{"debian:12", []string{"bash"}, true},
		{"debian:12", []string{"wget"}, false},
		{"ubuntu:24.04", []string{"apt-get", "update"}, true},
		{"example.com/own/image:1", []string{"anything"}, true},
	} {
		if got := Present(Linux, ImageOf(Linux, c.image, false), c.argv); got != c.want {
			t.Errorf("Present(%s, %q) = %v, want %v", c.image, c.argv, got, c.want)
		}
	}

	tr := &tracer{}
	f := newFixture(Linux)
	f.env.Image = ImageOf(Linux, "busybox:1.36", false)
	f.env.Tracer = tr
	r := f.run(t, sh(`hwclock -s; echo $?; crontab -l >/dev/null; echo $?`), "")
	if r.stdout != "0\n0\n" || r.stderr != "" {
		t.Errorf("applets not simulated: stdout %q stderr %q", r.stdout, r.stderr)
	}
	if got := strings.Join(tr.what, ","); got != "hwclock,crontab" {
		t.Errorf("NotSimulated %q, want hwclock,crontab", got)
	}
	f = newFixture(Linux)
	f.env.Image = ImageOf(Linux, "busybox:1.36", false)
	r = f.runFor(t, sh(`httpd -f -p 8080`), "", 100*time.Millisecond)
	if r.code != ExitKilledLinux {
		t.Errorf("httpd -f: code %d, want it to run until stopped (143)", r.code)
	}
}

// tracer records what ran without being simulated.
type tracer struct{ what []string }

func (t *tracer) NotSimulated(what string) { t.what = append(t.what, what) }

// TestShResultUsed: a program wink does not simulate exits 0 with no
// output; where the script uses its exit status or output (if, &&, ||,
// $(...), a pipe), the shell reports that the result is not judged. The
// lines are drawn from the mined corpus: docker-library's
// docker-entrypoint.sh (`if ! mysqladmin ...`), `"$(pwgen ...)"`,
// bitnami's `jq ... | ...` (jq: a tool of an open image, inbox.yaml).
func TestShResultUsed(t *testing.T) {
	tr := &tracer{}
	f := newFixture(Linux)
	f.env.Image = ImageOf(Linux, "example.com/own/image:1", false)
	f.env.Tracer = tr
	r := f.run(t, sh("jq 8 >/dev/null\nif ! jq -1 32; then echo no; fi\npw=\"$(jq -1 32)\"\njq 4 | cat\njq 5 && echo yes"), "")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	want := "jq,jq,the result of jq at line 2,jq,the result of jq at line 3,jq,the result of jq at line 4,jq,the result of jq at line 5"
	if got := strings.Join(tr.what, ","); got != want {
		t.Errorf("NotSimulated %q,\nwant %q", got, want)
	}
}
