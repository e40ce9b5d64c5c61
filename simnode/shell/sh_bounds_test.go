package shell

import (
	"os"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

// heapPeak runs f and returns the most heap it saw in use beyond what was
// in use before, sampled every millisecond.
func heapPeak(f func()) uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	runtime.GC()
	base, peak := read(), uint64(0)
	done := make(chan struct{})
	go func() { f(); close(done) }()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		if v := read(); v > base && v-base > peak {
			peak = v - base
		}
		select {
		case <-done:
			return peak
		case <-tick.C:
		}
	}
}

// FuzzShBounded: whatever a script's loops do, the sh of a Linux container
// stays within its limits (issue 18, bounded by construction): a loop that
// grows a variable ends OOM-killed (137) without simnode allocating more
// than a small multiple of the limit, and a loop that runs no command is
// throttled and ends when the container is stopped.
//
//	go test ./simnode/shell -run '^$' -fuzz FuzzShBounded -fuzztime 60s
func FuzzShBounded(f *testing.F) {
	for _, seed := range []string{
		`x=a; while :; do x=$x$x; done`,
		`x=a; while [[ 1 ]]; do x=$x$x; done`,
		`x=a; until false; do x="$x$x"; done`,
		`x=a; for ((;;)); do x=$x$x; done`,
		`x=a; eval 'while [[ 1 ]]; do x=$x$x; done'`,
		`f() { x=$x$x$x; f; }; x=a; f`,
		`x=$(while :; do echo aaaaaaaaaaaaaaaa; done)`,
		`while [[ 1 ]]; do :; done`,
		`while ((1)); do ((i++)); done`,
		`trap 'x=a; while [[ 1 ]]; do x=$x$x; done' EXIT`,
		`awk 'BEGIN { x = "a"; while (1) x = x x }'`,
		`awk 'BEGIN { while (1); }'`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, script string) {
		if len(script) > 512 {
			return
		}
		fx := newFixture(Linux)
		fx.clock.limit = fakeEpoch.Add(200 * time.Millisecond)
		peak := heapPeak(func() { fx.runFor(t, sh(script), "", 3*time.Second) })
		if peak > 1<<30 {
			t.Fatalf("%q held %d MB of heap", script, peak>>20)
		}
	})
}

// TestShOOMKilled: a variable that doubles forever ends the process as the
// kernel's OOM killer does, 137, with or without a command in the loop.
func TestShOOMKilled(t *testing.T) {
	for _, script := range []string{
		`x=a; while :; do x=$x$x; done`,
		`x=a; while [[ 1 ]]; do x=$x$x; done`,
		`x=a; eval 'for ((;;)); do x=$x$x; done'`,
		`y=aaaaaaaaaaaaaaaa; for i in 1 2 3 4 5 6 7 8 9 10; do y=$y$y; done; x=$(while :; do echo $y; done)`,
		`x=$(seq 1 100000000)`,
	} {
		fx := newFixture(Linux)
		fx.env.Limits.Memory = 8 << 20
		var r result
		peak := heapPeak(func() { r = fx.run(t, sh(script), "") })
		if r.code != 137 || r.stderr != "" {
			t.Errorf("%q: code %d, stderr %q, want 137 and nothing", script, r.code, r.stderr)
		}
		if peak > 1<<30 {
			t.Errorf("%q held %d MB of heap", script, peak>>20)
		}
	}
}

// TestShLoopWithoutCommand: a loop that runs no command is throttled on the
// container's clock and ends when the container is stopped (143).
func TestShLoopWithoutCommand(t *testing.T) {
	for _, script := range []string{`while [[ 1 ]]; do x=1; done`, `while ((1)); do ((i++)); done`} {
		fx := newFixture(Linux)
		fx.clock.limit = fakeEpoch.Add(200 * time.Millisecond)
		r := fx.run(t, sh(script), "")
		if r.code != 143 {
			t.Errorf("%q: code %d, want 143", script, r.code)
		}
		if fx.clock.slept < 200*time.Millisecond {
			t.Errorf("%q: slept %v on the container's clock, want it throttled past the minute", script, fx.clock.slept)
		}
	}
}

// TestShSandboxed: the sh sees only the container (issue 18): files that
// exist on the machine running the tests (/etc/passwd, /usr, /bin/sh) are
// absent from the container's file system, so every test, glob, cd and
// lookup must say so.
func TestShSandboxed(t *testing.T) {
	cases := []tcase{
		{name: "test -f -r -x -e", argv: sh(`[ -f /etc/passwd ] || echo f; [ -r /etc/passwd ] || echo r; [ -x /bin/sh ] || echo x; [ -e /usr ] || echo e; [ -d /usr ] || echo d`), out: "f\nr\nx\ne\nd\n"},
		{name: "[[ -f ]]", argv: sh(`[[ -f /etc/passwd ]] || echo no`), out: "no\n"},
		{name: "glob", argv: sh(`echo /e*; echo /d*`), out: "/e*\n/data\n"},
		{name: "cd", argv: sh(`cd /usr; echo $?`), out: "2\n", errOut: "sh: cd: can't cd to /usr: No such file or directory\n"},
		{name: "redirect in", argv: sh(`read x < /etc/passwd; echo $?`), out: "1\n", errHas: []string{"/etc/passwd: No such file or directory"}},
		{name: "source", argv: sh(`. /etc/profile; echo $?`), out: "2\n", errHas: []string{"can't open '/etc/profile'"}},
		{name: "pwd -P", argv: sh(`cd /data && pwd -P`), out: "/data\n"},
		{name: "command -v", argv: sh(`command -v ls`), out: "/bin/ls\n"},
		{name: "file written in the container", argv: sh(`echo x > /tmp/sandboxed-by-wink; cat /tmp/sandboxed-by-wink`), out: "x\n", check: func(t *testing.T, f *fixture, r result) {
			if _, err := os.Stat("/tmp/sandboxed-by-wink"); err == nil {
				t.Errorf("the real /tmp/sandboxed-by-wink was written")
			}
		}},
	}
	for i := range cases {
		cases[i].os = Linux
	}
	runCases(t, cases)
}
