package logs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// MaxLines bounds each container's buffer; older lines are dropped, as log
// rotation would.
const MaxLines = 10000

// Line is one line of container output.
type Line struct {
	Time   time.Time
	Stream string // "stdout" or "stderr"
	Text   string
}

// Writer is what produces container output.
type Writer interface {
	// Append adds one line (without its trailing newline).
	Append(stream string, t time.Time, text string)
}

// Key names one container instance.
type Key struct {
	PodUID    string
	Container string
	Restart   int32
}

// Buffer is the output of one container instance.
type Buffer struct {
	mu      sync.Mutex
	lines   []Line
	closed  bool
	changed chan struct{} // closed and replaced on every change
}

func newBuffer() *Buffer { return &Buffer{changed: make(chan struct{})} }

// Append implements Writer.
func (b *Buffer) Append(stream string, t time.Time, text string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.lines = append(b.lines, Line{Time: t, Stream: stream, Text: text})
	if len(b.lines) > MaxLines {
		b.lines = append([]Line(nil), b.lines[len(b.lines)-MaxLines:]...)
	}
	close(b.changed)
	b.changed = make(chan struct{})
}

// Close marks the container as exited: followers reach EOF.
func (b *Buffer) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		b.closed = true
		close(b.changed)
		b.changed = make(chan struct{})
	}
}

// Lines returns a copy of the buffered lines.
func (b *Buffer) Lines() []Line {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Line(nil), b.lines...)
}

// Options are the kubelet's container log options.
type Options struct {
	Tail         int // lines from the end; 0 = all (the API's tailLines unset)
	TailSet      bool
	LimitBytes   int
	Timestamps   bool
	Follow       bool
	SinceSeconds int
	SinceTime    time.Time
}

// TimestampFormat is the kubelet's log timestamp format (RFC3339Nano with
// fixed width, pkg/kubelet/kuberuntime/logs).
const TimestampFormat = "2006-01-02T15:04:05.000000000Z07:00"

// Reader returns the buffer's output per opts. With Follow, the reader
// blocks for new lines until the container exits or ctx is done.
func (b *Buffer) Reader(ctx context.Context, opts Options, now time.Time) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		pw.CloseWithError(b.stream(ctx, opts, now, pw))
	}()
	return pr
}

func (b *Buffer) stream(ctx context.Context, opts Options, now time.Time, w io.Writer) error {
	since := opts.SinceTime
	if opts.SinceSeconds > 0 {
		since = now.Add(-time.Duration(opts.SinceSeconds) * time.Second)
	}
	written := 0
	emit := func(l Line) (bool, error) {
		if !since.IsZero() && l.Time.Before(since) {
			return true, nil
		}
		var buf bytes.Buffer
		if opts.Timestamps {
			buf.WriteString(l.Time.UTC().Format(TimestampFormat))
			buf.WriteByte(' ')
		}
		buf.WriteString(l.Text)
		buf.WriteByte('\n')
		data := buf.Bytes()
		if opts.LimitBytes > 0 && written+len(data) > opts.LimitBytes {
			data = data[:opts.LimitBytes-written]
			_, err := w.Write(data)
			return false, err
		}
		n, err := w.Write(data)
		written += n
		return true, err
	}

	b.mu.Lock()
	lines := append([]Line(nil), b.lines...)
	next := len(b.lines)
	b.mu.Unlock()
	if opts.TailSet {
		if opts.Tail < len(lines) {
			lines = lines[len(lines)-opts.Tail:]
		}
	}
	for _, l := range lines {
		if more, err := emit(l); err != nil || !more {
			return err
		}
	}
	if !opts.Follow {
		return nil
	}
	for {
		b.mu.Lock()
		// The buffer may have been trimmed; clamp.
		if next > len(b.lines) {
			next = len(b.lines)
		}
		pending := append([]Line(nil), b.lines[next:]...)
		next = len(b.lines)
		closed := b.closed
		ch := b.changed
		b.mu.Unlock()
		for _, l := range pending {
			if more, err := emit(l); err != nil || !more {
				return err
			}
		}
		if closed {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-ch:
		}
	}
}

// ErrNotFound is returned for an unknown container instance.
var ErrNotFound = errors.New("container log not found")

// Store holds the buffers of one node.
type Store struct {
	mu sync.Mutex
	m  map[Key]*Buffer
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{m: map[Key]*Buffer{}} }

// Open returns the buffer of k, creating it.
func (s *Store) Open(k Key) *Buffer {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[k]
	if !ok {
		b = newBuffer()
		s.m[k] = b
	}
	return b
}

// Get returns the buffer of k.
func (s *Store) Get(k Key) (*Buffer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[k]
	if !ok {
		return nil, fmt.Errorf("%w: pod %s container %s restart %d", ErrNotFound, k.PodUID, k.Container, k.Restart)
	}
	return b, nil
}

// DeletePod drops every buffer of a pod.
func (s *Store) DeletePod(podUID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, b := range s.m {
		if k.PodUID == podUID {
			b.Close()
			delete(s.m, k)
		}
	}
}
