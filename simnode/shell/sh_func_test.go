package shell

import (
	"strings"
	"testing"
	"time"
)

// TestShFunctions covers sh functions as busybox ash (busybox-w32 sh on
// Windows images, row E) has them: definition (name() and bash's
// function keyword), arguments, return, local, and functions as trap
// handlers (upstream test/e2e/common/node/container_probe.go "in progress
// of terminating" runs `_term() {...}; trap _term SIGTERM`).
func TestShFunctions(t *testing.T) {
	cases := []tcase{
		{name: "define and call", argv: sh("greet() {\n\techo \"hi $1 and $2 ($#)\"\n}\ngreet a b"), out: "hi a and b (2)\n"},
		{name: "one line", argv: sh(`f() { echo in f; }; f; f`), out: "in f\nin f\n"},
		{name: "function keyword", argv: sh(`function f { echo kw $1; }; f x`), out: "kw x\n"},
		{name: "function keyword parens", argv: sh(`function f() { echo kw; }; f`), out: "kw\n"},
		{name: "body on next line", argv: sh("f()\n{\n echo next\n}\nf"), out: "next\n"},
		{name: "subshell body", argv: sh(`f() ( X=inner; echo $X ); X=outer; f; echo $X`), out: "inner\nouter\n"},
		{name: "positional restored", argv: []string{"sh", "-c", `f() { echo "$1"; }; f inner; echo "$1 $0"`, "name", "outer"}, out: "inner\nouter name\n"},
		{name: "return code", argv: sh(`f() { return 3; echo no; }; f; echo $?`), out: "3\n"},
		{name: "return last status", argv: sh(`f() { false; return; }; f || echo failed`), out: "failed\n"},
		{name: "status of last command", argv: sh(`f() { true; false; }; if f; then echo yes; else echo no; fi`), out: "no\n"},
		{name: "return in loop", argv: sh(`f() { for i in 1 2 3; do if [ $i = 2 ]; then return 0; fi; echo $i; done; echo no; }; f; echo after`), out: "1\nafter\n"},
		{name: "globals shared", argv: sh(`f() { X=set; }; f; echo $X`), out: "set\n"},
		{name: "local", argv: sh(`X=global; f() { local X=mine Y; Y=y; echo "$X $Y"; }; f; echo "$X [$Y]"`), out: "mine y\nglobal []\n"},
		{name: "local nested", argv: sh(`g() { local X=g; echo $X; }; f() { local X=f; g; echo $X; }; X=top; f; echo $X`), out: "g\nf\ntop\n"},
		{name: "local outside function", argv: sh(`local X=1`), errOut: "sh: local: not in a function\n", code: 2},
		{name: "recursion", argv: sh(`count() { if [ $1 -gt 0 ]; then echo $1; count $(($1 - 1)); fi; }; count 3`), out: "3\n2\n1\n"},
		{name: "endless recursion ends", argv: sh(`f() { f; }; f`), code: 2, errHas: []string{"recursion too deep"}},
		{name: "overrides regular builtin", argv: sh(`echo() { printf 'wrapped %s\n' "$1"; }; echo x`), out: "wrapped x\n"},
		{name: "special builtin first", argv: sh(`exit() { echo no; }; exit 4`), code: 4},
		{name: "in pipe", argv: sh(`f() { echo piped; }; f | cat`), out: "piped\n"},
		{name: "in substitution", argv: sh(`f() { echo sub; }; echo "got $(f)"`), out: "got sub\n"},
		{name: "redirected", argv: sh(`f() { echo to file; }; f > /tmp/f; cat /tmp/f`), out: "to file\n"},
		{name: "exit in function", argv: sh(`f() { exit 5; }; f; echo no`), code: 5},
		{name: "return at top level", argv: sh(`echo a; return 6; echo b`), out: "a\n", code: 6},
		{name: "undefined after unset script", argv: sh(`f() { echo x; }; sh -c f`), errOut: "sh: f: not found\n", code: 127},
		{name: "trap calls function", argv: sh(`bye() { echo "bye $1"; }; trap 'bye now' EXIT; echo hi`), out: "hi\nbye now\n"},
		{name: "arithmetic of positional", argv: []string{"sh", "-c", `echo $(($1 * 2 + $#))`, "sh", "20"}, out: "41\n"},
		{name: "rm", argv: sh(`touch /tmp/ready; rm -f /tmp/ready; cat /tmp/ready`), errOut: "cat: can't open '/tmp/ready': No such file or directory\n", code: 1},
		{name: "rm missing", argv: sh(`rm /tmp/nope; echo $?; rm -f /tmp/nope; echo $?`), out: "1\n0\n", errOut: "rm: can't remove '/tmp/nope': No such file or directory\n"},
		{name: "rm directory", argv: sh(`rm /data`), errOut: "rm: '/data' is a directory\n", code: 1},
		{name: "rm -r read-only", argv: sh(`rm -rf /ro`), errOut: "rm: can't remove '/ro': Read-only file system\n", code: 1},
		{name: "missing body", argv: sh(`f()`), code: 2, errHas: []string{"sh: syntax error"}},
		{name: "simple body", argv: sh(`f() echo x`), code: 2, errHas: []string{"a function body is a compound command"}},
	}
	for i := range cases {
		cases[i].os = Linux
	}
	runCases(t, cases)
}

// TestShTermTrapFunction: the kubelet's SIGTERM runs a trap that calls a
// function (container_probe.go's _term: remove the readiness file, sleep,
// exit 0), so the container ends 0 having removed the file.
func TestShTermTrapFunction(t *testing.T) {
	f := newFixture(Linux)
	script := "\n_term() {\n\trm -f /tmp/ready\n\texit 0\n}\ntrap _term SIGTERM\n\ntouch /tmp/ready\n\nwhile true; do\n  echo \\\"hello\\\"\n  sleep 10\ndone\n"
	r := f.runFor(t, []string{"/bin/bash", "-c", script}, "", 150*time.Millisecond)
	if r.code != 0 || !strings.Contains(r.stdout, `"hello"`) || r.stderr != "" {
		t.Fatalf("code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if _, ok := f.fs.files[f.fs.key("/tmp/ready")]; ok {
		t.Errorf("/tmp/ready still there: the trap's function did not run")
	}
}

// TestWcAwk: busybox wc and awk's field printing as upstream
// common/node/runtime.go "should run with the expected status" counts its
// restarts: `count=$(echo 'hello' >> $f ; wc -l $f | awk {'print $1'})`.
func TestWcAwk(t *testing.T) {
	cases := []tcase{
		{name: "restart counter", argv: sh(`f=/tmp/rc; for i in 1 2 3; do count=$(echo 'hello' >> $f ; wc -l $f | awk {'print $1'}); echo $count; done`), out: "1\n2\n3\n"},
		{name: "wc -l file", argv: sh(`printf 'a\nb\n' > /tmp/f; wc -l /tmp/f`), out: "2 /tmp/f\n"},
		{name: "wc stdin", argv: sh(`printf 'a b\nc\n' | wc`), out: "        2         3         6\n"},
		{name: "wc -lw two files", argv: sh(`printf 'a\n' > /tmp/a; printf 'b c\n' > /tmp/b; wc -lw /tmp/a /tmp/b`), out: "        1         1 /tmp/a\n        1         2 /tmp/b\n        2         3 total\n"},
		{name: "wc missing", argv: sh(`wc -l /nope`), errOut: "wc: can't open '/nope': No such file or directory\n", code: 1},
		{name: "[[ ]] of a Job's fail-once script", argv: sh("if [[ -r /tmp/foo ]]\nthen\n  exit 0\nelse\n  touch /tmp/foo\n  exit 1\nfi"), code: 1},
		{name: "[[ ]] true", argv: sh(`touch /tmp/foo; [[ -r /tmp/foo ]] && [[ "a" = "a" ]] && echo yes`), out: "yes\n"},
		{name: "awk fields", argv: sh(`printf 'a b c\nd e f\n' | awk '{print $3, $1}'`), out: "c a\nf d\n"},
		{name: "awk -F and NF", argv: sh(`echo 'x:y:z' | awk -F: '{ print $NF }'`), out: "z\n"},
		{name: "awk print", argv: sh(`echo 'x y' | awk '{print}'`), out: "x y\n"},
		{name: "awk program (GoAWK)", argv: sh(`printf '1\n2\n' | awk 'BEGIN { n = 0 } { n += $1 } END { print n }'`), out: "3\n"},
		{name: "awk reads no real file", argv: sh(`awk '{ print }' /etc/hostname; echo $?`), out: "2\n", errHas: []string{"awk: cannot open \"/etc/hostname\""}},
		{name: "awk writes no file", argv: sh(`echo x | awk '{ print > "/tmp/out" }'; cat /tmp/out`), code: 1, errHas: []string{"can't open '/tmp/out'"}},
		{name: "awk runs no command", argv: sh(`awk 'BEGIN { system("touch /tmp/x") }'; ls /tmp`), out: ""},
	}
	for i := range cases {
		cases[i].os = Linux
	}
	runCases(t, cases)
}

// TestAgnhostPause: agnhost's default CMD prints "Paused" and "Signals
// registered", then waits to be stopped (test/images/agnhost/pause;
// upstream common/node/containers.go "should use the image defaults if
// command and args are blank").
func TestAgnhostPause(t *testing.T) {
	for os, killed := range map[OS]int{Windows: ExitKilledWindows, Linux: ExitKilledLinux} {
		f := newFixture(os)
		r := f.runFor(t, []string{"/agnhost", "pause"}, "", 100*time.Millisecond)
		if !strings.HasPrefix(strings.ReplaceAll(r.stdout, "\r", ""), "Paused\nSignals registered\n") || r.code != killed {
			t.Errorf("%s: code %d, stdout %q", os, r.code, r.stdout)
		}
	}
}
