package fuzzbound

import (
	"testing"
	"time"
)

// fake is a testing.TB that records a failure instead of stopping.
type fake struct {
	testing.TB
	failed bool
}

func (f *fake) Helper()               {}
func (f *fake) Fatalf(string, ...any) { f.failed = true }
func (f *fake) Errorf(string, ...any) { f.failed = true }

var sink []byte

// A case that holds 64 MiB fails a 16 MiB bound; one that holds nothing
// does not.
func TestRunSeesTheHeapGrow(t *testing.T) {
	f := &fake{TB: t}
	Run(f, "big", time.Minute, 16<<20, func() {
		sink = make([]byte, 64<<20)
		for i := range sink {
			sink[i] = 1
		}
		time.Sleep(10 * sampleEvery)
	})
	sink = nil
	if !f.failed {
		t.Error("a case that holds 64 MiB passed a 16 MiB bound")
	}
	f = &fake{TB: t}
	Run(f, "small", time.Minute, 16<<20, func() {})
	if f.failed {
		t.Error("a case that holds nothing failed")
	}
}

func TestWriterBounds(t *testing.T) {
	var w Writer
	w.Write(make([]byte, 10))
	w.Write(make([]byte, 30))
	f := &fake{TB: t}
	w.Check(f, "w", 20, 100)
	if !f.failed {
		t.Error("a 30-byte write passed a 20-byte bound")
	}
	f = &fake{TB: t}
	w.Check(f, "w", 30, 39)
	if !f.failed {
		t.Error("40 bytes passed a 39-byte bound")
	}
	f = &fake{TB: t}
	w.Check(f, "w", 30, 40)
	if f.failed {
		t.Error("within bounds, failed")
	}
}
