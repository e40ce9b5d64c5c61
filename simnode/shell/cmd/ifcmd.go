package cmd

import (
	"io"
	"strings"
)

// ifRun is IF (windows-commands/if): [/i] [not] with exist, defined,
// errorlevel, cmdextversion, string1==string2 and the comparisons EQU NEQ
// LSS LEQ GTR GEQ (numbers when both sides are numbers, else strings).
func (s *shell) ifRun(n *ifNode, st streams) int {
	if !s.step() {
		return s.code
	}
	w := make([]string, len(n.words))
	for i, x := range n.words {
		w[i] = s.delayed(s.forVars(x))
	}
	fold, neg := false, false
	for len(w) > 0 && (strings.EqualFold(w[0], "/i") || strings.EqualFold(w[0], "not")) {
		if strings.EqualFold(w[0], "/i") {
			fold = true
		} else {
			neg = true
		}
		w = w[1:]
	}
	if len(w) < 2 {
		io.WriteString(st.err, "The syntax of the command is incorrect.\r\n")
		return 1
	}
	c := s.proc(st)
	var cond bool
	switch strings.ToLower(w[0]) {
	case "exist":
		if len(w) == 2 {
			cond = exists(c, strings.Trim(w[1], `"`))
			break
		}
		fallthrough
	default:
		if len(w) == 2 {
			switch strings.ToLower(w[0]) {
			case "defined":
				_, cond = s.lookup(w[1])
			case "errorlevel", "cmdextversion":
				want, err := parseNumber(w[1])
				if err != nil {
					io.WriteString(st.err, w[1]+" was unexpected at this time.\r\n")
					return 255
				}
				have := int64(2)
				if strings.EqualFold(w[0], "errorlevel") {
					have = int64(s.p.LastExit)
				}
				cond = have >= want
			}
			break
		}
		cond = compare(w[0], strings.ToLower(w[1]), w[2], fold)
	}
	if cond != neg {
		return s.run(n.then, st)
	}
	if n.els != nil {
		return s.run(n.els, st)
	}
	return 0
}

// compare is a==b or a OP b.
func compare(a, op, b string, fold bool) bool {
	if op == "==" {
		if fold {
			return strings.EqualFold(a, b)
		}
		return a == b
	}
	var d int
	x, err1 := parseNumber(a)
	y, err2 := parseNumber(b)
	switch {
	case err1 == nil && err2 == nil:
		switch {
		case x < y:
			d = -1
		case x > y:
			d = 1
		}
	case fold:
		d = strings.Compare(strings.ToLower(a), strings.ToLower(b))
	default:
		d = strings.Compare(a, b)
	}
	switch op {
	case "equ":
		return d == 0
	case "neq":
		return d != 0
	case "lss":
		return d < 0
	case "leq":
		return d <= 0
	case "gtr":
		return d > 0
	}
	return d >= 0 // geq
}
