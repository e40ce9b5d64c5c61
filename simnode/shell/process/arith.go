package process

import (
	"errors"
	"strconv"
	"strings"
)

// EvalArith is `set /a`: integers, + - * / % and parentheses, names.
func EvalArith(s string, v *Vars) (int64, error) {
	a := &arith{s: strings.ReplaceAll(s, " ", ""), v: v}
	n := a.expr()
	if a.err != nil || a.i != len(a.s) {
		return 0, errors.New("Missing operand.")
	}
	return n, nil
}

type arith struct {
	s   string
	i   int
	v   *Vars
	err error
}

func (a *arith) expr() int64 {
	n := a.term()
	for a.i < len(a.s) && (a.s[a.i] == '+' || a.s[a.i] == '-') {
		op := a.s[a.i]
		a.i++
		m := a.term()
		if op == '+' {
			n += m
		} else {
			n -= m
		}
	}
	return n
}

func (a *arith) term() int64 {
	n := a.factor()
	for a.i < len(a.s) && strings.IndexByte("*/%", a.s[a.i]) >= 0 {
		op := a.s[a.i]
		a.i++
		m := a.factor()
		switch {
		case op == '*':
			n *= m
		case m == 0:
			a.err = errors.New("Divide by zero error.")
		case op == '/':
			n /= m
		default:
			n %= m
		}
	}
	return n
}

func (a *arith) factor() int64 {
	if a.i >= len(a.s) {
		a.err = errors.New("missing")
		return 0
	}
	switch c := a.s[a.i]; {
	case c == '(':
		a.i++
		n := a.expr()
		if a.i < len(a.s) && a.s[a.i] == ')' {
			a.i++
		} else {
			a.err = errors.New("missing )")
		}
		return n
	case c == '-':
		a.i++
		return -a.factor()
	case c >= '0' && c <= '9':
		j := a.i
		for j < len(a.s) && a.s[j] >= '0' && a.s[j] <= '9' {
			j++
		}
		n, _ := strconv.ParseInt(a.s[a.i:j], 10, 64)
		a.i = j
		return n
	case IsLetter(c) || c == '_':
		j := a.i
		for j < len(a.s) && (IsLetter(a.s[j]) || a.s[j] == '_' || (a.s[j] >= '0' && a.s[j] <= '9')) {
			j++
		}
		val, _ := a.v.Get(a.s[a.i:j])
		a.i = j
		n, _ := strconv.ParseInt(val, 10, 64)
		return n
	}
	a.err = errors.New("bad")
	return 0
}
