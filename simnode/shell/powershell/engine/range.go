package engine

import "wink.dev/wink/simnode/shell/powershell/parser"
import "strings"

// This file is the range operator a..b (about_Operators, issue 18). Its
// endpoints are [int32]s; captured in an array (an expression: $a = 1..N)
// the range is built whole, so it is bounded by the process's memory: past
// the limit Windows PowerShell's allocation fails with
// System.OutOfMemoryException (row B5; the count a .NET array may hold is
// [int]::MaxValue-56, MicrosoftDocs/PowerShell-Docs#10906 and PR #10907,
// which document that in streaming use the numbers are made one by one).
// The foreach statement streams its range (rangeOf): `foreach ($i in
// 1..1000000) {}` holds one number at a time and is paced by the step
// budget, not capped.

// rangeElemBytes is what one element of the array a range builds holds: an
// object[] slot and a boxed Int32 on 64-bit .NET.
const rangeElemBytes = 32

// psRange is a range's endpoints.
type psRange struct{ from, to int64 }

func (r psRange) count() int64 {
	if r.to >= r.from {
		return r.to - r.from + 1
	}
	return r.from - r.to + 1
}

func (r psRange) at(i int64) int64 {
	if r.to >= r.from {
		return r.from + i
	}
	return r.from - i
}

// newRange converts the endpoints to [int32] as the operator does.
func (s *Shell) newRange(l, r any) psRange {
	return psRange{int64(s.toInt32(l)), int64(s.toInt32(r))}
}

// toInt32 is the [int32] conversion of a range endpoint; a value out of
// range is the conversion's error (a statement-terminating
// RuntimeException).
func (s *Shell) toInt32(v any) int32 {
	n := ToInt(v)
	if n > 1<<31-1 || n < -1<<31 {
		panic(psThrowSignal{&ErrorRecord{Msg: "Cannot convert value \"" + ToStr(v) + "\" to type \"System.Int32\". Error: \"Value was either too large or too small for an Int32.\"",
			Category: "InvalidArgument", Target: ":", Reason: "RuntimeException", Fqid: "InvalidCastIConvertible", stmt: true}})
	}
	return int32(n)
}

// rangeArray builds a range as an array, within the memory limit; building
// it takes a step per 1024 elements.
func (s *Shell) rangeArray(l, r any) []any {
	rg := s.newRange(l, r)
	n := rg.count()
	s.Reserve(n * rangeElemBytes)
	out := make([]any, n)
	for i := int64(0); i < n; i++ {
		if i&1023 == 1023 {
			s.CheckCtx()
		}
		out[i] = rg.at(i)
	}
	return out
}

// rangeOf is the range a foreach statement's collection is, when it is one
// (`foreach ($i in 1..N)`, `foreach ($i in (1..N))`): it is streamed.
func (s *Shell) rangeOf(n *parser.Node) (psRange, bool) {
	for {
		switch {
		case n == nil:
			return psRange{}, false
		case n.Kind == "pipeline" && len(n.Kids) == 1 && n.Kids[0].Kind == "exprelem" && len(n.Kids[0].Redirs) == 0:
			n = n.Kids[0].Kids[0]
		case n.Kind == "paren" && len(n.Kids) == 1:
			n = n.Kids[0]
		case n.Kind == "binary" && n.Op == "..":
			return s.newRange(s.eval(n.Kids[0]), s.eval(n.Kids[1])), true
		default:
			return psRange{}, false
		}
	}
}

// streamedRange is the range a pipeline opens with when ForEach-Object or
// Where-Object takes it (1..N | ForEach-Object { }): the numbers are made
// one by one as the cmdlet asks for them, as in streaming use in
// PowerShell, so the pipeline holds one at a time.
func (s *Shell) streamedRange(n *parser.Node) (psRange, bool) {
	if len(n.Kids) < 2 || n.Kids[0].Kind != "exprelem" || len(n.Kids[0].Redirs) > 0 {
		return psRange{}, false
	}
	cmd := n.Kids[1]
	if cmd.Kind != "command" || cmd.Op != "" || len(cmd.Redirs) > 0 || cmd.Kids[0].Kind != "bare" || len(cmd.Kids[0].Kids) != 1 || cmd.Kids[0].Kids[0].Kind != "lit" {
		return psRange{}, false
	}
	name := ToStr(cmd.Kids[0].Kids[0].Val)
	if _, fn := s.LookupFunc(name); fn {
		return psRange{}, false
	}
	if c := CmdletIndex[strings.ToLower(name)]; c == nil || c.Name != "ForEach-Object" && c.Name != "Where-Object" {
		return psRange{}, false
	}
	e := n.Kids[0].Kids[0]
	if e.Kind != "binary" || e.Op != ".." {
		return psRange{}, false
	}
	return s.rangeOf(e)
}
