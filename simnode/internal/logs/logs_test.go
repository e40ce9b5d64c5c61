package logs

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func read(t *testing.T, r io.ReadCloser) string {
	t.Helper()
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var key = Key{Namespace: "default", Pod: "web", PodUID: "u1", Container: "c", ContainerID: "containerd://abc123"}

// stores runs f against a memory store and a file store.
func stores(t *testing.T, f func(t *testing.T, s *Store)) {
	t.Run("memory", func(t *testing.T) { f(t, NewStore()) })
	t.Run("files", func(t *testing.T) { f(t, NewFileStore(t.TempDir(), Rotation{})) })
}

func TestReader(t *testing.T) {
	stores(t, func(t *testing.T, s *Store) {
		t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
		b := s.Open(key)
		for i, l := range []string{"one", "two", "three"} {
			b.Append("stdout", t0.Add(time.Duration(i)*time.Second), l)
		}
		for _, tc := range []struct {
			name string
			opts Options
			want string
		}{
			{"all", Options{}, "one\ntwo\nthree\n"},
			{"tail", Options{Tail: 2, TailSet: true}, "two\nthree\n"},
			{"timestamps", Options{Tail: 1, TailSet: true, Timestamps: true}, "2025-06-01T12:00:02.000000000Z three\n"},
			{"sinceTime", Options{SinceTime: t0.Add(time.Second)}, "two\nthree\n"},
			{"sinceSeconds (inclusive, as the kubelet)", Options{SinceSeconds: 1}, "two\nthree\n"},
			{"limitBytes", Options{LimitBytes: 6}, "one\ntw"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if got := read(t, b.Reader(context.Background(), tc.opts, t0.Add(2*time.Second))); got != tc.want {
					t.Fatalf("got %q, want %q", got, tc.want)
				}
			})
		}
	})
}

func TestFollow(t *testing.T) {
	stores(t, func(t *testing.T, s *Store) {
		b := s.Open(key)
		b.Append("stdout", time.Now(), "first")
		r := b.Reader(context.Background(), Options{Follow: true}, time.Now())
		done := make(chan string)
		go func() { done <- read(t, r) }()
		time.Sleep(20 * time.Millisecond)
		b.Append("stdout", time.Now(), "second")
		b.Close() // the container exits: the follower gets EOF
		select {
		case got := <-done:
			if got != "first\nsecond\n" {
				t.Fatalf("got %q", got)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("follow did not end when the container exited")
		}
	})
}

func TestFollowStopsOnCancel(t *testing.T) {
	stores(t, func(t *testing.T, s *Store) {
		b := s.Open(key)
		ctx, cancel := context.WithCancel(context.Background())
		r := b.Reader(ctx, Options{Follow: true}, time.Now())
		done := make(chan string)
		go func() { done <- read(t, r) }()
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("follow did not stop on cancel")
		}
	})
}

// The files are the kubelet's layout and containerd's CRI format, and a new
// store over the same directory (simnode restarted) reads them, appends to
// the running instance's file, and finds the previous instance's.
func TestFilesSurviveTheProcess(t *testing.T) {
	root := t.TempDir()
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 5, time.UTC)
	s := NewFileStore(root, Rotation{})
	prev := key
	prev.ContainerID = "containerd://old"
	s.Open(prev).Append("stdout", t0, "before the restart of the container")
	s.Open(prev).Close()
	cur := key
	cur.Restart = 1
	s.Open(cur).Append("stderr", t0, "one")

	path := filepath.Join(root, "var", "log", "pods", "default_web_u1", "c", "1.log")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "2025-06-01T12:00:00.000000005Z stderr F one\n"; string(data) != want {
		t.Fatalf("%s: %q, want %q", path, data, want)
	}
	link := filepath.Join(root, "var", "log", "containers", "web_default_c-abc123.log")
	if got, err := os.ReadFile(link); err != nil || string(got) != string(data) {
		t.Fatalf("link %s: %q %v", link, got, err)
	}

	s2 := NewFileStore(root, Rotation{})
	b := s2.Open(cur)
	b.Append("stdout", t0.Add(time.Second), "two")
	if got := read(t, b.Reader(context.Background(), Options{}, t0)); got != "one\ntwo\n" {
		t.Fatalf("after the restart: %q", got)
	}
	if last, n := b.Last(); !last.Equal(t0.Add(time.Second)) || n != 1 {
		t.Fatalf("Last: %v %d", last, n)
	}
	p, err := s2.Get(prev)
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, p.Reader(context.Background(), Options{Follow: true}, t0)); got != "before the restart of the container\n" {
		t.Fatalf("previous: %q", got)
	}
	if _, err := s2.Get(Key{PodUID: "nope", Container: "c"}); err == nil {
		t.Fatal("Get of an unknown instance succeeded")
	}
	s2.DeletePod("u1")
	if _, err := os.Stat(filepath.Join(root, "var", "log", "pods", "default_web_u1")); !os.IsNotExist(err) {
		t.Fatalf("pod log dir left: %v", err)
	}
	if _, err := os.Lstat(link); !os.IsNotExist(err) {
		t.Fatalf("link left: %v", err)
	}
}

func TestParseCRIPartial(t *testing.T) {
	data := "2025-06-01T12:00:00Z stdout P ab\n2025-06-01T12:00:00Z stdout F cd\n2025-06-01T12:00:01Z stdout P ef\n"
	lines, n := parseCRI([]byte(data), false)
	if len(lines) != 1 || lines[0].Text != "abcd" || n != strings.LastIndex(data, "2025") {
		t.Fatalf("%+v %d", lines, n)
	}
}
