package logs

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	testingclock "k8s.io/utils/clock/testing"
)

// aheadStores runs f against a memory store and a file store on a fake
// clock at t0.
func aheadStores(t *testing.T, f func(t *testing.T, s *Store, clk *testingclock.FakeClock)) {
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	t.Run("memory", func(t *testing.T) {
		clk := testingclock.NewFakeClock(t0)
		s := NewStore()
		s.SetClock(clk)
		f(t, s, clk)
	})
	t.Run("files", func(t *testing.T) {
		clk := testingclock.NewFakeClock(t0)
		s := NewFileStore(t.TempDir(), Rotation{})
		s.SetClock(clk)
		f(t, s, clk)
	})
}

// appendAhead appends n lines a second apart from the clock's now + 1 s,
// as a process running ahead of the clock prints them.
func appendAhead(b *Buffer, from time.Time, n int) {
	for i := range n {
		b.Append("stdout", from.Add(time.Duration(i+1)*time.Second), "line "+strconv.Itoa(i+1))
	}
}

// Lines appended ahead of their time are output when the clock reaches
// them: readers see exactly the lines whose time has come, with their own
// timestamps, and the file on the node's disk has no line of the future.
func TestHeldBackUntilTheirTime(t *testing.T) {
	aheadStores(t, func(t *testing.T, s *Store, clk *testingclock.FakeClock) {
		t0 := clk.Now()
		b := s.Open(key)
		appendAhead(b, t0, 10)
		if got := b.Lines(); len(got) != 0 {
			t.Fatalf("at t0: %d lines, want none", len(got))
		}
		clk.Step(5 * time.Second)
		if got := len(b.Lines()); got != 5 {
			t.Fatalf("at t0+5s: %d lines, want 5", got)
		}
		if p := s.Path(key); p != "" {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(data), "\n"); n != 5 {
				t.Fatalf("file has %d lines at t0+5s, want 5:\n%s", n, data)
			}
		}
		now := clk.Now()
		for _, tc := range []struct {
			name string
			opts Options
			want string
		}{
			{"since 3s (inclusive, as the kubelet)", Options{SinceSeconds: 3}, "line 2\nline 3\nline 4\nline 5\n"},
			{"tail 2", Options{Tail: 2, TailSet: true}, "line 4\nline 5\n"},
			{"timestamps", Options{Tail: 2, TailSet: true, Timestamps: true}, "2025-06-01T12:00:04.000000000Z line 4\n2025-06-01T12:00:05.000000000Z line 5\n"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if got := read(t, b.Reader(context.Background(), tc.opts, now)); got != tc.want {
					t.Fatalf("got %q, want %q", got, tc.want)
				}
			})
		}
	})
}

// A container stopped while its process ran ahead: what it printed by
// then is in its log, the rest never happened.
func TestCloseDropsTheFuture(t *testing.T) {
	aheadStores(t, func(t *testing.T, s *Store, clk *testingclock.FakeClock) {
		t0 := clk.Now()
		b := s.Open(key)
		appendAhead(b, t0, 10)
		clk.Step(3 * time.Second)
		b.Close()
		clk.Step(time.Minute)
		if got := len(b.Lines()); got != 3 {
			t.Fatalf("%d lines after a stop at t0+3s, want 3", got)
		}
		if s.Path(key) == "" {
			return
		}
		again, err := NewFileStore(s.root, Rotation{}).Get(key)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(again.Lines()); got != 3 {
			t.Fatalf("%d lines in the file after a stop at t0+3s, want 3", got)
		}
	})
}

// A follower gets each held-back line when its time comes, and EOF when
// the container stops.
func TestFollowHeldBack(t *testing.T) {
	aheadStores(t, func(t *testing.T, s *Store, clk *testingclock.FakeClock) {
		t0 := clk.Now()
		b := s.Open(key)
		appendAhead(b, t0, 10)
		pr := &chanWriter{c: make(chan string, 16)}
		done := make(chan error, 1)
		go func() { done <- b.stream(context.Background(), Options{Follow: true, Timestamps: true}, t0, pr) }()
		for i := 1; i <= 3; i++ {
			waitWaiters(t, clk)
			clk.Step(time.Second)
			got := <-pr.c
			want := t0.Add(time.Duration(i)*time.Second).UTC().Format(TimestampFormat) + " line " + strconv.Itoa(i) + "\n"
			if got != want {
				t.Fatalf("second %d: got %q, want %q", i, got, want)
			}
		}
		b.Close()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		select {
		case extra := <-pr.c:
			t.Fatalf("after the stop: %q", extra)
		default:
		}
	})
}

type chanWriter struct{ c chan string }

func (w *chanWriter) Write(p []byte) (int, error) {
	w.c <- string(p)
	return len(p), nil
}

// waitWaiters waits until the follower waits on the clock (no time
// assertion: it only orders the test's steps after the follower's wait).
func waitWaiters(t *testing.T, clk *testingclock.FakeClock) {
	t.Helper()
	for range 10000 {
		if clk.HasWaiters() {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the follower never waited for the next line")
}
