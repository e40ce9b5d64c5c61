package logs

import (
	"context"
	"io"
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

func TestReader(t *testing.T) {
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	b := NewStore().Open(Key{PodUID: "u", Container: "c"})
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
}

func TestFollow(t *testing.T) {
	b := NewStore().Open(Key{PodUID: "u", Container: "c"})
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
}

func TestFollowStopsOnCancel(t *testing.T) {
	b := NewStore().Open(Key{PodUID: "u", Container: "c"})
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
}
