package cmd

import (
	"io"
	"strconv"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// This file is `set /a` (windows-commands/set): 32-bit integer arithmetic
// with the operators, by precedence from high to low, ( ); ! ~ - (unary);
// * / %; + -; << >>; &; ^; |; = *= /= %= += -= &= ^= |= <<= >>=; and the
// expression separator ",". Numbers are decimal, 0x hexadecimal or 0
// octal; a name is a variable (undefined: 0). On the command line set /a
// prints the value of the last expression; in a batch file it does not.

// ERRORLEVELs of set /a's errors (cmd.exe's message numbers).
const (
	errUnbalanced = 1073750988
	errOperand    = 1073750989
	errSyntaxA    = 1073750990
	errNumber     = 1073750991
	errTooLarge   = 1073750992
	errDivZero    = 1073750993
)

var arithMessages = map[int]string{
	errUnbalanced: "Unbalanced parenthesis.",
	errOperand:    "Missing operand.",
	errSyntaxA:    "Missing operator.",
	errNumber:     "Invalid number.  Numeric constants are either decimal (17), hexadecimal (0x11), or octal (021).",
	errTooLarge:   "Invalid number.  Numbers are limited to 32-bits of precision.",
	errDivZero:    "Divide by zero error.",
}

type arith struct {
	s   *shell
	c   *process.Proc
	src string
	i   int
	err int
}

// setA is `set /a expression`.
func (s *shell) setA(c *process.Proc, expr string) int {
	// quotes only group: `set /a "x=1<<4"`
	expr = strings.ReplaceAll(expr, `"`, "")
	a := &arith{s: s, c: c, src: expr}
	a.blank()
	if a.i >= len(a.src) {
		return syntaxIncorrect(c)
	}
	v := a.comma()
	if a.err == 0 && a.i < len(a.src) {
		if a.src[a.i] == ')' {
			a.err = errUnbalanced
		} else {
			a.err = errSyntaxA
		}
	}
	if a.err != 0 {
		if a.err != -1 {
			c.Eprintln(arithMessages[a.err])
		}
		return a.err
	}
	if s.bat == nil {
		io.WriteString(c.Stdout, strconv.FormatInt(int64(v), 10))
	}
	return 0
}

func (a *arith) blank() {
	for a.i < len(a.src) && strings.IndexByte(" \t", a.src[a.i]) >= 0 {
		a.i++
	}
}

func (a *arith) peek(op string) bool {
	a.blank()
	return strings.HasPrefix(a.src[a.i:], op)
}

func (a *arith) comma() int32 {
	v := a.assign()
	for a.err == 0 && a.peek(",") {
		a.i++
		v = a.assign()
	}
	return v
}

var assignOps = []string{"<<=", ">>=", "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "="}

// assign is name op= expression, or an expression.
func (a *arith) assign() int32 {
	a.blank()
	save := a.i
	if name := a.name(); name != "" {
		a.blank()
		for _, op := range assignOps {
			if strings.HasPrefix(a.src[a.i:], op) && !strings.HasPrefix(a.src[a.i:], "==") {
				a.i += len(op)
				rhs := a.assign()
				if a.err != 0 {
					return 0
				}
				v := rhs
				if op != "=" {
					v = a.binary(op[:len(op)-1], a.varValue(name), rhs)
				}
				if a.err != 0 {
					return 0
				}
				if a.s.setVar(a.c, name, strconv.FormatInt(int64(v), 10)) != 0 && a.s.exited {
					a.err = -1
				}
				return v
			}
		}
	}
	a.i = save
	return a.or()
}

// name reads a variable name at the cursor ("" if none).
func (a *arith) name() string {
	j := a.i
	for j < len(a.src) && !strings.ContainsRune(" \t()!~-*/%+<>&^|=,", rune(a.src[j])) {
		j++
	}
	n := a.src[a.i:j]
	if n == "" || (n[0] >= '0' && n[0] <= '9') {
		return ""
	}
	a.i = j
	return n
}

func (a *arith) varValue(name string) int32 {
	v, ok := a.s.lookup(name)
	if !ok {
		return 0
	}
	n, err := parseNumber(strings.TrimSpace(v))
	if err != nil {
		// a value that is no number is 0 (its leading digits count)
		j := 0
		for j < len(v) && v[j] >= '0' && v[j] <= '9' {
			j++
		}
		n, _ = strconv.ParseInt(v[:j], 10, 64)
	}
	return int32(n)
}

// levels of binary operators, low to high.
var arithLevels = [][]string{{"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}}

func (a *arith) or() int32 { return a.level(0) }

func (a *arith) level(l int) int32 {
	if l == len(arithLevels) {
		return a.unary()
	}
	v := a.level(l + 1)
	for a.err == 0 {
		a.blank()
		op := ""
		for _, o := range arithLevels[l] {
			if strings.HasPrefix(a.src[a.i:], o) && !a.isAssignAt(o) {
				op = o
			}
		}
		if op == "" {
			return v
		}
		a.i += len(op)
		r := a.level(l + 1)
		if a.err != 0 {
			return 0
		}
		v = a.binary(op, v, r)
	}
	return v
}

// isAssignAt: the operator at the cursor is op= (an assignment, not op).
func (a *arith) isAssignAt(op string) bool {
	return strings.HasPrefix(a.src[a.i+len(op):], "=")
}

func (a *arith) binary(op string, x, y int32) int32 {
	switch op {
	case "|":
		return x | y
	case "^":
		return x ^ y
	case "&":
		return x & y
	case "<<":
		return x << (uint32(y) & 31)
	case ">>":
		return x >> (uint32(y) & 31)
	case "+":
		return x + y
	case "-":
		return x - y
	case "*":
		return x * y
	case "/", "%":
		if y == 0 {
			a.err = errDivZero
			return 0
		}
		if x == -1<<31 && y == -1 {
			if op == "/" {
				return x
			}
			return 0
		}
		if op == "/" {
			return x / y
		}
		return x % y
	}
	return 0
}

func (a *arith) unary() int32 {
	a.blank()
	if a.i >= len(a.src) {
		a.err = errOperand
		return 0
	}
	switch c := a.src[a.i]; {
	case c == '!':
		a.i++
		if a.unary() == 0 {
			return 1
		}
		return 0
	case c == '~':
		a.i++
		return ^a.unary()
	case c == '-':
		a.i++
		return -a.unary()
	case c == '+':
		a.i++
		return a.unary()
	case c == '(':
		a.i++
		v := a.comma()
		if a.err != 0 {
			return 0
		}
		if !a.peek(")") {
			a.err = errUnbalanced
			return 0
		}
		a.i++
		return v
	case c >= '0' && c <= '9':
		j := a.i
		for j < len(a.src) && (process.IsLetter(a.src[j]) || (a.src[j] >= '0' && a.src[j] <= '9')) {
			j++
		}
		lit := a.src[a.i:j]
		a.i = j
		n, err := parseNumber(lit)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				a.err = errTooLarge
			} else {
				a.err = errNumber
			}
			return 0
		}
		if n > 1<<32-1 {
			a.err = errTooLarge
			return 0
		}
		return int32(uint32(n))
	}
	if name := a.name(); name != "" {
		return a.varValue(name)
	}
	a.err = errOperand
	return 0
}
