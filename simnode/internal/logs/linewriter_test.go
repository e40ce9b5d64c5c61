package logs

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A line without its newline is kept up to MaxLineSize (containerd's
// max_container_log_line_size); past it the log gets partial records and
// reads join them. A program printing one endless line costs
// no more memory than that.
func TestLineWriterSplitsLongLines(t *testing.T) {
	store := NewStore()
	b := store.Open(Key{PodUID: "u", Container: "c"})
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	lw := &LineWriter{W: b, Stream: "stdout", Now: func() time.Time { return t0 }}
	chunk := strings.Repeat("x", 1000)
	for range 100 {
		if n, err := lw.Write([]byte(chunk)); n != len(chunk) || err != nil {
			t.Fatalf("Write: %d %v", n, err)
		}
		if len(lw.buf) >= MaxLineSize {
			t.Fatalf("%d bytes of one line held in the writer", len(lw.buf))
		}
	}
	if _, err := lw.Write([]byte("end\r\nnext\n" + strings.Repeat("y", 3*MaxLineSize) + "\n")); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(readAll(t, b), "\n"), "\n")
	if len(got) != 3 || got[0] != strings.Repeat(chunk, 100)+"end" || got[1] != "next" || got[2] != strings.Repeat("y", 3*MaxLineSize) {
		t.Fatalf("read %d lines: %.40q...", len(got), got)
	}
}

func readAll(t *testing.T, b *Buffer) string {
	t.Helper()
	var sb strings.Builder
	r := b.Reader(context.Background(), Options{}, time.Now())
	defer r.Close()
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			return sb.String()
		}
	}
}
