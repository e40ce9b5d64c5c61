package cmd

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// This file is cmd.exe (row E): the /C /K /S command line rules, %VAR%
// expansion, the operators & && || | ( ), redirections > >> < 2>&1 and the
// internal commands of cmdBuiltins.

// cmdBuiltin is an internal command of cmd.exe. It gets the raw text after
// its name (cmd's internal commands parse their own arguments: `echo a  b `
// prints "a  b " verbatim).
type cmdBuiltin struct {
	name    string
	aliases []string
	help    string
	rows    string
	run     func(s *cmdShell, rest string) int
}

// cmdBuiltins is the table of cmd's internal commands (filled in init to
// break the initialisation cycle through `help`).
var cmdBuiltins []*cmdBuiltin

func init() {
	cmdBuiltins = []*cmdBuiltin{
		{name: "echo", help: "Displays messages, or turns command-echoing on or off.", rows: "E, B11", run: (*cmdShell).echo},
		{name: "set", help: "Displays, sets, or removes Windows environment variables.", rows: "E, B12", run: (*cmdShell).set},
		{name: "type", help: "Displays the contents of a text file.", rows: "E, B11 (volumes.go:148)", run: (*cmdShell).typeCmd},
		{name: "dir", help: "Displays a list of files and subdirectories in a directory.", rows: "E, B10", run: func(s *cmdShell, rest string) int { return dirListing(s.p, splitWinArgs(rest)) }},
		{name: "exit", help: "Quits the CMD.EXE program (command interpreter).", rows: "E", run: (*cmdShell).exit},
		{name: "ver", help: "Displays the Windows version.", rows: "N3", run: (*cmdShell).ver},
		{name: "cd", aliases: []string{"chdir"}, help: "Displays the name of or changes the current directory.", run: (*cmdShell).cd},
		{name: "copy", help: "Copies one or more files to another location.", rows: "B10 (host_process.go:701)", run: (*cmdShell).copy},
		{name: "rem", help: "Records comments (remarks) in batch files.", run: func(*cmdShell, string) int { return 0 }},
		{name: "cls", help: "Clears the screen.", run: func(*cmdShell, string) int { return 0 }},
		{name: "help", help: "Provides Help information for Windows commands.", run: (*cmdShell).help},
		{name: "if", help: "Performs conditional processing in batch programs.", run: (*cmdShell).ifCmd},
	}
}

var cmdBuiltinIndex = map[string]*cmdBuiltin{}

func init() {
	for _, b := range cmdBuiltins {
		cmdBuiltinIndex[b.name] = b
		for _, a := range b.aliases {
			cmdBuiltinIndex[a] = b
		}
	}
}

// cmdShell is one cmd.exe.
type cmdShell struct {
	p      *process.Proc
	exited bool
	code   int
	echoOn bool
}

// Run is `cmd [/S] [/Q] [/D] /C string`, `cmd /K string` or an
// interactive cmd reading stdin.
func Run(p *process.Proc, argv []string) int {
	line := joinWinArgs(argv[1:])
	s := &cmdShell{p: p, echoOn: true}
	strip, mode := false, ""
	rest := line
	for {
		rest = strings.TrimLeft(rest, " \t")
		if len(rest) < 2 || rest[0] != '/' {
			break
		}
		sw := strings.ToUpper(rest[1:2])
		end := 2
		for end < len(rest) && rest[end] != ' ' && rest[end] != '\t' && rest[end] != '/' && rest[end] != '"' {
			end++
		}
		if sw == "C" || sw == "K" {
			mode, rest = sw, rest[2:]
			break
		}
		switch sw {
		case "S":
			strip = true
		case "Q":
			s.echoOn = false
		case "?":
			p.Println("Starts a new instance of the Windows command interpreter")
			p.Println("")
			p.Println("CMD [/A | /U] [/Q] [/D] [/E:ON | /E:OFF] [/F:ON | /F:OFF] [/V:ON | /V:OFF]")
			p.Println("    [[/S] [/C | /K] string]")
			return 0
		}
		rest = rest[end:]
	}
	if mode == "" {
		return s.interactive(true)
	}
	cmdline := cmdStripQuotes(strings.TrimLeft(rest, " \t"), strip)
	s.runLine(cmdline)
	if mode == "K" && !s.exited {
		return s.interactive(false)
	}
	if s.exited {
		return s.code
	}
	return p.LastExit
}

// cmdStripQuotes applies cmd's rule for the text after /C: unless /S is
// given and exactly two quotes surround an executable's name with
// whitespace in it, a leading quote and the last quote are removed.
func cmdStripQuotes(s string, forceStrip bool) string {
	if !strings.HasPrefix(s, `"`) {
		return s
	}
	if !forceStrip && strings.Count(s, `"`) == 2 {
		end := strings.Index(s[1:], `"`) + 1
		inner := s[1:end]
		lower := strings.ToLower(inner)
		if !strings.ContainsAny(inner, "&<>()@^|") && strings.ContainsAny(inner, " \t") &&
			(strings.HasSuffix(lower, ".exe") || strings.HasSuffix(lower, ".bat") || strings.HasSuffix(lower, ".cmd")) {
			return s
		}
	}
	last := strings.LastIndex(s, `"`)
	if last == 0 {
		return s[1:]
	}
	return s[1:last] + s[last+1:]
}

// interactive reads commands from stdin, as `kubectl exec -i pod -- cmd`.
func (s *cmdShell) interactive(banner bool) int {
	p := s.p
	if banner {
		p.Println("Microsoft Windows [Version " + p.OSVersion() + "]")
		p.Println("(c) Microsoft Corporation. All rights reserved.")
	}
	sc := bufio.NewScanner(p.Stdin)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for {
		if s.echoOn {
			p.Println("")
			io.WriteString(p.Stdout, p.Dir+">")
		}
		if p.Done() {
			return p.Killed()
		}
		if !sc.Scan() {
			return p.LastExit
		}
		line := strings.TrimRight(sc.Text(), "\r")
		if s.echoOn {
			p.Println(line)
		}
		s.runLine(line)
		if s.exited {
			return s.code
		}
	}
}

// expandPercent is %VAR% expansion of a command line, done before it is
// parsed (so `set X=1 & echo %X%` prints the old value, as in cmd). An
// undefined variable stays as written, like cmd /c does.
func (s *cmdShell) expandPercent(line string) string {
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		if line[i] != '%' {
			b.WriteByte(line[i])
			continue
		}
		j := strings.IndexByte(line[i+1:], '%')
		if j < 0 {
			b.WriteString(line[i:])
			break
		}
		name := line[i+1 : i+1+j]
		if v, ok := s.lookup(name); ok && name != "" {
			b.WriteString(v)
			i += j + 1
			continue
		}
		// not a variable: keep the percent sign, rescan from the next one
		b.WriteByte('%')
	}
	return b.String()
}

// lookup finds a variable, including cmd's dynamic ones.
func (s *cmdShell) lookup(name string) (string, bool) {
	if strings.ContainsAny(name, " \t\"") {
		return "", false
	}
	if v, ok := s.p.Vars.Get(name); ok {
		return v, true
	}
	switch strings.ToUpper(name) {
	case "ERRORLEVEL":
		return strconv.Itoa(s.p.LastExit), true
	case "CD":
		return s.p.Dir, true
	case "DATE":
		return s.p.Now().Format("Mon 01/02/2006"), true
	case "TIME":
		return s.p.Now().Format("15:04:05.00"), true
	case "RANDOM":
		return strconv.Itoa(int(s.p.Now().UnixNano() % 32768)), true
	case "CMDCMDLINE":
		return `C:\Windows\system32\cmd.exe`, true
	}
	return "", false
}

// cmd's syntax tree.
type cmdNode struct {
	kind  byte // 's' simple, 'g' group, '&' sequence, 'a' && / || chain, '|' pipeline
	text  string
	ops   []string
	kids  []*cmdNode
	redir string // a group's trailing redirections
}

type cmdTok struct {
	op   string // "", "&", "&&", "||", "|", "(", ")"
	text string
}

// cmdTokenize splits a line at the operators outside quotes. `^` escapes
// the next character; `(` opens a group at the start of a command; `)`
// closes one only inside a group.
func cmdTokenize(line string) []cmdTok {
	var toks []cmdTok
	var cur strings.Builder
	inQ, depth, atStart := false, 0, true
	flush := func() {
		if cur.Len() > 0 {
			toks = append(toks, cmdTok{text: cur.String()})
			cur.Reset()
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == '"' {
			inQ = !inQ
			cur.WriteByte(c)
			atStart = false
			continue
		}
		if inQ {
			cur.WriteByte(c)
			continue
		}
		switch {
		case c == '^':
			if i+1 < len(line) {
				i++
				cur.WriteByte(line[i])
			}
			atStart = false
		case c == '&' || c == '|':
			// `2>&1` and `>&2` are redirections, not operators
			if c == '&' && i > 0 && line[i-1] == '>' {
				cur.WriteByte(c)
				continue
			}
			flush()
			op := string(c)
			if i+1 < len(line) && line[i+1] == c {
				op += string(c)
				i++
			}
			toks = append(toks, cmdTok{op: op})
			atStart = true
		case c == '(' && atStart:
			flush()
			toks = append(toks, cmdTok{op: "("})
			depth++
		case c == ')' && depth > 0:
			flush()
			toks = append(toks, cmdTok{op: ")"})
			depth--
			atStart = false
		case (c == ' ' || c == '\t' || c == '@') && atStart:
			if c != '@' {
				cur.WriteByte(c)
			}
		default:
			cur.WriteByte(c)
			atStart = false
		}
	}
	flush()
	return toks
}

type cmdParser struct {
	toks []cmdTok
	i    int
}

func (c *cmdParser) peek() cmdTok {
	if c.i < len(c.toks) {
		return c.toks[c.i]
	}
	return cmdTok{op: "EOF"}
}

func (c *cmdParser) seq() *cmdNode {
	n := &cmdNode{kind: '&'}
	for {
		n.kids = append(n.kids, c.andor())
		if c.peek().op != "&" {
			return n
		}
		c.i++
	}
}

func (c *cmdParser) andor() *cmdNode {
	n := &cmdNode{kind: 'a'}
	n.kids = append(n.kids, c.pipe())
	for op := c.peek().op; op == "&&" || op == "||"; op = c.peek().op {
		c.i++
		n.ops = append(n.ops, op)
		n.kids = append(n.kids, c.pipe())
	}
	return n
}

func (c *cmdParser) pipe() *cmdNode {
	n := &cmdNode{kind: '|'}
	for {
		n.kids = append(n.kids, c.unit())
		if c.peek().op != "|" {
			return n
		}
		c.i++
	}
}

func (c *cmdParser) unit() *cmdNode {
	t := c.peek()
	switch t.op {
	case "(":
		c.i++
		inner := c.seq()
		g := &cmdNode{kind: 'g', kids: []*cmdNode{inner}}
		if c.peek().op == ")" {
			c.i++
		}
		if t := c.peek(); t.op == "" {
			g.redir = t.text
			c.i++
		}
		return g
	case "":
		c.i++
		return &cmdNode{kind: 's', text: t.text}
	case ")":
		if c.i > 0 {
			// a stray `)` ends the group (handled by the caller)
			return &cmdNode{kind: 's'}
		}
		c.i++
		return &cmdNode{kind: 's', text: ")"}
	default:
		// an operator where a command should be: cmd reports it
		c.i++
		return &cmdNode{kind: 's', text: t.op, ops: []string{"syntax"}}
	}
}

// runLine expands, parses and runs one command line.
func (s *cmdShell) runLine(line string) int {
	line = s.expandPercent(line)
	toks := cmdTokenize(line)
	if len(toks) == 0 {
		return s.p.LastExit
	}
	cp := &cmdParser{toks: toks}
	root := cp.seq()
	for cp.i < len(cp.toks) {
		// unbalanced `)`: skip it like cmd does and go on
		cp.i++
		if cp.i < len(cp.toks) {
			root.kids = append(root.kids, cp.seq().kids...)
		}
	}
	if bad := findSyntaxError(root); bad != nil {
		// a syntax error aborts the whole line
		s.p.Eprintln(bad.text + " was unexpected at this time.")
		s.p.LastExit = 255
		return 255
	}
	return s.runNode(root, s.p)
}

func findSyntaxError(n *cmdNode) *cmdNode {
	if n.kind == 's' && len(n.ops) > 0 {
		return n
	}
	for _, k := range n.kids {
		if b := findSyntaxError(k); b != nil {
			return b
		}
	}
	return nil
}

func (s *cmdShell) runNode(n *cmdNode, p *process.Proc) int {
	if s.exited {
		return s.code
	}
	if p.Done() {
		s.exited, s.code = true, p.Killed()
		return s.code
	}
	switch n.kind {
	case '&':
		code := 0
		for _, k := range n.kids {
			code = s.runNode(k, p)
			if s.exited {
				return s.code
			}
		}
		return code
	case 'a':
		code := s.runNode(n.kids[0], p)
		for i, op := range n.ops {
			if s.exited {
				return s.code
			}
			if (op == "&&") == (code == 0) {
				code = s.runNode(n.kids[i+1], p)
			}
		}
		return code
	case '|':
		if len(n.kids) == 1 {
			return s.runNode(n.kids[0], p)
		}
		var in io.Reader = p.Stdin
		code := 0
		for i, k := range n.kids {
			if i == len(n.kids)-1 {
				code = s.runNode(k, p.Sub(in, nil, nil))
				break
			}
			buf := &process.LimitedBuffer{Max: 16 << 20}
			s.runNode(k, p.Sub(in, buf, nil))
			in = buf
		}
		return code
	case 'g':
		out, errw, in, code, ok := s.redirect(p, n.redir)
		if !ok {
			return code
		}
		c := p.Sub(in, out, errw)
		code = s.runNode(n.kids[0], c)
		p.LastExit, p.Vars, p.Dir = c.LastExit, c.Vars, c.Dir
		return code
	}
	return s.simple(n, p)
}

// redirection is one of >, >>, <, n>&m in a simple command.
type redirection struct {
	fd     int
	op     string // ">", ">>", "<", ">&"
	target string
}

// cmdRedirections removes the redirections from text (outside quotes) and
// returns the command text left, spaces kept ("echo hi > f" is "echo hi ").
func cmdRedirections(text string) (string, []redirection) {
	var out strings.Builder
	var rs []redirection
	inQ := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '"' {
			inQ = !inQ
		}
		if inQ || (c != '>' && c != '<') {
			out.WriteByte(c)
			continue
		}
		r := redirection{fd: 1, op: string(c)}
		if c == '<' {
			r.fd = 0
		}
		// a single digit right before the operator, after a space, is the fd
		if s := out.String(); len(s) > 0 && s[len(s)-1] >= '0' && s[len(s)-1] <= '9' && (len(s) == 1 || s[len(s)-2] == ' ' || s[len(s)-2] == '\t') {
			r.fd = int(s[len(s)-1] - '0')
			trimmed := s[:len(s)-1]
			out.Reset()
			out.WriteString(trimmed)
		}
		if c == '>' && i+1 < len(text) && text[i+1] == '>' {
			r.op = ">>"
			i++
		}
		if i+1 < len(text) && text[i+1] == '&' {
			r.op = ">&"
			i++
		}
		j := i + 1
		for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
		k := j
		q := false
		for k < len(text) {
			if text[k] == '"' {
				q = !q
			} else if !q && (text[k] == ' ' || text[k] == '\t' || text[k] == '>' || text[k] == '<') {
				break
			}
			k++
		}
		r.target = strings.Trim(text[j:k], `"`)
		rs = append(rs, r)
		i = k - 1
	}
	return out.String(), rs
}

// redirect applies a command's redirections in order.
func (s *cmdShell) redirect(p *process.Proc, text string) (out, errw io.Writer, in io.Reader, code int, ok bool) {
	_, rs := cmdRedirections(text)
	fds := map[int]io.Writer{1: p.Stdout, 2: p.Stderr}
	in = p.Stdin
	for _, r := range rs {
		switch r.op {
		case "<":
			data, err := p.ReadFile(r.target)
			if err != nil {
				p.Eprintln(process.CmdFileError(err, false))
				p.LastExit = 1
				return nil, nil, nil, 1, false
			}
			in = strings.NewReader(string(data))
		case ">&":
			m, err := strconv.Atoi(r.target)
			if w, found := fds[m]; err == nil && found {
				fds[r.fd] = w
			}
		default:
			w, err := p.OpenRedirect(r.target, r.op == ">>")
			if err != nil {
				// upstream test/e2e/windows/volumes.go:106: stderr is
				// exactly "Access is denied."
				p.Eprintln(process.CmdFileError(err, true))
				p.LastExit = 1
				return nil, nil, nil, 1, false
			}
			fds[r.fd] = w
		}
	}
	return fds[1], fds[2], in, 0, true
}

// simple runs one command: a builtin, a program, or a batch file.
func (s *cmdShell) simple(n *cmdNode, p *process.Proc) int {
	if len(n.ops) > 0 {
		p.Eprintln(n.text + " was unexpected at this time.")
		p.LastExit = 255
		return 255
	}
	text, _ := cmdRedirections(n.text)
	text = strings.TrimLeft(text, " \t@")
	if strings.TrimSpace(text) == "" {
		return p.LastExit
	}
	out, errw, in, code, ok := s.redirect(p, n.text)
	if !ok {
		return code
	}
	c := p.Sub(in, out, errw)
	code = s.dispatch(c, text)
	p.LastExit = code
	p.Dir = c.Dir
	p.Vars = c.Vars
	return code
}

// cmdName splits the command name off: `echo.` and `echo(` are echo with
// the rest after the delimiter; a quoted name may contain spaces.
func cmdName(text string) (name, rest string, delim bool) {
	if strings.HasPrefix(text, `"`) {
		if j := strings.IndexByte(text[1:], '"'); j >= 0 {
			return text[1 : j+1], strings.TrimPrefix(text[j+2:], " "), false
		}
	}
	end := strings.IndexAny(text, " \t")
	if end < 0 {
		end = len(text)
	}
	name = text[:end]
	rest = text[end:]
	if len(rest) > 0 {
		rest = rest[1:]
	}
	lower := strings.ToLower(name)
	for _, b := range []string{"echo", "cd", "dir", "type"} {
		if len(lower) > len(b) && strings.HasPrefix(lower, b) && strings.ContainsRune(".(:;,/+[]\\", rune(lower[len(b)])) {
			if b == "cd" || b == "dir" || b == "type" {
				return name[:len(b)], text[len(b):], false
			}
			return name[:len(b)], text[len(b)+1:], true
		}
	}
	return name, rest, false
}

func (s *cmdShell) dispatch(p *process.Proc, text string) int {
	name, rest, delim := cmdName(text)
	lower := strings.ToLower(name)
	if b, ok := cmdBuiltinIndex[lower]; ok {
		if strings.TrimSpace(rest) == "/?" {
			p.Println(b.help)
			return 0
		}
		sub := *s
		sub.p = p
		if b.name == "echo" && delim {
			p.Stdout.Write([]byte(rest + p.NL))
			return 0
		}
		code := b.run(&sub, rest)
		s.exited, s.code = sub.exited, sub.code
		s.echoOn = sub.echoOn
		return code
	}
	if strings.HasSuffix(lower, ".bat") || strings.HasSuffix(lower, ".cmd") {
		return s.batch(p, name, splitWinArgs(rest))
	}
	if _, ok := p.Programs.Lookup(process.Windows, name); ok {
		return p.Exec(append([]string{name}, splitWinArgs(rest)...))
	}
	if code, ok := p.Unsimulated(name); ok {
		return code // open world (openworld.go)
	}
	// cmd.exe's answer to an unknown command (row E).
	p.Eprintln("'" + name + "' is not recognized as an internal or external command,")
	p.Eprintln("operable program or batch file.")
	return process.ExitCmdNotFound
}

// batch runs a .bat/.cmd file line by line, %0..%9 replaced.
func (s *cmdShell) batch(p *process.Proc, name string, args []string) int {
	if !p.Enter() {
		p.Leave()
		p.Eprintln("****** B A T C H   R E C U R S I O N  exceeds STACK limits ******")
		return 255
	}
	defer p.Leave()
	data, err := p.ReadFile(name)
	if err != nil {
		p.Eprintln("'" + name + "' is not recognized as an internal or external command,")
		p.Eprintln("operable program or batch file.")
		return process.ExitCmdNotFound
	}
	b := &cmdShell{p: p, echoOn: s.echoOn}
	for _, line := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		for i := 9; i >= 0; i-- {
			v := ""
			if i == 0 {
				v = name
			} else if i-1 < len(args) {
				v = args[i-1]
			}
			line = strings.ReplaceAll(line, "%"+strconv.Itoa(i), v)
		}
		trim := strings.TrimSpace(line)
		if trim == "" || strings.HasPrefix(trim, ":") {
			continue
		}
		if strings.EqualFold(strings.TrimPrefix(trim, "@"), "echo off") {
			b.echoOn = false
			continue
		}
		if b.echoOn && !strings.HasPrefix(trim, "@") {
			p.Println("")
			p.Println(p.Dir + ">" + trim)
		}
		b.runLine(trim)
		if b.exited {
			return b.code
		}
	}
	return p.LastExit
}

func (s *cmdShell) echo(rest string) int {
	p := s.p
	t := strings.TrimSpace(rest)
	switch strings.ToLower(t) {
	case "":
		if s.echoOn {
			p.Println("ECHO is on.")
		} else {
			p.Println("ECHO is off.")
		}
		return 0
	case "on":
		s.echoOn = true
		return 0
	case "off":
		s.echoOn = false
		return 0
	}
	p.Stdout.Write([]byte(rest + p.NL))
	return 0
}

func (s *cmdShell) set(rest string) int {
	p := s.p
	t := strings.TrimSpace(rest)
	if t == "" {
		for _, e := range p.Vars.Sorted() {
			p.Println(e.Name + "=" + e.Value)
		}
		return 0
	}
	if strings.HasPrefix(strings.ToLower(t), "/a") {
		v, err := process.EvalArith(strings.Trim(strings.TrimSpace(t[2:]), `"`), p.Vars)
		if err != nil {
			p.Eprintln(err.Error())
			return 1073750988
		}
		io.WriteString(p.Stdout, strconv.FormatInt(v, 10))
		return 0
	}
	if strings.HasPrefix(t, `"`) {
		if j := strings.LastIndexByte(t, '"'); j > 0 {
			t = t[1:j]
		}
	}
	if i := strings.IndexByte(t, '='); i > 0 {
		name, val := t[:i], rest[strings.IndexByte(rest, '=')+1:]
		if strings.HasPrefix(strings.TrimSpace(rest), `"`) {
			val = t[i+1:]
		}
		if val == "" {
			p.Vars.Unset(name)
		} else {
			p.Vars.Set(name, val)
		}
		return 0
	} else if i == 0 {
		p.Eprintln("The syntax of the command is incorrect.")
		return 1
	}
	found := false
	for _, e := range p.Vars.Sorted() {
		if strings.HasPrefix(strings.ToUpper(e.Name), strings.ToUpper(t)) {
			p.Println(e.Name + "=" + e.Value)
			found = true
		}
	}
	if !found {
		p.Eprintln("Environment variable " + t + " not defined")
		return 1
	}
	return 0
}

// typeCmd is `type file` (upstream volumes.go:148 reads a read-only volume
// with `cmd /c type <file>`).
func (s *cmdShell) typeCmd(rest string) int {
	p := s.p
	files := splitWinArgs(rest)
	if len(files) == 0 {
		p.Eprintln("The syntax of the command is incorrect.")
		return 1
	}
	code := 0
	for _, f := range files {
		data, err := p.ReadFile(f)
		if err != nil {
			if _, derr := p.ReadDir(f); derr == nil {
				err = fs.ErrPermission
			}
			p.Eprintln(process.CmdFileError(err, false))
			if len(files) > 1 {
				p.Eprintln("Error occurred while processing: " + f + ".")
			}
			code = 1
			continue
		}
		if len(files) > 1 {
			p.Eprintln("")
			p.Eprintln(f)
			p.Eprintln("")
			p.Eprintln("")
		}
		p.Stdout.Write(data)
	}
	return code
}

// exit is `exit [/b] [code]`; in cmd /c both end cmd with the code.
func (s *cmdShell) exit(rest string) int {
	f := strings.Fields(rest)
	if len(f) > 0 && strings.EqualFold(f[0], "/b") {
		f = f[1:]
	}
	code := s.p.LastExit
	if len(f) > 0 {
		n, err := strconv.ParseInt(f[0], 0, 64)
		if err != nil {
			n = 0
		}
		code = int(int32(n))
	}
	s.exited, s.code = true, code
	s.p.LastExit = code
	return code
}

func (s *cmdShell) ver(string) int {
	s.p.Println("")
	s.p.Println("Microsoft Windows [Version " + s.p.OSVersion() + "]")
	return 0
}

func (s *cmdShell) cd(rest string) int {
	p := s.p
	t := strings.Trim(strings.TrimSpace(rest), `"`)
	if strings.HasPrefix(strings.ToLower(t), "/d ") {
		t = strings.TrimSpace(t[3:])
	}
	if t == "" {
		p.Println(p.Dir)
		return 0
	}
	full := p.Path(t)
	if _, err := p.ReadDir(full); err != nil {
		p.Eprintln("The system cannot find the path specified.")
		return 1
	}
	p.Dir = full
	return 0
}

func (s *cmdShell) copy(rest string) int {
	p := s.p
	var args []string
	for _, a := range splitWinArgs(rest) {
		if !strings.HasPrefix(a, "/") {
			args = append(args, a)
		}
	}
	if len(args) == 0 {
		p.Eprintln("The syntax of the command is incorrect.")
		return 1
	}
	src := args[0]
	dst := "."
	if len(args) > 1 {
		dst = args[1]
	}
	data, err := p.ReadFile(src)
	if err != nil {
		p.Eprintln(process.CmdFileError(err, false))
		p.Println("        0 file(s) copied.")
		return 1
	}
	target := p.Path(dst)
	if _, derr := p.ReadDir(target); derr == nil {
		target = strings.TrimRight(target, `\`) + `\` + process.BaseName(p.Path(src))
	}
	if err := p.WriteFile(target, data, false); err != nil {
		p.Eprintln(process.CmdFileError(err, true))
		p.Println("        0 file(s) copied.")
		return 1
	}
	p.Println("        1 file(s) copied.")
	return 0
}

func (s *cmdShell) help(string) int {
	p := s.p
	p.Println("For more information on a specific command, type HELP command-name")
	names := make([]string, 0, len(cmdBuiltins))
	byName := map[string]string{}
	for _, b := range cmdBuiltins {
		names = append(names, strings.ToUpper(b.name))
		byName[strings.ToUpper(b.name)] = b.help
	}
	sort.Strings(names)
	for _, n := range names {
		p.Println(fmt.Sprintf("%-13s%s", n, byName[n]))
	}
	return 0
}

// ifCmd is `if [/i] [not] exist X cmd`, `if [not] errorlevel N cmd`,
// `if [/i] [not] a==b cmd`.
func (s *cmdShell) ifCmd(rest string) int {
	p := s.p
	t := strings.TrimLeft(rest, " \t")
	fold, neg := false, false
	word := func() string {
		t = strings.TrimLeft(t, " \t")
		w, r, _ := cmdName(t)
		if strings.HasPrefix(t, `"`) {
			w = `"` + w + `"`
		}
		t = r
		return w
	}
	w := word()
	if strings.EqualFold(w, "/i") {
		fold = true
		w = word()
	}
	if strings.EqualFold(w, "not") {
		neg = true
		w = word()
	}
	var cond bool
	switch strings.ToLower(w) {
	case "exist":
		f := strings.Trim(word(), `"`)
		_, err1 := p.ReadFile(f)
		_, err2 := p.ReadDir(f)
		cond = err1 == nil || err2 == nil
	case "errorlevel":
		n, _ := strconv.Atoi(word())
		cond = p.LastExit >= n
	case "defined":
		_, cond = p.Vars.Get(word())
	default:
		left := w
		if i := strings.Index(left, "=="); i >= 0 {
			t = left[i+2:] + " " + t
			left = left[:i]
		} else {
			t = strings.TrimLeft(t, " \t")
			if !strings.HasPrefix(t, "==") {
				p.Eprintln("The syntax of the command is incorrect.")
				return 1
			}
			t = t[2:]
		}
		right := word()
		if fold {
			cond = strings.EqualFold(left, right)
		} else {
			cond = left == right
		}
	}
	if cond != neg {
		code := s.runLine(strings.TrimSpace(t))
		return code
	}
	return 0
}

// splitWinArgs splits a command line into arguments by the rules of
// CommandLineToArgvW: whitespace separates, quotes group, 2n backslashes
// before a quote are n backslashes, 2n+1 escape the quote.
func splitWinArgs(s string) []string {
	var args []string
	var cur strings.Builder
	inQ, have := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			n := 0
			for i < len(s) && s[i] == '\\' {
				n++
				i++
			}
			if i < len(s) && s[i] == '"' {
				cur.WriteString(strings.Repeat(`\`, n/2))
				if n%2 == 1 {
					cur.WriteByte('"')
				} else {
					inQ = !inQ
				}
			} else {
				cur.WriteString(strings.Repeat(`\`, n))
				i--
			}
			have = true
		case c == '"':
			if inQ && i+1 < len(s) && s[i+1] == '"' {
				cur.WriteByte('"')
				i++
			} else {
				inQ = !inQ
			}
			have = true
		case (c == ' ' || c == '\t') && !inQ:
			if have {
				args = append(args, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteByte(c)
			have = true
		}
	}
	if have {
		args = append(args, cur.String())
	}
	return args
}

// escapeWinArg quotes an argument the way the container runtime does when
// it turns argv into a Windows command line (syscall.EscapeArg).
func escapeWinArg(s string) string {
	if s == "" {
		return `""`
	}
	if !strings.ContainsAny(s, " \t\"") {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	slashes := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			slashes++
		case '"':
			b.WriteString(strings.Repeat(`\`, slashes+1))
			slashes = 0
		default:
			slashes = 0
		}
		b.WriteByte(c)
	}
	b.WriteString(strings.Repeat(`\`, slashes))
	b.WriteByte('"')
	return b.String()
}

func joinWinArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = escapeWinArg(a)
	}
	return strings.Join(q, " ")
}
