package fuzzbound

import (
	"fmt"
	"runtime/metrics"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"
)

// heapMetric is the bytes of the heap's objects, live or not yet swept:
// read without stopping the world.
const heapMetric = "/memory/classes/heap/objects:bytes"

func heap() uint64 {
	s := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// sampleEvery is how often the heap is sampled while a case runs.
const sampleEvery = 2 * time.Millisecond

// Run runs f, one fuzz case (what names it), and fails t when f did not
// return within limit (real time) or when the heap grew by more than
// maxHeap bytes over what it was before f at any sample while f ran.
func Run(t testing.TB, what string, limit time.Duration, maxHeap uint64, f func()) {
	t.Helper()
	base := heap()
	var peak uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tk := time.NewTicker(sampleEvery)
		defer tk.Stop()
		for {
			if h := heap(); h > peak {
				peak = h
			}
			select {
			case <-stop:
				return
			case <-tk.C:
			}
		}
	}()
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		f()
	}()
	select {
	case p := <-done:
		close(stop)
		wg.Wait()
		if p != nil {
			panic(p) // the fuzzer keeps the input
		}
	case <-time.After(limit):
		close(stop)
		wg.Wait()
		var b strings.Builder
		_ = pprof.Lookup("goroutine").WriteTo(&b, 1)
		t.Fatalf("%s: did not end within %s (real time)\n%s", what, limit, b.String())
	}
	if h := heap(); h > peak {
		peak = h
	}
	if peak > base && peak-base > maxHeap {
		t.Fatalf("%s: the heap grew by %s while it ran (bound %s)", what, size(peak-base), size(maxHeap))
	}
}

// Writer counts what a case writes to one stream, keeping none of it.
type Writer struct {
	mu      sync.Mutex
	n       int64
	largest int
}

func (w *Writer) Write(b []byte) (int, error) {
	w.mu.Lock()
	w.n += int64(len(b))
	w.largest = max(w.largest, len(b))
	w.mu.Unlock()
	return len(b), nil
}

// Check fails t when one write was larger than maxWrite or all of them
// more than maxTotal bytes.
func (w *Writer) Check(t testing.TB, what string, maxWrite int, maxTotal int64) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.largest > maxWrite {
		t.Errorf("%s: wrote %s in one write (bound %s)", what, size(uint64(w.largest)), size(uint64(maxWrite)))
	}
	if w.n > maxTotal {
		t.Errorf("%s: wrote %s in all (bound %s)", what, size(uint64(w.n)), size(uint64(maxTotal)))
	}
}

func size(n uint64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
