package shell

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
)

// This file runs PowerShell (row E): values, operators, pipelines, the
// formatter that turns objects into console text, error records in Windows
// PowerShell 5.1's layout (ConciseView for pwsh 7), and exit codes.

// psShell is one powershell.exe / pwsh process.
type psShell struct {
	p     *proc
	pwsh  bool
	src   string
	file  string
	vars  map[string]any
	funcs map[string]*psNode
	// lastOK is $?.
	lastOK bool
	// errw is where error records are printed (2> redirects it).
	errw io.Writer
	// errToOut merges errors into the output stream (2>&1).
	errToOut emitter
	// jobs are the session's background jobs; steps and computing pace a
	// script that computes (ps_jobs.go).
	jobs      *psJobs
	steps     int64
	computing bool
}

type emitter func(v any)

// control flow
type (
	psExitSignal     struct{ code int }
	psThrowSignal    struct{ rec *psErrorRecord }
	psBreakSignal    struct{}
	psContinueSignal struct{}
	psReturnSignal   struct{ vals []any }
	psKilledSignal   struct{}
)

// psObject is a .NET object as the simulation knows it.
type psObject struct {
	typeName string
	props    []psProp
	// view is how the formatter shows it: "list", "table" or "" (ToString).
	view    string
	group   string // table group header, e.g. "    Directory: C:\x"
	cols    []psCol
	str     string
	methods map[string]func(args []any) any
}

type psProp struct {
	name string
	val  any
}

type psCol struct {
	name  string
	width int // 0: last column
	right bool
}

func (o *psObject) get(name string) (any, bool) {
	for _, p := range o.props {
		if strings.EqualFold(p.name, name) {
			return p.val, true
		}
	}
	return nil, false
}

func (o *psObject) set(name string, v any) {
	for i, p := range o.props {
		if strings.EqualFold(p.name, name) {
			o.props[i].val = v
			return
		}
	}
	o.props = append(o.props, psProp{name, v})
}

// psHash is a hashtable (insertion-ordered for display).
type psHash struct {
	keys []string
	m    map[string]any
}

func newHash() *psHash { return &psHash{m: map[string]any{}} }

func (h *psHash) set(k string, v any) {
	lk := strings.ToLower(k)
	if _, ok := h.m[lk]; !ok {
		h.keys = append(h.keys, k)
	}
	h.m[lk] = v
}

func (h *psHash) get(k string) (any, bool) {
	v, ok := h.m[strings.ToLower(k)]
	return v, ok
}

type psScriptBlock struct{ node *psNode }

// psErrorRecord is an error as PowerShell prints it.
type psErrorRecord struct {
	msg      string
	cmd      string // the command the error is attributed to ("" for throw)
	category string
	target   string
	// targetType is the CategoryInfo target's type ("String" if empty).
	targetType string
	reason     string // exception type name
	// noActivity leaves CategoryInfo's [activity] empty (command not found).
	noActivity bool
	fqid       string
	pos, end   int
}

// ---- entry ----

// runPowerShell is powershell.exe / pwsh: -Command, -File, -EncodedCommand,
// a script path, or a script on stdin.
func runPowerShell(p *proc, argv []string, pwsh bool) int {
	args := argv[1:]
	script, file := "", ""
	var scriptArgs []string
	haveScript := false
	for i := 0; i < len(args) && !haveScript; i++ {
		a := args[i]
		la := strings.ToLower(a)
		if !strings.HasPrefix(la, "-") && !strings.HasPrefix(la, "/") || la == "-" {
			if pwsh || isScriptPath(a) {
				file, scriptArgs = a, args[i+1:]
			} else {
				script = strings.Join(args[i:], " ")
			}
			haveScript = true
			break
		}
		opt := strings.TrimLeft(la, "-/")
		switch {
		case opt == "c" || (len(opt) >= 2 && strings.HasPrefix("command", opt)):
			script = strings.Join(args[i+1:], " ")
			if script == "-" {
				b, _ := io.ReadAll(p.stdin)
				script = string(b)
			}
			haveScript = true
		case opt == "f" || (len(opt) >= 2 && strings.HasPrefix("file", opt)):
			if i+1 < len(args) {
				file, scriptArgs = args[i+1], args[i+2:]
			}
			haveScript = true
		case opt == "e" || opt == "ec" || (len(opt) >= 2 && strings.HasPrefix("encodedcommand", opt)):
			if i+1 < len(args) {
				script = decodeUTF16Base64(args[i+1])
			}
			haveScript = true
		case strings.HasPrefix(opt, "ex") || opt == "ep" || strings.HasPrefix(opt, "inputformat") || strings.HasPrefix(opt, "outputformat") ||
			strings.HasPrefix(opt, "windowstyle") || opt == "w" || strings.HasPrefix(opt, "version") || opt == "v" || strings.HasPrefix(opt, "configurationname") ||
			opt == "if" || opt == "of" || opt == "wd" || strings.HasPrefix(opt, "workingdirectory"):
			i++
		case opt == "?" || opt == "help" || opt == "h":
			p.println("")
			p.println("PowerShell[.exe] [-PSConsoleFile <file> | -Version <version>]")
			p.println("    [-NoLogo] [-NoExit] [-Sta] [-Mta] [-NoProfile] [-NonInteractive]")
			p.println("    [-InputFormat {Text | XML}] [-OutputFormat {Text | XML}]")
			p.println("    [-WindowStyle <style>] [-EncodedCommand <Base64EncodedCommand>]")
			p.println("    [-ConfigurationName <string>]")
			p.println("    [-File <filePath> <args>] [-ExecutionPolicy <ExecutionPolicy>]")
			p.println("    [-Command { - | <script-block> [-args <arg-array>]")
			p.println("                  | <string> [<CommandParameters>] } ]")
			return 0
		}
	}
	s := &psShell{p: p, pwsh: pwsh, vars: map[string]any{}, funcs: map[string]*psNode{}, lastOK: true, errw: p.stderr}
	if !haveScript {
		b, _ := io.ReadAll(p.stdin)
		script = string(b)
	}
	if file != "" {
		data, err := p.readFile(file)
		if err != nil && p.scriptMayExist(file, err) {
			return p.block() // open world: a script of the image (openworld.go)
		}
		if err != nil {
			if pwsh {
				p.eprintln("The argument '" + file + "' is not recognized as the name of a script file. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.")
				return 64
			}
			p.eprintln("The argument '" + file + "' to the -File parameter does not exist. Provide the path to an existing '.ps1' file as an argument to the -File parameter.")
			return -196608
		}
		s.file = p.path(file)
		script = decodeText(data)
		s.vars["args"] = toAnySlice(scriptArgs)
	}
	s.src = script
	code := s.run(script)
	s.endCompute()
	if file != "" && code == -2 {
		return 0
	}
	if code == -2 {
		if s.lastOK {
			return 0
		}
		return 1
	}
	return code
}

// run parses and runs a script; -2 means "ended normally".
func (s *psShell) run(script string) (code int) {
	block, perr := parsePowerShell(script)
	if perr != nil {
		if ls := Listeners([]string{"powershell", script}); len(ls) > 0 && strings.Contains(script, "System.Net.HttpListener") {
			// An HttpListener script this parser cannot read is still a
			// web server (row S5): announce it the way the docs' script
			// does and serve until the container stops.
			for _, m := range httpListenerPrefix.FindAllStringSubmatch(script, -1) {
				p := strings.TrimSuffix(strings.TrimPrefix(m[0][strings.Index(m[0], "(")+1:], " "), ")")
				s.p.println("Listening at " + strings.Trim(strings.TrimSpace(p), `'"`))
			}
			return s.p.block()
		}
		s.printParseError(perr)
		return 1
	}
	out := s.topEmitter()
	defer func() {
		if r := recover(); r != nil {
			out(flushMarker{})
			switch sig := r.(type) {
			case psExitSignal:
				code = sig.code
			case psThrowSignal:
				s.printError(sig.rec)
				code = 1
			case psKilledSignal:
				code = ExitKilledWindows
			case psBreakSignal, psContinueSignal:
				code = -2
			case psReturnSignal:
				for _, v := range sig.vals {
					out(v)
				}
				out(flushMarker{})
				code = -2
			default:
				panic(r)
			}
		}
	}()
	s.execBlock(block, out)
	out(flushMarker{})
	return -2
}

func decodeUTF16Base64(s string) string {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return ""
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u))
}

// decodeText reads a file as Windows tools do: UTF-16 with a BOM, UTF-8
// with or without one.
func decodeText(b []byte) string {
	switch {
	case len(b) >= 2 && b[0] == 0xff && b[1] == 0xfe:
		u := make([]uint16, (len(b)-2)/2)
		for i := range u {
			u[i] = uint16(b[2+2*i]) | uint16(b[3+2*i])<<8
		}
		return string(utf16.Decode(u))
	case len(b) >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf:
		return string(b[3:])
	}
	return string(b)
}

// encodeOutFile is Out-File's (and `>`'s) encoding: UTF-16LE with a BOM in
// Windows PowerShell 5.1, UTF-8 without BOM in pwsh 7.
func (s *psShell) encodeOutFile(text string) []byte {
	if s.pwsh {
		return []byte(text)
	}
	u := utf16.Encode([]rune(text))
	b := make([]byte, 2+2*len(u))
	b[0], b[1] = 0xff, 0xfe
	for i, c := range u {
		b[2+2*i], b[3+2*i] = byte(c), byte(c>>8)
	}
	return b
}

func toAnySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// ---- statements ----

func (s *psShell) checkCtx() {
	if s.p.done() {
		panic(psKilledSignal{})
	}
	s.pace()
}

func (s *psShell) execBlock(block []*psNode, out emitter) {
	for _, st := range block {
		s.checkCtx()
		s.execStmt(st, out)
	}
}

func (s *psShell) execStmt(n *psNode, out emitter) {
	switch n.kind {
	case "nop":
	case "if":
		for i := 0; i+1 < len(n.kids); i += 2 {
			if toBool(s.evalCond(n.kids[i])) {
				s.execBlock(n.kids[i+1].block, out)
				return
			}
		}
		if len(n.kids)%2 == 1 {
			s.execBlock(n.kids[len(n.kids)-1].block, out)
		}
	case "while", "dowhile", "dountil":
		first := n.kind != "while"
		for {
			s.checkCtx()
			if !first {
				c := toBool(s.evalCond(n.kids[0]))
				if c == (n.kind == "dountil") {
					return
				}
			}
			first = false
			if s.loopBody(n.kids[1].block, out) {
				return
			}
			if n.kind != "while" {
				c := toBool(s.evalCond(n.kids[0]))
				if c == (n.kind == "dountil") {
					return
				}
				first = true
			}
		}
	case "for":
		if n.kids[0] != nil {
			s.execStmt(n.kids[0], func(any) {})
		}
		for {
			s.checkCtx()
			if n.kids[1] != nil && !toBool(s.evalCond(n.kids[1])) {
				return
			}
			if s.loopBody(n.kids[3].block, out) {
				return
			}
			if n.kids[2] != nil {
				s.execStmt(n.kids[2], func(any) {})
			}
		}
	case "foreach":
		for _, v := range enumerate(s.evalCond(n.kids[0])) {
			s.checkCtx()
			s.setVar(n.name, v)
			if s.loopBody(n.kids[1].block, out) {
				return
			}
		}
	case "function":
		s.funcs[strings.ToLower(n.name)] = n
	case "try":
		s.execTry(n, out)
	case "exit":
		code := 0
		if len(n.kids) > 0 {
			v := s.evalValue(n.kids[0])
			code = int(int32(toInt(v)))
		}
		panic(psExitSignal{code})
	case "throw":
		msg := "ScriptHalted"
		if len(n.kids) > 0 {
			msg = toStr(s.evalValue(n.kids[0]))
		}
		panic(psThrowSignal{&psErrorRecord{msg: msg, category: "OperationStopped", target: msg, reason: "RuntimeException", fqid: msg, pos: n.pos, end: n.end}})
	case "return":
		var vals []any
		if len(n.kids) > 0 {
			vals = enumerate(s.evalValue(n.kids[0]))
		}
		panic(psReturnSignal{vals})
	case "break":
		panic(psBreakSignal{})
	case "continue":
		panic(psContinueSignal{})
	case "assign":
		s.assign(n)
		s.lastOK = true
	default:
		s.runPipelineNode(n, out)
	}
}

// loopBody runs a loop body; true when it ended with break.
func (s *psShell) loopBody(block []*psNode, out emitter) (brk bool) {
	defer func() {
		if r := recover(); r != nil {
			switch r.(type) {
			case psBreakSignal:
				brk = true
			case psContinueSignal:
				brk = false
			default:
				panic(r)
			}
		}
	}()
	s.execBlock(block, out)
	return false
}

func (s *psShell) execTry(n *psNode, out emitter) {
	func() {
		defer func() {
			if r := recover(); r != nil {
				if t, ok := r.(psThrowSignal); ok && n.kids[1] != nil {
					s.setVar("_", &psObject{typeName: "System.Management.Automation.ErrorRecord", str: t.rec.msg,
						props: []psProp{{"Exception", &psObject{typeName: "System.Exception", str: t.rec.msg, props: []psProp{{"Message", t.rec.msg}}}}}})
					s.execBlock(n.kids[1].block, out)
					return
				}
				if n.kids[2] != nil {
					s.execBlock(n.kids[2].block, out)
				}
				panic(r)
			}
		}()
		s.execBlock(n.kids[0].block, out)
	}()
	if n.kids[2] != nil {
		s.execBlock(n.kids[2].block, out)
	}
}

func (s *psShell) evalCond(n *psNode) any {
	var vals []any
	s.execStmt(n, func(v any) {
		if _, ok := v.(flushMarker); !ok {
			vals = append(vals, v)
		}
	})
	return collapse(vals)
}

// evalValue runs a statement or pipeline and returns its output.
func (s *psShell) evalValue(n *psNode) any {
	if n.kind == "pipeline" && len(n.kids) == 1 && n.kids[0].kind == "exprelem" && len(n.kids[0].redirs) == 0 {
		return s.eval(n.kids[0].kids[0])
	}
	return s.evalCond(n)
}

func collapse(vals []any) any {
	switch len(vals) {
	case 0:
		return nil
	case 1:
		return vals[0]
	}
	return vals
}

func (s *psShell) assign(n *psNode) {
	lv, rhs := n.kids[0], n.kids[1]
	var v any
	if rhs.kind == "lit" {
		v = rhs.val
	} else if rhs.kind == "assign" {
		s.assign(rhs)
		v = s.eval(rhs.kids[0])
	} else {
		v = s.evalValue(rhs)
	}
	if n.op != "=" {
		old := s.eval(lv)
		v = s.binary(n.op[:1], old, v)
	}
	switch lv.kind {
	case "var":
		s.setVar(lv.name, v)
	case "member":
		obj := s.eval(lv.kids[0])
		switch o := obj.(type) {
		case *psObject:
			o.set(lv.name, v)
		case *psHash:
			o.set(lv.name, v)
		}
	case "index":
		obj := s.eval(lv.kids[0])
		idx := s.eval(lv.kids[1])
		switch o := obj.(type) {
		case *psHash:
			o.set(toStr(idx), v)
		case []any:
			i := int(toInt(idx))
			if i < 0 {
				i += len(o)
			}
			if i >= 0 && i < len(o) {
				o[i] = v
			}
		}
	}
}

func (s *psShell) setVar(name string, v any) {
	if env, ok := cutFold(name, "env:"); ok {
		if v == nil || toStr(v) == "" {
			s.p.vars.unset(env)
		} else {
			s.p.vars.set(env, toStr(v))
		}
		return
	}
	for _, scope := range []string{"global:", "script:", "local:", "private:"} {
		if rest, ok := cutFold(name, scope); ok {
			name = rest
		}
	}
	if strings.EqualFold(name, "LASTEXITCODE") {
		s.p.lastExit = int(toInt(v))
	}
	s.vars[strings.ToLower(name)] = v
}

func cutFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

func (s *psShell) getVar(name string) any {
	if env, ok := cutFold(name, "env:"); ok {
		v, found := s.p.vars.get(env)
		if !found {
			return nil
		}
		return v
	}
	for _, scope := range []string{"global:", "script:", "local:", "private:"} {
		if rest, ok := cutFold(name, scope); ok {
			name = rest
		}
	}
	switch strings.ToLower(name) {
	case "true":
		return true
	case "false":
		return false
	case "null":
		return nil
	case "?":
		return s.lastOK
	case "lastexitcode":
		return int64(s.p.lastExit)
	case "pwd":
		return &psObject{typeName: "System.Management.Automation.PathInfo", str: s.p.dir, view: "table", cols: []psCol{{name: "Path"}}, props: []psProp{{"Path", s.p.dir}}}
	case "home":
		v, _ := s.p.vars.get("USERPROFILE")
		return v
	case "pid":
		return int64(4242)
	case "host":
		return &psObject{typeName: "System.Management.Automation.Internal.Host.InternalHost", props: []psProp{{"Name", "ConsoleHost"}}}
	case "input":
		if v, ok := s.vars["input"]; ok {
			return v
		}
		// top-level $input is the process's stdin, read when first used
		b, _ := io.ReadAll(s.p.stdin)
		var lines []any
		text := strings.TrimRight(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
		if text != "" {
			for _, l := range strings.Split(text, "\n") {
				lines = append(lines, l)
			}
		}
		s.vars["input"] = lines
		return lines
	case "psversiontable":
		h := newHash()
		if s.pwsh {
			h.set("PSVersion", "7.4.6")
			h.set("PSEdition", "Core")
		} else {
			h.set("PSVersion", "5.1.20348.2760")
			h.set("PSEdition", "Desktop")
		}
		return h
	}
	return s.vars[strings.ToLower(name)]
}

// ---- pipelines ----

type flushMarker struct{}

func (s *psShell) runPipelineNode(n *psNode, out emitter) {
	switch n.kind {
	case "chain":
		s.runPipeline(n.kids[0], out)
		for i, a := range n.args {
			if (a.param == "&&") == s.lastOK {
				s.runPipeline(n.kids[i+1], out)
			}
		}
	case "pipeline":
		s.runPipeline(n, out)
	default:
		// a bare expression node used as a statement
		for _, v := range enumerate(s.eval(n)) {
			out(v)
		}
	}
}

func (s *psShell) runPipeline(n *psNode, out emitter) {
	var input []any
	hasInput := false
	s.lastOK = true
	for i, el := range n.kids {
		last := i == len(n.kids)-1
		var collected []any
		sink := out
		if !last {
			sink = func(v any) {
				if _, ok := v.(flushMarker); !ok {
					collected = append(collected, v)
				}
			}
		}
		s.runElement(el, input, hasInput, sink)
		input, hasInput = collected, true
	}
}

// runElement runs one element with its redirections.
func (s *psShell) runElement(el *psNode, input []any, hasInput bool, out emitter) {
	if len(el.redirs) == 0 {
		s.runElementBare(el, input, hasInput, out)
		return
	}
	var fileOut *bytes.Buffer
	var target string
	appendTo := false
	sink := out
	saveErr, saveErrTo := s.errw, s.errToOut
	defer func() { s.errw, s.errToOut = saveErr, saveErrTo }()
	for _, r := range el.redirs {
		switch {
		case r.fd == "2" && r.op == ">&1":
			s.errToOut = out
		case r.fd == "2" || r.fd == "3" || r.fd == "4" || r.fd == "5" || r.fd == "6":
			t := toStr(s.eval(r.target))
			if r.target.kind == "var" && strings.EqualFold(r.target.name, "null") || strings.EqualFold(t, "$null") {
				s.errw = io.Discard
				continue
			}
			if r.fd == "2" {
				w, err := s.p.openRedirect(t, r.op == ">>")
				if err != nil {
					s.redirectError(el, t, err)
					return
				}
				s.errw = w
			}
		default: // 1 or *
			if r.target.kind == "var" && strings.EqualFold(r.target.name, "null") {
				sink = func(any) {}
				if r.fd == "*" {
					s.errw = io.Discard
				}
				continue
			}
			target = toStr(s.eval(r.target))
			appendTo = r.op == ">>"
			fileOut = &bytes.Buffer{}
			if s.p.isNullDevice(target) {
				sink, fileOut = func(any) {}, nil
				continue
			}
			// Out-File opens the file first: a read-only mount fails here.
			if _, err := s.p.openRedirect(target, appendTo); err != nil {
				s.redirectError(el, target, err)
				return
			}
			f := newPSFormatter(fileOut, "\r\n")
			sink = f.write
			if r.fd == "*" {
				s.errToOut = sink
			}
		}
	}
	s.runElementBare(el, input, hasInput, sink)
	if fileOut != nil {
		sink(flushMarker{})
		data := s.encodeOutFile(fileOut.String())
		if appendTo {
			old, _ := s.p.readFile(target)
			if len(old) > 0 && !s.pwsh && len(data) >= 2 {
				data = data[2:] // no second BOM
			}
			data = append(old, data...)
		}
		if err := s.p.writeFile(target, data, false); err != nil {
			s.redirectError(el, target, err)
		}
	}
}

// redirectError is out-file's error for a path it cannot write (row B11).
func (s *psShell) redirectError(el *psNode, target string, err error) {
	full := s.p.path(target)
	msg, cat, reason, fq := psFileError(err, full, true)
	s.writeError(&psErrorRecord{msg: msg, cmd: "out-file", category: cat, target: full, reason: reason, fqid: fq + ",Microsoft.PowerShell.Commands.OutFileCommand", pos: el.pos, end: el.end})
}

func (s *psShell) runElementBare(el *psNode, input []any, hasInput bool, out emitter) {
	if el.kind == "exprelem" {
		v := s.eval(el.kids[0])
		for _, x := range enumerate(v) {
			out(x)
		}
		return
	}
	s.runCommand(el, input, hasInput, out)
}

// enumerate is PowerShell's pipeline unrolling of a value.
func enumerate(v any) []any {
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		return x
	}
	return []any{v}
}

// ---- errors ----

func (s *psShell) lineCol(pos int) (line, col int, text string) {
	if pos > len(s.src) {
		pos = len(s.src)
	}
	if pos < 0 {
		pos = 0
	}
	line = 1 + strings.Count(s.src[:pos], "\n")
	start := strings.LastIndex(s.src[:pos], "\n") + 1
	end := strings.IndexByte(s.src[pos:], '\n')
	if end < 0 {
		end = len(s.src)
	} else {
		end += pos
	}
	return line, pos - start + 1, strings.TrimRight(s.src[start:end], "\r")
}

// position is "At line:1 char:1" and the source line with its squiggle.
func (s *psShell) position(pos, end int) []string {
	line, col, text := s.lineCol(pos)
	at := fmt.Sprintf("At line:%d char:%d", line, col)
	if s.file != "" {
		at = fmt.Sprintf("At %s:%d char:%d", s.file, line, col)
	}
	width := end - pos
	if max := len(text) - (col - 1); width > max {
		width = max
	}
	if width < 1 {
		width = 1
	}
	return []string{at, "+ " + text, "+ " + strings.Repeat(" ", col-1) + strings.Repeat("~", width)}
}

func (s *psShell) printError(r *psErrorRecord) {
	nl := s.p.nl
	var b strings.Builder
	if s.pwsh {
		prefix := r.cmd
		if prefix == "" {
			prefix = "Exception"
		}
		b.WriteString(prefix + ": " + r.msg + nl)
		io.WriteString(s.errw, b.String())
		return
	}
	if r.cmd != "" {
		b.WriteString(r.cmd + " : " + r.msg + nl)
	} else {
		b.WriteString(r.msg + nl)
	}
	for _, l := range s.position(r.pos, r.end) {
		b.WriteString(l + nl)
	}
	tt := r.targetType
	if tt == "" {
		tt = "String"
	}
	activity := r.cmd
	if r.noActivity {
		activity = ""
	}
	b.WriteString(fmt.Sprintf("    + CategoryInfo          : %s: (%s:%s) [%s], %s%s", r.category, r.target, tt, activity, r.reason, nl))
	b.WriteString("    + FullyQualifiedErrorId : " + r.fqid + nl)
	b.WriteString(" " + nl)
	io.WriteString(s.errw, b.String())
}

func (s *psShell) printParseError(e *psParseError) {
	nl := s.p.nl
	if s.pwsh {
		line, _, _ := s.lineCol(e.pos)
		io.WriteString(s.p.stderr, fmt.Sprintf("ParserError: %s%sLine |%s%4d | %s%s", nl, nl, nl, line, e.msg, nl))
		return
	}
	var b strings.Builder
	for _, l := range s.position(e.pos, e.pos+1) {
		b.WriteString(l + nl)
	}
	b.WriteString(e.msg + nl)
	b.WriteString("    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException" + nl)
	b.WriteString("    + FullyQualifiedErrorId : " + e.id + nl)
	b.WriteString(" " + nl)
	io.WriteString(s.p.stderr, b.String())
}

// writeError reports a non-terminating error: printed (or merged by 2>&1),
// $? becomes False.
func (s *psShell) writeError(r *psErrorRecord) {
	s.lastOK = false
	if s.errToOut != nil {
		var buf bytes.Buffer
		save := s.errw
		s.errw = &buf
		s.printError(r)
		s.errw = save
		s.errToOut(strings.TrimRight(buf.String(), "\r\n "))
		return
	}
	s.printError(r)
}

// commandNotFound is PowerShell's CommandNotFoundException (row E).
func (s *psShell) commandNotFound(name string, pos, end int) {
	if s.pwsh {
		io.WriteString(s.errw, name+": The term '"+name+"' is not recognized as a name of a cmdlet, function, script file, or executable program."+s.p.nl+
			"Check the spelling of the name, or if a path was included, verify that the path is correct and try again."+s.p.nl)
		s.lastOK = false
		return
	}
	s.writeError(&psErrorRecord{
		msg:        "The term '" + name + "' is not recognized as the name of a cmdlet, function, script file, or operable program. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.",
		cmd:        name,
		category:   "ObjectNotFound",
		target:     name,
		reason:     "CommandNotFoundException",
		fqid:       "CommandNotFoundException",
		noActivity: true,
		pos:        pos,
		end:        end,
	})
}

// ---- expressions ----

func (s *psShell) eval(n *psNode) any {
	if n == nil {
		return nil
	}
	switch n.kind {
	case "lit":
		return n.val
	case "var":
		return s.getVar(n.name)
	case "str":
		var b strings.Builder
		for _, part := range n.kids {
			b.WriteString(toStr(s.eval(part)))
		}
		return b.String()
	case "bare":
		if len(n.kids) == 1 && n.kids[0].kind != "lit" {
			v := s.eval(n.kids[0])
			if n.kids[0].kind == "var" || n.kids[0].kind == "subexpr" {
				return v
			}
			return toStr(v)
		}
		var b strings.Builder
		for _, part := range n.kids {
			b.WriteString(toStr(s.eval(part)))
		}
		str := b.String()
		if len(n.kids) == 1 {
			if i, err := strconv.ParseInt(str, 10, 64); err == nil {
				return i
			}
		}
		return str
	case "subexpr", "arrayexpr":
		var vals []any
		s.execBlock(n.block, func(v any) {
			if _, ok := v.(flushMarker); !ok {
				vals = append(vals, v)
			}
		})
		if n.kind == "arrayexpr" {
			if vals == nil {
				return []any{}
			}
			return vals
		}
		return collapse(vals)
	case "paren":
		return s.evalValue(n.kids[0])
	case "array":
		var out []any
		for _, k := range n.kids {
			out = append(out, s.eval(k))
		}
		return out
	case "hash":
		h := newHash()
		for i := 0; i+1 < len(n.kids); i += 2 {
			h.set(toStr(s.eval(n.kids[i])), s.evalValue(n.kids[i+1]))
		}
		return h
	case "scriptblock":
		return &psScriptBlock{node: n}
	case "unary":
		v := s.eval(n.kids[0])
		switch n.op {
		case "not":
			return !toBool(v)
		case "-":
			if f, ok := v.(float64); ok {
				return -f
			}
			return -toInt(v)
		case "join":
			return joinValues(v, "")
		case "split":
			return toAnySlice(strings.Fields(toStr(v)))
		}
	case "binary":
		if n.op == "and" {
			return toBool(s.eval(n.kids[0])) && toBool(s.eval(n.kids[1]))
		}
		if n.op == "or" {
			return toBool(s.eval(n.kids[0])) || toBool(s.eval(n.kids[1]))
		}
		return s.binary(n.op, s.eval(n.kids[0]), s.eval(n.kids[1]))
	case "type":
		return &psObject{typeName: n.name, str: n.name}
	case "cast":
		return s.cast(n.name, s.eval(n.kids[0]))
	case "member", "call":
		return s.member(n)
	case "index":
		return s.index(s.eval(n.kids[0]), s.eval(n.kids[1]))
	case "pipeline", "chain", "assign", "if", "while", "foreach", "for":
		return s.evalValue(n)
	}
	return nil
}

func (s *psShell) cast(t string, v any) any {
	switch strings.ToLower(strings.TrimPrefix(strings.ToLower(t), "system.")) {
	case "int", "int32", "int64", "long":
		return toInt(v)
	case "string":
		return toStr(v)
	case "bool", "boolean":
		return toBool(v)
	case "double", "float", "single", "decimal":
		return toFloat(v)
	case "array", "object[]", "string[]":
		return enumerate(v)
	}
	return v
}

func (s *psShell) index(obj, idx any) any {
	switch o := obj.(type) {
	case []any:
		i := int(toInt(idx))
		if i < 0 {
			i += len(o)
		}
		if i >= 0 && i < len(o) {
			return o[i]
		}
		return nil
	case string:
		i := int(toInt(idx))
		if i < 0 {
			i += len(o)
		}
		if i >= 0 && i < len(o) {
			return string(o[i])
		}
	case *psHash:
		v, _ := o.get(toStr(idx))
		return v
	}
	return nil
}

// member is .Prop, .Method(args) and [Type]::Static.
func (s *psShell) member(n *psNode) any {
	var args []any
	isCall := n.kind == "call"
	if isCall {
		for _, a := range n.kids[1:] {
			args = append(args, s.eval(a))
		}
	}
	name := n.name
	if strings.HasPrefix(name, "$") {
		name = toStr(s.getVar(name[1:]))
	}
	if n.op == "static" && n.kids[0].kind == "type" {
		return s.static(n.kids[0].name, name, args, isCall)
	}
	obj := s.eval(n.kids[0])
	return s.memberOf(obj, name, args, isCall)
}

func (s *psShell) memberOf(obj any, name string, args []any, isCall bool) any {
	lname := strings.ToLower(name)
	arg := func(i int) any {
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	if isCall && lname == "tostring" {
		return toStr(obj)
	}
	if isCall && lname == "gettype" {
		return &psObject{typeName: "System.RuntimeType", str: typeName(obj), props: []psProp{{"Name", typeName(obj)}}}
	}
	switch o := obj.(type) {
	case string:
		switch lname {
		case "length":
			return int64(len(o))
		case "toupper", "toupperinvariant":
			return strings.ToUpper(o)
		case "tolower", "tolowerinvariant":
			return strings.ToLower(o)
		case "trim":
			if len(args) > 0 {
				return strings.Trim(o, toStr(arg(0)))
			}
			return strings.TrimSpace(o)
		case "trimend":
			if len(args) > 0 {
				return strings.TrimRight(o, toStr(arg(0)))
			}
			return strings.TrimRight(o, " \t\r\n")
		case "trimstart":
			if len(args) > 0 {
				return strings.TrimLeft(o, toStr(arg(0)))
			}
			return strings.TrimLeft(o, " \t\r\n")
		case "contains":
			return strings.Contains(o, toStr(arg(0)))
		case "startswith":
			return strings.HasPrefix(o, toStr(arg(0)))
		case "endswith":
			return strings.HasSuffix(o, toStr(arg(0)))
		case "replace":
			return strings.ReplaceAll(o, toStr(arg(0)), toStr(arg(1)))
		case "split":
			sep := toStr(arg(0))
			if sep == "" {
				return toAnySlice(strings.Fields(o))
			}
			return toAnySlice(strings.FieldsFunc(o, func(r rune) bool { return strings.ContainsRune(sep, r) }))
		case "indexof":
			return int64(strings.Index(o, toStr(arg(0))))
		case "substring":
			i := int(toInt(arg(0)))
			if i < 0 || i > len(o) {
				return ""
			}
			if len(args) > 1 {
				j := i + int(toInt(arg(1)))
				if j > len(o) || j < i {
					j = len(o)
				}
				return o[i:j]
			}
			return o[i:]
		}
	case []any:
		switch lname {
		case "count", "length":
			return int64(len(o))
		case "contains":
			for _, x := range o {
				if looseEqual(x, arg(0), true) {
					return true
				}
			}
			return false
		}
		if !isCall {
			// member enumeration
			var out []any
			for _, x := range o {
				if v := s.memberOf(x, name, nil, false); v != nil {
					out = append(out, v)
				}
			}
			return collapse(out)
		}
	case *psHash:
		switch lname {
		case "count":
			if !isCall {
				return int64(len(o.keys))
			}
		case "keys":
			if !isCall {
				return toAnySlice(o.keys)
			}
		case "values":
			if !isCall {
				var vs []any
				for _, k := range o.keys {
					v, _ := o.get(k)
					vs = append(vs, v)
				}
				return vs
			}
		case "get_item", "item":
			if isCall {
				v, _ := o.get(toStr(arg(0)))
				return v
			}
		case "set_item", "add":
			if isCall {
				o.set(toStr(arg(0)), arg(1))
				return nil
			}
		case "containskey":
			_, ok := o.get(toStr(arg(0)))
			return ok
		case "remove":
			lk := strings.ToLower(toStr(arg(0)))
			delete(o.m, lk)
			for i, k := range o.keys {
				if strings.ToLower(k) == lk {
					o.keys = append(o.keys[:i], o.keys[i+1:]...)
					break
				}
			}
			return nil
		}
		v, _ := o.get(name)
		return v
	case *psObject:
		if isCall {
			if m, ok := o.methods[lname]; ok {
				return m(args)
			}
			return nil
		}
		v, _ := o.get(name)
		return v
	case int64, float64:
		return nil
	}
	return nil
}

func typeName(v any) string {
	switch o := v.(type) {
	case string:
		return "String"
	case int64:
		return "Int32"
	case float64:
		return "Double"
	case bool:
		return "Boolean"
	case []any:
		return "Object[]"
	case *psHash:
		return "Hashtable"
	case *psObject:
		if i := strings.LastIndex(o.typeName, "."); i >= 0 {
			return o.typeName[i+1:]
		}
		return o.typeName
	}
	return "Object"
}

// static is [Type]::Member.
func (s *psShell) static(t, name string, args []any, isCall bool) any {
	lt := strings.ToLower(strings.TrimPrefix(strings.ToLower(t), "system."))
	ln := strings.ToLower(name)
	arg := func(i int) any {
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	switch lt {
	case "environment":
		switch ln {
		case "machinename":
			return computerName(s.p.env.Hostname)
		case "username":
			u, _ := s.p.vars.get("USERNAME")
			return u
		case "getenvironmentvariable":
			v, _ := s.p.vars.get(toStr(arg(0)))
			return v
		case "setenvironmentvariable":
			// The process scope (no target, or "Process") changes this
			// process's environment; "User" and "Machine" go to the
			// registry, seen only by processes started later.
			if t := strings.ToLower(toStr(arg(2))); t == "" || t == "process" {
				s.p.vars.set(toStr(arg(0)), toStr(arg(1)))
			}
			return nil
		case "newline":
			return "\r\n"
		case "exit":
			panic(psExitSignal{int(toInt(arg(0)))})
		}
	case "text.encoding":
		return &psObject{typeName: "System.Text.UTF8Encoding", methods: map[string]func([]any) any{
			"getbytes": func(a []any) any {
				var out []any
				for _, c := range []byte(toStr(argAt(a, 0))) {
					out = append(out, int64(c))
				}
				return out
			},
			"getstring": func(a []any) any {
				var b []byte
				for _, x := range enumerate(argAt(a, 0)) {
					b = append(b, byte(toInt(x)))
				}
				return string(b)
			},
		}}
	case "net.dns":
		if ln == "gethostaddresses" || ln == "gethostentry" {
			addrs, err := s.p.resolve(toStr(arg(0)))
			if err != nil {
				panic(psThrowSignal{&psErrorRecord{msg: "Exception calling \"GetHostAddresses\" with \"1\" argument(s): \"No such host is known\"", category: "NotSpecified", target: ":", reason: "MethodInvocationException", fqid: "SocketException"}})
			}
			var out []any
			for _, a := range addrs {
				out = append(out, &psObject{typeName: "System.Net.IPAddress", str: a.String(), props: []psProp{{"IPAddressToString", a.String()}, {"AddressFamily", "InterNetwork"}}})
			}
			return collapse(out)
		}
		if ln == "gethostname" {
			return s.p.env.Hostname
		}
	case "math":
		switch ln {
		case "pi":
			return math.Pi
		case "max":
			return math.Max(toFloat(arg(0)), toFloat(arg(1)))
		case "min":
			return math.Min(toFloat(arg(0)), toFloat(arg(1)))
		case "round":
			return math.Round(toFloat(arg(0)))
		case "floor":
			return math.Floor(toFloat(arg(0)))
		}
	case "datetime":
		if ln == "now" || ln == "utcnow" {
			return s.p.now().Format("Monday, January 2, 2006 3:04:05 PM")
		}
	case "io.file":
		switch ln {
		case "exists":
			_, err := s.p.readFile(toStr(arg(0)))
			return err == nil
		case "readalltext":
			b, err := s.p.readFile(toStr(arg(0)))
			if err != nil {
				return nil
			}
			return decodeText(b)
		case "writealltext":
			if err := s.p.writeFile(toStr(arg(0)), []byte(toStr(arg(1))), false); err != nil {
				msg, _, _, _ := psFileError(err, s.p.path(toStr(arg(0))), true)
				panic(psThrowSignal{&psErrorRecord{msg: "Exception calling \"WriteAllText\" with \"2\" argument(s): \"" + msg + "\"", category: "NotSpecified", target: ":", reason: "MethodInvocationException", fqid: "UnauthorizedAccessException"}})
			}
			return nil
		}
	}
	return nil
}

func argAt(a []any, i int) any {
	if i < len(a) {
		return a[i]
	}
	return nil
}

func (s *psShell) binary(op string, l, r any) any {
	cs := false
	bare := op
	if len(op) > 2 && (op[0] == 'c' || op[0] == 'i') && psComparisonOps[op] && psComparisonOps[op[1:]] {
		cs = op[0] == 'c'
		bare = op[1:]
	}
	switch bare {
	case "+":
		switch x := l.(type) {
		case string:
			return x + toStr(r)
		case []any:
			return append(append([]any{}, x...), enumerate(r)...)
		case *psHash:
			h := newHash()
			for _, k := range x.keys {
				v, _ := x.get(k)
				h.set(k, v)
			}
			if y, ok := r.(*psHash); ok {
				for _, k := range y.keys {
					v, _ := y.get(k)
					h.set(k, v)
				}
			}
			return h
		case nil:
			return r
		}
		return psArith(l, r, func(a, b float64) float64 { return a + b }, func(a, b int64) int64 { return a + b })
	case "-":
		return psArith(l, r, func(a, b float64) float64 { return a - b }, func(a, b int64) int64 { return a - b })
	case "*":
		if x, ok := l.(string); ok {
			n := toInt(r)
			if n < 0 || n > 1<<16 {
				n = 0
			}
			return strings.Repeat(x, int(n))
		}
		return psArith(l, r, func(a, b float64) float64 { return a * b }, func(a, b int64) int64 { return a * b })
	case "/":
		d := toFloat(r)
		if d == 0 {
			panic(psThrowSignal{&psErrorRecord{msg: "Attempted to divide by zero.", category: "NotSpecified", target: ":", reason: "RuntimeException", fqid: "RuntimeException"}})
		}
		q := toFloat(l) / d
		if q == math.Trunc(q) && math.Abs(q) < 1e15 {
			return int64(q)
		}
		return q
	case "%":
		d := toInt(r)
		if d == 0 {
			panic(psThrowSignal{&psErrorRecord{msg: "Attempted to divide by zero.", category: "NotSpecified", target: ":", reason: "RuntimeException", fqid: "RuntimeException"}})
		}
		return toInt(l) % d
	case "..":
		a, b := toInt(l), toInt(r)
		var out []any
		step := int64(1)
		if b < a {
			step = -1
		}
		for i := a; len(out) < 100000; i += step {
			out = append(out, i)
			if i == b {
				break
			}
		}
		return out
	case "f":
		return formatOp(toStr(l), enumerate(r))
	case "eq", "ne", "gt", "ge", "lt", "le", "like", "notlike", "match", "notmatch":
		if arr, ok := l.([]any); ok {
			var out []any
			for _, x := range arr {
				if toBool(s.compare(bare, x, r, cs)) {
					out = append(out, x)
				}
			}
			if out == nil {
				return []any{}
			}
			return out
		}
		return s.compare(bare, l, r, cs)
	case "contains", "notcontains":
		found := false
		for _, x := range enumerate(l) {
			if looseEqual(x, r, !cs) {
				found = true
			}
		}
		return found == (bare == "contains")
	case "in", "notin":
		found := false
		for _, x := range enumerate(r) {
			if looseEqual(l, x, !cs) {
				found = true
			}
		}
		return found == (bare == "in")
	case "replace":
		parts := enumerate(r)
		pat, rep := "", ""
		if len(parts) > 0 {
			pat = toStr(parts[0])
		}
		if len(parts) > 1 {
			rep = toStr(parts[1])
		}
		if !cs {
			pat = "(?i)" + pat
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			return toStr(l)
		}
		return re.ReplaceAllString(toStr(l), strings.ReplaceAll(rep, "$_", "$0"))
	case "split":
		re, err := regexp.Compile(toStr(r))
		if err != nil {
			return []any{toStr(l)}
		}
		return toAnySlice(re.Split(toStr(l), -1))
	case "join":
		return joinValues(l, toStr(r))
	case "is", "isnot":
		want := strings.ToLower(strings.Trim(toStr(r), "[]"))
		want = strings.TrimPrefix(want, "system.")
		got := strings.ToLower(typeName(l))
		match := got == want || (want == "int" && got == "int32") || (want == "array" && got == "object[]") || (want == "bool" && got == "boolean")
		return match == (bare == "is")
	case "as":
		return s.cast(strings.Trim(toStr(r), "[]"), l)
	case "xor":
		return toBool(l) != toBool(r)
	}
	return nil
}

func psArith(l, r any, ff func(a, b float64) float64, fi func(a, b int64) int64) any {
	_, lf := l.(float64)
	_, rf := r.(float64)
	if ls, ok := l.(string); ok && strings.Contains(ls, ".") {
		lf = true
	}
	if lf || rf {
		return ff(toFloat(l), toFloat(r))
	}
	return fi(toInt(l), toInt(r))
}

func (s *psShell) compare(op string, l, r any, cs bool) any {
	switch op {
	case "eq":
		return looseEqual(l, r, !cs)
	case "ne":
		return !looseEqual(l, r, !cs)
	case "like", "notlike":
		ok := wildcardMatch(toStr(r), toStr(l), !cs)
		return ok == (op == "like")
	case "match", "notmatch":
		pat := toStr(r)
		if !cs {
			pat = "(?i)" + pat
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			return false
		}
		m := re.FindStringSubmatch(toStr(l))
		if m != nil {
			h := newHash()
			for i, g := range m {
				h.set(strconv.Itoa(i), g)
			}
			s.vars["matches"] = h
		}
		return (m != nil) == (op == "match")
	}
	// ordering
	var c int
	switch x := l.(type) {
	case string:
		a, b := x, toStr(r)
		if !cs {
			a, b = strings.ToLower(a), strings.ToLower(b)
		}
		c = strings.Compare(a, b)
	default:
		a, b := toFloat(l), toFloat(r)
		switch {
		case a < b:
			c = -1
		case a > b:
			c = 1
		}
	}
	switch op {
	case "gt":
		return c > 0
	case "ge":
		return c >= 0
	case "lt":
		return c < 0
	case "le":
		return c <= 0
	}
	return false
}

// looseEqual is -eq: the right side converts to the left side's type.
func looseEqual(l, r any, fold bool) bool {
	switch x := l.(type) {
	case nil:
		return r == nil
	case string:
		if fold {
			return strings.EqualFold(x, toStr(r))
		}
		return x == toStr(r)
	case bool:
		return x == toBool(r)
	case int64, float64:
		if s, ok := r.(string); ok {
			if _, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil {
				return false
			}
		}
		if r == nil {
			return false
		}
		return toFloat(l) == toFloat(r)
	}
	return l == r
}

func wildcardMatch(pattern, s string, fold bool) bool {
	var b strings.Builder
	if fold {
		b.WriteString("(?is)")
	} else {
		b.WriteString("(?s)")
	}
	b.WriteString("^")
	for _, c := range pattern {
		switch c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	return err == nil && re.MatchString(s)
}

var formatItem = regexp.MustCompile(`\{(\d+)(?:,(-?\d+))?(?::([^}]*))?\}`)

// formatOp is the -f operator (.NET composite formatting: {0}, {0,5},
// {0:N2}).
func formatOp(f string, args []any) string {
	f = strings.ReplaceAll(strings.ReplaceAll(f, "{{", "\x00"), "}}", "\x01")
	out := formatItem.ReplaceAllStringFunc(f, func(m string) string {
		sub := formatItem.FindStringSubmatch(m)
		i, _ := strconv.Atoi(sub[1])
		if i >= len(args) {
			return m
		}
		v := toStr(args[i])
		if spec := strings.ToUpper(sub[3]); strings.HasPrefix(spec, "N") || strings.HasPrefix(spec, "F") {
			d, _ := strconv.Atoi(spec[1:])
			if spec == "N" || spec == "F" {
				d = 2
			}
			if d > 15 {
				d = 15
			}
			// .NET rounds half away from zero
			scale := math.Pow(10, float64(d))
			v = strconv.FormatFloat(math.Round(toFloat(args[i])*scale)/scale, 'f', d, 64)
		}
		if sub[2] != "" {
			w, _ := strconv.Atoi(sub[2])
			if w < 0 && -w > len(v) && -w < 1000 {
				v += strings.Repeat(" ", -w-len(v))
			} else if w > len(v) && w < 1000 {
				v = strings.Repeat(" ", w-len(v)) + v
			}
		}
		return v
	})
	return strings.ReplaceAll(strings.ReplaceAll(out, "\x00", "{"), "\x01", "}")
}

func joinValues(v any, sep string) string {
	var parts []string
	for _, x := range enumerate(v) {
		parts = append(parts, toStr(x))
	}
	return strings.Join(parts, sep)
}

// ---- conversions ----

func toBool(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case int64:
		return x != 0
	case float64:
		return x != 0
	case string:
		return x != ""
	case []any:
		if len(x) == 1 {
			return toBool(x[0])
		}
		return len(x) > 0
	}
	return true
}

func toStr(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		if x {
			return "True"
		}
		return "False"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	case []any:
		return joinValues(x, " ")
	case *psHash:
		return "System.Collections.Hashtable"
	case *psObject:
		if x.str != "" {
			return x.str
		}
		return x.typeName
	case *psScriptBlock:
		return x.node.text
	}
	return fmt.Sprint(v)
}

func toInt(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		if x != x || math.IsInf(x, 0) || math.Abs(x) > 9e18 {
			return 0
		}
		return int64(math.Round(x))
	case bool:
		if x {
			return 1
		}
		return 0
	case string:
		t := strings.TrimSpace(x)
		if i, err := strconv.ParseInt(t, 0, 64); err == nil {
			return i
		}
		if f, err := strconv.ParseFloat(t, 64); err == nil {
			return toInt(f)
		}
	case []any:
		if len(x) == 1 {
			return toInt(x[0])
		}
	}
	return 0
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	case string:
		f, _ := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f
	case bool:
		if x {
			return 1
		}
	case []any:
		if len(x) == 1 {
			return toFloat(x[0])
		}
	}
	return 0
}

// ---- formatting ----

// psFormatter is Out-Default: strings and numbers one a line, objects in
// list or table view, consecutive rows of one table under one header.
type psFormatter struct {
	w     io.Writer
	nl    string
	table string
}

func newPSFormatter(w io.Writer, nl string) *psFormatter { return &psFormatter{w: w, nl: nl} }

func (s *psShell) topEmitter() emitter {
	return newPSFormatter(s.p.stdout, s.p.nl).write
}

func (f *psFormatter) line(s string) { io.WriteString(f.w, s+f.nl) }

func (f *psFormatter) endTable() {
	if f.table != "" {
		f.line("")
		f.line("")
		f.table = ""
	}
}

func (f *psFormatter) write(v any) {
	switch x := v.(type) {
	case flushMarker:
		f.endTable()
	case nil:
	case []any:
		for _, e := range x {
			f.write(e)
		}
	case *psHash:
		f.endTable()
		f.line("")
		f.line(fmt.Sprintf("%-30s %s", "Name", "Value"))
		f.line(fmt.Sprintf("%-30s %s", "----", "-----"))
		for _, k := range x.keys {
			val, _ := x.get(k)
			f.line(strings.TrimRight(fmt.Sprintf("%-30s %s", k, toStr(val)), " "))
		}
		f.line("")
		f.line("")
	case *psObject:
		switch x.view {
		case "list":
			f.endTable()
			width := 0
			for _, p := range x.props {
				if len(p.name) > width {
					width = len(p.name)
				}
			}
			f.line("")
			for _, p := range x.props {
				val := strings.ReplaceAll(toStr(p.val), "\r\n", "\n")
				lines := strings.Split(strings.TrimRight(val, "\n"), "\n")
				f.line(strings.TrimRight(fmt.Sprintf("%-*s : %s", width, p.name, lines[0]), " "))
				for _, l := range lines[1:] {
					f.line(strings.Repeat(" ", width+3) + l)
				}
			}
			f.line("")
			f.line("")
		case "table":
			key := x.typeName + "\x00" + x.group
			if f.table != key {
				f.endTable()
				f.table = key
				f.line("")
				if x.group != "" {
					f.line(x.group)
					f.line("")
					f.line("")
				}
				var h1, h2 strings.Builder
				for _, c := range x.cols {
					h1.WriteString(pad(c.name, c))
					h2.WriteString(pad(strings.Repeat("-", len(c.name)), c))
				}
				f.line(strings.TrimRight(h1.String(), " "))
				f.line(strings.TrimRight(h2.String(), " "))
			}
			var row strings.Builder
			for _, c := range x.cols {
				v, _ := x.get(c.name)
				row.WriteString(pad(toStr(v), c))
			}
			f.line(strings.TrimRight(row.String(), " "))
		default:
			f.endTable()
			f.line(toStr(x))
		}
	default:
		f.endTable()
		f.line(toStr(v))
	}
}

func pad(s string, c psCol) string {
	if c.width == 0 {
		return s
	}
	if len(s) >= c.width {
		return s[:c.width-1] + " "
	}
	if c.right {
		return strings.Repeat(" ", c.width-1-len(s)) + s + " "
	}
	return s + strings.Repeat(" ", c.width-len(s))
}

// formatToString renders values as Out-String does.
func formatToString(vals []any, nl string) string {
	var b bytes.Buffer
	f := newPSFormatter(&b, nl)
	for _, v := range vals {
		f.write(v)
	}
	f.write(flushMarker{})
	return b.String()
}
