package powershell

import (
	"fmt"
	"strconv"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

func psEscape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case '0':
		return 0
	case 'a':
		return 7
	case 'b':
		return 8
	case 'e':
		return 27
	}
	return c
}

// ---- expressions ----

var psComparisonOps = map[string]bool{}

func init() {
	for _, op := range []string{"eq", "ne", "gt", "ge", "lt", "le", "like", "notlike", "match", "notmatch", "contains", "notcontains", "in", "notin", "replace", "split", "join"} {
		psComparisonOps[op] = true
		psComparisonOps["i"+op] = true
		psComparisonOps["c"+op] = true
	}
	psComparisonOps["is"] = true
	psComparisonOps["isnot"] = true
	psComparisonOps["as"] = true
}

// dashOp reads -word at the position if it is an operator.
func (ps *psParser) dashOp(ops func(string) bool) (string, bool) {
	if ps.peek() != '-' {
		return "", false
	}
	j := ps.i + 1
	for j < len(ps.src) && process.IsLetter(ps.src[j]) {
		j++
	}
	w := strings.ToLower(ps.src[ps.i+1 : j])
	if w == "" || !ops(w) {
		return "", false
	}
	ps.i = j
	return w, true
}

// psBinaryLevels are PowerShell's binary operators by precedence, the
// lowest first (about_Operator_Precedence; the levels of the PowerShell
// parser's TokenFlags.BinaryPrecedence*): the logical operators, then the
// comparison group (comparison, -replace, binary -split and -join, -is,
// -isnot, -as), then the bitwise -band -bor -bxor -shl -shr, then + -, then * / %, then -f. Operators of one level have
// equal precedence and associate to the left. Above them bind the comma,
// the range operator .. and the unary operators (-not, !, unary -, casts,
// unary -split and -join), in that order. Each level reads its operator at
// the position, or says there is none.
var psBinaryLevels = [...]func(ps *psParser) (op string, ok bool){
	func(ps *psParser) (string, bool) {
		return ps.dashOp(func(w string) bool { return w == "and" || w == "or" || w == "xor" })
	},
	func(ps *psParser) (string, bool) { return ps.dashOp(func(w string) bool { return psComparisonOps[w] }) },
	func(ps *psParser) (string, bool) {
		return ps.dashOp(func(w string) bool { return w == "band" || w == "bor" || w == "bxor" || w == "shl" || w == "shr" })
	},
	func(ps *psParser) (string, bool) {
		c, n := ps.peek(), ps.peekAt(1)
		if c == '+' && n != '=' && n != '+' || c == '-' && n != '=' && !process.IsLetter(n) && n != '-' {
			ps.i++
			return string(c), true
		}
		return "", false
	},
	func(ps *psParser) (string, bool) {
		if c := ps.peek(); (c == '*' || c == '/' || c == '%') && ps.peekAt(1) != '=' {
			ps.i++
			return string(c), true
		}
		return "", false
	},
	func(ps *psParser) (string, bool) { return ps.dashOp(func(w string) bool { return w == "f" }) },
}

// expr is a full expression: the binary operators over comma lists.
func (ps *psParser) expr() *psNode { return ps.binary(0, ps.comma) }

// exprNoComma is a method argument: a full expression without the comma
// operator (commas separate arguments).
func (ps *psParser) exprNoComma() *psNode { return ps.binary(0, ps.rangeExpr) }

// binary reads the operators of psBinaryLevels[level] and above, over
// operands read by operand.
func (ps *psParser) binary(level int, operand func() *psNode) *psNode {
	if level == len(psBinaryLevels) {
		return operand()
	}
	left := ps.binary(level+1, operand)
	for {
		ps.skip()
		save := ps.i
		op, ok := psBinaryLevels[level](ps)
		if !ok {
			ps.i = save
			return left
		}
		ps.skipAll()
		right := ps.binary(level+1, operand)
		left = &psNode{kind: "binary", op: op, pos: left.pos, end: ps.i, kids: []*psNode{left, right}}
	}
}

func (ps *psParser) comma() *psNode { return ps.commaList(ps.rangeExpr) }

func (ps *psParser) rangeExpr() *psNode {
	left := ps.unary()
	ps.skip()
	if ps.peek() == '.' && ps.peekAt(1) == '.' {
		ps.i += 2
		ps.skip()
		right := ps.unary()
		return &psNode{kind: "binary", op: "..", pos: left.pos, end: ps.i, kids: []*psNode{left, right}}
	}
	return left
}

func (ps *psParser) unary() *psNode {
	ps.skip()
	start := ps.i
	c := ps.peek()
	switch {
	case c == '!':
		ps.i++
		return &psNode{kind: "unary", op: "not", pos: start, kids: []*psNode{ps.unary()}, end: ps.i}
	case c == '-' && (ps.keyword("-not") || ps.keyword("-bnot")):
		op := strings.ToLower(ps.word()[1:])
		ps.skip()
		return &psNode{kind: "unary", op: op, pos: start, kids: []*psNode{ps.unary()}, end: ps.i}
	case c == '-' && (ps.keyword("-join") || ps.keyword("-split")):
		w := ps.word()
		ps.skip()
		return &psNode{kind: "unary", op: w[1:], pos: start, kids: []*psNode{ps.unary()}, end: ps.i}
	case c == '-' && ps.peekAt(1) != '-':
		ps.i++
		return &psNode{kind: "unary", op: "-", pos: start, kids: []*psNode{ps.unary()}, end: ps.i}
	case c == '+':
		ps.i++
		return ps.unary()
	case c == ',':
		ps.i++
		return &psNode{kind: "array", pos: start, kids: []*psNode{ps.unary()}, end: ps.i}
	case c == '[':
		t := ps.typeName()
		if ps.peek() == ':' && ps.peekAt(1) == ':' {
			return ps.postfix(&psNode{kind: "type", name: t, pos: start, end: ps.i})
		}
		if d := ps.peek(); d != 0 && d != ' ' && d != '\t' && d != ')' && d != ';' && d != '\n' && d != ',' && d != '|' && d != '}' {
			x := ps.unary()
			return &psNode{kind: "cast", name: t, pos: start, kids: []*psNode{x}, end: ps.i}
		}
		return &psNode{kind: "type", name: t, pos: start, end: ps.i}
	}
	n := ps.postfix(ps.primary())
	if c := ps.peek(); (c == '+' || c == '-') && ps.peekAt(1) == c && (n.kind == "var" || n.kind == "member" || n.kind == "index") {
		// $i++ inside an expression: the postfix increment gives the
		// value before it (about_Assignment_Operators)
		ps.i += 2
		n = &psNode{kind: "postfix", op: string(c) + "=", pos: n.pos, end: ps.i, kids: []*psNode{n}}
	}
	return n
}

func (ps *psParser) typeName() string {
	ps.i++ // [
	depth := 1
	j := ps.i
	for ps.i < len(ps.src) && depth > 0 {
		switch ps.src[ps.i] {
		case '[':
			depth++
		case ']':
			depth--
		}
		ps.i++
	}
	if depth > 0 {
		ps.fail(j, "Missing ] at end of type token.", "EndSquareBracketExpectedAtEndOfType")
	}
	return strings.TrimSpace(ps.src[j : ps.i-1])
}

// postfix parses .member, .method(args), [index] and ::static.
func (ps *psParser) postfix(n *psNode) *psNode {
	for {
		c := ps.peek()
		switch {
		case c == '.' && ps.memberNameAfterDot(),
			c == ':' && ps.peekAt(1) == ':':
			static := c == ':'
			if static {
				ps.i += 2
			} else {
				ps.i++
				ps.skipAll() // a member name may follow on the next line
			}
			var name string
			if ps.peek() == '\'' || ps.peek() == '"' || ps.peek() == '$' {
				p := ps.primary()
				name = fmt.Sprint(p.val)
				if p.kind == "var" {
					name = "$" + p.name
				}
			} else {
				j := ps.i
				for ps.i < len(ps.src) && (process.IsLetter(ps.src[ps.i]) || ps.src[ps.i] == '_' || (ps.src[ps.i] >= '0' && ps.src[ps.i] <= '9')) {
					ps.i++
				}
				name = ps.src[j:ps.i]
			}
			m := &psNode{kind: "member", name: name, pos: n.pos, kids: []*psNode{n}}
			if static {
				m.op = "static"
			}
			if ps.peek() == '(' {
				ps.i++
				m.kind = "call"
				for {
					ps.skipAll()
					if ps.peek() == ')' {
						ps.i++
						break
					}
					if ps.peek() == 0 {
						ps.fail(ps.i, "Missing ')' in method call.", "MissingEndParenthesisInMethodCall")
					}
					m.kids = append(m.kids, ps.exprNoComma())
					ps.skipAll()
					if ps.peek() == ',' {
						ps.i++
					}
				}
			}
			m.end = ps.i
			n = m
		case c == '[' && ps.i > 0 && ps.src[ps.i-1] != ' ':
			ps.i++
			ps.skipAll()
			idx := ps.expr()
			ps.skipAll()
			ps.expect(']', "Array index expression is missing or not valid.", "MissingArrayIndexExpression")
			n = &psNode{kind: "index", pos: n.pos, end: ps.i, kids: []*psNode{n, idx}}
		default:
			return n
		}
	}
}

// memberNameAfterDot reports whether the '.' here is member access: a
// name, a quoted or $variable name, or a number ($Matches.1; the
// specification's member-name is any simple name or a value such as a
// numeric literal, §7.1.2), on this line or, after the dot, the next.
func (ps *psParser) memberNameAfterDot() bool {
	j := ps.i + 1
	for j < len(ps.src) && strings.ContainsRune(" \t\r\n", rune(ps.src[j])) {
		j++
	}
	if j == len(ps.src) || ps.src[j] == '.' || (j > ps.i+1 && !strings.Contains(ps.src[ps.i+1:j], "\n")) {
		return false
	}
	c := ps.src[j]
	return process.IsLetter(c) || c == '_' || c == '$' || c == '\'' || c == '"' || (c >= '0' && c <= '9' && j == ps.i+1)
}

func (ps *psParser) variable() *psNode {
	start := ps.i
	ps.i++ // $
	if ps.peek() == '{' {
		j := strings.IndexByte(ps.src[ps.i:], '}')
		if j < 0 {
			ps.fail(ps.i, "Missing '}' in variable name.", "IncompleteDollarVariableReference")
		}
		name := ps.src[ps.i+1 : ps.i+j]
		ps.i += j + 1
		return &psNode{kind: "var", name: name, pos: start, end: ps.i}
	}
	if c := ps.peek(); c == '?' || c == '_' || c == '$' || c == '^' {
		ps.i++
		if c == '_' {
			for ps.i < len(ps.src) && (process.IsLetter(ps.src[ps.i]) || ps.src[ps.i] == '_' || (ps.src[ps.i] >= '0' && ps.src[ps.i] <= '9')) {
				ps.i++
			}
		}
		return &psNode{kind: "var", name: ps.src[start+1 : ps.i], pos: start, end: ps.i}
	}
	j := ps.i
	for ps.i < len(ps.src) && (process.IsLetter(ps.src[ps.i]) || ps.src[ps.i] == '_' || (ps.src[ps.i] >= '0' && ps.src[ps.i] <= '9')) {
		ps.i++
	}
	// scope or drive qualifier: $env:NAME, $global:x
	if ps.peek() == ':' && ps.peekAt(1) != ':' && ps.i > j && (process.IsLetter(ps.peekAt(1)) || ps.peekAt(1) == '_') {
		ps.i++
		for ps.i < len(ps.src) && (process.IsLetter(ps.src[ps.i]) || ps.src[ps.i] == '_' || (ps.src[ps.i] >= '0' && ps.src[ps.i] <= '9') || ps.src[ps.i] == '(' && false) {
			ps.i++
		}
	}
	if ps.i == j {
		return &psNode{kind: "lit", val: "$", pos: start, end: ps.i}
	}
	return &psNode{kind: "var", name: ps.src[j:ps.i], pos: start, end: ps.i}
}

func (ps *psParser) primary() *psNode {
	ps.skip()
	start := ps.i
	c := ps.peek()
	switch {
	case c == '$' && ps.peekAt(1) == '(':
		ps.i += 2
		body := ps.statements(")")
		ps.i++
		return &psNode{kind: "subexpr", pos: start, end: ps.i, block: body}
	case c == '@' && ps.peekAt(1) == '(':
		ps.i += 2
		body := ps.statements(")")
		ps.i++
		return &psNode{kind: "arrayexpr", pos: start, end: ps.i, block: body}
	case c == '@' && ps.peekAt(1) == '{':
		ps.i += 2
		n := &psNode{kind: "hash", pos: start}
		for {
			if !ps.nextEntry("Missing closing '}' in statement block or type definition.") {
				break
			}
			var key *psNode
			if ps.peek() == '\'' || ps.peek() == '"' {
				key = ps.primary()
			} else {
				j := ps.i
				for ps.i < len(ps.src) && !strings.ContainsRune(" \t=;\r\n}", rune(ps.src[ps.i])) {
					ps.i++
				}
				key = &psNode{kind: "lit", val: ps.src[j:ps.i]}
			}
			ps.skip()
			ps.expect('=', "Missing '=' operator after key in hash literal.", "MissingEqualsInHashLiteral")
			ps.skipAll()
			val := ps.statement()
			n.kids = append(n.kids, key, val)
		}
		n.end = ps.i
		return n
	case c == '@' && (ps.peekAt(1) == '"' || ps.peekAt(1) == '\''):
		q := ps.peekAt(1)
		end := strings.Index(ps.src[ps.i+2:], "\n"+string(q)+"@")
		if end < 0 {
			ps.fail(ps.i, "The string is missing the terminator: "+string(q)+"@.", "TerminatorExpectedAtEndOfString")
		}
		body := ps.src[ps.i+2 : ps.i+2+end]
		body = strings.TrimPrefix(strings.TrimPrefix(body, "\r"), "\n")
		body = strings.TrimSuffix(body, "\r")
		ps.i += 2 + end + 3
		if q == '\'' {
			return &psNode{kind: "lit", val: body, pos: start, end: ps.i}
		}
		return &psNode{kind: "str", pos: start, end: ps.i, kids: ps.interpolate(body, start)}
	case c == '$':
		return ps.variable()
	case c == '(':
		ps.i++
		ps.skipAll()
		var inner *psNode
		if ps.peek() == ')' {
			inner = &psNode{kind: "lit", val: nil}
		} else {
			inner = ps.statement()
		}
		ps.skipAll()
		ps.expect(')', "Missing closing ')' in expression.", "MissingEndParenthesisInExpression")
		return &psNode{kind: "paren", pos: start, end: ps.i, kids: []*psNode{inner}}
	case c == '{':
		return ps.scriptBlock()
	case c == '\'':
		var b strings.Builder
		ps.i++
		for {
			if ps.i >= len(ps.src) {
				ps.fail(start, "The string is missing the terminator: '.", "TerminatorExpectedAtEndOfString")
			}
			if ps.src[ps.i] == '\'' {
				if ps.peekAt(1) == '\'' {
					b.WriteByte('\'')
					ps.i += 2
					continue
				}
				ps.i++
				break
			}
			b.WriteByte(ps.src[ps.i])
			ps.i++
		}
		return &psNode{kind: "lit", val: b.String(), pos: start, end: ps.i}
	case c == '"':
		ps.i++
		j := ps.i
		depth := 0
		for {
			if ps.i >= len(ps.src) {
				ps.fail(start, "The string is missing the terminator: \".", "TerminatorExpectedAtEndOfString")
			}
			ch := ps.src[ps.i]
			if ch == '`' {
				ps.i += 2
				continue
			}
			if ch == '$' && ps.peekAt(1) == '(' {
				depth++
				ps.i += 2
				continue
			}
			if depth > 0 && ch == '(' {
				depth++
			}
			if depth > 0 && ch == ')' {
				depth--
			}
			if ch == '"' && depth == 0 {
				if ps.peekAt(1) == '"' {
					ps.i += 2
					continue
				}
				break
			}
			ps.i++
		}
		body := ps.src[j:ps.i]
		ps.i++
		return &psNode{kind: "str", pos: start, end: ps.i, kids: ps.interpolate(body, j)}
	case c >= '0' && c <= '9' || c == '.':
		j := ps.i
		if c == '0' && (ps.peekAt(1) == 'x' || ps.peekAt(1) == 'X') {
			ps.i += 2
			for ps.i < len(ps.src) && strings.ContainsRune("0123456789abcdefABCDEF", rune(ps.src[ps.i])) {
				ps.i++
			}
			n, _ := strconv.ParseInt(ps.src[j+2:ps.i], 16, 64)
			return &psNode{kind: "lit", val: n, pos: start, end: ps.i}
		}
		for ps.i < len(ps.src) && (ps.src[ps.i] >= '0' && ps.src[ps.i] <= '9' || (ps.src[ps.i] == '.' && ps.peekAt(1) != '.')) {
			ps.i++
		}
		text := ps.src[j:ps.i]
		mult := int64(1)
		if ps.i+1 < len(ps.src) {
			switch strings.ToLower(ps.src[ps.i : ps.i+2]) {
			case "kb":
				mult = 1 << 10
			case "mb":
				mult = 1 << 20
			case "gb":
				mult = 1 << 30
			}
			if mult > 1 {
				ps.i += 2
			}
		}
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return &psNode{kind: "lit", val: n * mult, pos: start, end: ps.i}
		}
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			ps.fail(start, fmt.Sprintf("Unexpected token '%s' in expression or statement.", text), "UnexpectedToken")
		}
		return &psNode{kind: "lit", val: f * float64(mult), pos: start, end: ps.i}
	}
	if c == 0 {
		ps.fail(ps.i, "You must provide a value expression following the operator.", "ExpectedValueExpression")
	}
	ps.fail(ps.i, fmt.Sprintf("Unexpected token '%s' in expression or statement.", ps.tokenText()), "UnexpectedToken")
	return nil
}

// interpolate splits the body of a "..." string into literal and
// expansion parts: $var, ${var}, $env:X, $(...), `escapes, "".
func (ps *psParser) interpolate(body string, offset int) []*psNode {
	var parts []*psNode
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, &psNode{kind: "lit", val: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '`' && i+1 < len(body):
			lit.WriteByte(psEscape(body[i+1]))
			i++
		case c == '"' && i+1 < len(body) && body[i+1] == '"':
			lit.WriteByte('"')
			i++
		case c == '$' && i+1 < len(body) && body[i+1] == '(':
			flush()
			sub := &psParser{src: body, i: i}
			n := sub.primary()
			parts = append(parts, n)
			i = sub.i - 1
		case c == '$' && i+1 < len(body) && (process.IsLetter(body[i+1]) || body[i+1] == '_' || body[i+1] == '{' || body[i+1] == '?'):
			flush()
			sub := &psParser{src: body, i: i}
			parts = append(parts, sub.variable())
			i = sub.i - 1
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	return parts
}
