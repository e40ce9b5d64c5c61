package logs

import (
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	testingclock "k8s.io/utils/clock/testing"
)

// logFiles lists the files of key's log directory: the current file,
// the rotated ones (plain and .gz), and their total size.
func logFiles(t *testing.T, s *Store) (current int64, plain, gz []string, total int64) {
	t.Helper()
	files, _ := filepath.Glob(s.Path(key) + "*")
	for _, f := range files {
		info, err := os.Stat(f)
		if os.IsNotExist(err) {
			continue // compressed or removed by a pass meanwhile
		}
		if err != nil {
			t.Fatal(err)
		}
		total += info.Size()
		switch {
		case f == s.Path(key):
			current = info.Size()
		case strings.HasSuffix(f, ".gz"):
			gz = append(gz, f)
		default:
			plain = append(plain, f)
		}
	}
	return current, plain, gz, total
}

// Rotation as the kubelet's container log manager (issue 22,
// pkg/kubelet/logs/container_log_manager.go): a pass renames a current
// file of at least MaxSize to <file>.<YYYYMMDD-hhmmss> of the manager's
// clock, compresses the older rotated files (gzip, .gz), keeps at most
// MaxFiles files; reads see the current file, and a follower reads on
// across a rotation.
func TestRotation(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	s := NewFileStore(t.TempDir(), Rotation{MaxSize: 80, MaxFiles: 3})
	s.SetClock(clk)
	b := s.Open(key)
	r := b.Reader(context.Background(), Options{Follow: true}, clk.Now())
	got := make(chan string)
	go func() { got <- read(t, r) }()
	t0 := clk.Now()
	var want strings.Builder
	for i := 0; i < 8; i++ {
		// 42 bytes a line: every second line reaches the size; the
		// manager passes every simulated second.
		text := strings.Repeat("x", 10) + string(rune('a'+i))
		b.Append("stdout", t0, text)
		want.WriteString(text + "\n")
		time.Sleep(5 * time.Millisecond)
		if i%2 == 1 {
			clk.Step(time.Second)
			s.RotateLogs()
		}
	}
	b.Close()
	select {
	case g := <-got:
		if g != want.String() {
			t.Fatalf("follower read %q, want %q", g, want.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("follower did not end")
	}
	current, plain, gz, _ := logFiles(t, s)
	if current != 0 || len(plain) != 1 || len(gz) != 1 {
		t.Fatalf("files after rotation: current %d bytes, rotated %v, compressed %v", current, plain, gz)
	}
	if want := s.Path(key) + ".20250601-120004"; plain[0] != want {
		t.Fatalf("newest rotated file %s, want %s (the manager's clock)", plain[0], want)
	}
	if gz[0] != s.Path(key)+".20250601-120003.gz" {
		t.Fatalf("compressed file %s", gz[0])
	}
	f, err := os.Open(gz[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(zr)
	if lines, _ := parseCRI(data, false); len(lines) != 2 || lines[0].Text != "xxxxxxxxxxe" {
		t.Fatalf("compressed file has %v", lines)
	}
	if lines := b.Lines(); len(lines) != 0 {
		t.Fatalf("current file after the last rotation: %v", lines)
	}
	if last, n := b.Last(); !last.Equal(t0) || n != 2 {
		t.Fatalf("Last after rotation: %v %d", last, n)
	}
}

// The case: a process that never sleeps prints every line at the
// same time of its own clock, as fast as it can. The log rotates at every
// pass that finds it full, not once, so the directory stays within
// Rotation.Bound of what it printed per interval.
func TestRotationEveryPass(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	rot := Rotation{MaxSize: 4 << 10, MaxFiles: 5}
	s := NewFileStore(t.TempDir(), rot)
	s.SetClock(clk)
	b := s.Open(key)
	t0 := clk.Now()
	line := strings.Repeat("spinning ", 4)
	perInterval := int64(0)
	rotations := 0
	for pass := range 30 {
		// 6 KiB to 12 KiB an interval, more than MaxSize.
		n := 200 + 10*pass
		for range n {
			b.Append("stdout", t0, line)
		}
		perInterval = max(perInterval, int64(n*len(appendCRI(nil, Line{Time: t0, Stream: "stdout", Text: line}))))
		_, _, _, before := logFiles(t, s)
		if before > rot.Bound(perInterval) {
			t.Fatalf("pass %d: %d bytes on disk before the pass, bound %d", pass, before, rot.Bound(perInterval))
		}
		clk.Step(10 * time.Second)
		s.RotateLogs()
		current, plain, gz, _ := logFiles(t, s)
		if current != 0 {
			t.Fatalf("pass %d: the full current file was not rotated (%d bytes)", pass, current)
		}
		if files := 1 + len(plain) + len(gz); files > rot.MaxFiles {
			t.Fatalf("pass %d: %d files, containerLogMaxFiles %d: %v %v", pass, files, rot.MaxFiles, plain, gz)
		}
		if len(plain) > 1 {
			t.Fatalf("pass %d: older rotated files not compressed: %v", pass, plain)
		}
		rotations++
	}
	if rotations != 30 {
		t.Fatalf("%d rotations", rotations)
	}
	// A closed container's log is not rotated (only running ones).
	b.Append("stdout", t0, strings.Repeat("x", 5<<10))
	b.Close()
	clk.Step(10 * time.Second)
	s.RotateLogs()
	if current, _, _, _ := logFiles(t, s); current == 0 {
		t.Fatal("the log of an exited container was rotated")
	}
}

// Start runs the passes every MonitorInterval on the store's clock.
func TestStartRotatesEveryInterval(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	s := NewFileStore(t.TempDir(), Rotation{MaxSize: 100, MaxFiles: 5, MonitorInterval: 30 * time.Second})
	s.SetClock(clk)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.Start(ctx)
	b := s.Open(key)
	for round := range 3 {
		// The next pass is scheduled once this one ends.
		waitWaiters(t, clk)
		b.Append("stdout", clk.Now(), strings.Repeat("x", 200))
		clk.Step(29 * time.Second)
		if current, _, _, _ := logFiles(t, s); current == 0 {
			t.Fatalf("round %d: rotated before containerLogMonitorInterval", round)
		}
		clk.Step(time.Second)
		// The fake clock runs the pass on its own goroutine.
		for i := 0; ; i++ {
			if current, _, _, _ := logFiles(t, s); current == 0 {
				break
			}
			if i == 5000 {
				t.Fatalf("round %d: no rotation at containerLogMonitorInterval", round)
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// Held-back lines written in one batch rotate at the next pass.
func TestHeldBackRotation(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	s := NewFileStore(t.TempDir(), Rotation{MaxSize: 200, MaxFiles: 5})
	s.SetClock(clk)
	b := s.Open(key)
	t0 := clk.Now()
	for i := range 10 {
		b.Append("stdout", t0.Add(time.Duration(i+1)*time.Second), strings.Repeat("x", 40))
	}
	clk.Step(10 * time.Second)
	b.Lines()
	s.RotateLogs()
	if current, plain, _, _ := logFiles(t, s); current != 0 || len(plain) != 1 {
		t.Fatalf("after the pass: current %d bytes, rotated %v", current, plain)
	}
}

// A line longer than MaxLineSize arrives in partial records; reads join
// them into one line (the kubelet's parseCRILog), in memory and in the
// file, where they are "P" records.
func TestPartialLines(t *testing.T) {
	stores(t, func(t *testing.T, s *Store) {
		t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
		b := s.Open(key)
		b.AppendPartial("stdout", t0, "ab")
		if got := read(t, b.Reader(context.Background(), Options{}, t0)); got != "" {
			t.Fatalf("an unfinished line was read: %q", got)
		}
		b.AppendPartial("stdout", t0, "cd")
		b.Append("stdout", t0, "ef")
		b.Append("stdout", t0, "gh")
		if got := read(t, b.Reader(context.Background(), Options{}, t0)); got != "abcdef\ngh\n" {
			t.Fatalf("got %q", got)
		}
		if p := s.Path(key); p != "" {
			data, _ := os.ReadFile(p)
			if !strings.Contains(string(data), " stdout P ab\n") {
				t.Fatalf("file:\n%s", data)
			}
		}
	})
}

// A memory store keeps at most MaxMemoryBytes of a container's output.
func TestMemoryStoreBounded(t *testing.T) {
	s := NewStore()
	b := s.Open(key)
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	big := strings.Repeat("x", 1<<20)
	for range 20 {
		b.Append("stdout", t0, big)
	}
	if b.memBytes > MaxMemoryBytes || len(b.lines) > MaxMemoryBytes>>20 {
		t.Fatalf("%d bytes in %d lines kept, MaxMemoryBytes %d", b.memBytes, len(b.lines), MaxMemoryBytes)
	}
	if got := b.Lines(); len(got) == 0 || got[len(got)-1].Text != big {
		t.Fatal("the newest line was dropped")
	}
}

// A large log is read a chunk at a time and reads back whole: tail and
// Last see every line.
func TestLargeLogReads(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	s := NewFileStore(t.TempDir(), Rotation{})
	s.SetClock(clk)
	b := s.Open(key)
	const n = 100000 // about 5 MiB, several chunks
	for i := range n {
		b.Append("stdout", clk.Now(), strings.Repeat("y", 10)+string(rune('a'+i%26)))
	}
	if got := read(t, b.Reader(context.Background(), Options{Tail: 2, TailSet: true}, clk.Now())); got != "yyyyyyyyyyc\nyyyyyyyyyyd\n" {
		t.Fatalf("tail: %q", got)
	}
	if last, c := b.Last(); !last.Equal(clk.Now()) || c != n {
		t.Fatalf("Last: %v %d", last, c)
	}
	all := read(t, b.Reader(context.Background(), Options{}, clk.Now()))
	if strings.Count(all, "\n") != n {
		t.Fatalf("read %d lines of %d", strings.Count(all, "\n"), n)
	}
}

// A restarting container keeps the logs of its running instance and of
// the one before it (`--previous`), as the kubelet's container garbage
// collection leaves them (MaxPerPodContainer 1): a crash loop does not
// pile up files or buffers.
func TestOlderInstancesCollected(t *testing.T) {
	stores(t, func(t *testing.T, s *Store) {
		t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
		for r := range int32(5) {
			k := key
			k.Restart = r
			b := s.Open(k)
			b.Append("stdout", t0, "run")
			b.Close()
		}
		for r := range int32(5) {
			k := key
			k.Restart = r
			_, err := s.Get(k)
			if kept := r >= 3; kept != (err == nil) {
				t.Fatalf("instance %d: Get error %v, want kept %v", r, err, kept)
			}
		}
		if s.root != "" {
			files, _ := filepath.Glob(filepath.Join(filepath.Dir(s.Path(key)), "*"))
			if len(files) != 2 {
				t.Fatalf("files: %v", files)
			}
		}
		if len(s.m) != 2 {
			t.Fatalf("%d buffers kept", len(s.m))
		}
	})
}

// BenchmarkAppend is the cost of a line a busy container prints: one
// write to its open log file (issue 22).
func BenchmarkAppend(b *testing.B) {
	s := NewFileStore(b.TempDir(), Rotation{MaxSize: 1 << 30})
	buf := s.Open(key)
	t0 := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		buf.Append("stdout", t0, "spinning")
	}
}

// BenchmarkReadLarge reads a 10 MiB log the way `kubectl logs` does.
func BenchmarkReadLarge(b *testing.B) {
	s := NewFileStore(b.TempDir(), Rotation{MaxSize: 1 << 30})
	buf := s.Open(key)
	t0 := time.Now()
	for range 10 << 20 / 45 {
		buf.Append("stdout", t0, "spinning")
	}
	b.ReportAllocs()
	for b.Loop() {
		r := buf.Reader(context.Background(), Options{}, t0)
		n, _ := io.Copy(io.Discard, r)
		r.Close()
		b.SetBytes(n)
	}
}
