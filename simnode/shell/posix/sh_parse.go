package posix

import (
	"fmt"
	"strconv"
	"strings"
)

// ---- lexer ----

type shTok struct {
	op   string // operator, "" for a word
	text string // raw word text (quotes kept) or the operator
	fd   int    // for redirections: the fd before the operator, -1 if none
}

func shLex(src string) ([]shTok, error) {
	var toks []shTok
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			toks = append(toks, shTok{text: cur.String(), fd: -1})
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\':
			if i+1 < len(src) {
				if src[i+1] == '\n' {
					i++
					continue
				}
				cur.WriteByte(c)
				cur.WriteByte(src[i+1])
				i++
			} else {
				cur.WriteByte(c)
			}
			inWord = true
		case c == '\'':
			j := strings.IndexByte(src[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated quoted string")
			}
			cur.WriteString(src[i : i+j+2])
			i += j + 1
			inWord = true
		case c == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(src) {
				return nil, fmt.Errorf("unterminated quoted string")
			}
			cur.WriteString(src[i : j+1])
			i = j
			inWord = true
		case c == '`':
			j := strings.IndexByte(src[i+1:], '`')
			if j < 0 {
				return nil, fmt.Errorf("unterminated backquote")
			}
			cur.WriteString(src[i : i+j+2])
			i += j + 1
			inWord = true
		case c == '$' && i+1 < len(src) && (src[i+1] == '(' || src[i+1] == '{'):
			open, close := src[i+1], byte(')')
			if open == '{' {
				close = '}'
			}
			depth, j := 0, i+1
			for ; j < len(src); j++ {
				if src[j] == open {
					depth++
				} else if src[j] == close {
					depth--
					if depth == 0 {
						break
					}
				} else if src[j] == '\'' {
					if k := strings.IndexByte(src[j+1:], '\''); k >= 0 {
						j += k + 1
					}
				}
			}
			if j >= len(src) {
				return nil, fmt.Errorf("unterminated %c", open)
			}
			cur.WriteString(src[i : j+1])
			i = j
			inWord = true
		case c == '#' && !inWord:
			for i < len(src) && src[i] != '\n' {
				i++
			}
			i--
		case c == ' ' || c == '\t' || c == '\r':
			flush()
		case strings.IndexByte(";&|<>()\n", c) >= 0:
			fd := -1
			if (c == '>' || c == '<') && inWord {
				if n, err := strconv.Atoi(cur.String()); err == nil && n < 10 {
					fd = n
					cur.Reset()
					inWord = false
				}
			}
			flush()
			op := string(c)
			if i+1 < len(src) {
				two := src[i : i+2]
				switch two {
				case "&&", "||", ">>", ";;", ">&", "<&":
					op = two
					i++
				}
			}
			toks = append(toks, shTok{op: op, text: op, fd: fd})
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return toks, nil
}

// ---- parser ----

type shRedir struct {
	fd     int
	op     string
	target string // raw word
}

type shNode struct {
	kind    string // list, andor, pipe, simple, if, while, until, for, group, subshell, func
	kids    []*shNode
	ops     []string // list: separators; andor: && ||
	words   []string
	redirs  []shRedir
	neg     bool
	varName string
	items   []string
	bg      []bool
}

// funcDef parses the body of function name: one compound command (with
// its redirections), after optional newlines.
func (ps *shParser) funcDef(name string) *shNode {
	for ps.peek().op == "\n" {
		ps.i++
	}
	t := ps.peek()
	compound := t.op == "(" || (t.op == "" && (t.text == "{" || t.text == "if" || t.text == "while" || t.text == "until" || t.text == "for"))
	if !compound {
		ps.err = fmt.Errorf("unexpected %q: a function body is a compound command", t.text)
		return &shNode{kind: "func", varName: name}
	}
	return &shNode{kind: "func", varName: name, kids: []*shNode{ps.command()}}
}

type shParser struct {
	toks []shTok
	i    int
	err  error
}

func (ps *shParser) peek() shTok {
	if ps.i < len(ps.toks) {
		return ps.toks[ps.i]
	}
	return shTok{op: "EOF", text: "EOF"}
}

func (ps *shParser) isWord(w string) bool {
	t := ps.peek()
	return t.op == "" && t.text == w
}

func (ps *shParser) skipNewlines() {
	for ps.peek().op == "\n" || ps.peek().op == ";" {
		ps.i++
	}
}

// list parses and-or lists up to one of the stop words.
func (ps *shParser) list(stop []string) *shNode {
	n := &shNode{kind: "list"}
	for ps.err == nil {
		for ps.peek().op == "\n" || ps.peek().op == ";" {
			ps.i++
		}
		t := ps.peek()
		if t.op == "EOF" || t.op == ")" || t.op == ";;" {
			return n
		}
		if t.op == "" {
			for _, s := range stop {
				if t.text == s {
					return n
				}
			}
		}
		n.kids = append(n.kids, ps.andor())
		bg := false
		switch ps.peek().op {
		case "&":
			bg = true
			ps.i++
		case ";", "\n":
			ps.i++
		case "EOF", ")":
		default:
			if ps.peek().op != "" || !isStop(ps.peek().text, stop) {
				if ps.peek().op != "" {
					ps.err = fmt.Errorf("unexpected %q", ps.peek().text)
				}
			}
		}
		n.bg = append(n.bg, bg)
	}
	return n
}

func isStop(w string, stop []string) bool {
	for _, s := range stop {
		if w == s {
			return true
		}
	}
	return false
}

func (ps *shParser) andor() *shNode {
	n := &shNode{kind: "andor"}
	n.kids = append(n.kids, ps.pipeline())
	for ps.err == nil && (ps.peek().op == "&&" || ps.peek().op == "||") {
		n.ops = append(n.ops, ps.peek().op)
		ps.i++
		for ps.peek().op == "\n" {
			ps.i++
		}
		n.kids = append(n.kids, ps.pipeline())
	}
	return n
}

func (ps *shParser) pipeline() *shNode {
	n := &shNode{kind: "pipe"}
	if ps.isWord("!") {
		n.neg = true
		ps.i++
	}
	n.kids = append(n.kids, ps.command())
	for ps.err == nil && ps.peek().op == "|" {
		ps.i++
		for ps.peek().op == "\n" {
			ps.i++
		}
		n.kids = append(n.kids, ps.command())
	}
	return n
}

func (ps *shParser) expectWord(w string) {
	if ps.err != nil {
		return
	}
	if !ps.isWord(w) {
		ps.err = fmt.Errorf("expected %q, got %q", w, ps.peek().text)
		return
	}
	ps.i++
}

func (ps *shParser) command() *shNode {
	t := ps.peek()
	var n *shNode
	switch {
	case t.op == "" && t.text == "if":
		ps.i++
		n = &shNode{kind: "if"}
		n.kids = append(n.kids, ps.list([]string{"then"}))
		ps.expectWord("then")
		n.kids = append(n.kids, ps.list([]string{"elif", "else", "fi"}))
		for ps.err == nil && ps.isWord("elif") {
			ps.i++
			n.kids = append(n.kids, ps.list([]string{"then"}))
			ps.expectWord("then")
			n.kids = append(n.kids, ps.list([]string{"elif", "else", "fi"}))
		}
		if ps.isWord("else") {
			ps.i++
			n.kids = append(n.kids, ps.list([]string{"fi"}))
		}
		ps.expectWord("fi")
	case t.op == "" && (t.text == "while" || t.text == "until"):
		ps.i++
		n = &shNode{kind: t.text}
		n.kids = append(n.kids, ps.list([]string{"do"}))
		ps.expectWord("do")
		n.kids = append(n.kids, ps.list([]string{"done"}))
		ps.expectWord("done")
	case t.op == "" && t.text == "for":
		ps.i++
		n = &shNode{kind: "for"}
		if ps.peek().op != "" {
			ps.err = fmt.Errorf("bad for loop variable")
			return n
		}
		n.varName = ps.peek().text
		ps.i++
		for ps.peek().op == "\n" {
			ps.i++
		}
		if ps.isWord("in") {
			ps.i++
			for ps.peek().op == "" && !ps.isWord("do") {
				n.items = append(n.items, ps.peek().text)
				ps.i++
			}
		} else {
			n.items = []string{`"$@"`}
		}
		ps.skipNewlines()
		ps.expectWord("do")
		n.kids = append(n.kids, ps.list([]string{"done"}))
		ps.expectWord("done")
	case t.op == "" && t.text == "{":
		ps.i++
		n = &shNode{kind: "group"}
		n.kids = append(n.kids, ps.list([]string{"}"}))
		ps.expectWord("}")
	case t.op == "" && t.text == "function" && ps.i+1 < len(ps.toks) && ps.toks[ps.i+1].op == "":
		// bash's (and busybox ash's) `function name { ...; }`, with or
		// without ().
		ps.i++
		name := ps.peek().text
		ps.i++
		if ps.peek().op == "(" {
			if ps.i+1 >= len(ps.toks) || ps.toks[ps.i+1].op != ")" {
				ps.err = fmt.Errorf("expected \"()\" after function %s", name)
				return &shNode{kind: "func"}
			}
			ps.i += 2
		}
		return ps.funcDef(name)
	case t.op == "" && ps.i+2 < len(ps.toks) && ps.toks[ps.i+1].op == "(" && ps.toks[ps.i+2].op == ")":
		// name() compound-command: a function definition (POSIX 2.9.5).
		if !isName(t.text) {
			ps.err = fmt.Errorf("bad function name %q", t.text)
			return &shNode{kind: "func"}
		}
		ps.i += 3
		return ps.funcDef(t.text)
	case t.op == "(":
		ps.i++
		n = &shNode{kind: "subshell"}
		n.kids = append(n.kids, ps.list(nil))
		if ps.peek().op != ")" {
			ps.err = fmt.Errorf("missing )")
			return n
		}
		ps.i++
	default:
		n = &shNode{kind: "simple"}
	}
	// words (simple commands) and redirections
	for ps.err == nil {
		t := ps.peek()
		switch {
		case t.op == ">" || t.op == ">>" || t.op == "<" || t.op == ">&" || t.op == "<&":
			ps.i++
			if ps.peek().op != "" {
				ps.err = fmt.Errorf("unexpected %q", ps.peek().text)
				return n
			}
			fd := t.fd
			if fd < 0 {
				fd = 1
				if t.op[0] == '<' {
					fd = 0
				}
			}
			n.redirs = append(n.redirs, shRedir{fd: fd, op: t.op, target: ps.peek().text})
			ps.i++
		case t.op == "" && n.kind == "simple":
			n.words = append(n.words, t.text)
			ps.i++
		default:
			if n.kind == "simple" && len(n.words) == 0 && len(n.redirs) == 0 {
				ps.err = fmt.Errorf("unexpected %q", t.text)
			}
			return n
		}
	}
	return n
}
