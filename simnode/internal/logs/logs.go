package logs

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// MaxLines and MaxMemoryBytes bound each container's buffer in memory
// (NewStore); older lines are dropped, as log rotation would.
const (
	MaxLines       = 10000
	MaxMemoryBytes = 4 << 20
)

// MaxLineSize is containerd's max_container_log_line_size (16 KiB): a
// longer line is written as partial ("P") records of at most this size,
// which reads join again (issue 22).
const MaxLineSize = 16 << 10

// maxPendingBytes bounds the output a process holds back ahead of its
// time (the package doc); past it the oldest held-back lines are output
// at once (issue 22: the log path is bounded whatever a process prints).
const maxPendingBytes = 1 << 20

// Line is one line of container output.
type Line struct {
	Time   time.Time
	Stream string // "stdout" or "stderr"
	Text   string
	// Partial: the line goes on in the next record of its stream (CRI
	// tag "P"; MaxLineSize).
	Partial bool
}

// Writer is what produces container output.
type Writer interface {
	// Append adds one line (without its trailing newline).
	Append(stream string, t time.Time, text string)
	// AppendPartial adds a part of a line that the next Append or
	// AppendPartial of the stream continues.
	AppendPartial(stream string, t time.Time, text string)
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

// Rotation is the kubelet's container log rotation policy: the
// KubeletConfiguration fields of the same names (issue 22).
type Rotation struct {
	// MaxSize is containerLogMaxSize in bytes.
	MaxSize int64
	// MaxFiles is containerLogMaxFiles (at least 2).
	MaxFiles int
	// MaxWorkers is containerLogMaxWorkers: how many logs are rotated
	// at once.
	MaxWorkers int
	// MonitorInterval is containerLogMonitorInterval: how often the
	// sizes are checked.
	MonitorInterval time.Duration
}

// DefaultRotation is the KubeletConfiguration default
// (pkg/kubelet/apis/config/v1beta1/defaults.go): containerLogMaxSize
// 10Mi, containerLogMaxFiles 5, containerLogMaxWorkers 1,
// containerLogMonitorInterval 10s.
var DefaultRotation = Rotation{MaxSize: 10 << 20, MaxFiles: 5, MaxWorkers: 1, MonitorInterval: 10 * time.Second}

// Bound is the most disk one container instance's logs take: MaxFiles
// files of MaxSize, the current file and the newest rotated one each
// plus what the container prints in one MonitorInterval (perInterval
// bytes), the older rotated files compressed (counted uncompressed here).
func (r Rotation) Bound(perInterval int64) int64 {
	return int64(r.MaxFiles)*r.MaxSize + 2*perInterval
}

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
	if rot.MaxWorkers < 1 {
		rot.MaxWorkers = DefaultRotation.MaxWorkers
	}
	if rot.MonitorInterval <= 0 {
		rot.MonitorInterval = DefaultRotation.MonitorInterval
	}
	return &Store{root: root, rot: rot, m: map[instance]*Buffer{}, clk: clock.RealClock{}}
}

// Rotation is the store's rotation policy.
func (s *Store) Rotation() Rotation { return s.rot }

// Start runs the container log manager until ctx is done: every
// MonitorInterval on the store's clock, the logs of the running
// containers are rotated (RotateLogs). A memory store has nothing to
// rotate.
func (s *Store) Start(ctx context.Context) {
	if s.root == "" {
		return
	}
	var tick func()
	tick = func() {
		// On a goroutine of its own, as the manager's: a clock may run
		// its callbacks under its lock.
		go func() {
			if ctx.Err() != nil {
				return
			}
			s.RotateLogs()
			// wait.Forever: the next pass an interval after this one ends.
			s.clk.AfterFunc(s.rot.MonitorInterval, tick)
		}()
	}
	s.clk.AfterFunc(s.rot.MonitorInterval, tick)
}

// RotateLogs is one pass of the container log manager (rotateLogs and its
// workers, processContainer): every running container's log at or over
// MaxSize is rotated, MaxWorkers at a time. It returns when the pass is
// done.
func (s *Store) RotateLogs() {
	s.mu.Lock()
	var running []*Buffer
	for _, b := range s.m {
		b.mu.Lock()
		if !b.closed && b.path != "" {
			running = append(running, b)
		}
		b.mu.Unlock()
	}
	s.mu.Unlock()
	queue := make(chan *Buffer, len(running))
	for _, b := range running {
		queue <- b
	}
	close(queue)
	var wg sync.WaitGroup
	for range min(s.rot.MaxWorkers, len(running)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range queue {
				b.rotateIfFull()
				b.closeIfIdle()
			}
		}()
	}
	wg.Wait()
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
	s.collectLocked(k)
	if b.path != "" {
		if err := os.MkdirAll(filepath.Dir(b.path), 0o755); err == nil {
			if f, err := os.OpenFile(b.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o640); err == nil {
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

// collectLocked is the kubelet's container garbage collection for the
// container of k (issue 22; pkg/kubelet/kuberuntime/kuberuntime_gc.go with
// the default policy, MaxPerPodContainer 1): of its exited instances only
// the newest (`kubectl logs --previous`) keeps its logs; older ones'
// buffers and files go (removeContainerLog) when k starts.
func (s *Store) collectLocked(k Key) {
	for in, b := range s.m {
		if in.uid == k.PodUID && in.container == k.Container && in.restart < k.Restart-1 {
			b.Close()
			delete(s.m, in)
		}
	}
	if s.root == "" || k.Restart < 2 {
		return
	}
	dir := filepath.Dir(s.Path(k))
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		var n int32
		if _, err := fmt.Sscanf(e.Name(), "%d.log", &n); err == nil && n < k.Restart-1 {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
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
	pending      []Line
	pendingBytes int
	memBytes     int       // of lines (in memory)
	trimmed      int       // lines dropped from the front (in memory)
	f            *os.File  // the current file, open while the container writes
	lastWrite    time.Time // of the machine's clock
	gen          int       // rotations of the file so far
	rotated      string    // the file the last rotation made
	closed       bool
	changed      chan struct{} // closed and replaced on every change a reader watches
	watched      bool          // a reader holds changed
	wbuf         []byte        // the file write being made
}

func newBuffer(s *Store, path string) *Buffer {
	return &Buffer{store: s, path: path, changed: make(chan struct{})}
}

// appendCRI appends l in the CRI log format to dst.
func appendCRI(dst []byte, l Line) []byte {
	dst = l.Time.UTC().AppendFormat(dst, time.RFC3339Nano)
	dst = append(dst, ' ')
	dst = append(dst, l.Stream...)
	if l.Partial {
		dst = append(dst, " P "...)
	} else {
		dst = append(dst, " F "...)
	}
	dst = append(dst, l.Text...)
	return append(dst, '\n')
}

// parseCRI parses complete lines of data (the kubelet's parseCRILog); it
// returns the lines and the number of bytes consumed. Partial ("P")
// records are joined with the records that complete them; an unfinished
// one is left for the next read, unless flush.
func parseCRI(data []byte, flush bool) ([]Line, int) {
	var out []Line
	used, pos := 0, 0
	var partial *Line
	// Lines of a busy container share their timestamp: parse it once.
	var lastStamp []byte
	var lastTime time.Time
	for {
		i := bytes.IndexByte(data[pos:], '\n')
		if i < 0 {
			break
		}
		rec := data[pos : pos+i]
		pos += i + 1
		// <time> <stream> <tag> [<text>]
		sp1 := bytes.IndexByte(rec, ' ')
		if sp1 < 0 {
			continue
		}
		sp2 := bytes.IndexByte(rec[sp1+1:], ' ')
		if sp2 < 0 {
			continue
		}
		sp2 += sp1 + 1
		stamp, stream, rest := rec[:sp1], rec[sp1+1:sp2], rec[sp2+1:]
		tag, text := rest, []byte(nil)
		if sp3 := bytes.IndexByte(rest, ' '); sp3 >= 0 {
			tag, text = rest[:sp3], rest[sp3+1:]
		}
		if !bytes.Equal(stamp, lastStamp) {
			t, err := time.Parse(time.RFC3339Nano, string(stamp))
			if err != nil {
				continue
			}
			lastStamp, lastTime = stamp, t
		}
		if partial == nil {
			partial = &Line{Time: lastTime, Stream: streamName(stream)}
		}
		partial.Text += string(text)
		if string(tag) == "P" {
			continue
		}
		out = append(out, *partial)
		partial = nil
		used = pos
	}
	if partial == nil {
		used = pos
	} else if flush {
		out = append(out, *partial)
		used = pos
	}
	return out, used
}

// streamName is the stream of a record, without an allocation for the
// two there are.
func streamName(b []byte) string {
	switch string(b) {
	case "stdout":
		return "stdout"
	case "stderr":
		return "stderr"
	}
	return string(b)
}

// Append implements Writer. A line whose time is still to come (a
// process that runs ahead of the clock) is held back until then.
func (b *Buffer) Append(stream string, t time.Time, text string) {
	b.append(Line{Time: t, Stream: stream, Text: text})
}

// AppendPartial implements Writer.
func (b *Buffer) AppendPartial(stream string, t time.Time, text string) {
	b.append(Line{Time: t, Stream: stream, Text: text, Partial: true})
}

func (b *Buffer) append(l Line) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.pending = append(b.pending, l)
	b.pendingBytes += len(l.Text)
	now := b.store.clk.Now()
	if b.pendingBytes > maxPendingBytes {
		// Held back too much: the oldest lines are output now.
		now = b.pending[len(b.pending)/2].Time
	}
	if !b.pending[0].Time.After(now) {
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
	for _, l := range b.pending[:n] {
		b.pendingBytes -= len(l.Text)
	}
	k := copy(b.pending, b.pending[n:])
	clear(b.pending[k:])
	b.pending = b.pending[:k]
	b.wakeLocked()
}

// writeLocked outputs lines: to memory (within MaxLines and
// MaxMemoryBytes), or in one write to the current file, which stays open
// while the container runs (containerd's log file; the container log
// manager renames it and has it reopened, rotateIfFull).
func (b *Buffer) writeLocked(lines []Line) {
	if b.path == "" {
		b.lines = append(b.lines, lines...)
		for _, l := range lines {
			b.memBytes += len(l.Text)
		}
		drop := 0
		for drop < len(b.lines)-1 && (len(b.lines)-drop > MaxLines || b.memBytes > MaxMemoryBytes) {
			b.memBytes -= len(b.lines[drop].Text)
			drop++
		}
		clear(b.lines[:drop])
		b.lines = b.lines[drop:]
		b.trimmed += drop
		return
	}
	data := b.wbuf[:0]
	for _, l := range lines {
		data = appendCRI(data, l)
	}
	if cap(data) <= 64<<10 {
		b.wbuf = data
	}
	if b.f == nil {
		f, err := os.OpenFile(b.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o640)
		if err != nil {
			return
		}
		b.f = f
	}
	_, _ = b.f.Write(data)
	// A busy writer keeps its file open; one that writes now and then
	// closes it, so that a node of many quiet containers holds few file
	// descriptors (and RotateLogs closes those gone quiet since).
	now := time.Now()
	if now.Sub(b.lastWrite) > idleWrite {
		b.closeFileLocked()
	}
	b.lastWrite = now
}

// idleWrite is how far apart writes are for the file to be closed after
// each.
const idleWrite = time.Second

// wakeLocked wakes the readers waiting for a change (none: nothing to do,
// so that a busy writer makes no channel a line).
func (b *Buffer) wakeLocked() {
	if b.watched {
		close(b.changed)
		b.changed, b.watched = make(chan struct{}), false
	}
}

// closeIfIdle closes the current file of a writer that has gone quiet.
func (b *Buffer) closeIfIdle() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if time.Since(b.lastWrite) > idleWrite {
		b.closeFileLocked()
	}
}

// closeFileLocked closes the current file.
func (b *Buffer) closeFileLocked() {
	if b.f != nil {
		b.f.Close()
		b.f = nil
	}
}

// rotateIfFull is the container log manager's processContainer for this
// container: stat its log, and rotate it when it is at least MaxSize
// (rotateLog). A log that is gone is reopened (ReopenContainerLog).
func (b *Buffer) rotateIfFull() {
	rot := b.store.rot
	info, err := os.Stat(b.path)
	if err != nil {
		if !os.IsNotExist(err) {
			return
		}
		b.mu.Lock()
		b.closeFileLocked()
		b.mu.Unlock()
		return // reopened at the next write
	}
	if info.Size() < rot.MaxSize {
		return
	}
	logs, _ := filepath.Glob(b.path + ".*")
	// cleanupUnusedLogs: temporary files, and files already compressed.
	var inuse []string
	for _, l := range logs {
		if strings.HasSuffix(l, ".tmp") || (!strings.HasSuffix(l, ".gz") && slices.Contains(logs, l+".gz")) {
			_ = os.Remove(l)
			continue
		}
		inuse = append(inuse, l)
	}
	// removeExcessLogs: at most MaxFiles-2 rotated files besides the one
	// this rotation makes and the new current file, oldest removed first.
	sort.Strings(inuse)
	keep := max(rot.MaxFiles-2, 0)
	for len(inuse) > keep {
		_ = os.Remove(inuse[0])
		inuse = inuse[1:]
	}
	for _, l := range inuse {
		if !strings.HasSuffix(l, ".gz") {
			if compress(l) != nil {
				return
			}
		}
	}
	// rotateLatestLog: rename with the manager's clock's time, then the
	// runtime reopens the log (the next write creates it).
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	rotated := b.path + "." + b.store.clk.Now().Format("20060102-150405")
	if err := os.Rename(b.path, rotated); err != nil {
		return
	}
	b.closeFileLocked()
	if f, err := os.OpenFile(b.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o640); err == nil {
		f.Close()
	}
	b.gen++
	b.rotated = rotated
}

// Close marks the container as exited: followers reach EOF.
func (b *Buffer) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		// What the process printed by now is output; what it printed
		// ahead of its time never happened.
		b.outputLocked(b.store.clk.Now())
		b.pending, b.pendingBytes = nil, 0
		b.closeFileLocked()
		b.closed = true
		close(b.changed)
		b.changed, b.watched = make(chan struct{}), false
	}
}

// Lines returns the lines of the instance (its current file).
func (b *Buffer) Lines() []Line {
	var out []Line
	b.scan(func(lines []Line) { out = append(out, lines...) })
	return out
}

// scan calls fn with the lines of the current file, a chunk at a time.
func (b *Buffer) scan(fn func([]Line)) {
	r := b.next(cursor{})
	for {
		fn(r.lines)
		if !r.more {
			return
		}
		r = b.next(r.cur)
	}
}

// Last returns the time of the newest line of the instance and how many
// lines have that time (zero time when it has none): how far its output
// got, for a process resumed after a restart. A current file emptied by a
// rotation is looked up in the rotated file.
func (b *Buffer) Last() (time.Time, int) {
	var last time.Time
	n := 0
	count := func(lines []Line) {
		for _, l := range lines {
			switch {
			case l.Time.After(last):
				last, n = l.Time, 1
			case l.Time.Equal(last):
				n++
			}
		}
	}
	b.scan(count)
	if n == 0 && b.path != "" {
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
		for off := int64(0); rotated != ""; {
			lines, used, more := readFrom(rotated, off)
			count(lines)
			off += used
			if !more {
				break
			}
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

// readChunk is how much of a log file a read takes at a time, so that
// reading a large log (`kubectl logs`, a resume) holds little of it in
// memory (issue 22).
const readChunk = 1 << 20

// result is what next returns.
type result struct {
	lines  []Line
	cur    cursor
	closed bool            // the instance has exited
	ch     <-chan struct{} // closed on the next change
	due    time.Time       // the time of the next held-back line (zero: none)
	more   bool            // more lines can be read at once
}

// next returns the lines after c (the held-back lines whose time has
// come output first), at most about readChunk bytes of them.
func (b *Buffer) next(c cursor) result {
	b.mu.Lock()
	b.outputLocked(b.store.clk.Now())
	r := result{closed: b.closed, ch: b.changed}
	b.watched = true
	if len(b.pending) > 0 {
		r.due = b.pending[0].Time
	}
	gen, rotated := b.gen, b.rotated
	if b.path == "" {
		// c.off counts lines since the first, trimmed ones included.
		i := max(c.off-int64(b.trimmed), 0)
		lines, n := joinPartial(b.lines[i:])
		b.mu.Unlock()
		r.lines, r.cur = lines, cursor{off: int64(b.trimmed) + i + int64(n)}
		return r
	}
	// The files are opened under the lock, so that a rotation between
	// here and the reads does not change what they are.
	cur, _ := os.Open(b.path)
	var prev *os.File
	if c.gen != gen && c.gen == gen-1 && rotated != "" {
		prev, _ = os.Open(rotated)
	}
	b.mu.Unlock()
	defer func() {
		for _, f := range []*os.File{cur, prev} {
			if f != nil {
				f.Close()
			}
		}
	}()
	if c.gen != gen {
		// Rotated since: the rest of the file the reader was in (when it
		// is the one rotated last), then the new file from its start.
		if prev != nil {
			lines, n, more := readAt(prev, c.off)
			if more {
				r.lines, r.cur, r.more = lines, cursor{gen: c.gen, off: c.off + n}, true
				return r
			}
			r.lines = lines
		}
		c = cursor{gen: gen}
	}
	lines, n, more := readAt(cur, c.off)
	r.lines = append(r.lines, lines...)
	c.off += n
	r.cur, r.more = c, more
	return r
}

// joinPartial joins partial lines with the lines that complete them; it
// returns the complete lines and how many of lines they used (an
// unfinished line is left for the next read).
func joinPartial(lines []Line) ([]Line, int) {
	out := make([]Line, 0, len(lines))
	used, start := 0, -1
	for i, l := range lines {
		if l.Partial {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			var text strings.Builder
			for _, p := range lines[start : i+1] {
				text.WriteString(p.Text)
			}
			l = Line{Time: lines[start].Time, Stream: lines[start].Stream, Text: text.String()}
			start = -1
		}
		out = append(out, l)
		used = i + 1
	}
	return out, used
}

// readFrom parses at most readChunk bytes of path from off; it returns
// the lines, the bytes they used, and whether the file has more.
func readFrom(path string, off int64) ([]Line, int64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, false
	}
	defer f.Close()
	return readAt(f, off)
}

// readAt is readFrom of an open file (nil: none).
func readAt(f *os.File, off int64) ([]Line, int64, bool) {
	if f == nil {
		return nil, 0, false
	}
	data := make([]byte, readChunk)
	n, err := f.ReadAt(data, off)
	if n == 0 {
		return nil, 0, false
	}
	full := err == nil
	// A chunk of partial records only is output as one line (a line of
	// more than readChunk bytes reads as several).
	lines, used := parseCRI(data[:n], false)
	if used == 0 && full {
		lines, used = parseCRI(data[:n], true)
	}
	return lines, int64(used), full && used > 0
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

func (b *Buffer) stream(ctx context.Context, opts Options, now time.Time, out io.Writer) (err error) {
	// Lines go out in writes of up to 64 KiB, flushed whenever the reader
	// has all there is (issue 22: a large log reads at the disk's pace,
	// not a write per line).
	w := bufio.NewWriterSize(out, 64<<10)
	defer func() {
		if ferr := w.Flush(); err == nil {
			err = ferr
		}
	}()
	since := opts.SinceTime
	if opts.SinceSeconds > 0 {
		since = now.Add(-time.Duration(opts.SinceSeconds) * time.Second)
	}
	written := 0
	var line []byte
	emit := func(l Line) (bool, error) {
		if !since.IsZero() && l.Time.Before(since) {
			return true, nil
		}
		line = line[:0]
		if opts.Timestamps {
			line = l.Time.UTC().AppendFormat(line, TimestampFormat)
			line = append(line, ' ')
		}
		line = append(line, l.Text...)
		line = append(line, '\n')
		data := line
		if opts.LimitBytes > 0 && written+len(data) > opts.LimitBytes {
			data = data[:opts.LimitBytes-written]
			_, err := w.Write(data)
			return false, err
		}
		n, err := w.Write(data)
		written += n
		return true, err
	}

	r := b.next(cursor{})
	if opts.TailSet {
		// The last Tail lines of the file, read a chunk at a time.
		var tail []Line
		for {
			tail = append(tail, r.lines...)
			if len(tail) > opts.Tail {
				tail = append([]Line(nil), tail[len(tail)-opts.Tail:]...)
			}
			if !r.more {
				break
			}
			r = b.next(r.cur)
		}
		r.lines = tail
	}
	for {
		for _, l := range r.lines {
			if more, err := emit(l); err != nil || !more {
				return err
			}
		}
		if r.more {
			r = b.next(r.cur)
			continue
		}
		if !opts.Follow || r.closed {
			return nil
		}
		if err := w.Flush(); err != nil {
			return err
		}
		due, ch := r.due, r.ch
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
		r = b.next(r.cur)
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

// ContainerBytes is the disk the logs of k's container take, every
// instance and rotated file of its log directory (the kubelet's container
// Logs stats, which count toward its ephemeral storage; issue 22). 0 for
// a memory store.
func (s *Store) ContainerBytes(k Key) int64 {
	if s.root == "" {
		return 0
	}
	ents, err := os.ReadDir(filepath.Dir(s.Path(k)))
	if err != nil {
		return 0
	}
	var n int64
	for _, e := range ents {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
	}
	return n
}
