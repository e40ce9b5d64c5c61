package logs

import (
	"bytes"
	"strings"
	"sync"
	"time"
)

// LineWriter turns a container's written bytes into log lines (CRLF or LF
// terminated) of W's Stream, stamped with Now.
type LineWriter struct {
	W      Writer
	Stream string
	Now    func() time.Time
	// Settle, when set, waits until the node's clock reaches the
	// process's (the pods runtime's lookahead); it is called every
	// MaxAheadLines lines, so that a flood does not run ahead of the clock:
	// the log holds back the lines printed ahead, at most that many.
	Settle func() error

	mu    sync.Mutex
	buf   []byte
	lines int
}

// MaxAheadLines is how many lines a process prints between two settles.
const MaxAheadLines = 1000

// count counts a line appended to the log, settling every MaxAheadLines.
func (l *LineWriter) count() {
	if l.lines++; l.Settle != nil && l.lines%MaxAheadLines == 0 {
		_ = l.Settle()
	}
}

// Write splits b into lines; a line longer than MaxLineSize goes to
// the log in partial records of that size, as containerd's logger writes
// it (max_container_log_line_size), so that what is kept of a line
// without its newline is bounded.
func (l *LineWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(b)
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			l.buf = append(l.buf, b...)
			for len(l.buf) >= MaxLineSize {
				l.W.AppendPartial(l.Stream, l.Now(), string(l.buf[:MaxLineSize]))
				l.buf = append(l.buf[:0], l.buf[MaxLineSize:]...)
				l.count()
			}
			break
		}
		line := b[:i]
		if len(l.buf) > 0 {
			line = append(l.buf, line...)
		}
		b = b[i+1:]
		line = bytes.TrimSuffix(line, []byte("\r"))
		for len(line) > MaxLineSize {
			l.W.AppendPartial(l.Stream, l.Now(), string(line[:MaxLineSize]))
			line = line[MaxLineSize:]
			l.count()
		}
		l.W.Append(l.Stream, l.Now(), string(line))
		l.count()
		l.buf = l.buf[:0]
	}
	return n, nil
}

// Flush writes what is left without a newline; it reports whether there
// was any (containerd's last, partial line).
func (l *LineWriter) Flush() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) > 0 {
		l.W.Append(l.Stream, l.Now(), strings.TrimSuffix(string(l.buf), "\r"))
		l.buf = nil
		return true
	}
	return false
}
