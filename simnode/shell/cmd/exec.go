package cmd

import (
	"io"
	"strconv"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// This file runs parsed commands: & && || | ( ), redirections, internal
// commands, programs and batch files (windows-commands/cmd, /call, /goto,
// "Using command redirection operators"). Row E.

// streams are a command's stdin, stdout and stderr.
type streams struct {
	in       io.Reader
	out, err io.Writer
}

// proc is the process a command runs as: cmd's own (its variables and
// directory) with the command's streams.
func (s *shell) proc(st streams) *process.Proc {
	c := *s.p
	c.Stdin, c.Stdout, c.Stderr = st.in, st.out, st.err
	return &c
}

func (s *shell) run(n node, st streams) int {
	if s.stopped() {
		return s.p.LastExit
	}
	switch n := n.(type) {
	case *listNode:
		code := s.run(n.kids[0], st)
		for i, op := range n.ops {
			if s.stopped() {
				break
			}
			if op == "&" || (op == "&&") == (code == 0) {
				code = s.run(n.kids[i+1], st)
			}
		}
		return code
	case *pipeNode:
		return s.pipe(n, st)
	case *groupNode:
		gst, code, ok := s.redirect(st, n.redirs)
		if !ok {
			return code
		}
		return s.run(n.body, gst)
	case *ifNode:
		return s.ifRun(n, st)
	case *forNode:
		return s.forRun(n, st)
	case *simpleNode:
		return s.simple(n, st)
	}
	return 0
}

// pipe runs a | b: each side in a cmd of its own, as cmd.exe does (cmd /S
// /D /C), the left side's output (bounded) the right side's input.
func (s *shell) pipe(n *pipeNode, st streams) int {
	in := st.in
	code := 0
	for i, k := range n.kids {
		sub := &shell{p: s.p.Sub(nil, nil, nil), echoOn: s.echoOn, cmdline: s.cmdline, fors: s.fors}
		if i == len(n.kids)-1 {
			code = sub.run(k, streams{in: in, out: st.out, err: st.err})
		} else {
			buf := &process.LimitedBuffer{Max: pipeMax}
			sub.run(k, streams{in: in, out: buf, err: st.err})
			in = buf
		}
		if sub.exited && sub.code == s.p.Killed() && s.p.Done() {
			s.exited, s.code = true, sub.code
			return sub.code
		}
		if !s.step() {
			return s.code
		}
	}
	s.p.LastExit = code
	return code
}

// pipeMax bounds what a pipe holds (a real pipe blocks its writer).
const pipeMax = 4 << 20

// redirect applies redirections in order: > truncates, >> appends, <
// reads, n>&m duplicates; a file that cannot be opened fails the command
// (row B11: "Access is denied."; a missing directory: "The system cannot
// find the path specified.").
func (s *shell) redirect(st streams, rs []redir) (streams, int, bool) {
	out := st
	if len(rs) == 0 {
		return out, 0, true
	}
	fds := map[int]io.Writer{1: st.out, 2: st.err}
	for _, r := range rs {
		target := strings.Trim(s.delayed(s.forVars(r.target)), `"`)
		switch r.op {
		case "<":
			if strings.EqualFold(target, "con") {
				continue // the console: cmd's own stdin
			}
			if s.p.IsNullDevice(target) {
				out.in = strings.NewReader("")
				continue
			}
			data, err := s.p.ReadFile(target)
			if err != nil {
				io.WriteString(st.err, process.CmdFileError(err, false)+"\r\n")
				s.p.LastExit = 1
				return out, 1, false
			}
			out.in = strings.NewReader(string(data))
		case ">&", "<&":
			m, err := strconv.Atoi(target)
			if w, found := fds[m]; err == nil && found {
				fds[r.fd] = w
			} else if r.fd == 0 && err == nil && m == 0 {
				continue
			} else {
				io.WriteString(st.err, "The handle could not be duplicated\r\nduring redirection of handle "+strconv.Itoa(r.fd)+".\r\n")
				s.p.LastExit = 1
				return out, 1, false
			}
		default:
			if r.fd == 0 {
				continue
			}
			if strings.EqualFold(target, "con") {
				fds[r.fd] = st.out // the console: the container's output
				continue
			}
			w, err := s.p.OpenRedirect(target, r.op == ">>")
			if err != nil {
				io.WriteString(st.err, process.CmdFileError(err, true)+"\r\n")
				s.p.LastExit = 1
				return out, 1, false
			}
			fds[r.fd] = w
		}
	}
	out.out, out.err = fds[1], fds[2]
	if out.out == nil {
		out.out = io.Discard
	}
	if out.err == nil {
		out.err = io.Discard
	}
	return out, 0, true
}

// simple runs one command after FOR variables and delayed expansion.
func (s *shell) simple(n *simpleNode, st streams) int {
	if !s.step() {
		return s.code
	}
	text := s.delayed(s.forVars(n.text))
	cst, code, ok := s.redirect(st, n.redirs)
	if !ok {
		return code
	}
	code, keep := s.dispatch(text, cst)
	if !keep || code != 0 {
		s.p.LastExit = code
	}
	return code
}

// nameEnds are the characters that end an internal command's name
// (`echo.`, `cd\`, `dir/w`).
const nameEnds = " \t,;=.(/\\+[]:"

// dispatch runs a command's text: an internal command, a batch file or a
// program. keep: the command leaves ERRORLEVEL as it was when it
// succeeds (echo, rem, if, for, goto...).
func (s *shell) dispatch(text string, st streams) (code int, keep bool) {
	t := strings.TrimLeft(text, " \t@;,=")
	if strings.TrimSpace(t) == "" {
		return 0, true
	}
	j := 0
	for j < len(t) && (process.IsLetter(t[j]) || (t[j] >= '0' && t[j] <= '9')) {
		j++
	}
	word := strings.ToLower(t[:j])
	if j == len(t) || strings.IndexByte(nameEnds, t[j]) >= 0 {
		switch word {
		case "if", "for":
			// reached through a variable (`%CMD%`, `!X!`): parse it now
			n, err, _ := parse(t)
			if err != nil {
				io.WriteString(st.err, err.msg+"\r\n")
				return err.code, false
			}
			if _, simple := n.(*simpleNode); simple {
				return notRecognized(s.proc(st), t[:j]), false
			}
			return s.run(n, st), true
		}
		if b, ok := builtinIndex[word]; ok {
			rest := t[j:]
			if strings.TrimSpace(rest) == "/?" {
				io.WriteString(st.out, b.help+"\r\n")
				return 0, false
			}
			keep := b.keep || (b.cmdOnly && s.bat != nil && s.bat.dotBat)
			return b.run(s, s.proc(st), rest), keep
		}
	}
	name, rest := splitName(t)
	return s.external(name, rest, st, false), false
}

// splitName splits a program's name (quoted, or up to a blank) from its
// arguments.
func splitName(t string) (name, rest string) {
	if strings.HasPrefix(t, `"`) {
		if j := strings.IndexByte(t[1:], '"'); j >= 0 {
			return t[1 : j+1], t[j+2:]
		}
		return t[1:], ""
	}
	end := strings.IndexAny(t, " \t")
	if end < 0 {
		return t, ""
	}
	return t[:end], t[end:]
}

// external runs a batch file or a program. call: by CALL, so that a batch
// file returns to the one that called it (a batch file run without CALL
// from a batch file does not return: windows-commands/call).
func (s *shell) external(name, rest string, st streams, call bool) int {
	c := s.proc(st)
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, ".bat") || strings.HasSuffix(lower, ".cmd") {
		return s.batchFile(name, name, rest, st, call)
	}
	if !strings.Contains(process.BaseName(lower), ".") {
		for _, ext := range []string{".cmd", ".bat"} {
			if _, err := c.ReadFile(name + ext); err == nil {
				return s.batchFile(name+ext, name, rest, st, call)
			}
		}
	}
	args := process.SplitCommandLine(rest)
	if _, ok := c.Programs.Lookup(process.Windows, name); ok {
		child := s.p.Sub(st.in, st.out, st.err)
		return child.Exec(append([]string{name}, args...))
	}
	if code, ok := c.Unsimulated(name); ok {
		return code // open world (openworld.go)
	}
	if onDisk(c, name) {
		// a program the container's files hold (a volume's tool): it is
		// there, wink cannot run it (open world, issue 18)
		c.NotSimulated(process.BaseName(name))
		return c.UnknownProgram()
	}
	return notRecognized(c, name)
}

// onDisk: the container's files hold program name, as written or with
// one of PATHEXT's extensions, in the current directory or on PATH.
func onDisk(c *process.Proc, name string) bool {
	exts := []string{""}
	if !strings.Contains(process.BaseName(name), ".") {
		exts = []string{".com", ".exe"}
	}
	dirs := []string{""}
	if !strings.ContainsAny(name, `\/:`) {
		path, _ := c.Vars.Get("PATH")
		dirs = append(dirs, strings.Split(path, ";")...)
	}
	for _, d := range dirs {
		for _, ext := range exts {
			cand := name + ext
			if d != "" {
				cand = process.WinJoin(d, cand)
			}
			if _, err := c.ReadFile(cand); err == nil {
				return true
			}
		}
	}
	return false
}

// notRecognized is cmd's answer to an unknown command (row E).
func notRecognized(c *process.Proc, name string) int {
	c.Eprintln("'" + name + "' is not recognized as an internal or external command,")
	c.Eprintln("operable program or batch file.")
	return process.ExitCmdNotFound
}

// batch is a running batch file, or a `call :label` in one.
type batch struct {
	path  string   // the file's full path (%~f0)
	argv  []string // %0 %1 ... (shift moves them)
	all   []string // %* (shift does not change it)
	lines []string
	pc    int
	// done: goto :eof, exit /b, the end of the file.
	done bool
	// jump is a goto's label, found when the current line ends.
	jump      string
	localBase int
	parent    *batch
	// dotBat: a .bat file, where set and path leave ERRORLEVEL as it is
	// when they succeed.
	dotBat bool
}

func (b *batch) arg(i int) string {
	if i < len(b.argv) {
		return b.argv[i]
	}
	return ""
}

// label finds `:name` from the line after the current one to the end,
// then from the start (windows-commands/goto).
func (b *batch) label(name string) int {
	for k := 0; k < len(b.lines); k++ {
		i := (b.pc + k) % len(b.lines)
		l := strings.TrimLeft(b.lines[i], " \t;,=")
		if !strings.HasPrefix(l, ":") {
			continue
		}
		l = l[1:]
		end := strings.IndexAny(l, " \t+:,;=&|<>")
		if end < 0 {
			end = len(l)
		}
		if strings.EqualFold(l[:end], name) {
			return i
		}
	}
	return -1
}

// splitBatchArgs splits a batch file's parameters: blanks, commas,
// semicolons and = separate, quotes group and stay (%~1 removes them).
func splitBatchArgs(s string) []string {
	var args []string
	var cur strings.Builder
	inQ, have := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			inQ = !inQ
		}
		if !inQ && strings.IndexByte(" \t,;=", c) >= 0 {
			if have {
				args = append(args, cur.String())
				cur.Reset()
				have = false
			}
			continue
		}
		cur.WriteByte(c)
		have = true
	}
	if have {
		args = append(args, cur.String())
	}
	return args
}

// batchFile runs a .bat/.cmd file.
func (s *shell) batchFile(path, arg0, rest string, st streams, call bool) int {
	c := s.proc(st)
	data, err := c.ReadFile(path)
	if err != nil {
		if c.ScriptMayExist(path, err) {
			return c.UnknownProgram() // a script of an open image
		}
		return notRecognized(c, arg0)
	}
	if !s.grow(int64(len(data)), st.err) {
		return s.code
	}
	defer s.p.Grow(-int64(len(data)))
	args := splitBatchArgs(rest)
	b := &batch{
		path:   c.Path(path),
		argv:   append([]string{arg0}, args...),
		all:    args,
		lines:  strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n"),
		dotBat: strings.HasSuffix(strings.ToLower(path), ".bat"),
	}
	code := s.runBatch(b, st)
	if s.bat != nil && !call {
		s.bat.done = true // control does not come back
	}
	return code
}

// callLabel is `call :label args`: the batch file again, from the label,
// until goto :eof, exit /b or its end.
func (s *shell) callLabel(label, rest string, st streams) int {
	if s.bat == nil {
		io.WriteString(st.err, "Invalid attempt to call batch label outside of batch script.\r\n")
		return 1
	}
	b := &batch{path: s.bat.path, lines: s.bat.lines, all: splitBatchArgs(rest), dotBat: s.bat.dotBat}
	b.argv = append([]string{":" + label}, b.all...)
	b.pc = s.bat.pc
	i := b.label(label)
	if i < 0 {
		io.WriteString(st.err, "The system cannot find the batch label specified - "+label+"\r\n")
		return 1
	}
	b.pc = i + 1
	return s.runBatch(b, st)
}

// runBatch runs b's lines. A syntax error or a missing label ends every
// batch file of the chain, as cmd does.
func (s *shell) runBatch(b *batch, st streams) int {
	if !s.p.Enter() {
		s.p.Leave()
		// cmd's stack overflow of nested calls: its depth is far more
		// than ours (process.Enter's), the text the same
		io.WriteString(st.err, "****** B A T C H   R E C U R S I O N  exceeds STACK limits ******\r\n"+
			"Recursion Count="+strconv.Itoa(int(s.p.Depth.Load()))+", Stack Usage=90 percent\r\n"+
			"******       B A T C H   PROCESSING IS   A B O R T E D      ******\r\n")
		s.abortBatches(255)
		return 255
	}
	defer s.p.Leave()
	b.parent, b.localBase = s.bat, len(s.locals)
	s.bat = b
	defer func() {
		s.bat = b.parent
		for len(s.locals) > b.localBase {
			s.popLocal()
		}
	}()
	for !s.exited && !b.done {
		if b.jump != "" {
			i := b.label(b.jump)
			if i < 0 {
				io.WriteString(st.err, "The system cannot find the batch label specified - "+b.jump+"\r\n")
				b.jump = ""
				s.abortBatches(1)
				break
			}
			b.jump, b.pc = "", i+1
		}
		if b.pc >= len(b.lines) {
			break
		}
		if !s.step() {
			break
		}
		s.batchLine(b, st)
	}
	return s.p.LastExit
}

// abortBatches ends every running batch file with ERRORLEVEL code.
func (s *shell) abortBatches(code int) {
	for b := s.bat; b != nil; b = b.parent {
		b.done = true
	}
	s.p.LastExit = code
}

// batchLine reads one logical line of b (a group goes on over lines, a
// final ^ joins the next line), expands %VAR% and runs it.
func (s *shell) batchLine(b *batch, st streams) {
	var l logicalLine
	l, b.pc = readLogicalLine(b.lines, b.pc, s.percent)
	switch {
	case l.label:
		return
	case l.tooLong:
		io.WriteString(st.err, "The input line is too long.\r\n")
		s.abortBatches(1)
		return
	}
	if s.echoOn && !strings.HasPrefix(strings.TrimLeft(l.raw, " \t"), "@") && strings.TrimSpace(l.text) != "" {
		io.WriteString(st.out, "\r\n"+s.p.Dir+">"+strings.TrimSpace(strings.ReplaceAll(l.text, "\n", "\r\n"))+"\r\n")
	}
	if l.err != nil {
		io.WriteString(st.err, l.err.msg+"\r\n")
		s.abortBatches(l.err.code)
		return
	}
	s.run(l.node, st)
}
