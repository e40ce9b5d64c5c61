package posix

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"wink.dev/wink/simnode/shell/process"
	"wink.dev/wink/simnode/shell/programs"
)

// This file is the Linux sh (busybox ash flavour) of Linux containers and
// of the e2e images' `sh -c` (upstream test/e2e/windows/hybrid_network.go:131
// `/bin/sh -c "nc -vz <ip> <port> -w <s>"`): ; && || | & > >> < 2>&1, $VAR,
// ${VAR:-x}, $(cmd), quotes, if/while/until/for, functions (name() { ...; }
// with $1.., return and local, as ash has them), trap, and the builtins of
// shBuiltins.

type shBuiltin struct {
	name string
	help string
	run  func(s *shell, p *process.Proc, args []string) int
}

var shBuiltins = map[string]*shBuiltin{}

func init() {
	for _, b := range []*shBuiltin{
		{"echo", "Prints its arguments (-n, -e).", func(s *shell, p *process.Proc, a []string) int { return programs.Echo(p, a) }},
		{"exit", "Exits the shell with a code.", (*shell).exit},
		{"export", "Exports variables.", (*shell).export},
		{"unset", "Unsets variables.", func(s *shell, p *process.Proc, a []string) int {
			for _, n := range a[1:] {
				p.Vars.Unset(n)
			}
			return 0
		}},
		{"cd", "Changes the working directory.", func(s *shell, p *process.Proc, a []string) int {
			t := "/root"
			if len(a) > 1 {
				t = a[1]
			}
			full := p.Path(t)
			if _, err := p.ReadDir(full); err != nil {
				p.Eprintln("sh: cd: can't cd to " + t + ": No such file or directory")
				return 2
			}
			p.Dir = full
			return 0
		}},
		{"true", "Exits 0.", func(*shell, *process.Proc, []string) int { return 0 }},
		{":", "Exits 0.", func(*shell, *process.Proc, []string) int { return 0 }},
		{"false", "Exits 1.", func(*shell, *process.Proc, []string) int { return 1 }},
		{"test", "Evaluates a condition.", func(s *shell, p *process.Proc, a []string) int { return shTest(p, a[1:]) }},
		{"[", "Evaluates a condition.", func(s *shell, p *process.Proc, a []string) int {
			if a[len(a)-1] != "]" {
				p.Eprintln("sh: missing ]")
				return 2
			}
			return shTest(p, a[1:len(a)-1])
		}},
		{"[[", "Evaluates a condition (ash's bash-compatible [[ ]]; no && or || inside).", func(s *shell, p *process.Proc, a []string) int {
			if a[len(a)-1] != "]]" {
				p.Eprintln("sh: missing ]]")
				return 2
			}
			return shTest(p, a[1:len(a)-1])
		}},
		{"trap", "Sets signal handlers.", (*shell).trap},
		{"set", "Sets shell options (-e, -x).", (*shell).set},
		{"shift", "Shifts positional parameters.", func(s *shell, p *process.Proc, a []string) int {
			if len(s.args) > 0 {
				s.args = s.args[1:]
			}
			return 0
		}},
		{"wait", "Waits for background jobs.", func(s *shell, p *process.Proc, a []string) int { return s.wait() }},
		{"read", "Reads a line into variables.", (*shell).read},
		{"break", "Leaves a loop.", func(s *shell, p *process.Proc, a []string) int { s.brk = 1; return 0 }},
		{"continue", "Next loop iteration.", func(s *shell, p *process.Proc, a []string) int { s.cont = true; return 0 }},
		{"eval", "Runs its arguments as a command.", func(s *shell, p *process.Proc, a []string) int { return s.runScript(p, strings.Join(a[1:], " ")) }},
		{"exec", "Replaces the shell with a command.", func(s *shell, p *process.Proc, a []string) int {
			if len(a) < 2 {
				return 0
			}
			code := s.command(p, a[1:])
			s.exited, s.code = true, code
			return code
		}},
		{"return", "Returns from a function.", (*shell).ret},
		{"local", "Declares function-local variables.", (*shell).local},
		{".", "Runs a file in this shell.", (*shell).source},
		{"source", "Runs a file in this shell.", (*shell).source},
	} {
		shBuiltins[b.name] = b
	}
}

// shell is one sh process.
type shell struct {
	name            string
	args            []string
	traps           map[string]string
	exited          bool
	code            int
	brk             int
	cont            bool
	errexit, xtrace bool
	// funcs are the functions defined, by name; frames the calls in
	// progress, innermost last; returning is set by return until its
	// function (or dot script, or the script) ends.
	funcs     map[string]*shNode
	frames    []*shFrame
	returning bool
	jobs      *sync.WaitGroup
	jobCtx    context.Context
	cancel    context.CancelFunc
}

// shFrame is one function call: the variables its local declared, with
// the values they had before (restored when it returns).
type shFrame struct {
	saved map[string]savedVar
}

type savedVar struct {
	value string
	set   bool
}

// child is a subshell: same jobs and functions (a fork has them), fresh
// traps and state.
func (s *shell) child(name string, args []string) *shell {
	funcs := make(map[string]*shNode, len(s.funcs))
	for k, v := range s.funcs {
		funcs[k] = v
	}
	// A subshell of a function is still in it (local works there), with
	// frames of its own.
	frames := make([]*shFrame, len(s.frames))
	for i := range frames {
		frames[i] = &shFrame{saved: map[string]savedVar{}}
	}
	return &shell{name: name, args: args, traps: map[string]string{}, funcs: funcs, frames: frames, jobs: s.jobs, jobCtx: s.jobCtx, cancel: func() {}, errexit: s.errexit, xtrace: s.xtrace}
}

// lockedWriter serialises writes of background jobs and the shell.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// Run is `sh -c script [name args...]`, `sh script.sh`, or sh reading
// stdin.
func Run(p *process.Proc, argv []string) int {
	s := &shell{name: "sh", traps: map[string]string{}, funcs: map[string]*shNode{}, jobs: &sync.WaitGroup{}}
	var mu sync.Mutex
	p.Stdout = lockedWriter{&mu, p.Stdout}
	p.Stderr = lockedWriter{&mu, p.Stderr}
	s.jobCtx, s.cancel = context.WithCancel(p.Ctx)
	defer func() {
		s.cancel()
		s.jobs.Wait()
	}()
	args := argv[1:]
	script := ""
	haveScript := false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		a := args[0]
		args = args[1:]
		if strings.Contains(a, "e") {
			s.errexit = true
		}
		if strings.Contains(a, "x") {
			s.xtrace = true
		}
		if strings.Contains(a, "c") {
			if len(args) == 0 {
				p.Eprintln("sh: -c requires an argument")
				return 2
			}
			script, args, haveScript = args[0], args[1:], true
			if len(args) > 0 {
				s.name, args = args[0], args[1:]
			}
			s.args = args
			break
		}
	}
	if !haveScript {
		if len(args) > 0 {
			data, err := p.ReadFile(args[0])
			if err != nil {
				p.Eprintln("sh: can't open '" + args[0] + "': " + process.PosixFileError(err, false))
				return 2
			}
			script, s.name, s.args = string(data), args[0], args[1:]
		} else {
			b, _ := io.ReadAll(bufio.NewReader(p.Stdin))
			script = string(b)
		}
	}
	code := s.runScript(p, script)
	if s.exited || s.returning {
		// return outside a function ends the script, as exit does
		code = s.code
	}
	s.returning = false
	if p.Done() {
		return s.onKill(p)
	}
	if h, ok := s.traps["EXIT"]; ok && h != "" {
		delete(s.traps, "EXIT")
		s.exited = false
		p.LastExit = code
		s.runScript(p, h)
		if s.exited {
			code = s.code
		}
	}
	return code
}

// onKill runs the TERM trap when ctx ends (the kubelet's SIGTERM); without
// one the process dies of the signal: 143.
func (s *shell) onKill(p *process.Proc) int {
	h, ok := s.traps["TERM"]
	if !ok {
		return process.ExitKilledLinux
	}
	if h == "" {
		// ignored: the kubelet escalates to SIGKILL after the grace period
		return 137
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(p.Ctx), time.Second)
	defer cancel()
	hp := p.Sub(nil, nil, nil)
	hp.Ctx = ctx
	s.exited, s.brk, s.cont, s.returning = false, 0, false, false
	delete(s.traps, "TERM")
	code := s.runScript(hp, h)
	if s.exited {
		return s.code
	}
	return code
}

func (s *shell) runScript(p *process.Proc, script string) int {
	if !p.Enter() {
		p.Leave()
		p.Eprintln("sh: recursion too deep")
		return 2
	}
	defer p.Leave()
	toks, err := shLex(script)
	if err != nil {
		p.Eprintln("sh: syntax error: " + err.Error())
		return 2
	}
	ps := &shParser{toks: toks}
	root := ps.list(nil)
	if ps.err == nil && ps.i < len(ps.toks) {
		ps.err = fmt.Errorf("unexpected %q", ps.toks[ps.i].text)
	}
	if ps.err != nil {
		p.Eprintln("sh: syntax error: " + ps.err.Error())
		return 2
	}
	return s.run(root, p)
}

// ---- execution ----

func (s *shell) stop() bool { return s.exited || s.brk > 0 || s.cont || s.returning }

func (s *shell) run(n *shNode, p *process.Proc) int {
	if p.Done() {
		return process.ExitKilledLinux
	}
	switch n.kind {
	case "func":
		if len(n.kids) > 0 {
			s.funcs[n.varName] = n.kids[0]
		}
		return 0
	case "list":
		code := p.LastExit
		for i, k := range n.kids {
			if s.stop() || p.Done() {
				break
			}
			if n.bg[i] {
				s.background(k, p)
				code = 0
				continue
			}
			code = s.run(k, p)
			p.LastExit = code
			if s.errexit && code != 0 && k.kind == "andor" && len(k.ops) == 0 && !k.kids[0].neg {
				s.exited, s.code = true, code
			}
		}
		return code
	case "andor":
		code := s.run(n.kids[0], p)
		for i, op := range n.ops {
			if s.stop() {
				break
			}
			p.LastExit = code
			if (op == "&&") == (code == 0) {
				code = s.run(n.kids[i+1], p)
			}
		}
		return code
	case "pipe":
		code := 0
		if len(n.kids) == 1 {
			code = s.run(n.kids[0], p)
		} else {
			var in io.Reader = p.Stdin
			for i, k := range n.kids {
				if i == len(n.kids)-1 {
					c := p.Sub(in, nil, nil)
					code = s.run(k, c)
					break
				}
				buf := &process.LimitedBuffer{Max: 16 << 20}
				sub := s.child(s.name, s.args)
				sub.run(k, p.Sub(in, buf, nil))
				in = buf
			}
		}
		if n.neg {
			if code == 0 {
				code = 1
			} else {
				code = 0
			}
		}
		return code
	}
	// compound and simple commands: redirections first
	c, ok := s.redirect(n, p)
	if !ok {
		return 1
	}
	code := 0
	switch n.kind {
	case "simple":
		code = s.simple(n, c)
	case "group":
		code = s.run(n.kids[0], c)
	case "subshell":
		sub := s.child(s.name, s.args)
		sub.traps = s.traps
		code = sub.run(n.kids[0], c.Sub(nil, nil, nil))
		if sub.exited {
			code = sub.code
		}
		if p.Done() {
			return process.ExitKilledLinux
		}
		return code
	case "if":
		code = 0
		i := 0
		for ; i+1 < len(n.kids); i += 2 {
			if s.run(n.kids[i], c) == 0 {
				if s.stop() {
					break
				}
				code = s.run(n.kids[i+1], c)
				goto done
			}
			if s.stop() {
				break
			}
		}
		if i < len(n.kids) && !s.stop() {
			code = s.run(n.kids[i], c)
		}
	case "while", "until":
		for !p.Done() && !s.exited {
			cond := s.run(n.kids[0], c)
			if s.stop() || p.Done() {
				break
			}
			if (cond == 0) != (n.kind == "while") {
				break
			}
			code = s.run(n.kids[1], c)
			s.cont = false
			if s.brk > 0 {
				s.brk = 0
				break
			}
		}
	case "for":
		var items []string
		for _, it := range n.items {
			items = append(items, s.expandWord(c, it)...)
		}
		for _, it := range items {
			if p.Done() || s.exited {
				break
			}
			c.Vars.Set(n.varName, it)
			code = s.run(n.kids[0], c)
			s.cont = false
			if s.brk > 0 {
				s.brk = 0
				break
			}
		}
	}
done:
	p.Vars, p.Dir, p.LastExit = c.Vars, c.Dir, code
	if p.Done() {
		return process.ExitKilledLinux
	}
	return code
}

// background runs a command as a job (`cmd &`): it ends when the shell
// does.
func (s *shell) background(n *shNode, p *process.Proc) {
	c := p.Sub(strings.NewReader(""), nil, nil)
	c.Ctx = s.jobCtx
	job := s.child(s.name, s.args)
	s.jobs.Add(1)
	go func() {
		defer s.jobs.Done()
		defer func() { recover() }()
		job.run(n, c)
	}()
}

func (s *shell) wait() int {
	done := make(chan struct{})
	go func() { s.jobs.Wait(); close(done) }()
	select {
	case <-done:
		return 0
	case <-s.jobCtx.Done():
		return process.ExitKilledLinux
	}
}

// redirect applies redirections to a copy of p.
func (s *shell) redirect(n *shNode, p *process.Proc) (*process.Proc, bool) {
	if len(n.redirs) == 0 {
		return p.Sub(nil, nil, nil).ShareVars(p), true
	}
	c := p.Sub(nil, nil, nil).ShareVars(p)
	for _, r := range n.redirs {
		target := strings.Join(s.expandWord(p, r.target), " ")
		switch r.op {
		case ">&", "<&":
			m, err := strconv.Atoi(target)
			if err != nil {
				p.Eprintln("sh: " + target + ": bad file descriptor")
				return nil, false
			}
			var w io.Writer
			switch m {
			case 1:
				w = c.Stdout
			case 2:
				w = c.Stderr
			default:
				p.Eprintln("sh: " + target + ": bad file descriptor")
				return nil, false
			}
			if r.fd == 2 {
				c.Stderr = w
			} else {
				c.Stdout = w
			}
		case "<":
			data, err := p.ReadFile(target)
			if err != nil {
				p.Eprintln("sh: can't open " + target + ": " + process.PosixFileError(err, false))
				return nil, false
			}
			c.Stdin = strings.NewReader(string(data))
		default:
			w, err := p.OpenRedirect(target, r.op == ">>")
			if err != nil {
				p.Eprintln("sh: can't create " + target + ": " + process.PosixFileError(err, true))
				return nil, false
			}
			if r.fd == 2 {
				c.Stderr = w
			} else {
				c.Stdout = w
			}
		}
	}
	return c, true
}

func (s *shell) simple(n *shNode, p *process.Proc) int {
	var assigns [][2]string
	var words []string
	for i, w := range n.words {
		if len(words) == 0 && i == len(assigns) {
			if k, v, ok := strings.Cut(w, "="); ok && isName(k) {
				assigns = append(assigns, [2]string{k, strings.Join(s.expandWord(p, v), " ")})
				continue
			}
		}
		words = append(words, s.expandWord(p, w)...)
	}
	if len(words) == 0 {
		for _, a := range assigns {
			p.Vars.Set(a[0], a[1])
		}
		return p.LastExit
	}
	c := p
	if len(assigns) > 0 {
		c = p.Sub(nil, nil, nil)
		for _, a := range assigns {
			c.Vars.Set(a[0], a[1])
		}
	}
	if s.xtrace {
		p.Eprintln("+ " + strings.Join(words, " "))
	}
	return s.command(c, words)
}

func isName(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(process.IsLetter(c) || c == '_' || (c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}

// specialBuiltins are found before functions (POSIX 2.9.1 command search:
// special built-ins, then functions, then the other built-ins and PATH).
var specialBuiltins = map[string]bool{
	"break": true, ":": true, ".": true, "continue": true, "eval": true, "exec": true, "exit": true,
	"export": true, "readonly": true, "return": true, "set": true, "shift": true, "times": true,
	"trap": true, "unset": true,
}

func (s *shell) command(p *process.Proc, words []string) int {
	if b, ok := shBuiltins[words[0]]; ok && specialBuiltins[words[0]] {
		return b.run(s, p, words)
	}
	if body, ok := s.funcs[words[0]]; ok {
		return s.call(p, body, words)
	}
	if b, ok := shBuiltins[words[0]]; ok {
		return b.run(s, p, words)
	}
	os := process.Linux
	if p.Win {
		os = process.Windows // busybox-w32 sh runs the programs of C:\bin, C:\dig, System32
	}
	if _, ok := p.Programs.Lookup(os, words[0]); ok {
		if !strings.Contains(words[0], "/") || strings.HasPrefix(words[0], "/") || strings.HasPrefix(words[0], "./") {
			return p.Exec(words)
		}
	}
	if strings.Contains(words[0], "/") {
		if data, err := p.ReadFile(words[0]); err == nil && strings.HasPrefix(string(data), "#!") {
			sub := s.child(words[0], words[1:])
			sub.funcs = map[string]*shNode{} // a new process
			code := sub.runScript(p.Sub(nil, nil, nil), string(data))
			if sub.exited {
				return sub.code
			}
			return code
		}
		if code, ok := p.Unsimulated(words[0]); ok {
			return code // open world (openworld.go)
		}
		p.Eprintln("sh: " + words[0] + ": not found")
		return process.ExitShNotFound
	}
	if code, ok := p.Unsimulated(words[0]); ok {
		return code // open world (openworld.go)
	}
	p.Eprintln("sh: " + words[0] + ": not found")
	return process.ExitShNotFound
}

// expandWord expands one raw word: quotes, escapes, parameters, command
// substitution; unquoted expansions are split on whitespace.
func (s *shell) expandWord(p *process.Proc, w string) []string {
	var fields []string
	var cur strings.Builder
	have := false
	split := func(v string) {
		parts := strings.Fields(v)
		if len(parts) == 0 {
			return
		}
		if strings.IndexAny(v[:1], " \t\n") == 0 && have {
			fields = append(fields, cur.String())
			cur.Reset()
			have = false
		}
		for i, part := range parts {
			if i > 0 {
				fields = append(fields, cur.String())
				cur.Reset()
			}
			cur.WriteString(part)
			have = true
		}
		if strings.ContainsAny(v[len(v)-1:], " \t\n") {
			fields = append(fields, cur.String())
			cur.Reset()
			have = false
		}
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch c {
		case '\\':
			if i+1 < len(w) {
				i++
				cur.WriteByte(w[i])
			}
			have = true
		case '\'':
			j := strings.IndexByte(w[i+1:], '\'')
			if j < 0 {
				j = len(w) - i - 1
			}
			cur.WriteString(w[i+1 : i+1+j])
			i += j + 1
			have = true
		case '"':
			j := i + 1
			for j < len(w) && w[j] != '"' {
				if w[j] == '\\' && j+1 < len(w) && strings.IndexByte("\"\\$`", w[j+1]) >= 0 {
					cur.WriteByte(w[j+1])
					j += 2
					continue
				}
				if w[j] == '$' || w[j] == '`' {
					v, n := s.expandDollar(p, w[j:])
					if v == "\x00@" {
						v = strings.Join(s.args, " ")
					}
					cur.WriteString(v)
					j += n
					continue
				}
				cur.WriteByte(w[j])
				j++
			}
			i = j
			have = true
		case '$', '`':
			v, n := s.expandDollar(p, w[i:])
			if v == "\x00@" {
				for k, a := range s.args {
					if k > 0 {
						fields = append(fields, cur.String())
						cur.Reset()
					}
					cur.WriteString(a)
					have = true
				}
			} else if n == 1 && c == '$' {
				cur.WriteByte('$')
				have = true
			} else {
				split(v)
			}
			i += n - 1
		default:
			cur.WriteByte(c)
			have = true
		}
	}
	if have {
		fields = append(fields, cur.String())
	}
	return fields
}

// expandDollar expands the parameter or substitution at the start of w and
// returns the value and how many bytes it used.
func (s *shell) expandDollar(p *process.Proc, w string) (string, int) {
	if w[0] == '`' {
		j := strings.IndexByte(w[1:], '`')
		if j < 0 {
			return "", len(w)
		}
		return s.substitute(p, w[1:j+1]), j + 2
	}
	if len(w) < 2 {
		return "$", 1
	}
	switch c := w[1]; {
	case c == '(':
		depth := 0
		for j := 1; j < len(w); j++ {
			if w[j] == '(' {
				depth++
			} else if w[j] == ')' {
				depth--
				if depth == 0 {
					inner := w[2:j]
					if strings.HasPrefix(inner, "(") && strings.HasSuffix(inner, ")") {
						v, err := process.EvalArith(s.arithParams(p, strings.Trim(inner, "()")), p.Vars)
						if err != nil {
							return "0", j + 1
						}
						return strconv.FormatInt(v, 10), j + 1
					}
					return s.substitute(p, inner), j + 1
				}
			}
		}
		return "", len(w)
	case c == '{':
		j := strings.IndexByte(w, '}')
		if j < 0 {
			return "", len(w)
		}
		expr := w[2:j]
		name, def, mode := expr, "", ""
		for _, m := range []string{":-", ":=", ":+", "-", "="} {
			if k := strings.Index(expr, m); k > 0 {
				name, def, mode = expr[:k], expr[k+len(m):], m
				break
			}
		}
		if strings.HasPrefix(name, "#") {
			v, _ := s.param(p, name[1:])
			return strconv.Itoa(len(v)), j + 1
		}
		v, set := s.param(p, name)
		switch mode {
		case ":-":
			if v == "" {
				v = def
			}
		case "-":
			if !set {
				v = def
			}
		case ":=", "=":
			if v == "" {
				v = def
				p.Vars.Set(name, v)
			}
		case ":+":
			if v != "" {
				v = def
			}
		}
		return v, j + 1
	case c == '?' || c == '$' || c == '#' || c == '!' || c == '@' || c == '*' || c == '-' || (c >= '0' && c <= '9'):
		if c == '@' {
			return "\x00@", 2
		}
		v, _ := s.param(p, string(c))
		return v, 2
	case process.IsLetter(c) || c == '_':
		j := 1
		for j < len(w) && (process.IsLetter(w[j]) || w[j] == '_' || (w[j] >= '0' && w[j] <= '9')) {
			j++
		}
		v, _ := s.param(p, w[1:j])
		return v, j
	}
	return "$", 1
}

// arithParams expands the $ parameters of an arithmetic expression
// ($1, $#, ${x}, $(cmd)) before it is evaluated; bare names are the
// evaluator's.
func (s *shell) arithParams(p *process.Proc, expr string) string {
	if !strings.ContainsAny(expr, "$`") {
		return expr
	}
	var b strings.Builder
	for i := 0; i < len(expr); {
		if c := expr[i]; c == '$' || c == '`' {
			v, n := s.expandDollar(p, expr[i:])
			b.WriteString(v)
			i += n
			continue
		}
		b.WriteByte(expr[i])
		i++
	}
	return b.String()
}

func (s *shell) param(p *process.Proc, name string) (string, bool) {
	switch name {
	case "?":
		return strconv.Itoa(p.LastExit), true
	case "$":
		return "1", true
	case "!":
		return "", false
	case "#":
		return strconv.Itoa(len(s.args)), true
	case "*", "@":
		return strings.Join(s.args, " "), true
	case "-":
		return "", true
	case "0":
		return s.name, true
	}
	if n, err := strconv.Atoi(name); err == nil {
		if n >= 1 && n <= len(s.args) {
			return s.args[n-1], true
		}
		return "", false
	}
	return p.Vars.Get(name)
}

// substitute is $(cmd): its output without trailing newlines.
func (s *shell) substitute(p *process.Proc, script string) string {
	var b process.LimitedBuffer
	b.Max = 1 << 20
	sub := s.child(s.name, s.args)
	c := p.Sub(nil, &b, nil)
	code := sub.runScript(c, script)
	if sub.exited {
		code = sub.code
	}
	p.LastExit = code
	return strings.TrimRight(b.String(), "\n")
}

// call runs function body with words[1:] as its positional parameters
// ($0 stays the shell's); its locals are restored and return ends it.
func (s *shell) call(p *process.Proc, body *shNode, words []string) int {
	if !p.Enter() {
		p.Leave()
		p.Eprintln("sh: " + words[0] + ": recursion too deep")
		return 2
	}
	defer p.Leave()
	saved := s.args
	s.args = append([]string(nil), words[1:]...)
	frame := &shFrame{saved: map[string]savedVar{}}
	s.frames = append(s.frames, frame)
	code := s.run(body, p)
	s.frames = s.frames[:len(s.frames)-1]
	for name, v := range frame.saved {
		if v.set {
			p.Vars.Set(name, v.value)
		} else {
			p.Vars.Unset(name)
		}
	}
	s.args = saved
	if s.returning {
		s.returning = false
		code = s.code
	}
	return code
}

// ---- builtins ----

// ret is return [n]: it ends the function (or dot script) running, with n
// or the last command's status.
func (s *shell) ret(p *process.Proc, a []string) int {
	code := statusArg(p, a)
	s.returning, s.code = true, code
	return code
}

// statusArg is the status of return [n] and exit [n]: n modulo 256, the
// last command's status without one, 2 for what is not a number.
func statusArg(p *process.Proc, a []string) int {
	if len(a) < 2 {
		return p.LastExit
	}
	n, err := strconv.Atoi(a[1])
	if err != nil {
		p.Eprintln("sh: " + a[0] + ": Illegal number: " + a[1])
		n = 2
	}
	return n & 0xff
}

// local declares variables local to the function running (ash's local:
// name or name=value; the value a name had before comes back on return).
func (s *shell) local(p *process.Proc, a []string) int {
	if len(s.frames) == 0 {
		p.Eprintln("sh: local: not in a function")
		return 2
	}
	f := s.frames[len(s.frames)-1]
	for _, kv := range a[1:] {
		name, value, hasValue := strings.Cut(kv, "=")
		if !isName(name) {
			p.Eprintln("sh: local: " + name + ": bad variable name")
			return 2
		}
		if _, ok := f.saved[name]; !ok {
			v, set := p.Vars.Get(name)
			f.saved[name] = savedVar{value: v, set: set}
		}
		if hasValue {
			p.Vars.Set(name, value)
		}
	}
	return 0
}

func (s *shell) exit(p *process.Proc, a []string) int {
	code := statusArg(p, a)
	s.exited, s.code = true, code
	return code
}

func (s *shell) export(p *process.Proc, a []string) int {
	for _, kv := range a[1:] {
		if strings.HasPrefix(kv, "-") {
			continue
		}
		if k, v, ok := strings.Cut(kv, "="); ok {
			p.Vars.Set(k, v)
		}
	}
	if len(a) == 1 {
		for _, e := range p.Vars.Sorted() {
			p.Println("export " + e.Name + "='" + e.Value + "'")
		}
	}
	return 0
}

// trap records handlers; TERM (the kubelet's stop signal) runs when ctx
// ends, EXIT when the script ends.
func (s *shell) trap(p *process.Proc, a []string) int {
	if len(a) == 1 {
		for sig, h := range s.traps {
			p.Println(fmt.Sprintf("trap -- '%s' %s", h, sig))
		}
		return 0
	}
	h := a[1]
	for _, sig := range a[2:] {
		sig = strings.TrimPrefix(strings.ToUpper(sig), "SIG")
		switch sig {
		case "15":
			sig = "TERM"
		case "2":
			sig = "INT"
		case "0":
			sig = "EXIT"
		}
		if h == "-" {
			delete(s.traps, sig)
		} else {
			s.traps[sig] = h
		}
	}
	return 0
}

func (s *shell) set(p *process.Proc, a []string) int {
	if len(a) == 1 {
		for _, e := range p.Vars.Sorted() {
			p.Println(e.Name + "='" + e.Value + "'")
		}
		return 0
	}
	for _, o := range a[1:] {
		on := strings.HasPrefix(o, "-")
		if o == "--" {
			s.args = nil
			continue
		}
		if strings.Contains(o, "e") {
			s.errexit = on
		}
		if strings.Contains(o, "x") {
			s.xtrace = on
		}
	}
	return 0
}

func (s *shell) read(p *process.Proc, a []string) int {
	var line []byte
	b := make([]byte, 1)
	got := false
	for {
		n, err := p.Stdin.Read(b)
		if n > 0 {
			got = true
			if b[0] == '\n' {
				break
			}
			line = append(line, b[0])
		}
		if err != nil {
			break
		}
	}
	names := []string{}
	for _, n := range a[1:] {
		if !strings.HasPrefix(n, "-") {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		names = []string{"REPLY"}
	}
	fields := strings.Fields(string(line))
	for i, n := range names {
		v := ""
		if i == len(names)-1 && i < len(fields) {
			v = strings.Join(fields[i:], " ")
		} else if i < len(fields) {
			v = fields[i]
		}
		p.Vars.Set(n, v)
	}
	if !got {
		return 1
	}
	return 0
}

func (s *shell) source(p *process.Proc, a []string) int {
	if len(a) < 2 {
		p.Eprintln("sh: .: filename argument required")
		return 2
	}
	data, err := p.ReadFile(a[1])
	if err != nil {
		p.Eprintln("sh: .: can't open '" + a[1] + "'")
		return 2
	}
	code := s.runScript(p, string(data))
	if s.returning && len(s.frames) == 0 {
		// return in a dot script ends that script
		s.returning = false
		code = s.code
	}
	return code
}

// shTest is test / [: files, strings, integers, !, -a, -o.
func shTest(p *process.Proc, a []string) int {
	b := func(v bool) int {
		if v {
			return 0
		}
		return 1
	}
	if len(a) > 0 && a[0] == "!" {
		return 1 - shTest(p, a[1:])
	}
	for i, t := range a {
		if t == "-a" && i > 0 {
			return b(shTest(p, a[:i]) == 0 && shTest(p, a[i+1:]) == 0)
		}
		if t == "-o" && i > 0 {
			return b(shTest(p, a[:i]) == 0 || shTest(p, a[i+1:]) == 0)
		}
	}
	switch len(a) {
	case 0:
		return 1
	case 1:
		return b(a[0] != "")
	case 2:
		switch a[0] {
		case "-z":
			return b(a[1] == "")
		case "-n":
			return b(a[1] != "")
		case "-f", "-r", "-s":
			data, err := p.ReadFile(a[1])
			return b(err == nil && (a[0] != "-s" || len(data) > 0))
		case "-d":
			_, err := p.ReadDir(a[1])
			return b(err == nil)
		case "-e":
			_, e1 := p.ReadFile(a[1])
			_, e2 := p.ReadDir(a[1])
			return b(e1 == nil || e2 == nil)
		}
		return 2
	case 3:
		x, y := a[0], a[2]
		xi, e1 := strconv.Atoi(x)
		yi, e2 := strconv.Atoi(y)
		num := e1 == nil && e2 == nil
		switch a[1] {
		case "=", "==":
			return b(x == y)
		case "!=":
			return b(x != y)
		case "-eq":
			return b(num && xi == yi)
		case "-ne":
			return b(num && xi != yi)
		case "-lt":
			return b(num && xi < yi)
		case "-le":
			return b(num && xi <= yi)
		case "-gt":
			return b(num && xi > yi)
		case "-ge":
			return b(num && xi >= yi)
		}
	}
	p.Eprintln("sh: test: syntax error")
	return 2
}
