package shell

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"wink.dev/wink/simnode/fuzzbound"
	"wink.dev/wink/simnode/shell/process"
)

// endlessInput reads x forever (the other end of `yes |`).
type endlessInput struct{}

func (endlessInput) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = 'x'
	}
	return len(b), nil
}

// Issue 18, row B5: a Linux process that reads more than its container's
// memory is OOM-killed (137); simnode holds at most that much of it.
func TestOOMKilledOnLinux(t *testing.T) {
	fx := newFixture(Linux)
	fx.env.Limits.Memory = 1 << 20
	var out bytes.Buffer
	if code := Run(context.Background(), fx.env, []string{"hexdump", "-C"}, endlessInput{}, &out, &out); code != process.ExitOOMKilled {
		t.Errorf("hexdump of an endless input: exit %d, want %d", code, process.ExitOOMKilled)
	}
}

// Issue 18, row B5: the Windows programs that read their whole input
// (PowerShell's script from stdin and $input, findstr) read it within the
// container's memory: an endless input ends, and simnode does not hold it.
func TestWholeInputBoundedOnWindows(t *testing.T) {
	for _, argv := range [][]string{
		{"powershell", "-Command", "-"},
		{"powershell", "-Command", "$input | Measure-Object | Out-Null"},
		{"cmd", "/c", "findstr y"},
	} {
		t.Run(strings.Join(argv, " "), func(t *testing.T) {
			fx := newFixture(Windows)
			fx.env.Image = Image{InBox: true, Base: "servercore"}
			fx.env.Limits.Memory = 1 << 20
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			fuzzbound.Run(t, "an endless input", 10*time.Second, 64<<20, func() {
				Run(ctx, fx.env, argv, endlessInput{}, io.Discard, io.Discard)
			})
		})
	}
}

// Issue 18: a `yes` prints at the pace of its simulated CPU: one second
// of its clock gives about StepsPerSecond lines, then it is stopped.
func TestYesIsPaced(t *testing.T) {
	fx := newFixture(Linux)
	fx.env.Limits.StepsPerSecond = 2000
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fx.clock.cancel = cancel
	fx.clock.limit = fakeEpoch.Add(time.Second)
	var out bytes.Buffer
	code := Run(ctx, fx.env, []string{"yes"}, nil, &out, &out)
	lines := strings.Count(out.String(), "y\n")
	if code != process.ExitKilledLinux || lines < 1900 || lines > 2200 {
		t.Errorf("yes for 1 s of its clock at 2,000 steps/s: exit %d, %d lines; want %d and about 2,000", code, lines, process.ExitKilledLinux)
	}
}

// Issue 18: the hostile loops of the benchmark (suites/bench
// BenchmarkHostileLoops) stay within their bounds in each language: the
// process ends (stopped when its context ends, or OOM-killed), the heap
// grows by at most 128 MiB meanwhile, and no write is larger than
// process.MaxWrite. A Linux process whose variable doubles is OOM-killed
// (137, row B5).
func TestHostileLoops(t *testing.T) {
	for _, tc := range []struct {
		os   OS
		argv []string
		code int // 0: any
	}{
		{Linux, []string{"sh", "-c", "x=x; while :; do x=$x$x; done"}, process.ExitOOMKilled},
		{Linux, []string{"sh", "-c", "while :; do echo flood; done"}, 0},
		{Linux, []string{"yes"}, 0},
		{Linux, []string{"sh", "-c", "yes | cat"}, 0},
		{Linux, []string{"sh", "-c", "seq 1 1000000000 | cat"}, 0},
		{Windows, []string{"cmd", "/c", ":a & goto a"}, 0},
		{Windows, []string{"cmd", "/c", "for /L %i in (1,0,2) do @echo y"}, 0},
		{Windows, []string{"powershell", "-Command", "$s = 'x'; while ($true) { $s += $s }"}, 0},
		{Windows, []string{"powershell", "-Command", "while ($true) { 'flood' }"}, 0},
	} {
		t.Run(strings.Join(tc.argv, " "), func(t *testing.T) {
			fx := newFixture(tc.os)
			fx.env.Limits.Memory = 16 << 20
			// A loop that ends by itself (OOM-killed) gets the time a
			// loaded machine needs; the others are stopped at 300 ms.
			stop := 300 * time.Millisecond
			if tc.code != 0 {
				stop = 5 * time.Second
			}
			ctx, cancel := context.WithTimeout(context.Background(), stop)
			defer cancel()
			fx.clock.cancel = cancel
			fx.clock.limit = fakeEpoch.Add(time.Hour)
			var out fuzzbound.Writer
			code := 0
			fuzzbound.Run(t, "the loop", 10*time.Second, 128<<20, func() {
				code = Run(ctx, fx.env, tc.argv, nil, &out, &out)
			})
			if tc.code != 0 && code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			out.Check(t, "the loop", process.MaxWrite, 1<<30)
		})
	}
}
