package pods

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

type lines struct{ got []string }

func (l *lines) Append(_ string, _ time.Time, text string) { l.got = append(l.got, text) }

// Issue 18: a line without end (`printf x` in a loop) is cut in pieces of
// maxLogLine, as containerd cuts a long line: the line writer holds less
// than maxLogLine, whatever the process prints.
func TestLineWriterIsBounded(t *testing.T) {
	var out lines
	w := &lineWriter{w: &out, stream: "stdout", now: time.Now}
	chunk := strings.Repeat("x", 1000)
	for range 100 {
		w.Write([]byte(chunk))
		if len(w.buf) >= maxLogLine {
			t.Fatalf("the line writer holds %d bytes", len(w.buf))
		}
	}
	w.Write([]byte("\nshort\r\n"))
	if len(out.got) != 8 || len(out.got[0]) != maxLogLine || out.got[7] != "short" {
		t.Fatalf("%d lines, first %d bytes, last %q", len(out.got), len(out.got[0]), out.got[len(out.got)-1])
	}
	if total := 6*maxLogLine + len(out.got[6]); total != 100_000 {
		t.Errorf("pieces hold %d bytes, want 100000", total)
	}
}

// The exec prober keeps at most 10 KiB of a probe's output (probe/exec
// maxReadLength); the rest is discarded, not held.
func TestCollectIsBounded(t *testing.T) {
	c := &collect{max: maxProbeOutput}
	for range 100 {
		if n, err := c.Write(make([]byte, 1000)); n != 1000 || err != nil {
			t.Fatalf("Write: %d, %v", n, err)
		}
	}
	if c.Len() != maxProbeOutput {
		t.Errorf("kept %d bytes, want %d", c.Len(), maxProbeOutput)
	}
}

// floodShell's "flood" prints a line every millisecond of its clock, for
// ever, counting them.
type floodShell struct {
	tickShell
	printed atomic.Int64
}

func (s *floodShell) Run(ctx context.Context, env *Env, argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(argv) == 0 || argv[0] != "ticker" {
		return testShell{}.Run(ctx, env, argv, stdin, stdout, stderr)
	}
	for {
		fmt.Fprintln(stdout, "flood")
		s.printed.Add(1)
		if env.Sleep(ctx, time.Millisecond) != nil {
			return 1
		}
	}
}

// Issue 18: a flood does not run ahead of the node's clock for more than
// maxAheadLines lines (the log holds back what is printed ahead: a
// process that prints a line a millisecond would otherwise hold
// lookahead's 10,000).
func TestFloodDoesNotRunAhead(t *testing.T) {
	sh := &floodShell{}
	f := newFixtureWith(t, "windows", func(c *Config) {
		c.Shell = sh
		c.Images = tickerImages{}
	})
	pod := simplePod("flood")
	pod.Spec.Containers[0].Image = "example.com/ticker:1"
	f.start(pod)
	started := f.clk.Now()
	f.run(500 * time.Millisecond)
	due := int64(f.clk.Now().Sub(started) / time.Millisecond)
	if ahead := sh.printed.Load() - due; ahead > 2*maxAheadLines {
		t.Errorf("%d lines printed ahead of the clock, want at most %d", ahead, 2*maxAheadLines)
	}
}
