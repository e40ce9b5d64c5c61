package shell

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"testing"
	"time"
)

// vmRSS is the test process's resident memory (VmRSS of
// /proc/self/status), in bytes; 0 where it cannot be read.
func vmRSS() int64 {
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range bytes.Split(data, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmRSS:")); ok {
			kb, _ := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte("kB")))), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// TestAwkOOMKilled: an awk program that doubles a string forever ends as
// the kernel's OOM killer ends it (137, row B5) and simnode's own memory
// does not grow with it (issue 18: GoAWK runs in a child process that the
// kernel bounds).
func TestAwkOOMKilled(t *testing.T) {
	for _, script := range []string{
		`awk 'BEGIN { x = "a"; while (1) x = x x }'`,
		`echo a | awk '{ while (1) { $0 = $0 $0; a[n++] = $0 } }'`,
	} {
		fx := newFixture(Linux)
		fx.env.Limits.Memory = 16 << 20
		before := vmRSS()
		r := fx.run(t, sh(script), "")
		grew := vmRSS() - before
		if r.code != 137 {
			t.Errorf("%q: code %d (stderr %q), want 137", script, r.code, r.stderr)
		}
		if grew > 100<<20 {
			t.Errorf("%q: the test process's RSS grew by %d MiB", script, grew>>20)
		}
	}
}

// TestAwkLoopEnds: an awk program that spins without end is paced on the
// container's clock and ends when the container is stopped (143), whether
// its clock or its context ends it.
func TestAwkLoopEnds(t *testing.T) {
	fx := newFixture(Linux)
	fx.clock.limit = fakeEpoch.Add(200 * time.Millisecond)
	if r := fx.run(t, sh(`awk 'BEGIN { while (1); }'`), ""); r.code != 143 {
		t.Errorf("clock: code %d (stderr %q), want 143", r.code, r.stderr)
	}
	fx = newFixture(Linux)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if r := fx.runCtx(ctx, sh(`awk 'BEGIN { while (1) n++ }'`)); r.code != 143 {
		t.Errorf("ctx: code %d (stderr %q), want 143", r.code, r.stderr)
	}
}

// TestAwkSandbox: what awk does through its child process, as it did in
// simnode's own: output, stderr, exit status, the input files of the
// container, ENVIRON, and what it refuses (issue 18).
func TestAwkSandbox(t *testing.T) {
	cases := []tcase{
		{name: "exit status", os: Linux, argv: sh(`echo x | awk '{ exit 3 }'; echo $?`), out: "3\n"},
		{name: "ENVIRON", os: Linux, argv: sh(`X=y awk 'BEGIN { print ENVIRON["X"] }'`), out: "y\n"},
		{name: "-v and operands", os: Linux, argv: sh(`printf 'a\n' > /data/f; awk -v p=1 '{ print p, q, $0 }' q=2 /data/f -`), out: "1 2 a\n"},
		{name: "runtime error", os: Linux, argv: sh(`awk 'BEGIN { x = 1 / 0 }'; echo $?`), out: "2\n", errHas: []string{"awk: division by zero"}},
		// A second of CPU each; under `make test -p 6` the awk child, at
		// nice 19, took more than 5 s of real time.
		{name: "memory within the limit", os: Linux, argv: sh(`seq 1 200000 | awk '{ a[$1] = $0 } END { print length(a) }'`), out: "200000\n", real: time.Minute},
		{name: "large input", os: Linux, argv: sh(`seq 1 100000 | awk '{ s += $1 } END { print s }'`), out: "5000050000\n", real: time.Minute},
	}
	for _, tc := range cases {
		t.Run(tc.name, tc.run)
	}
}

// BenchmarkAwk is the cost of one short awk (its child process, issue 18).
func BenchmarkAwk(b *testing.B) {
	fx := newFixture(Linux)
	argv := sh(`echo a b | awk '{print $2}'`)
	for b.Loop() {
		if r := fx.run(b, argv, ""); r.stdout != "b\n" {
			b.Fatalf("got %q", r.stdout)
		}
	}
}

// BenchmarkAwkSporadic is the cost of one short awk that comes after a
// pause (its child then started ahead, issue 18).
func BenchmarkAwkSporadic(b *testing.B) {
	fx := newFixture(Linux)
	argv := sh(`echo a b | awk '{print $2}'`)
	for b.Loop() {
		b.StopTimer()
		time.Sleep(50 * time.Millisecond)
		b.StartTimer()
		if r := fx.run(b, argv, ""); r.stdout != "b\n" {
			b.Fatalf("got %q", r.stdout)
		}
	}
}
