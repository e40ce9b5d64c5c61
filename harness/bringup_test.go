package harness

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// Up brings up at most BringUpsAtOnce clusters at a time on a machine: the
// next waits for a slot, says so, and takes the first one freed.
func TestBringUpSlots(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	ctx := context.Background()
	var held []*bringUpSlot
	for range BringUpsAtOnce() {
		s, err := takeBringUpSlot(ctx, "a", io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, s)
	}

	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	var said strings.Builder
	if _, err := takeBringUpSlot(short, "b", &said); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("all slots held: err %v, want the context's deadline", err)
	}
	if !strings.Contains(said.String(), `Waiting to bring cluster "b" up`) {
		t.Errorf("progress %q does not say why it waits", said.String())
	}

	got := make(chan error, 1)
	go func() {
		s, err := takeBringUpSlot(ctx, "c", io.Discard)
		s.release()
		got <- err
	}()
	time.Sleep(100 * time.Millisecond)
	held[0].release()
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a freed slot was not taken")
	}
	for _, s := range held {
		s.release()
	}
}
