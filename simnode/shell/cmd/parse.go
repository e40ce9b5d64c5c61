package cmd

import (
	"strings"
)

// This file is cmd's phase 2 (the parser) of a line after %VAR% expansion:
// quotes, ^ escapes, the operators & && || |, groups ( ), redirections and
// the commands the parser itself knows (IF, FOR, REM). Spec: Microsoft
// Learn, windows-commands/cmd ("Processing of quotation marks", the
// special characters & | ( ) < > ^ that need ^ or quotes), /if, /for,
// /rem. Row E.

// node is a parsed command.
type node interface{}

// simpleNode is one command: its text with escapes resolved and its
// redirections taken out ("echo hi > f" is "echo hi " and > f).
type simpleNode struct {
	text   string
	redirs []redir
}

// redir is one of >, >>, <, n>&m of a command or group.
type redir struct {
	fd     int
	op     string // ">", ">>", "<", ">&", "<&"
	target string
}

// groupNode is ( commands ) with its redirections.
type groupNode struct {
	body   node
	redirs []redir
}

// listNode is commands joined by & (ops[i] is "&", "&&" or "||" between
// kids[i] and kids[i+1]); && and || bind tighter than & (andor).
type listNode struct {
	kids []node
	ops  []string
}

// pipeNode is a | b | c.
type pipeNode struct{ kids []node }

// ifNode is IF: words of the condition as written, the command, ELSE's.
type ifNode struct {
	words []string
	then  node
	els   node
}

// forNode is FOR: its switches, variable, set and body.
type forNode struct {
	mode    byte   // 0 plain, 'd', 'r', 'l', 'f'
	dirs    bool   // /d (with /r too: the directories of a tree)
	root    string // /r's directory
	options string // /f's options
	varName byte
	set     string
	body    node
}

// syntaxError is a line cmd refuses to run: "X was unexpected at this
// time." (exit 255) or "The syntax of the command is incorrect." (1).
type syntaxError struct {
	msg  string
	code int
}

func (e *syntaxError) Error() string { return e.msg }

func unexpected(what string) *syntaxError {
	return &syntaxError{msg: what + " was unexpected at this time.", code: 255}
}

var errSyntax = &syntaxError{msg: "The syntax of the command is incorrect.", code: 1}

type parser struct {
	s     string
	i     int
	depth int
	err   *syntaxError
	// open: the text ended inside a group; a batch file reads its next
	// line into the same command.
	open bool
	// inBody: parsing the command of an IF or FOR that is not a group,
	// which a newline ends (inside a group, the next line is another
	// command).
	inBody bool
}

// parse parses one logical line.
func parse(s string) (node, *syntaxError, bool) {
	p := &parser{s: s}
	n := p.list()
	for p.err == nil && p.i < len(p.s) {
		// a `)` that closes nothing: cmd ignores the rest of the line
		if p.s[p.i] == ')' {
			break
		}
		p.i++
	}
	return n, p.err, p.open
}

func (p *parser) eof() bool { return p.i >= len(p.s) }

func (p *parser) blank() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// list is andor (& andor)*; a newline inside a group separates too.
func (p *parser) list() node {
	l := &listNode{}
	for p.err == nil {
		l.kids = append(l.kids, p.andor())
		p.blank()
		if p.err != nil || p.eof() {
			break
		}
		c := p.s[p.i]
		if c == '\n' && p.inBody {
			break
		}
		if c == '&' || c == '\n' {
			p.i++
			l.ops = append(l.ops, "&")
			continue
		}
		if c == ')' && p.depth > 0 {
			break
		}
		if c == ')' {
			break
		}
		// text after a group's `)`: cmd names its first word
		p.err = unexpected(p.word())
	}
	if len(l.kids) == 1 {
		return l.kids[0]
	}
	return l
}

// word reads the next whitespace-delimited word (for error messages).
func (p *parser) word() string {
	j := p.i
	for j < len(p.s) && !strings.ContainsRune(" \t\n", rune(p.s[j])) {
		j++
	}
	w := p.s[p.i:j]
	p.i = j
	return w
}

func (p *parser) andor() node {
	first := p.pipe()
	l := &listNode{kids: []node{first}}
	for p.err == nil {
		p.blank()
		if p.i+1 < len(p.s) && (p.s[p.i:p.i+2] == "&&" || p.s[p.i:p.i+2] == "||") {
			l.ops = append(l.ops, p.s[p.i:p.i+2])
			p.i += 2
			l.kids = append(l.kids, p.pipe())
			continue
		}
		break
	}
	if len(l.kids) == 1 {
		return first
	}
	return l
}

func (p *parser) pipe() node {
	first := p.command()
	pn := &pipeNode{kids: []node{first}}
	for p.err == nil {
		p.blank()
		if p.i < len(p.s) && p.s[p.i] == '|' && (p.i+1 >= len(p.s) || p.s[p.i+1] != '|') {
			p.i++
			pn.kids = append(pn.kids, p.command())
			continue
		}
		break
	}
	if len(pn.kids) == 1 {
		return first
	}
	return pn
}

// keyword reports whether the text at the parser starts with word kw (any
// case) followed by a delimiter.
func (p *parser) keyword(kw string) bool {
	if len(p.s)-p.i < len(kw) || !strings.EqualFold(p.s[p.i:p.i+len(kw)], kw) {
		return false
	}
	j := p.i + len(kw)
	return j == len(p.s) || strings.ContainsRune(" \t\n(", rune(p.s[j])) || (kw == "rem" && strings.ContainsRune(".:/,;=", rune(p.s[j])))
}

// command is a group, IF, FOR, REM or a simple command.
func (p *parser) command() node {
	for p.i < len(p.s) && strings.ContainsRune(" \t@", rune(p.s[p.i])) {
		p.i++
	}
	if p.inGroupNewline() {
		return &simpleNode{}
	}
	if p.eof() {
		return &simpleNode{}
	}
	switch c := p.s[p.i]; {
	case c == '&' || c == '|':
		op := string(c)
		if p.i+1 < len(p.s) && p.s[p.i+1] == c {
			op += op
		}
		p.err = unexpected(op)
		return &simpleNode{}
	case c == '\n':
		return &simpleNode{}
	case c == ')':
		if p.depth > 0 {
			return &simpleNode{}
		}
		// a line that starts with `)` is ignored (cmd's parser)
		for p.i < len(p.s) && p.s[p.i] != '\n' {
			p.i++
		}
		return &simpleNode{}
	case c == '(':
		return p.group()
	case strings.HasPrefix(p.s[p.i:], "::"):
		p.skipLine()
		return &simpleNode{}
	case p.keyword("rem"):
		start := p.i
		p.skipLine()
		return &simpleNode{text: p.s[start:p.i]}
	case p.keyword("if"):
		p.i += 2
		return p.ifCmd()
	case p.keyword("for"):
		p.i += 3
		return p.forCmd()
	}
	return p.simple()
}

// inGroupNewline skips the empty lines of a group.
func (p *parser) inGroupNewline() bool {
	for p.depth > 0 && p.i < len(p.s) && strings.ContainsRune(" \t\n", rune(p.s[p.i])) {
		p.i++
	}
	return false
}

func (p *parser) skipLine() {
	for p.i < len(p.s) && p.s[p.i] != '\n' {
		p.i++
	}
}

func (p *parser) group() node {
	p.i++ // (
	p.depth++
	inBody := p.inBody
	p.inBody = false
	body := p.list()
	p.inBody = inBody
	if p.err != nil {
		return &simpleNode{}
	}
	if p.eof() {
		p.open = true
		p.depth--
		return &groupNode{body: body}
	}
	p.i++ // )
	p.depth--
	g := &groupNode{body: body}
	for p.err == nil {
		p.blank()
		if p.eof() || !p.atRedirect() {
			break
		}
		g.redirs = append(g.redirs, p.redirect(nil))
	}
	return g
}

// atRedirect: the text at the parser is a redirection (> < or n>).
func (p *parser) atRedirect() bool {
	c := p.s[p.i]
	return c == '>' || c == '<' || (c >= '0' && c <= '9' && p.i+1 < len(p.s) && (p.s[p.i+1] == '>' || p.s[p.i+1] == '<'))
}

// redirect parses one redirection at the parser; b is the command text
// so far, whose last character may be its handle.
func (p *parser) redirect(b *strings.Builder) redir {
	r := redir{fd: 1}
	if c := p.s[p.i]; c >= '0' && c <= '9' {
		r.fd = int(c - '0')
		p.i++
	}
	c := p.s[p.i]
	r.op = string(c)
	if c == '<' && r.fd == 1 {
		r.fd = 0
	}
	p.i++
	if c == '>' && p.i < len(p.s) && p.s[p.i] == '>' {
		r.op = ">>"
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] == '&' {
		r.op = string(c) + "&"
		p.i++
	}
	p.blank()
	var t strings.Builder
	inQ := false
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '"' {
			inQ = !inQ
			t.WriteByte(c)
			p.i++
			continue
		}
		if inQ {
			if c == '\n' {
				break
			}
			t.WriteByte(c)
			p.i++
			continue
		}
		if c == '^' && p.i+1 < len(p.s) {
			t.WriteByte(p.s[p.i+1])
			p.i += 2
			continue
		}
		if strings.ContainsRune(" \t\n&|<>", rune(c)) || (c == ')' && p.depth > 0) {
			break
		}
		t.WriteByte(c)
		p.i++
	}
	r.target = t.String()
	if r.target == "" {
		p.err = errSyntax
	}
	return r
}

// simple reads a command up to an operator.
func (p *parser) simple() node {
	var b strings.Builder
	var rs []redir
	inQ := false
	for p.i < len(p.s) && p.err == nil {
		c := p.s[p.i]
		if inQ {
			if c == '\n' {
				break
			}
			if c == '"' {
				inQ = false
			}
			b.WriteByte(c)
			p.i++
			continue
		}
		switch {
		case c == '"':
			inQ = true
			b.WriteByte(c)
			p.i++
		case c == '^':
			if p.i+1 < len(p.s) {
				if p.s[p.i+1] != '\n' {
					b.WriteByte(p.s[p.i+1])
				}
				p.i += 2
			} else {
				p.i++
			}
		case c == '&' || c == '|' || c == '\n' || (c == ')' && p.depth > 0):
			return &simpleNode{text: b.String(), redirs: rs}
		case c == '>' || c == '<':
			// a digit right after a delimiter is the handle (2>nul)
			if s := b.String(); len(s) > 0 && s[len(s)-1] >= '0' && s[len(s)-1] <= '9' && (len(s) == 1 || s[len(s)-2] == ' ' || s[len(s)-2] == '\t') {
				b.Reset()
				b.WriteString(s[:len(s)-1])
				p.i--
			}
			rs = append(rs, p.redirect(&b))
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return &simpleNode{text: b.String(), redirs: rs}
}

// condWord reads one word of an IF condition: quoted parts kept, ^
// escapes resolved; "==" ends a word.
func (p *parser) condWord() string {
	for p.i < len(p.s) && strings.ContainsRune(" \t,;=", rune(p.s[p.i])) && !strings.HasPrefix(p.s[p.i:], "==") {
		p.i++
	}
	var b strings.Builder
	inQ := false
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '\n' {
			break
		}
		if c == '"' {
			inQ = !inQ
		} else if !inQ {
			if strings.ContainsRune(" \t,;", rune(c)) || (c == '=' && strings.HasPrefix(p.s[p.i:], "==")) {
				break
			}
			if strings.ContainsRune("&|<>", rune(c)) || (c == '(' && b.Len() == 0) || (c == ')' && p.depth > 0) {
				break
			}
			if c == '^' && p.i+1 < len(p.s) {
				p.i++
				c = p.s[p.i]
			}
		}
		b.WriteByte(c)
		p.i++
	}
	return b.String()
}

var compareOps = map[string]bool{"equ": true, "neq": true, "lss": true, "leq": true, "gtr": true, "geq": true}

// ifCmd parses the rest of IF [/I] [NOT] condition command [ELSE command].
func (p *parser) ifCmd() node {
	n := &ifNode{}
	w := p.condWord()
	for strings.EqualFold(w, "/i") || strings.EqualFold(w, "not") {
		n.words = append(n.words, w)
		w = p.condWord()
	}
	if w == "" {
		if !strings.HasPrefix(p.s[p.i:], "==") {
			p.err = errSyntax
			return n
		}
		// `if %EMPTY%==x echo y`: cmd takes "==x" as the left operand
		// and stumbles on the next word
		p.i += 2
		p.condWord()
		p.err = unexpected(p.peekWord())
		return n
	}
	n.words = append(n.words, w)
	p.blank()
	switch lw := strings.ToLower(w); {
	case strings.HasPrefix(p.s[p.i:], "=="):
		p.i += 2
		n.words = append(n.words, "==")
		r := p.condWord()
		if r == "" {
			p.err = unexpected(p.peekWord())
			return n
		}
		n.words = append(n.words, r)
	case lw == "exist" || lw == "defined" || lw == "errorlevel" || lw == "cmdextversion":
		a := p.condWord()
		if a == "" {
			p.err = errSyntax
			return n
		}
		n.words = append(n.words, a)
	default:
		op := p.condWord()
		if !compareOps[strings.ToLower(op)] {
			if op == "" {
				p.err = errSyntax
			} else {
				p.err = unexpected(op)
			}
			return n
		}
		r := p.condWord()
		if r == "" {
			p.err = errSyntax
			return n
		}
		n.words = append(n.words, op, r)
	}
	n.then = p.body()
	if p.err != nil {
		return n
	}
	if _, ok := n.then.(*groupNode); ok {
		p.blank()
		if p.keyword("else") {
			p.i += 4
			n.els = p.body()
		}
	}
	return n
}

func (p *parser) peekWord() string {
	save := p.i
	p.blank()
	w := p.word()
	p.i = save
	if w == "" {
		return "the end of the line" // not cmd's text; never reached in practice
	}
	return w
}

// body is the command of IF, ELSE or FOR DO: a group, or the rest of the
// line (`if a==a echo x & echo y` runs both, cmd's parser).
func (p *parser) body() node {
	p.blank()
	if p.eof() || p.s[p.i] == '\n' {
		p.err = errSyntax
		return &simpleNode{}
	}
	if p.s[p.i] == '(' {
		return p.group()
	}
	inBody := p.inBody
	p.inBody = true
	defer func() { p.inBody = inBody }()
	return p.list()
}

// forCmd parses the rest of FOR [/D|/R [path]|/L|/F ["options"]] %v IN
// (set) DO command.
func (p *parser) forCmd() node {
	n := &forNode{}
	for {
		p.blank()
		if p.i+1 >= len(p.s) || p.s[p.i] != '/' {
			break
		}
		sw := strings.ToLower(p.s[p.i+1 : p.i+2])
		p.i += 2
		switch sw {
		case "d":
			n.dirs = true
			if n.mode == 0 {
				n.mode = 'd'
			}
		case "l":
			n.mode = 'l'
		case "r":
			n.mode = 'r'
			p.blank()
			if p.i < len(p.s) && p.s[p.i] != '%' {
				n.root = strings.Trim(p.condWord(), `"`)
			}
		case "f":
			n.mode = 'f'
			p.blank()
			if p.i < len(p.s) && p.s[p.i] == '"' {
				j := strings.IndexByte(p.s[p.i+1:], '"')
				if j < 0 {
					p.err = errSyntax
					return n
				}
				n.options = p.s[p.i+1 : p.i+1+j]
				p.i += j + 2
			}
		default:
			p.err = unexpected("/" + sw)
			return n
		}
	}
	p.blank()
	v := p.word()
	if len(v) != 2 || v[0] != '%' {
		if v == "" {
			v = "the end of the line"
		}
		p.err = unexpected(v)
		return n
	}
	n.varName = v[1]
	p.blank()
	if in := p.word(); !strings.EqualFold(in, "in") {
		if in == "" {
			p.err = errSyntax
		} else {
			p.err = unexpected(in)
		}
		return n
	}
	p.blank()
	if p.eof() || p.s[p.i] != '(' {
		p.err = unexpected(p.peekWord())
		return n
	}
	p.i++
	var set strings.Builder
	inQ := byte(0)
	for {
		if p.eof() {
			p.open = true
			return n
		}
		c := p.s[p.i]
		if inQ != 0 {
			if c == inQ {
				inQ = 0
			}
		} else if c == '"' {
			inQ = c
		} else if c == ')' {
			p.i++
			break
		} else if c == '^' && p.i+1 < len(p.s) {
			p.i++
			c = p.s[p.i]
		}
		if c == '\n' {
			c = ' '
		}
		set.WriteByte(c)
		p.i++
	}
	n.set = set.String()
	p.blank()
	if do := p.word(); !strings.EqualFold(do, "do") {
		if do == "" {
			p.err = errSyntax
		} else {
			p.err = unexpected(do)
		}
		return n
	}
	n.body = p.body()
	return n
}
