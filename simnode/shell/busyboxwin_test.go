package shell

import (
	"strings"
	"testing"
)

// TestBusyboxWindows: the e2e busybox and agnhost images for Windows ship
// busybox-w32 applets in C:\bin (test/images/busybox/Dockerfile_windows);
// upstream's conformance specs run them in Windows pods as they do on
// Linux (row E; kubelet versions: all, the image decides).
func TestBusyboxWindows(t *testing.T) {
	runCases(t, []tcase{
		{name: "sh -c env (common/node/configmap.go, secrets.go)", argv: []string{"sh", "-c", "env"},
			setup:  func(f *fixture) { f.env.Vars["data-1"] = "value-1"; f.env.Vars["1-data-1"] = "value-1" },
			outHas: []string{"data-1=value-1\r\n", "1-data-1=value-1\r\n"}},
		{name: "/bin/sh path (pods.go readiness gates)", argv: []string{"/bin/sh", "-c", "echo container is alive"},
			out: "container is alive\r\n"},
		{name: "printenv", argv: []string{"printenv"}, setup: func(f *fixture) { f.env.Vars["X"] = "y" }, outHas: []string{"X=y\r\n"}},
		{name: "curl -g -q -s in sh (common/network utils.go dial checks)", argv: []string{"/bin/sh", "-c", "curl -g -q -s 'http://10.244.1.6/'"},
			out: "hello"},
		{name: "expr in sh (job fixtures failOddSucceedEven)", argv: []string{"sh", "-c", "if [ $(expr ${I} % 2) -ne 0 ]; then exit 1; else exit 0; fi"},
			setup: func(f *fixture) { f.env.Vars["I"] = "3" }, code: 1},
		{name: "expr even", argv: []string{"sh", "-c", "if [ $(expr ${I} % 2) -ne 0 ]; then exit 1; else exit 0; fi"},
			setup: func(f *fixture) { f.env.Vars["I"] = "4" }},
		{name: "expr compare", argv: []string{"expr", "2", "<", "10"}, out: "1\r\n"},
		{name: "expr zero", argv: []string{"expr", "4", "%", "2"}, out: "0\r\n", code: 1},
		{name: "agnhost logs-generator (kubectl.go Kubectl logs)", argv: []string{"/agnhost", "logs-generator", "--log-lines-total", "3", "--run-duration", "3s"},
			check: func(t *testing.T, f *fixture, r result) {
				if n := strings.Count(r.stderr, "logs_generator.go:76] "); n != 3 || !strings.Contains(r.stderr, "] 2 ") {
					t.Errorf("want 3 lines numbered 0-2, got %q", r.stderr)
				}
			}},
		{name: "logs-generator without lines", argv: []string{"/agnhost", "logs-generator", "--run-duration", "3s"}, errHas: []string{"Invalid total number of lines: 0"}, code: 255},
		{name: "tail -f /dev/null runs until stopped (expansion.go)", argv: []string{"sh", "-c", "tail -f /dev/null"}, code: 143, errOut: "-"},
		{name: "tail -n", argv: []string{"tail", "-n", "1", `C:\data\hello.txt`}, setup: func(f *fixture) { f.fs.add(`C:\data\hello.txt`, "a\nb\n") }, out: "b\n"},
		{name: "touch then test -f (expansion.go subpaths)", argv: []string{"sh", "-c", "touch /rw/test.log && test -f /rw/test.log && /bin/echo -n DONE; /bin/false"},
			out: "DONE", code: 1},
		{name: "agnhost-2 entrypoint-tester (containers.go)", argv: []string{"/agnhost-2", "entrypoint-tester", "override", "arguments"},
			out: "[/agnhost-2 entrypoint-tester override arguments]\r\n"},
		{name: "unknown applet in sh", argv: []string{"sh", "-c", "frobnicate"}, errHas: []string{"frobnicate"}, code: 127},
	})
}
