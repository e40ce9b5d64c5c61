package engine

import "strings"

// This file keeps a script within its process's limits (issue 18: bounded
// by construction, process/limits.go): a step per statement, loop
// iteration and pipeline element (checkCtx), and the memory its variables
// hold. Past the memory limit Windows PowerShell's allocation fails: it
// throws System.OutOfMemoryException, a terminating error (row B5: on
// Windows nothing is OOM-killed).

// outOfMemory raises the OutOfMemoryException; it ends the script.
func (s *Shell) outOfMemory() {
	panic(psThrowSignal{&ErrorRecord{Msg: "Exception of type 'System.OutOfMemoryException' was thrown.", Category: "OperationStopped", Target: ":",
		Reason: "OutOfMemoryException", Fqid: "System.OutOfMemoryException"}})
}

// Reserve checks that a value of n bytes fits the memory limit before the
// interpreter builds it.
func (s *Shell) Reserve(n int64) {
	if n <= 0 {
		return
	}
	if err := s.P.Grow(n); err != nil {
		s.outOfMemory()
	}
	s.P.Grow(-n)
}

// hold accounts what a scope's variable holds now (its old value
// released); a scope releases all it holds when it ends (scopes.go).
func (s *Shell) hold(sc *Scope, name string, v any) {
	n := sizeOf(v, 2)
	if sc.held == nil {
		sc.held = map[string]int64{}
	}
	old := sc.held[name]
	if n == old {
		return
	}
	if err := s.P.Grow(n - old); err != nil {
		s.outOfMemory()
	}
	sc.held[name] = n
}

// Grow accounts delta bytes more held by an element of a collection.
func (s *Shell) Grow(delta int64) {
	if delta > 0 {
		if err := s.P.Grow(delta); err != nil {
			s.outOfMemory()
		}
	}
}

// sizeOf estimates the bytes a value holds, looking depth levels deep.
func sizeOf(v any, depth int) int64 {
	switch x := v.(type) {
	case string:
		return int64(len(x)) + 16
	case []any:
		n := int64(16 * len(x))
		if depth > 0 {
			for _, e := range x {
				n += sizeOf(e, depth-1)
			}
		}
		return n
	case *Hash:
		n := int64(48 * len(x.keys))
		if depth > 0 {
			for _, k := range x.keys {
				n += int64(len(k)) + sizeOf(x.m[strings.ToLower(k)], depth-1)
			}
		}
		return n
	case *Object:
		return int64(32*len(x.Props) + len(x.Str))
	}
	return 16
}

// collector gathers output into a slice (a pipeline stage's output for the
// next stage, a subexpression's or an assignment's value), each element
// held while it is gathered: `1..1000 | % { 1..100000 }` fails with
// OutOfMemoryException as its output outgrows the limit. release gives
// back what the slice held.
func (s *Shell) collector() (vals *[]any, sink emitter, release func()) {
	vals = &[]any{} // not nil: a stage that wrote nothing is still input
	var held int64
	sink = func(v any) {
		if _, ok := v.(flushMarker); ok {
			return
		}
		n := sizeOf(v, 1) + 16
		if err := s.P.Grow(n); err != nil {
			s.outOfMemory()
		}
		held += n
		*vals = append(*vals, v)
	}
	release = func() {
		if held > 0 {
			s.P.Grow(-held)
			held = 0
		}
	}
	return vals, sink, release
}
