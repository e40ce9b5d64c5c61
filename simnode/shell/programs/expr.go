package programs

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"wink.dev/wink/simnode/shell/process"
)

// Expr is expr EXPRESSION
// (https://pubs.opengroup.org/onlinepubs/9699919799/utilities/expr.html):
// the operators, loosest first, | & (= > >= < <= !=) (+ -) (* / %) and
// STRING : REGEXP (an anchored basic regular expression: the length of the
// match, or what its \( \) matched), parentheses, and the busybox and GNU
// functions match, substr, index, length. It prints the result and exits 1
// when the result is 0 or empty, 2 on a bad expression, 3 on another error
// (`expr ${I} % 2`, the e2e Job fixtures' failOddSucceedEven,
// test/e2e/framework/job/fixtures.go; nextcloud's `expr "$1" : "apache"`).
func Expr(p *process.Proc, argv []string) int {
	e := &exprParser{args: argv[1:]}
	v, err := e.or()
	if err == nil && len(e.args) > 0 {
		err = errExprSyntax
	}
	if err != nil {
		p.Eprintln("expr: " + err.Error())
		if errors.Is(err, errExprSyntax) || errors.Is(err, errExprNumber) {
			return 2
		}
		return 3
	}
	p.Println(v)
	if isNull(v) {
		return 1
	}
	return 0
}

var (
	errExprSyntax = errors.New("syntax error")
	errExprNumber = errors.New("non-numeric argument")
)

// exprParser reads expr's arguments, one token each.
type exprParser struct{ args []string }

// isNull is expr's false: the empty string or an integer zero.
func isNull(v string) bool {
	if v == "" {
		return true
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return err == nil && n == 0
}

func (e *exprParser) peek() string {
	if len(e.args) == 0 {
		return ""
	}
	return e.args[0]
}

// binary reads a left-associative level of operators ops over next.
func (e *exprParser) binary(ops []string, next func() (string, error), apply func(op, a, b string) (string, error)) (string, error) {
	a, err := next()
	if err != nil {
		return "", err
	}
	for len(e.args) > 1 && contains(ops, e.peek()) {
		op := e.args[0]
		e.args = e.args[1:]
		b, err := next()
		if err != nil {
			return "", err
		}
		if a, err = apply(op, a, b); err != nil {
			return "", err
		}
	}
	return a, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (e *exprParser) or() (string, error) {
	return e.binary([]string{"|"}, e.and, func(_, a, b string) (string, error) {
		switch {
		case !isNull(a):
			return a, nil
		case !isNull(b):
			return b, nil
		}
		return "0", nil
	})
}

func (e *exprParser) and() (string, error) {
	return e.binary([]string{"&"}, e.compare, func(_, a, b string) (string, error) {
		if isNull(a) || isNull(b) {
			return "0", nil
		}
		return a, nil
	})
}

func (e *exprParser) compare() (string, error) {
	return e.binary([]string{"=", "==", "!=", "<", "<=", ">", ">="}, e.sum, func(op, a, b string) (string, error) {
		c := strings.Compare(a, b)
		ai, aerr := strconv.ParseInt(a, 10, 64)
		bi, berr := strconv.ParseInt(b, 10, 64)
		if aerr == nil && berr == nil {
			c = map[bool]int{true: -1, false: 1}[ai < bi]
			if ai == bi {
				c = 0
			}
		}
		r := map[string]bool{"=": c == 0, "==": c == 0, "!=": c != 0, "<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[op]
		if r {
			return "1", nil
		}
		return "0", nil
	})
}

func (e *exprParser) sum() (string, error) {
	return e.binary([]string{"+", "-"}, e.product, arith)
}

func (e *exprParser) product() (string, error) {
	return e.binary([]string{"*", "/", "%"}, e.match, arith)
}

// arith is integer arithmetic on two arguments.
func arith(op, a, b string) (string, error) {
	x, err1 := strconv.ParseInt(a, 10, 64)
	y, err2 := strconv.ParseInt(b, 10, 64)
	if err1 != nil || err2 != nil {
		return "", errExprNumber
	}
	var r int64
	switch op {
	case "+":
		r = x + y
	case "-":
		r = x - y
	case "*":
		r = x * y
	default:
		if y == 0 {
			return "", errors.New("division by zero")
		}
		if op == "/" {
			r = x / y
		} else {
			r = x % y
		}
	}
	return strconv.FormatInt(r, 10), nil
}

func (e *exprParser) match() (string, error) {
	return e.binary([]string{":"}, e.primary, exprMatch)
}

// exprMatch is STRING : REGEXP.
func exprMatch(_, s, re string) (string, error) {
	rx, err := regexp.Compile("^(?:" + breToGo(strings.TrimPrefix(re, "^")) + ")")
	if err != nil {
		return "", errors.New("Invalid regular expression")
	}
	m := rx.FindStringSubmatch(s)
	if rx.NumSubexp() > 0 {
		if m == nil {
			return "", nil
		}
		return m[1], nil
	}
	if m == nil {
		return "0", nil
	}
	return strconv.Itoa(utf8.RuneCountInString(m[0])), nil
}

func (e *exprParser) primary() (string, error) {
	if len(e.args) == 0 {
		return "", errExprSyntax
	}
	a := e.args[0]
	e.args = e.args[1:]
	arg := func() (string, error) {
		if len(e.args) == 0 {
			return "", errExprSyntax
		}
		v := e.args[0]
		e.args = e.args[1:]
		return v, nil
	}
	switch a {
	case "(":
		v, err := e.or()
		if err != nil {
			return "", err
		}
		if c, err := arg(); err != nil || c != ")" {
			return "", errExprSyntax
		}
		return v, nil
	case "+":
		return arg()
	case "length":
		s, err := arg()
		return strconv.Itoa(utf8.RuneCountInString(s)), err
	case "match":
		s, err := arg()
		if err != nil {
			return "", err
		}
		re, err := arg()
		if err != nil {
			return "", err
		}
		return exprMatch(":", s, re)
	case "index":
		s, err := arg()
		if err != nil {
			return "", err
		}
		chars, err := arg()
		return strconv.Itoa(strings.IndexAny(s, chars) + 1), err
	case "substr":
		s, err := arg()
		if err != nil {
			return "", err
		}
		pos, err1 := arg()
		n, err2 := arg()
		if err1 != nil || err2 != nil {
			return "", errExprSyntax
		}
		i, err1 := strconv.Atoi(pos)
		l, err2 := strconv.Atoi(n)
		r := []rune(s)
		if err1 != nil || err2 != nil || i < 1 || l < 1 || i > len(r) {
			return "", nil
		}
		return string(r[i-1 : min(len(r), i-1+l)]), nil
	}
	return a, nil
}
