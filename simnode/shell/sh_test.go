package shell

import (
	"strings"
	"testing"
)

func sh(script string) []string { return []string{"/bin/sh", "-c", script} }

// TestSh covers the Linux sh.
func TestSh(t *testing.T) {
	for i := range shCases {
		shCases[i].os = Linux
	}
	runCases(t, shCases)
}

var shCases = []tcase{
	{name: "not found", argv: sh("frobnicate x"), out: "-", errOut: "sh: frobnicate: not found\n", code: 127},
	{name: "exec not found", argv: []string{"frobnicate"}, errOut: "exec: \"frobnicate\": executable file not found in $PATH\n", code: ExitCannotExec},
	{name: "echo", argv: sh(`echo hello   "a  b" 'c d'`), out: "hello a  b c d\n"},
	{name: "echo -n", argv: sh(`echo -n x; echo y`), out: "xy\n"},
	{name: "vars", argv: sh(`X=1; echo "$X-${X}-$GREETING-${NOPE:-dflt}-$HOSTNAME"`), out: "1-1-hello world-dflt-linux-pod-1\n"},
	{name: "word splitting", argv: sh(`for w in $GREETING; do echo "[$w]"; done`), out: "[hello]\n[world]\n"},
	{name: "status", argv: sh(`false; echo $?; true; echo $?`), out: "1\n0\n"},
	{name: "and or", argv: sh(`false && echo no || echo yes`), out: "yes\n"},
	{name: "exit", argv: sh(`echo a; exit 3; echo b`), out: "a\n", code: 3},
	{name: "redirect", argv: sh(`echo hi > /tmp/f; echo there >> /tmp/f; cat /tmp/f`), out: "hi\nthere\n"},
	{name: "redirect read-only", argv: sh(`echo hi > /ro/f`), errOut: "sh: can't create /ro/f: Read-only file system\n", code: 1},
	{name: "2>&1", argv: sh(`cat /nope 2>&1`), out: "cat: can't open '/nope': No such file or directory\n", errOut: "-", code: 1},
	{name: "2>/dev/null", argv: sh(`cat /nope 2>/dev/null || echo failed`), out: "failed\n", errOut: "-"},
	{name: "pipe", argv: sh(`echo hello | cat`), out: "hello\n"},
	{name: "command substitution", argv: sh(`echo "host=$(hostname) user=` + "`whoami`" + `"`), out: "host=linux-pod-1 user=root\n"},
	{name: "arithmetic", argv: sh(`echo $((2 + 3 * 4))`), out: "14\n"},
	{name: "if", argv: sh(`if [ -f /data/hello.txt ]; then echo yes; else echo no; fi`), out: "yes\n"},
	{name: "hexdump -C", argv: sh(`echo -n 'hi!' > /tmp/b; hexdump -C /tmp/b; hd /nope`), out: "00000000  68 69 21                                          |hi!|\n00000003\n", errOut: "hexdump: /nope: No such file or directory\n", code: 1},
	{name: "if elif", argv: sh(`x=2; if [ $x -eq 1 ]; then echo one; elif [ $x -eq 2 ]; then echo two; fi`), out: "two\n"},
	{name: "while counter", argv: sh(`i=0; while [ $i -lt 3 ]; do echo $i; i=$((i+1)); done`), out: "0\n1\n2\n"},
	{name: "until", argv: sh(`i=0; until [ $i -ge 2 ]; do i=$((i+1)); done; echo $i`), out: "2\n"},
	{name: "break", argv: sh(`while true; do echo once; break; done`), out: "once\n"},
	{name: "for", argv: sh(`for i in a b c; do printf '%s,' $i; done; echo`), out: "a,b,c,\n"},
	{name: "braces group", argv: sh(`{ echo a; echo b; } > /tmp/g; cat /tmp/g`), out: "a\nb\n"},
	{name: "subshell", argv: sh(`(cd /data && ls); pwd`), out: "hello.txt\n/\n"},
	{name: "cat ls env", argv: sh(`cat /data/hello.txt; ls /data; env | grep -c x || true`), outHas: []string{"hello from a configmap\nhello.txt\n"}},
	{name: "env", argv: []string{"env"}, outHas: []string{"GREETING=hello world\n", "HOSTNAME=linux-pod-1\n", "PATH=/usr/local/sbin"}},
	{name: "id", argv: []string{"id"}, out: "uid=0(root) gid=0(root) groups=0(root),1(bin),2(daemon),3(sys),4(adm),6(disk),10(wheel),11(floppy),20(dialout),26(tape),27(video)\n"},
	{name: "id nonroot", argv: []string{"id"}, setup: func(f *fixture) { f.env.User = "1000" }, out: "uid=1000 gid=0(root) groups=0(root)\n"},
	{name: "set -e", argv: sh(`set -e; echo a; false; echo b`), out: "a\n", code: 1},
	{name: "trap EXIT", argv: sh(`trap 'echo bye' EXIT; echo hi`), out: "hi\nbye\n"},
	{name: "sleep", argv: sh(`sleep 2; sleep 1m; echo done`), out: "done\n", check: func(t *testing.T, f *fixture, r result) {
		if f.clock.slept.Seconds() != 62 {
			t.Errorf("slept %v", f.clock.slept)
		}
	}},
	{name: "sleep bad", argv: []string{"sleep", "x"}, errOut: "sleep: invalid number 'x'\n", code: 1},
	{name: "syntax error", argv: sh(`if true; then echo`), code: 2, errHas: []string{"sh: syntax error"}},
	{name: "unterminated quote", argv: sh(`echo 'x`), code: 2, errHas: []string{"unterminated quoted string"}},
	{name: "args", argv: []string{"sh", "-c", `echo "$0 $1 $#"`, "name", "first"}, out: "name first 1\n"},
	{name: "script file", argv: []string{"sh", "/data/run.sh", "x"}, setup: func(f *fixture) { f.fs.add("/data/run.sh", "#!/bin/sh\necho \"run $1\"\nexit 4\n") }, out: "run x\n", code: 4},
	{name: "stdin script", argv: []string{"sh"}, stdin: "echo from stdin\n", out: "from stdin\n"},
	{name: "read", argv: sh(`read a b; echo "$b/$a"`), stdin: "one two three\n", out: "two three/one\n"},
	{name: "background and wait", argv: sh(`echo bg > /tmp/b & wait; cat /tmp/b`), out: "bg\n"},
	// network tools, Linux flavour (rows H1, H2, H4)
	{name: "ping -c", argv: sh(`ping -c 2 10.244.1.6`), out: "PING 10.244.1.6 (10.244.1.6): 56 data bytes\n64 bytes from 10.244.1.6: seq=0 ttl=64 time=0.000 ms\n64 bytes from 10.244.1.6: seq=1 ttl=64 time=0.000 ms\n\n--- 10.244.1.6 ping statistics ---\n2 packets transmitted, 2 packets received, 0% packet loss\nround-trip min/avg/max = 0.000/0.000/0.000 ms\n"},
	{name: "ping no reply", argv: []string{"ping", "-c", "1", "-W", "1", "8.8.8.8"}, out: "PING 8.8.8.8 (8.8.8.8): 56 data bytes\n\n--- 8.8.8.8 ping statistics ---\n1 packets transmitted, 0 packets received, 100% packet loss\n", code: 1},
	{name: "ping bad address", argv: []string{"ping", "-c", "1", "nope"}, errOut: "ping: bad address 'nope'\n", code: 1},
	{name: "nslookup", argv: []string{"nslookup", "kubernetes.default.svc.cluster.local"}, out: "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n\n"},
	{name: "nslookup NXDOMAIN", argv: []string{"nslookup", "nope"}, outHas: []string{"** server can't find nope: NXDOMAIN\n"}, code: 1},
	{name: "wget spider", argv: []string{"wget", "--spider", "http://10.244.1.6/"}, errOut: "Connecting to 10.244.1.6:80 (10.244.1.6:80)\nremote file exists\n"},
	{name: "wget 404", argv: []string{"wget", "-qO-", "http://10.96.0.20/nope"}, errOut: "wget: server returned error: HTTP/1.1 404 Not Found\n", code: 1},
	{name: "wget bad address", argv: []string{"wget", "-qO-", "http://nope/"}, errOut: "wget: bad address 'nope'\n", code: 1},
	// upstream pre_stop.go: the preStop hook posts to agnhost nettest.
	{name: "wget --post-data", argv: []string{"wget", "-O-", `--post-data={"Source": "prestop"}`, "http://10.244.1.6:80/write"}, out: "hello",
		errOut: "Connecting to 10.244.1.6:80 (10.244.1.6:80)\nwriting to stdout\nwritten to stdout\n", check: func(t *testing.T, f *fixture, r result) {
			if got := strings.Join(f.net.calls, "|"); !strings.Contains(got, `body {"Source": "prestop"}|POST http://10.244.1.6:80/write`) {
				t.Errorf("network calls %q: want the body sent with a POST", got)
			}
		}},
	{name: "wget --post-file", argv: sh(`echo -n x=1 > /tmp/p; wget -q -O- --post-file /tmp/p http://10.244.1.6/`), out: "hello", check: func(t *testing.T, f *fixture, r result) {
		if got := strings.Join(f.net.calls, "|"); !strings.Contains(got, "body x=1|POST ") {
			t.Errorf("network calls %q", got)
		}
	}},
	{name: "wget to file", argv: sh(`wget -q -O /tmp/w http://10.244.1.6/ && cat /tmp/w`), out: "hello"},
	{name: "curl linux", argv: []string{"curl", "-s", "http://web/"}, out: "web-1"},
	{name: "nc unresolvable", argv: []string{"nc", "-vz", "nope", "80"}, errOut: "nc: getaddrinfo for host \"nope\" port 80: Name or service not known\n", code: 1},
	{name: "nc udp", argv: []string{"nc", "-vzu", "10.244.1.5", "80"}, errOut: "Connection to 10.244.1.5 80 port [udp/http] succeeded!\n"},
	{name: "agnhost connect", argv: []string{"agnhost", "connect", "10.244.1.5:81", "--timeout", "5s"}, errOut: "REFUSED\n", code: 1},
	{name: "agnhost dns-suffix", argv: []string{"agnhost", "dns-suffix"}, out: "default.svc.cluster.local,svc.cluster.local,cluster.local\n"},
}
