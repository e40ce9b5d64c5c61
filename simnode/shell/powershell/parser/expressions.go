package parser

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

var ComparisonOps = map[string]bool{}

func init() {
	for _, op := range []string{"eq", "ne", "gt", "ge", "lt", "le", "like", "notlike", "match", "notmatch", "contains", "notcontains", "in", "notin", "replace", "split", "join"} {
		ComparisonOps[op] = true
		ComparisonOps["i"+op] = true
		ComparisonOps["c"+op] = true
	}
	ComparisonOps["is"] = true
	ComparisonOps["isnot"] = true
	ComparisonOps["as"] = true
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
	func(ps *psParser) (string, bool) { return ps.dashOp(func(w string) bool { return ComparisonOps[w] }) },
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
func (ps *psParser) expr() *Node { return ps.binary(0, ps.comma) }

// exprNoComma is a method argument: a full expression without the comma
// operator (commas separate arguments).
func (ps *psParser) exprNoComma() *Node { return ps.binary(0, ps.rangeExpr) }

// binary reads the operators of psBinaryLevels[level] and above, over
// operands read by operand.
func (ps *psParser) binary(level int, operand func() *Node) *Node {
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
		left = &Node{Kind: "binary", Op: op, Pos: left.Pos, End: ps.i, Kids: []*Node{left, right}}
	}
}

func (ps *psParser) comma() *Node { return ps.commaList(ps.rangeExpr) }

func (ps *psParser) rangeExpr() *Node {
	left := ps.unary()
	ps.skip()
	if ps.peek() == '.' && ps.peekAt(1) == '.' {
		ps.i += 2
		ps.skip()
		right := ps.unary()
		return &Node{Kind: "binary", Op: "..", Pos: left.Pos, End: ps.i, Kids: []*Node{left, right}}
	}
	return left
}

func (ps *psParser) unary() *Node {
	ps.skip()
	start := ps.i
	c := ps.peek()
	switch {
	case c == '!':
		ps.i++
		return &Node{Kind: "unary", Op: "not", Pos: start, Kids: []*Node{ps.unary()}, End: ps.i}
	case c == '-' && (ps.keyword("-not") || ps.keyword("-bnot")):
		op := strings.ToLower(ps.word()[1:])
		ps.skip()
		return &Node{Kind: "unary", Op: op, Pos: start, Kids: []*Node{ps.unary()}, End: ps.i}
	case c == '-' && (ps.keyword("-join") || ps.keyword("-split")):
		w := ps.word()
		ps.skip()
		return &Node{Kind: "unary", Op: w[1:], Pos: start, Kids: []*Node{ps.unary()}, End: ps.i}
	case c == '-' && ps.peekAt(1) != '-':
		ps.i++
		return &Node{Kind: "unary", Op: "-", Pos: start, Kids: []*Node{ps.unary()}, End: ps.i}
	case c == '+':
		ps.i++
		return ps.unary()
	case c == ',':
		ps.i++
		return &Node{Kind: "array", Pos: start, Kids: []*Node{ps.unary()}, End: ps.i}
	case c == '[':
		t := ps.typeName()
		if ps.peek() == ':' && ps.peekAt(1) == ':' {
			return ps.postfix(&Node{Kind: "type", Name: t, Pos: start, End: ps.i})
		}
		if d := ps.peek(); d != 0 && d != ' ' && d != '\t' && d != ')' && d != ';' && d != '\n' && d != ',' && d != '|' && d != '}' {
			x := ps.unary()
			return &Node{Kind: "cast", Name: t, Pos: start, Kids: []*Node{x}, End: ps.i}
		}
		return &Node{Kind: "type", Name: t, Pos: start, End: ps.i}
	}
	n := ps.postfix(ps.primary())
	if c := ps.peek(); (c == '+' || c == '-') && ps.peekAt(1) == c && (n.Kind == "var" || n.Kind == "member" || n.Kind == "index") {
		// $i++ inside an expression: the postfix increment gives the
		// value before it (about_Assignment_Operators)
		ps.i += 2
		n = &Node{Kind: "postfix", Op: string(c) + "=", Pos: n.Pos, End: ps.i, Kids: []*Node{n}}
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
func (ps *psParser) postfix(n *Node) *Node {
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
				name = fmt.Sprint(p.Val)
				if p.Kind == "var" {
					name = "$" + p.Name
				}
			} else {
				j := ps.i
				for ps.i < len(ps.src) && (process.IsLetter(ps.src[ps.i]) || ps.src[ps.i] == '_' || (ps.src[ps.i] >= '0' && ps.src[ps.i] <= '9')) {
					ps.i++
				}
				name = ps.src[j:ps.i]
			}
			m := &Node{Kind: "member", Name: name, Pos: n.Pos, Kids: []*Node{n}}
			if static {
				m.Op = "static"
			}
			if ps.peek() == '(' {
				ps.i++
				m.Kind = "call"
				for {
					ps.skipAll()
					if ps.peek() == ')' {
						ps.i++
						break
					}
					if ps.peek() == 0 {
						ps.fail(ps.i, "Missing ')' in method call.", "MissingEndParenthesisInMethodCall")
					}
					m.Kids = append(m.Kids, ps.exprNoComma())
					ps.skipAll()
					if ps.peek() == ',' {
						ps.i++
					}
				}
			}
			m.End = ps.i
			n = m
		case c == '[' && ps.i > 0 && ps.src[ps.i-1] != ' ':
			ps.i++
			ps.skipAll()
			idx := ps.expr()
			ps.skipAll()
			ps.expect(']', "Array index expression is missing or not valid.", "MissingArrayIndexExpression")
			n = &Node{Kind: "index", Pos: n.Pos, End: ps.i, Kids: []*Node{n, idx}}
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

func (ps *psParser) variable() *Node {
	start := ps.i
	ps.i++ // $
	if ps.peek() == '{' {
		j := strings.IndexByte(ps.src[ps.i:], '}')
		if j < 0 {
			ps.fail(ps.i, "Missing '}' in variable name.", "IncompleteDollarVariableReference")
		}
		name := ps.src[ps.i+1 : ps.i+j]
		ps.i += j + 1
		return &Node{Kind: "var", Name: name, Pos: start, End: ps.i}
	}
	if c := ps.peek(); c == '?' || c == '_' || c == '$' || c == '^' {
		ps.i++
		if c == '_' {
			for ps.i < len(ps.src) && (process.IsLetter(ps.src[ps.i]) || ps.src[ps.i] == '_' || (ps.src[ps.i] >= '0' && ps.src[ps.i] <= '9')) {
				ps.i++
			}
		}
		return &Node{Kind: "var", Name: ps.src[start+1 : ps.i], Pos: start, End: ps.i}
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
		return &Node{Kind: "lit", Val: "$", Pos: start, End: ps.i}
	}
	return &Node{Kind: "var", Name: ps.src[j:ps.i], Pos: start, End: ps.i}
}

func (ps *psParser) primary() *Node {
	ps.skip()
	start := ps.i
	c := ps.peek()
	switch {
	case c == '$' && ps.peekAt(1) == '(':
		ps.i += 2
		body := ps.statements(")")
		ps.i++
		return &Node{Kind: "subexpr", Pos: start, End: ps.i, Block: body}
	case c == '@' && ps.peekAt(1) == '(':
		ps.i += 2
		body := ps.statements(")")
		ps.i++
		return &Node{Kind: "arrayexpr", Pos: start, End: ps.i, Block: body}
	case c == '@' && ps.peekAt(1) == '{':
		ps.i += 2
		n := &Node{Kind: "hash", Pos: start}
		for {
			if !ps.nextEntry("Missing closing '}' in statement block or type definition.") {
				break
			}
			var key *Node
			if ps.peek() == '\'' || ps.peek() == '"' {
				key = ps.primary()
			} else {
				j := ps.i
				for ps.i < len(ps.src) && !strings.ContainsRune(" \t=;\r\n}", rune(ps.src[ps.i])) {
					ps.i++
				}
				key = &Node{Kind: "lit", Val: ps.src[j:ps.i]}
			}
			ps.skip()
			ps.expect('=', "Missing '=' operator after key in hash literal.", "MissingEqualsInHashLiteral")
			ps.skipAll()
			val := ps.statement()
			n.Kids = append(n.Kids, key, val)
		}
		n.End = ps.i
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
			return &Node{Kind: "lit", Val: body, Pos: start, End: ps.i}
		}
		return &Node{Kind: "str", Pos: start, End: ps.i, Kids: ps.interpolate(body, start)}
	case c == '$':
		return ps.variable()
	case c == '(':
		ps.i++
		ps.skipAll()
		var inner *Node
		if ps.peek() == ')' {
			inner = &Node{Kind: "lit", Val: nil}
		} else {
			inner = ps.statement()
		}
		ps.skipAll()
		ps.expect(')', "Missing closing ')' in expression.", "MissingEndParenthesisInExpression")
		return &Node{Kind: "paren", Pos: start, End: ps.i, Kids: []*Node{inner}}
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
		return &Node{Kind: "lit", Val: b.String(), Pos: start, End: ps.i}
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
		return &Node{Kind: "str", Pos: start, End: ps.i, Kids: ps.interpolate(body, j)}
	case c >= '0' && c <= '9' || c == '.':
		j := ps.i
		if c == '0' && (ps.peekAt(1) == 'x' || ps.peekAt(1) == 'X') {
			ps.i += 2
			for ps.i < len(ps.src) && strings.ContainsRune("0123456789abcdefABCDEF", rune(ps.src[ps.i])) {
				ps.i++
			}
			n, _ := strconv.ParseInt(ps.src[j+2:ps.i], 16, 64)
			return &Node{Kind: "lit", Val: n, Pos: start, End: ps.i}
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
			return &Node{Kind: "lit", Val: n * mult, Pos: start, End: ps.i}
		}
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			ps.fail(start, fmt.Sprintf("Unexpected token '%s' in expression or statement.", text), "UnexpectedToken")
		}
		return &Node{Kind: "lit", Val: f * float64(mult), Pos: start, End: ps.i}
	}
	if c == 0 {
		ps.fail(ps.i, "You must provide a value expression following the operator.", "ExpectedValueExpression")
	}
	ps.fail(ps.i, fmt.Sprintf("Unexpected token '%s' in expression or statement.", ps.tokenText()), "UnexpectedToken")
	return nil
}

// interpolate splits the body of a "..." string into literal and
// expansion parts: $var, ${var}, $env:X, $(...), `escapes, "".
func (ps *psParser) interpolate(body string, offset int) []*Node {
	var parts []*Node
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, &Node{Kind: "lit", Val: lit.String()})
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
