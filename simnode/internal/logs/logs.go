package logs

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// MaxLines bounds each container's buffer in memory (NewStore); older lines
// are dropped, as log rotation would.
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

// Key names one container instance. Namespace, Pod and ContainerID only
// name its files (ContainerID, with or without its "containerd://" prefix,
// names the /var/log/containers link); an instance is identified by
// PodUID, Container and Restart.
type Key struct {
	Namespace   string
	Pod         string
	PodUID      string
	Container   string
	Restart     int32
	ContainerID string
}

type instance struct {
	uid, container string
	restart        int32
}

func (k Key) instance() instance { return instance{k.PodUID, k.Container, k.Restart} }

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

// ErrNotFound is returned for an unknown container instance.
var ErrNotFound = errors.New("container log not found")

// Rotation is the kubelet's container log rotation policy.
type Rotation struct {
	// MaxSize is containerLogMaxSize in bytes.
	MaxSize int64
	// MaxFiles is containerLogMaxFiles (at least 2).
	MaxFiles int
}

// DefaultRotation is the KubeletConfiguration default: containerLogMaxSize
// 10Mi, containerLogMaxFiles 5.
var DefaultRotation = Rotation{MaxSize: 10 << 20, MaxFiles: 5}

// Store holds the container logs of one node.
type Store struct {
	root string // the node's root directory on the real disk; "" = memory
	rot  Rotation
	// clk says which lines are output yet: a line whose time is after
	// its Now is held back until then (the package doc: output ahead of
	// its time).
	clk clock.WithDelayedExecution

	mu sync.Mutex
	m  map[instance]*Buffer
}

// NewStore returns a store that keeps lines in memory.
func NewStore() *Store { return &Store{m: map[instance]*Buffer{}, clk: clock.RealClock{}} }

// SetClock sets the clock that decides when held-back lines are output
// (the real one by default). Call it before the store is used.
func (s *Store) SetClock(c clock.WithDelayedExecution) {
	if c != nil {
		s.clk = c
	}
}

// NewFileStore returns a store of log files under root, the directory that
// stands for the node's / (or C:\). A zero rot is DefaultRotation.
func NewFileStore(root string, rot Rotation) *Store {
	if rot.MaxSize <= 0 {
		rot.MaxSize = DefaultRotation.MaxSize
	}
	if rot.MaxFiles < 2 {
		rot.MaxFiles = DefaultRotation.MaxFiles
	}
	return &Store{root: root, rot: rot, m: map[instance]*Buffer{}, clk: clock.RealClock{}}
}

// PodsDir is the directory of the pods' logs on the real disk
// (/var/log/pods of the node); "" for a memory store.
func (s *Store) PodsDir() string {
	if s.root == "" {
		return ""
	}
	return filepath.Join(s.root, "var", "log", "pods")
}

// ContainersDir is the directory of the /var/log/containers links; "" for
// a memory store.
func (s *Store) ContainersDir() string {
	if s.root == "" {
		return ""
	}
	return filepath.Join(s.root, "var", "log", "containers")
}

// Path is the log file of k on the real disk ("" for a memory store):
// BuildContainerLogsDirectory + <restart>.log.
func (s *Store) Path(k Key) string {
	if s.root == "" {
		return ""
	}
	return filepath.Join(s.PodsDir(), podDirName(k), k.Container, fmt.Sprintf("%d.log", k.Restart))
}

func podDirName(k Key) string { return strings.Join([]string{k.Namespace, k.Pod, k.PodUID}, "_") }

// linkName is the kubelet's legacy log symlink name (kuberuntime/legacy.go
// logSymlink): <pod>_<namespace>_<container>-<id>.log, cut to 255 bytes.
func linkName(k Key) string {
	id := strings.TrimPrefix(k.ContainerID, "containerd://")
	name := fmt.Sprintf("%s_%s_%s-%s", k.Pod, k.Namespace, k.Container, id)
	if len(name) > 255-len(".log") {
		name = name[:255-len(".log")]
	}
	return name + ".log"
}

// Open returns the buffer that the running instance k writes to, creating
// its log file (and its /var/log/containers link) if needed; an existing
// file is appended to (a restarted simnode resuming the instance).
func (s *Store) Open(k Key) *Buffer {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[k.instance()]
	if ok && !b.closed {
		return b
	}
	b = newBuffer(s, s.Path(k))
	s.m[k.instance()] = b
	if b.path != "" {
		if err := os.MkdirAll(filepath.Dir(b.path), 0o755); err == nil {
			if f, err := os.OpenFile(b.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o640); err == nil {
				if st, err := f.Stat(); err == nil {
					b.size = st.Size()
				}
				f.Close()
			}
		}
		if k.ContainerID != "" {
			dir := s.ContainersDir()
			if err := os.MkdirAll(dir, 0o755); err == nil {
				target, err := filepath.Rel(dir, b.path)
				if err != nil {
					target = b.path
				}
				link := filepath.Join(dir, linkName(k))
				if cur, err := os.Readlink(link); err != nil || cur != target {
					_ = os.Remove(link)
					_ = os.Symlink(target, link)
				}
			}
		}
	}
	return b
}

// Get returns the buffer of k: the live one, or, for an instance that is
// not running in this process, its log file read-only (closed).
func (s *Store) Get(k Key) (*Buffer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.m[k.instance()]; ok {
		return b, nil
	}
	if p := s.Path(k); p != "" {
		if _, err := os.Stat(p); err == nil {
			b := newBuffer(s, p)
			b.closed = true
			s.m[k.instance()] = b
			return b, nil
		}
	}
	return nil, fmt.Errorf("%w: pod %s container %s restart %d", ErrNotFound, k.PodUID, k.Container, k.Restart)
}

// DeletePod drops every log of a pod: its buffers, its /var/log/pods
// directory and its /var/log/containers links (the kubelet's container
// and pod garbage collection).
func (s *Store) DeletePod(podUID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, b := range s.m {
		if k.uid == podUID {
			b.Close()
			delete(s.m, k)
		}
	}
	if s.root == "" || podUID == "" {
		return
	}
	dirs, _ := filepath.Glob(filepath.Join(s.PodsDir(), "*_"+podUID))
	for _, d := range dirs {
		_ = os.RemoveAll(d)
	}
	ents, _ := os.ReadDir(s.ContainersDir())
	for _, e := range ents {
		link := filepath.Join(s.ContainersDir(), e.Name())
		if t, err := os.Readlink(link); err == nil && strings.Contains(filepath.ToSlash(t), "_"+podUID+"/") {
			_ = os.Remove(link)
		}
	}
}

// Buffer is the output of one container instance.
type Buffer struct {
	store *Store
	path  string // "" in memory

	mu    sync.Mutex
	lines []Line // in memory
	// pending are lines appended ahead of their time, in time order: they
	// are output (written to the file, seen by readers) once the clock
	// reaches them, at the next append, read or Close.
	pending []Line
	size    int64  // of the current file
	gen     int    // rotations of the file so far
	rotated string // the file the last rotation made
	closed  bool
	changed chan struct{} // closed and replaced on every change
}

func newBuffer(s *Store, path string) *Buffer {
	return &Buffer{store: s, path: path, changed: make(chan struct{})}
}

// appendCRI appends l in the CRI log format to dst.
func appendCRI(dst []byte, l Line) []byte {
	dst = l.Time.UTC().AppendFormat(dst, time.RFC3339Nano)
	dst = append(dst, ' ')
	dst = append(dst, l.Stream...)
	dst = append(dst, " F "...)
	dst = append(dst, l.Text...)
	return append(dst, '\n')
}

// parseCRI parses complete lines of data (the kubelet's parseCRILog); it
// returns the lines and the number of bytes consumed. Partial ("P")
// records are joined with the records that complete them; an unfinished
// one is left for the next read.
func parseCRI(data []byte) ([]Line, int) {
	var out []Line
	used, pos := 0, 0
	var partial *Line
	for {
		i := bytes.IndexByte(data[pos:], '\n')
		if i < 0 {
			break
		}
		fields := strings.SplitN(string(data[pos:pos+i]), " ", 4)
		pos += i + 1
		if len(fields) < 3 {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, fields[0])
		if err != nil {
			continue
		}
		if partial == nil {
			partial = &Line{Time: t, Stream: fields[1]}
		}
		if len(fields) == 4 {
			partial.Text += fields[3]
		}
		if fields[2] == "P" {
			continue
		}
		out = append(out, *partial)
		partial = nil
		used = pos
	}
	if partial == nil {
		used = pos
	}
	return out, used
}

// Append implements Writer. A line whose time is still to come (a
// process that runs ahead of the clock) is held back until then.
func (b *Buffer) Append(stream string, t time.Time, text string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.pending = append(b.pending, Line{Time: t, Stream: stream, Text: text})
	// The lines that came due go out now, in one write: not only when
	// this line is due (issue 18: a process that stays ahead of the clock
	// would hold every line it printed).
	if now := b.store.clk.Now(); !b.pending[0].Time.After(now) {
		b.outputLocked(now)
	}
}

// outputLocked outputs the held-back lines whose time has come: in
// memory, or in one write to the file (rotating where the size crosses
// the limit), and wakes the followers.
func (b *Buffer) outputLocked(now time.Time) {
	n := 0
	for n < len(b.pending) && !b.pending[n].Time.After(now) {
		n++
	}
	if n == 0 {
		return
	}
	b.writeLocked(b.pending[:n])
	k := copy(b.pending, b.pending[n:])
	clear(b.pending[k:])
	b.pending = b.pending[:k]
	close(b.changed)
	b.changed = make(chan struct{})
}

func (b *Buffer) writeLocked(lines []Line) {
	if b.path == "" {
		b.lines = append(b.lines, lines...)
		if len(b.lines) > MaxLines {
			b.lines = append([]Line(nil), b.lines[len(b.lines)-MaxLines:]...)
		}
		return
	}
	var data []byte
	flush := func() {
		if len(data) == 0 {
			return
		}
		f, err := os.OpenFile(b.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o640)
		if err != nil {
			data = data[:0]
			return
		}
		n, _ := f.Write(data)
		f.Close()
		b.size += int64(n)
		data = data[:0]
	}
	for _, l := range lines {
		data = appendCRI(data, l)
		if b.size+int64(len(data)) >= b.store.rot.MaxSize {
			flush()
			b.rotateLocked(l.Time)
		}
	}
	flush()
}

// rotateLocked is the container log manager's rotateLog.
func (b *Buffer) rotateLocked(now time.Time) {
	rotated := b.path + "." + now.Format("20060102-150405")
	if _, err := os.Stat(rotated); err == nil {
		return // rotated this second already: the next write tries again
	}
	logs, _ := filepath.Glob(b.path + ".*")
	// cleanupUnusedLogs: temporary files, and files already compressed.
	var inuse []string
	for _, l := range logs {
		if strings.HasSuffix(l, ".tmp") {
			_ = os.Remove(l)
			continue
		}
		if !strings.HasSuffix(l, ".gz") && contains(logs, l+".gz") {
			_ = os.Remove(l)
			continue
		}
		inuse = append(inuse, l)
	}
	// removeExcessLogs: at most MaxFiles-2 rotated files besides the one
	// this rotation makes and the new current file.
	sort.Strings(inuse)
	keep := max(b.store.rot.MaxFiles-2, 0)
	for len(inuse) > keep {
		_ = os.Remove(inuse[0])
		inuse = inuse[1:]
	}
	for _, l := range inuse {
		if !strings.HasSuffix(l, ".gz") {
			_ = compress(l)
		}
	}
	if err := os.Rename(b.path, rotated); err != nil {
		return
	}
	if f, err := os.OpenFile(b.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o640); err == nil {
		f.Close()
	}
	b.size = 0
	b.gen++
	b.rotated = rotated
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Close marks the container as exited: followers reach EOF.
func (b *Buffer) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		// What the process printed by now is output; what it printed
		// ahead of its time never happened.
		b.outputLocked(b.store.clk.Now())
		b.pending = nil
		b.closed = true
		close(b.changed)
		b.changed = make(chan struct{})
	}
}

// Lines returns the lines of the instance (its current file).
func (b *Buffer) Lines() []Line {
	lines, _, _, _, _ := b.next(cursor{})
	return lines
}

// Last returns the time of the newest line of the instance and how many
// lines have that time (zero time when it has none): how far its output
// got, for a process resumed after a restart. A current file emptied by a
// rotation is looked up in the rotated file.
func (b *Buffer) Last() (time.Time, int) {
	lines := b.Lines()
	if len(lines) == 0 && b.path != "" {
		b.mu.Lock()
		rotated := b.rotated
		b.mu.Unlock()
		if rotated == "" {
			if l, _ := filepath.Glob(b.path + ".*"); len(l) > 0 {
				sort.Strings(l)
				if r := l[len(l)-1]; !strings.HasSuffix(r, ".gz") && !strings.HasSuffix(r, ".tmp") {
					rotated = r
				}
			}
		}
		if rotated != "" {
			if data, err := os.ReadFile(rotated); err == nil {
				lines, _ = parseCRI(data)
			}
		}
	}
	var last time.Time
	n := 0
	for _, l := range lines {
		switch {
		case l.Time.After(last):
			last, n = l.Time, 1
		case l.Time.Equal(last):
			n++
		}
	}
	return last, n
}

// cursor is a reader's position: an index into the lines in memory, or a
// byte offset into the file of rotation generation gen.
type cursor struct {
	gen int
	off int64
}

// next returns the lines after c (the held-back lines whose time has
// come output first), the new cursor, whether the instance has exited, a
// channel closed on the next change, and the time of the next held-back
// line (zero: none).
func (b *Buffer) next(c cursor) ([]Line, cursor, bool, <-chan struct{}, time.Time) {
	b.mu.Lock()
	b.outputLocked(b.store.clk.Now())
	var due time.Time
	if len(b.pending) > 0 {
		due = b.pending[0].Time
	}
	closed, ch, gen, rotated := b.closed, b.changed, b.gen, b.rotated
	if b.path == "" {
		if c.off > int64(len(b.lines)) {
			c.off = int64(len(b.lines)) // trimmed
		}
		lines := append([]Line(nil), b.lines[c.off:]...)
		b.mu.Unlock()
		return lines, cursor{off: c.off + int64(len(lines))}, closed, ch, due
	}
	b.mu.Unlock()
	var out []Line
	if c.gen != gen {
		// Rotated since: the rest of the file the reader was in (when it
		// is the one rotated last), then the new file from its start.
		if c.gen == gen-1 && rotated != "" {
			lines, _ := readFrom(rotated, c.off)
			out = append(out, lines...)
		}
		c = cursor{gen: gen}
	}
	lines, n := readFrom(b.path, c.off)
	out = append(out, lines...)
	c.off += n
	return out, c, closed, ch, due
}

func readFrom(path string, off int64) ([]Line, int64) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0
	}
	defer f.Close()
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return nil, 0
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, 0
	}
	lines, n := parseCRI(data)
	return lines, int64(n)
}

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

	lines, cur, closed, ch, due := b.next(cursor{})
	if opts.TailSet && opts.Tail < len(lines) {
		lines = lines[len(lines)-opts.Tail:]
	}
	for {
		for _, l := range lines {
			if more, err := emit(l); err != nil || !more {
				return err
			}
		}
		if !opts.Follow || closed {
			return nil
		}
		// Wait for a change, or for the time of the next held-back line.
		var wake chan struct{}
		var timer clock.Timer
		if !due.IsZero() {
			wake = make(chan struct{})
			timer = b.store.clk.AfterFunc(due.Sub(b.store.clk.Now()), func() { close(wake) })
		}
		select {
		case <-ctx.Done():
		case <-ch:
		case <-wake:
		}
		if timer != nil {
			timer.Stop()
		}
		if ctx.Err() != nil {
			return nil
		}
		lines, cur, closed, ch, due = b.next(cur)
	}
}

// compress is the container log manager's compressLog: gzip into
// <log>.tmp, rename to <log>.gz, remove the original.
func compress(log string) error {
	in, err := os.Open(log)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := log + ".tmp"
	out, err := os.OpenFile(tmp, os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	zw := gzip.NewWriter(out)
	if _, err := io.Copy(zw, in); err != nil {
		out.Close()
		os.Remove(tmp)
		return err
	}
	if err := zw.Close(); err != nil {
		out.Close()
		os.Remove(tmp)
		return err
	}
	out.Close()
	if err := os.Rename(tmp, log+".gz"); err != nil {
		return err
	}
	return os.Remove(log)
}

// Closed returns an empty buffer of an exited container.
func Closed() *Buffer {
	b := newBuffer(NewStore(), "")
	b.closed = true
	return b
}

// PodUIDs lists the pods that have logs on the disk (by their
// /var/log/pods directories).
func (s *Store) PodUIDs() []string {
	if s.root == "" {
		return nil
	}
	ents, err := os.ReadDir(s.PodsDir())
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if i := strings.LastIndexByte(e.Name(), '_'); i >= 0 && e.IsDir() {
			out = append(out, e.Name()[i+1:])
		}
	}
	return out
}
