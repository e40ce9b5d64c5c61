package pods

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"wink.dev/wink/simnode/internal/logs"
)

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
// logs.MaxAheadLines lines (the log holds back what is printed ahead: a
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
	if ahead := sh.printed.Load() - due; ahead > 2*logs.MaxAheadLines {
		t.Errorf("%d lines printed ahead of the clock, want at most %d", ahead, 2*logs.MaxAheadLines)
	}
}
