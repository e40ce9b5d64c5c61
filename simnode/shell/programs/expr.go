package programs

import (
	"wink.dev/wink/simnode/shell/process"

	"strconv"
)

// progExpr is busybox expr for one binary expression (`expr ${I} % 2`, the
// e2e Job fixtures' failOddSucceedEven, test/e2e/framework/job/fixtures.go)
// or a single value: integer arithmetic (+ - * / %) and comparisons
// (= != < <= > >=, numeric when both sides are integers). It prints the
// result and exits 1 when the result is 0 or empty, 2 on a bad expression
// (row E; all kubelet versions).
func Expr(p *process.Proc, argv []string) int {
	args := argv[1:]
	var out string
	switch len(args) {
	case 1:
		out = args[0]
	case 3:
		a, op, b := args[0], args[1], args[2]
		ai, aerr := strconv.ParseInt(a, 10, 64)
		bi, berr := strconv.ParseInt(b, 10, 64)
		numeric := aerr == nil && berr == nil
		cmp := func(r bool) string {
			if r {
				return "1"
			}
			return "0"
		}
		switch op {
		case "+", "-", "*", "/", "%":
			if !numeric {
				p.Eprintln("expr: non-numeric argument")
				return 2
			}
			var r int64
			switch op {
			case "+":
				r = ai + bi
			case "-":
				r = ai - bi
			case "*":
				r = ai * bi
			case "/", "%":
				if bi == 0 {
					p.Eprintln("expr: division by zero")
					return 2
				}
				if op == "/" {
					r = ai / bi
				} else {
					r = ai % bi
				}
			}
			out = strconv.FormatInt(r, 10)
		case "=", "==", "!=", "<", "<=", ">", ">=":
			c := 0
			switch {
			case numeric && ai < bi, !numeric && a < b:
				c = -1
			case numeric && ai > bi, !numeric && a > b:
				c = 1
			}
			out = cmp(map[string]bool{"=": c == 0, "==": c == 0, "!=": c != 0, "<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[op])
		default:
			p.Eprintln("expr: syntax error")
			return 2
		}
	default:
		p.Eprintln("expr: syntax error")
		return 2
	}
	p.Println(out)
	if out == "0" || out == "" {
		return 1
	}
	return 0
}
