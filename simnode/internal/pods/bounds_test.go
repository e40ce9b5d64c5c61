package pods

import (
	"strings"
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
