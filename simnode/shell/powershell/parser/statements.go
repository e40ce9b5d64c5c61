package parser

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"wink.dev/wink/simnode/shell/process"
)

// This file parses PowerShell (row E): statements, pipelines, commands in
// argument mode, expressions with PowerShell's operators, strings with $var
// and $(...) interpolation, script blocks, if/elseif/else, while, do, for,
// foreach, try/catch, function, exit/throw/return/break/continue.

// Node is any node of the syntax tree; Pos/End are byte offsets.
type Node struct {
	Kind string
	Pos  int
	End  int
	// literal and names
	Val  any
	Name string
	Text string
	// children
	Kids  []*Node
	Block []*Node // statements (script blocks, bodies)
	// command elements
	Args   []Arg
	Redirs []Redir
	Op     string
	// if: kids are alternating cond, body blocks (as "block" nodes)
}

// Arg is one argument of a command: -Name, -Name:value or a value.
type Arg struct {
	Param    string // "-Name" without the dash; "" for positional
	Value    *Node
	Colon    bool // -Name:value
	Pos, End int
}

// Redir is one redirection of a command or expression: 2>&1, > file.
type Redir struct {
	FD     string // "1", "2", "*"
	Op     string // ">", ">>", ">&1"
	Target *Node
}

// Error is a ParserError: where, its message and its error id.
type Error struct {
	Pos int
	Msg string
	ID  string
}

func (e *Error) Error() string { return e.Msg }

type psParser struct {
	src string
	i   int
	err *Error
}

// ParseScript parses a script: its statements, or the ParserError
// PowerShell 5.1 reports for it.
func ParseScript(src string) (block []*Node, err *Error) {
	ps := &psParser{src: src}
	defer func() {
		if r := recover(); r != nil {
			if pe, ok := r.(*Error); ok {
				block, err = nil, pe
				return
			}
			panic(r)
		}
	}()
	block = ps.statements("")
	ps.skipAll()
	if ps.i < len(ps.src) {
		ps.fail(ps.i, fmt.Sprintf("Unexpected token '%s' in expression or statement.", ps.tokenText()), "UnexpectedToken")
	}
	return block, nil
}

func (ps *psParser) fail(pos int, msg, id string) {
	panic(&Error{Pos: pos, Msg: msg, ID: id})
}

// expect consumes c, or fails with the parser's msg and error id.
func (ps *psParser) expect(c byte, msg, id string) {
	if ps.peek() != c {
		ps.fail(ps.i, msg, id)
	}
	ps.i++
}

// nextEntry moves to the next entry of a {...} list (switch clauses,
// hash literal keys), passing blanks and ';'. It is false once it has
// consumed the closing '}', and fails with msg at the end of the script.
func (ps *psParser) nextEntry(msg string) bool {
	ps.skipAll()
	for ps.peek() == ';' {
		ps.i++
		ps.skipAll()
	}
	if ps.peek() == '}' {
		ps.i++
		return false
	}
	if ps.peek() == 0 {
		ps.fail(ps.i, msg, "MissingEndCurlyBrace")
	}
	return true
}

func (ps *psParser) tokenText() string {
	j := ps.i
	for j < len(ps.src) && !strings.ContainsRune(" \t\r\n;", rune(ps.src[j])) {
		j++
	}
	if j == ps.i && j < len(ps.src) {
		j++
	}
	return ps.src[ps.i:j]
}

func (ps *psParser) peek() byte {
	if ps.i < len(ps.src) {
		return ps.src[ps.i]
	}
	return 0
}

func (ps *psParser) peekAt(k int) byte {
	if ps.i+k < len(ps.src) {
		return ps.src[ps.i+k]
	}
	return 0
}

// skip skips spaces, comments and line continuations, not newlines.
func (ps *psParser) skip() {
	for ps.i < len(ps.src) {
		c := ps.src[ps.i]
		switch {
		case c == ' ' || c == '\t' || c == '\f' || c == '\v':
			ps.i++
		case ps.spaceLen(ps.i) > 0:
			ps.i += ps.spaceLen(ps.i)
		case c == '`' && (ps.peekAt(1) == '\n' || ps.peekAt(1) == '\r'):
			ps.i += 2
			if ps.peek() == '\n' {
				ps.i++
			}
		case c == '<' && ps.peekAt(1) == '#':
			j := strings.Index(ps.src[ps.i+2:], "#>")
			if j < 0 {
				ps.fail(ps.i, "Missing the terminator '#>' for the block comment.", "EndOfBlockCommentNotFound")
			}
			ps.i += j + 4
		case c == '#':
			for ps.i < len(ps.src) && ps.src[ps.i] != '\n' {
				ps.i++
			}
		default:
			return
		}
	}
}

// skipAll skips whitespace including newlines and semicolons' absence.
func (ps *psParser) skipAll() {
	for {
		ps.skip()
		if c := ps.peek(); c == '\n' || c == '\r' {
			ps.i++
			continue
		}
		return
	}
}

// spaceLen is the length of the Unicode whitespace character (classes Zs,
// Zl, Zp: the no-break space among them) at i, 0 if there is none: the
// language specification's whitespace (PowerShell Language Specification
// 3.0, §2.2.4) beyond the ASCII blanks skip handles byte by byte.
func (ps *psParser) spaceLen(i int) int {
	if i >= len(ps.src) || ps.src[i] < utf8.RuneSelf {
		return 0
	}
	r, n := utf8.DecodeRuneInString(ps.src[i:])
	if unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp) {
		return n
	}
	return 0
}

func isWordByte(c byte) bool {
	return process.IsLetter(c) || c == '_' || (c >= '0' && c <= '9') || c == '-'
}

// keyword reports whether the (case-insensitive) keyword starts here.
func (ps *psParser) keyword(k string) bool {
	if len(ps.src)-ps.i < len(k) || !strings.EqualFold(ps.src[ps.i:ps.i+len(k)], k) {
		return false
	}
	if ps.i+len(k) < len(ps.src) && isWordByte(ps.src[ps.i+len(k)]) {
		return false
	}
	return true
}

// statements parses until the closing byte (or end of input).
func (ps *psParser) statements(close string) []*Node {
	var out []*Node
	for {
		ps.skip()
		c := ps.peek()
		switch {
		case c == 0:
			if close != "" {
				ps.fail(ps.i, fmt.Sprintf("Missing closing '%s' in statement block or type definition.", close), "MissingEndCurlyBrace")
			}
			return out
		case c == ';' || c == '\n' || c == '\r':
			ps.i++
			continue
		case close != "" && string(c) == close:
			return out
		case close == "" && (c == ')' || c == '}'):
			return out
		}
		out = append(out, ps.statement())
		// statements end at ; or a newline (or the block's end)
		ps.skip()
		// a statement that ends in a block or a parenthesis may be followed
		// by the next one on its line: foreach ($x in $y) { ... } return
		if ended := strings.TrimRight(ps.src[:ps.i], " \t"); strings.HasSuffix(ended, "}") || strings.HasSuffix(ended, ")") {
			continue
		}
		if c := ps.peek(); c != 0 && c != ';' && c != '\n' && c != '\r' && c != '}' && c != ')' {
			ps.fail(ps.i, fmt.Sprintf("Unexpected token '%s' in expression or statement.", ps.tokenText()), "UnexpectedToken")
		}
	}
}

func (ps *psParser) scriptBlock() *Node {
	ps.skipAll()
	start := ps.i
	ps.expect('{', "Missing statement block.", "MissingStatementBlock")
	body := ps.statements("}")
	ps.i++
	return &Node{Kind: "scriptblock", Pos: start, End: ps.i, Block: body, Text: ps.src[start+1 : ps.i-1]}
}

func (ps *psParser) condition(kw string) *Node {
	ps.skip()
	ps.expect('(', fmt.Sprintf("Missing '(' after '%s' in %s statement.", kw, kw), "MissingOpenParenthesisInIfStatement")
	ps.skipAll()
	if ps.peek() == ')' {
		ps.fail(ps.i, fmt.Sprintf("Missing condition in %s statement after '%s ('.", kw, kw), "IfStatementMissingCondition")
	}
	n := ps.pipelineChain()
	ps.skipAll()
	ps.expect(')', "Missing closing ')' after expression in '"+kw+"' statement.", "MissingEndParenthesisAfterStatement")
	return n
}

func (ps *psParser) statement() *Node {
	start := ps.i
	switch {
	case ps.keyword("if"):
		ps.i += 2
		n := &Node{Kind: "if", Pos: start}
		n.Kids = append(n.Kids, ps.condition("if"), ps.scriptBlock())
		for {
			save := ps.i
			ps.skipAll()
			if ps.keyword("elseif") {
				ps.i += 6
				n.Kids = append(n.Kids, ps.condition("elseif"), ps.scriptBlock())
				continue
			}
			if ps.keyword("else") {
				ps.i += 4
				n.Kids = append(n.Kids, ps.scriptBlock())
				break
			}
			ps.i = save
			break
		}
		n.End = ps.i
		return n
	case ps.keyword("while"):
		ps.i += 5
		n := &Node{Kind: "while", Pos: start}
		n.Kids = []*Node{ps.condition("while"), ps.scriptBlock()}
		n.End = ps.i
		return n
	case ps.keyword("do"):
		ps.i += 2
		body := ps.scriptBlock()
		ps.skipAll()
		n := &Node{Kind: "dowhile", Pos: start}
		if ps.keyword("until") {
			n.Kind = "dountil"
			ps.i += 5
		} else if ps.keyword("while") {
			ps.i += 5
		} else {
			ps.fail(ps.i, "Missing while or until keyword in do loop.", "MissingWhileOrUntilInDoWhile")
		}
		n.Kids = []*Node{ps.condition("do"), body}
		n.End = ps.i
		return n
	case ps.keyword("for"):
		ps.i += 3
		ps.skip()
		ps.expect('(', "Missing opening '(' after keyword 'for'.", "MissingOpenParenthesisAfterKeyword")
		n := &Node{Kind: "for", Pos: start}
		for k := 0; k < 3; k++ {
			ps.skipAll()
			if (k < 2 && ps.peek() == ';') || (k == 2 && ps.peek() == ')') {
				n.Kids = append(n.Kids, nil)
			} else {
				n.Kids = append(n.Kids, ps.statement())
				ps.skipAll()
			}
			if k < 2 {
				ps.expect(';', "Missing ';' in for statement.", "MissingSemicolonInFor")
			}
		}
		ps.expect(')', "Missing closing ')' after expression in 'for' statement.", "MissingEndParenthesisAfterStatement")
		n.Kids = append(n.Kids, ps.scriptBlock())
		n.End = ps.i
		return n
	case ps.keyword("foreach") && ps.nextNonSpace(7) == '(':
		ps.i += 7
		ps.skip()
		ps.i++
		ps.skip()
		if ps.peek() != '$' {
			ps.fail(ps.i, "Missing variable name after foreach.", "MissingVariableNameAfterForeach")
		}
		v := ps.variable()
		ps.skip()
		if !ps.keyword("in") {
			ps.fail(ps.i, "Missing 'in' after variable in foreach loop.", "MissingInInForeach")
		}
		ps.i += 2
		coll := ps.pipelineChain()
		ps.skipAll()
		ps.expect(')', "Missing closing ')' after expression in 'foreach' statement.", "MissingEndParenthesisAfterForeach")
		n := &Node{Kind: "foreach", Pos: start, Name: v.Name, Kids: []*Node{coll, ps.scriptBlock()}}
		n.End = ps.i
		return n
	case ps.keyword("function") || ps.keyword("filter"):
		for isWordByte(ps.peek()) {
			ps.i++
		}
		ps.skipAll() // the name may be on the next line
		j := ps.i
		for ps.i < len(ps.src) && !strings.ContainsRune(" \t\r\n({", rune(ps.src[ps.i])) {
			ps.i++
		}
		name := ps.src[j:ps.i]
		ps.skip()
		var params []Param
		if ps.peek() == '(' {
			params = ps.paramList()
		}
		body := ps.scriptBlock()
		fn := &Node{Kind: "function", Pos: start, End: ps.i, Name: name, Kids: []*Node{body}, Val: params}
		if strings.HasPrefix(strings.ToLower(ps.src[start:]), "filter") {
			fn.Op = "filter" // its body is a process block (about_Functions)
		}
		return fn
	case ps.keyword("try"):
		// about_Try_Catch_Finally: kids are the try block, the finally
		// block (or nil), then one "catch" node per catch clause.
		ps.i += 3
		n := &Node{Kind: "try", Pos: start, Kids: []*Node{ps.scriptBlock(), nil}}
		for {
			save := ps.i
			ps.skipAll()
			if ps.keyword("catch") {
				cpos := ps.i
				ps.i += 5
				types := ps.typeList()
				n.Kids = append(n.Kids, &Node{Kind: "catch", Pos: cpos, Val: types, Kids: []*Node{ps.scriptBlock()}})
				continue
			}
			if ps.keyword("finally") {
				ps.i += 7
				n.Kids[1] = ps.scriptBlock()
				continue
			}
			ps.i = save
			break
		}
		if len(n.Kids) == 2 && n.Kids[1] == nil {
			ps.fail(ps.i, "The Try statement is missing its Catch or Finally block.", "MissingCatchOrFinally")
		}
		n.End = ps.i
		return n
	case ps.keyword("switch"):
		return ps.switchStatement(start)
	case ps.keyword("class") || ps.keyword("enum") || ps.keyword("workflow") || ps.keyword("configuration"):
		// definitions this parser does not implement: skipped, and a
		// NotSimulated trace when they run (issue 18)
		kw := strings.ToLower(ps.word())
		for ps.i < len(ps.src) && ps.src[ps.i] != '{' && ps.src[ps.i] != '\n' {
			ps.i++
		}
		if ps.skipToByte('{') {
			ps.skipBraces()
		}
		return &Node{Kind: "notsim", Pos: start, End: ps.i, Name: "powershell: " + kw}
	case ps.keyword("using"):
		for ps.i < len(ps.src) && ps.src[ps.i] != '\n' && ps.src[ps.i] != ';' {
			ps.i++
		}
		return &Node{Kind: "notsim", Pos: start, End: ps.i, Name: "powershell: using"}
	case ps.keyword("trap"):
		// about_Trap: trap [type] { ... } handles the terminating errors of
		// the block it is in.
		ps.i += 4
		types := ps.typeList()
		n := &Node{Kind: "trap", Pos: start, Val: types, Kids: []*Node{ps.scriptBlock()}}
		n.End = ps.i
		return n
	case ps.peek() == '[' && ps.attributesBeforeParam():
		fallthrough
	case ps.keyword("param"):
		ps.i += 5
		ps.skip()
		if save := ps.i; !ps.skipToByte('(') {
			ps.i = save
		}
		var params []Param
		if ps.peek() == '(' {
			params = ps.paramList()
		}
		return &Node{Kind: "param", Pos: start, End: ps.i, Val: params}
	}
	for _, kw := range []string{"exit", "return", "throw", "break", "continue"} {
		if ps.keyword(kw) {
			ps.i += len(kw)
			ps.skip()
			n := &Node{Kind: kw, Pos: start}
			if c := ps.peek(); c != 0 && c != ';' && c != '\n' && c != '\r' && c != '}' && c != ')' && c != '|' {
				if kw == "break" || kw == "continue" {
					ps.word()
				} else {
					n.Kids = []*Node{ps.pipelineChain()}
				}
			}
			n.End = ps.i
			for n.End > start && strings.ContainsRune(" \t", rune(ps.src[n.End-1])) {
				n.End--
			}
			return n
		}
	}
	// assignment?
	if c := ps.peek(); c == '$' || c == '[' || c == '(' {
		save := ps.i
		if lv, ok := ps.tryLValue(); ok {
			ps.skip()
			// $a, $b = value: multiple assignment (about_Assignment_Operators)
			if ps.peek() == ',' {
				multi := &Node{Kind: "lvalues", Pos: start, Kids: []*Node{lv}}
				for ps.peek() == ',' {
					ps.i++
					ps.skip()
					next, ok := ps.tryLValue()
					if !ok {
						break
					}
					multi.Kids = append(multi.Kids, next)
					ps.skip()
				}
				if ps.peek() == '=' && ps.peekAt(1) != '=' {
					ps.i++
					ps.skipAll()
					rhs := ps.statement()
					return &Node{Kind: "assign", Pos: start, End: ps.i, Op: "=", Kids: []*Node{multi, rhs}}
				}
				ps.i = save
				return ps.pipelineChain()
			}
			if (strings.HasPrefix(ps.src[ps.i:], "++") || strings.HasPrefix(ps.src[ps.i:], "--")) && ps.nextNonSpace(2) != ',' {
				op := ps.src[ps.i:ps.i+1] + "="
				ps.i += 2
				one := &Node{Kind: "lit", Val: int64(1), Pos: ps.i, End: ps.i}
				return &Node{Kind: "assign", Name: "postfix", Pos: start, End: ps.i, Op: op, Kids: []*Node{lv, one}}
			}
			for _, op := range []string{"=", "+=", "-=", "*=", "/="} {
				if strings.HasPrefix(ps.src[ps.i:], op) && !strings.HasPrefix(ps.src[ps.i:], "==") {
					ps.i += len(op)
					ps.skipAll()
					rhs := ps.statement()
					return &Node{Kind: "assign", Pos: start, End: ps.i, Op: op, Kids: []*Node{lv, rhs}}
				}
			}
		}
		ps.i = save
	}
	return ps.pipelineChain()
}

// Param is one parameter of a function or param block
// (about_Functions_Advanced_Parameters): its name, default and whether it
// is a [switch].
type Param struct {
	Name     string
	Def      *Node
	IsSwitch bool
	// pipeline: [Parameter(ValueFromPipeline)] takes each pipeline object
	// in a process block.
	Pipeline bool
}

var valueFromPipeline = regexp.MustCompile(`(?i)\bValueFromPipeline\s*(=\s*\$true\s*)?[,)]`)

// paramList parses "( [attr] [type] $name = default, ... )".
func (ps *psParser) paramList() []Param {
	var params []Param
	ps.i++ // (
	sw, pipe := false, false
	for {
		ps.skipAll()
		switch c := ps.peek(); {
		case c == ')':
			ps.i++
			return params
		case c == 0:
			ps.fail(ps.i, "Missing ')' in function parameter list.", "MissingEndParenthesisInFunctionParameterList")
		case c == '[':
			t := ps.typeName()
			if strings.EqualFold(t, "switch") || strings.EqualFold(t, "System.Management.Automation.SwitchParameter") {
				sw = true
			}
			pipe = pipe || valueFromPipeline.MatchString(t)
		case c == '$':
			p := Param{Name: ps.variable().Name, IsSwitch: sw, Pipeline: pipe}
			sw, pipe = false, false
			ps.skipAll()
			if ps.peek() == '=' {
				ps.i++
				ps.skipAll()
				p.Def = ps.exprNoComma()
			}
			params = append(params, p)
		default:
			ps.i++ // , and what attributes leave
		}
	}
}

// switchStatement parses switch [-regex|-wildcard|-exact|-casesensitive]
// (value) { pattern { body } ... default { body } } (about_Switch): kids
// are the value, then pattern and body pairs (a nil pattern: default).
func (ps *psParser) switchStatement(start int) *Node {
	ps.i += 6
	n := &Node{Kind: "switch", Pos: start}
	var opts []string
	for {
		ps.skip()
		if ps.peek() != '-' {
			break
		}
		ps.i++
		opt := strings.ToLower(ps.word())
		if opt == "file" {
			ps.fail(ps.i, "switch -File", "NotSimulated")
		}
		opts = append(opts, opt)
	}
	n.Val = opts
	ps.expect('(', "Missing '(' after 'switch' in switch statement.", "MissingOpenParenthesisInSwitchStatement")
	ps.skipAll()
	n.Kids = append(n.Kids, ps.pipelineChain())
	ps.skipAll()
	ps.expect(')', "Missing closing ')' after expression in 'switch' statement.", "MissingEndParenthesisInSwitchStatement")
	ps.skipAll()
	ps.expect('{', "Missing opening '{' in switch statement.", "MissingCurlyBraceInSwitchStatement")
	for {
		if !ps.nextEntry("Missing closing '}' in switch statement.") {
			break
		}
		var pat *Node
		if ps.keyword("default") {
			ps.i += 7
		} else if ps.peek() == '{' {
			pat = ps.scriptBlock()
		} else {
			pat = ps.singleArgument()
		}
		n.Kids = append(n.Kids, pat, ps.scriptBlock())
	}
	n.End = ps.i
	return n
}

// attributesBeforeParam skips [CmdletBinding()] and other attributes when
// a param block follows them (about_Functions_CmdletBindingAttribute); it
// leaves the position alone otherwise.
func (ps *psParser) attributesBeforeParam() (ok bool) {
	save := ps.i
	defer func() {
		if r := recover(); r != nil {
			if _, isParse := r.(*Error); !isParse {
				panic(r)
			}
			ok = false
		}
		if !ok {
			ps.i = save
		}
	}()
	for ps.peek() == '[' {
		ps.typeName()
		ps.skipAll()
	}
	return ps.keyword("param")
}

// typeList parses the [type], [type] list of a catch or trap clause.
func (ps *psParser) typeList() []string {
	var types []string
	for {
		ps.skipAll()
		if ps.peek() == '[' {
			types = append(types, ps.typeName())
			continue
		}
		if ps.peek() == ',' {
			ps.i++
			continue
		}
		return types
	}
}

// skipBraces skips a {...} region the parser does not read (a class or
// enum body), passing strings and comments whole so that their braces do
// not count.
func (ps *psParser) skipBraces() {
	start, depth := ps.i, 0
	for ps.i < len(ps.src) {
		switch c := ps.src[ps.i]; {
		case c == '\'' || c == '"' || c == '@' && (ps.peekAt(1) == '"' || ps.peekAt(1) == '\''):
			ps.primary()
			continue
		case c == '#' || c == '<' && ps.peekAt(1) == '#' || c == '`':
			before := ps.i
			if ps.skip(); ps.i > before {
				continue
			}
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				ps.i++
				return
			}
		}
		ps.i++
	}
	ps.fail(start, "Missing closing '}' in statement block or type definition.", "MissingEndCurlyBrace")
}

// skipToByte passes blank lines and comments to c; it is false when
// something else comes first.
func (ps *psParser) skipToByte(c byte) bool {
	ps.skipAll()
	return ps.peek() == c
}

func (ps *psParser) nextNonSpace(from int) byte {
	j := ps.i + from
	for j < len(ps.src) && (ps.src[j] == ' ' || ps.src[j] == '\t') {
		j++
	}
	if j < len(ps.src) {
		return ps.src[j]
	}
	return 0
}

func (ps *psParser) word() string {
	j := ps.i
	for ps.i < len(ps.src) && isWordByte(ps.src[ps.i]) {
		ps.i++
	}
	return ps.src[j:ps.i]
}

// tryLValue parses [cast]$var(.member|[index])* without failing.
func (ps *psParser) tryLValue() (n *Node, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isParse := r.(*Error); !isParse {
				panic(r)
			}
			n, ok = nil, false
		}
	}()
	typed := ""
	if ps.peek() == '[' {
		typePos := ps.i
		t := ps.typeName()
		if strings.HasPrefix(ps.src[ps.i:], "::") {
			// [Type]::Static = value
			n = ps.postfix(&Node{Kind: "type", Name: t, Pos: typePos, End: ps.i})
			return n, n.Kind == "member"
		}
		ps.skip()
		typed = t
	}
	if ps.peek() == '(' {
		// (Get-Item x).LastWriteTime = ...: a member or element of any
		// expression is assignable (about_Assignment_Operators)
		n = ps.postfix(ps.primary())
		return n, n.Kind == "member" || n.Kind == "index"
	}
	if ps.peek() != '$' {
		return nil, false
	}
	v := ps.variable()
	n = ps.postfix(v)
	if typed != "" && n.Kind == "var" {
		// [int]$n = ...: a type-constrained variable (about_Variables)
		return &Node{Kind: "typed", Name: typed, Pos: n.Pos, End: n.End, Kids: []*Node{n}}, true
	}
	return n, n.Kind == "var" || n.Kind == "member" || n.Kind == "index"
}

// pipelineChain is a pipeline, with pwsh 7's && and || chains.
func (ps *psParser) pipelineChain() *Node {
	first := ps.pipeline()
	ps.skip()
	if !strings.HasPrefix(ps.src[ps.i:], "&&") && !strings.HasPrefix(ps.src[ps.i:], "||") {
		return first
	}
	n := &Node{Kind: "chain", Pos: first.Pos, Kids: []*Node{first}}
	for {
		ps.skip()
		op := ""
		if strings.HasPrefix(ps.src[ps.i:], "&&") {
			op = "&&"
		} else if strings.HasPrefix(ps.src[ps.i:], "||") {
			op = "||"
		} else {
			break
		}
		ps.i += 2
		ps.skipAll()
		n.Kids = append(n.Kids, ps.pipeline())
		n.Args = append(n.Args, Arg{Param: op})
	}
	n.End = ps.i
	return n
}

func (ps *psParser) pipeline() *Node {
	ps.skip()
	n := &Node{Kind: "pipeline", Pos: ps.i}
	for {
		ps.skip()
		el := ps.element()
		n.Kids = append(n.Kids, el)
		ps.skip()
		if ps.peek() == '|' && ps.peekAt(1) != '|' {
			ps.i++
			ps.skipAll()
			continue
		}
		break
	}
	n.End = ps.i
	return n
}

func isExprStart(c, next byte) bool {
	switch {
	case c == '$' || c == '(' || c == '@' || c == '\'' || c == '"' || c == '[' || c == '!' || c == ',' || c == '{':
		return true
	case c >= '0' && c <= '9':
		return true
	case c == '-' && ((next >= '0' && next <= '9') || next == '$' || next == '('):
		return true
	case c == '.' && next >= '0' && next <= '9':
		return true
	}
	return false
}

// element is one pipeline element: an expression or a command.
func (ps *psParser) element() *Node {
	start := ps.i
	c, next := ps.peek(), ps.peekAt(1)
	if c == 0 || c == ';' || c == '\n' || c == '\r' || c == ')' || c == '}' || c == '|' {
		ps.fail(ps.i, "An empty pipe element is not allowed.", "EmptyPipeElement")
	}
	if (c == '&' && next != '&') || (c == '.' && (next == ' ' || next == '\t')) {
		ps.i++
		ps.skip()
		var name *Node
		if isExprStart(ps.peek(), ps.peekAt(1)) {
			name = ps.postfix(ps.primary())
		} else {
			name = ps.bareword(true)
		}
		cmd := &Node{Kind: "command", Pos: start, Kids: []*Node{name}, Op: string(c)}
		ps.commandArgs(cmd)
		return cmd
	}
	if ps.keyword("-not") || isExprStart(c, next) && !ps.genericTokenAhead() {
		e := ps.expr()
		n := &Node{Kind: "exprelem", Pos: start, Kids: []*Node{e}}
		ps.redirections(n)
		n.End = ps.i
		return n
	}
	name := ps.bareword(true)
	cmd := &Node{Kind: "command", Pos: start, Kids: []*Node{name}}
	ps.commandArgs(cmd)
	return cmd
}

// genericTokenAhead reports whether a digit here starts a command name,
// not a number: a numeric literal ends at a delimiter, so 7z is a generic
// token (PowerShell Language Specification 3.0, §2.3.5.1 and §2.3.4).
func (ps *psParser) genericTokenAhead() bool {
	if c := ps.peekAt(1); ps.peek() == '0' && (c == 'x' || c == 'X') {
		return false // a hexadecimal literal: 0x50
	}
	j := ps.i
	for j < len(ps.src) && (ps.src[j] >= '0' && ps.src[j] <= '9') {
		j++
	}
	if j == ps.i || j >= len(ps.src) {
		return false
	}
	rest := strings.ToLower(ps.src[j:])
	for _, suffix := range []string{"kb", "mb", "gb", "tb", "pb", "l", "d", "e"} {
		if strings.HasPrefix(rest, suffix) && (len(rest) == len(suffix) || !isWordByte(rest[len(suffix)]) || suffix == "e") {
			return false
		}
	}
	return process.IsLetter(ps.src[j]) || ps.src[j] == '_'
}

func (ps *psParser) atArgEnd() bool {
	c := ps.peek()
	if c == 0 || c == ';' || c == '\n' || c == '\r' || c == ')' || c == '}' {
		return true
	}
	if c == '|' || (c == '&' && ps.peekAt(1) == '&') {
		return true
	}
	return false
}

// redirections parses > >> 2> 2>&1 *> after an element.
func (ps *psParser) redirections(n *Node) bool {
	ps.skip()
	fd := "1"
	j := ps.i
	if c := ps.peek(); (c >= '1' && c <= '6') || c == '*' {
		if ps.peekAt(1) != '>' {
			return false
		}
		fd = string(c)
		j++
	}
	if j >= len(ps.src) || ps.src[j] != '>' {
		return false
	}
	ps.i = j + 1
	r := Redir{FD: fd, Op: ">"}
	if ps.peek() == '>' {
		r.Op = ">>"
		ps.i++
	}
	if ps.peek() == '&' && (ps.peekAt(1) == '1' || ps.peekAt(1) == '2') {
		r.Op = ">&" + string(ps.peekAt(1))
		ps.i += 2
		n.Redirs = append(n.Redirs, r)
		return ps.redirections(n) || true
	}
	ps.skip()
	if ps.atArgEnd() {
		ps.fail(ps.i, "Missing file specification after redirection operator.", "MissingFileSpecification")
	}
	r.Target = ps.argument()
	n.Redirs = append(n.Redirs, r)
	ps.redirections(n)
	return true
}

func (ps *psParser) commandArgs(cmd *Node) {
	for {
		ps.skip()
		if ps.atArgEnd() {
			break
		}
		if ps.redirections(cmd) {
			continue
		}
		c := ps.peek()
		if c == '&' {
			ps.fail(ps.i, "The ampersand (&) character is not allowed. The & operator is reserved for future use; wrap an ampersand in double quotation marks (\"&\") to pass it as part of a string.", "AmpersandNotAllowed")
		}
		start := ps.i
		if c == '-' && (process.IsLetter(ps.peekAt(1)) || ps.peekAt(1) == '_') {
			ps.i++
			j := ps.i
			// a parameter name ends where a script block or expression
			// starts: -MockWith{ ... } (§2.3.4's parameter-char)
			for ps.i < len(ps.src) && !strings.ContainsRune(" \t\r\n;|)}:,{(", rune(ps.src[ps.i])) && ps.spaceLen(ps.i) == 0 {
				ps.i++
			}
			a := Arg{Param: ps.src[j:ps.i], Pos: start}
			if ps.peek() == ':' {
				ps.i++
				a.Colon = true
				ps.skip()
				a.Value = ps.argument()
			}
			a.End = ps.i
			cmd.Args = append(cmd.Args, a)
			continue
		}
		if c == '-' && ps.peekAt(1) == '-' && (ps.peekAt(2) == ' ' || ps.peekAt(2) == 0) {
			ps.i += 2
			cmd.Args = append(cmd.Args, Arg{Param: "--", Pos: start, End: ps.i})
			continue
		}
		if c == '@' && (process.IsLetter(ps.peekAt(1)) || ps.peekAt(1) == '_') {
			// splatting: @params passes a hashtable's entries as named
			// arguments, an array's as positional (about_Splatting)
			ps.i++
			j := ps.i
			for ps.i < len(ps.src) && (process.IsLetter(ps.src[ps.i]) || ps.src[ps.i] == '_' || ps.src[ps.i] == ':' || ps.src[ps.i] >= '0' && ps.src[ps.i] <= '9') {
				ps.i++
			}
			cmd.Args = append(cmd.Args, Arg{Param: "@", Value: &Node{Kind: "var", Name: ps.src[j:ps.i], Pos: start, End: ps.i}, Pos: start, End: ps.i})
			continue
		}
		v := ps.argument()
		cmd.Args = append(cmd.Args, Arg{Value: v, Pos: start, End: ps.i})
	}
	cmd.End = ps.i
	for cmd.End > cmd.Pos && (ps.src[cmd.End-1] == ' ' || ps.src[cmd.End-1] == '\t') {
		cmd.End--
	}
}

// argument is a command argument in argument mode, with a,b lists.
func (ps *psParser) argument() *Node { return ps.commaList(ps.singleArgument) }

// commaList parses elem, and when commas follow, an array of elems.
func (ps *psParser) commaList(elem func() *Node) *Node {
	first := elem()
	ps.skip()
	if ps.peek() != ',' {
		return first
	}
	n := &Node{Kind: "array", Pos: first.Pos, Kids: []*Node{first}}
	for ps.peek() == ',' {
		ps.i++
		ps.skipAll()
		n.Kids = append(n.Kids, elem())
		ps.skip()
	}
	n.End = ps.i
	return n
}

func (ps *psParser) singleArgument() *Node {
	c, next := ps.peek(), ps.peekAt(1)
	start := ps.i
	if c == '$' || c == '(' || c == '@' || c == '\'' || c == '"' || c == '{' {
		e := ps.postfix(ps.primary())
		// `$env:X\bin\file.exe` and "a"b: one expandable word
		// (about_Parsing); an argument that starts with (, @( or { ends
		// with it: Write-Output (1)a passes two arguments
		if d := ps.peek(); c != '(' && c != '@' && c != '{' && d != 0 && !strings.ContainsRune(" \t\r\n;|)},", rune(d)) && !(d == '&' && ps.peekAt(1) == '&') && d != '>' && ps.spaceLen(ps.i) == 0 {
			ps.i = start
			return ps.bareword(false)
		}
		return e
	}
	if c == '[' || (c == '-' && next >= '0' && next <= '9') {
		if c == '[' {
			return ps.postfix(ps.unary())
		}
	}
	return ps.bareword(false)
}

// bareword reads a generic token; $var and "..." parts inside expand.
// As a command name it stops at ( and {.
func (ps *psParser) bareword(isName bool) *Node {
	start := ps.i
	var parts []*Node
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, &Node{Kind: "lit", Val: lit.String()})
			lit.Reset()
		}
	}
	for ps.i < len(ps.src) {
		c := ps.src[ps.i]
		if strings.ContainsRune(" \t\r\n;|)},", rune(c)) || (c == '&' && ps.peekAt(1) == '&') || ps.spaceLen(ps.i) > 0 {
			break
		}
		if c == '>' || (c == '<' && ps.peekAt(1) != '#') {
			break
		}
		if (c == '(' || (isName && c == '{')) && ps.i > start {
			break
		}
		switch c {
		case '`':
			if ps.i+1 < len(ps.src) {
				lit.WriteByte(psEscape(ps.src[ps.i+1]))
				ps.i += 2
				continue
			}
		case '\'':
			flush()
			parts = append(parts, ps.primary())
			continue
		case '"':
			flush()
			parts = append(parts, ps.primary())
			continue
		case '$':
			if process.IsLetter(ps.peekAt(1)) || ps.peekAt(1) == '_' || ps.peekAt(1) == '{' || ps.peekAt(1) == '(' || ps.peekAt(1) == '?' {
				flush()
				if ps.peekAt(1) == '(' {
					parts = append(parts, ps.primary())
				} else {
					parts = append(parts, ps.variable())
				}
				continue
			}
		}
		lit.WriteByte(c)
		ps.i++
	}
	flush()
	if ps.i == start {
		ps.fail(ps.i, fmt.Sprintf("Unexpected token '%s' in expression or statement.", ps.tokenText()), "UnexpectedToken")
	}
	return &Node{Kind: "bare", Pos: start, End: ps.i, Kids: parts, Text: ps.src[start:ps.i]}
}
