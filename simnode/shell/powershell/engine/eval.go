package engine

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf16"
	"wink.dev/wink/simnode/shell/powershell/parser"

	"wink.dev/wink/simnode/shell/process"
	"wink.dev/wink/simnode/shell/programs/network"
)

// This file runs PowerShell (row E): values, operators, pipelines, the
// formatter that turns objects into console text, error records in Windows
// PowerShell 5.1's layout (ConciseView for pwsh 7), and exit codes.

// Shell is one powershell.exe / pwsh process.
type Shell struct {
	P     *process.Proc
	Pwsh  bool
	src   string
	file  string
	vars  map[string]any
	funcs map[string]*parser.Node
	// lastOK is $?; failures counts the errors that set it False, so
	// that a pipeline that wrote none sets it True when it ends.
	lastOK   bool
	failures int
	// Errw is where error records are printed (2> redirects it).
	Errw io.Writer
	// errToOut merges errors into the output stream (2>&1).
	errToOut emitter
	// jobs are the session's background jobs; steps and computing pace a
	// script that computes (jobs.go).
	jobs *psJobs
	// atExit runs when the shell ends: the processes Start-Process
	// started end with it (process.go).
	AtExit []func()
	// Locations is Push-Location's stack of directories.
	Locations []string
	steps     int64
	computing bool
	// errs is $Error, newest first; handlers counts the try blocks and
	// trap-holding blocks the running statement is in (errors.go).
	errs     []any
	handlers int
	// Scope is the current scope; vars and funcs are its variables and
	// functions (scopes.go).
	Scope *Scope
	// shouldExit is $host.SetShouldExit's code.
	shouldExit    int
	hasShouldExit bool
	// exitKnown: a native program ran, $LASTEXITCODE is set.
	exitKnown bool
	// streamIn is a range the next cmdlet takes one number at a time
	// (range.go).
	streamIn *psRange
	// calls are the functions running, innermost last (Write-Error names
	// the function it is in).
	calls []psFrame
}

// psFrame is a function call: its name and where it was called.
type psFrame struct {
	name     string
	pos, end int
	src      string
	file     string
}

type emitter func(v any)

// control flow
type (
	psExitSignal     struct{ code int }
	psThrowSignal    struct{ rec *ErrorRecord }
	psBreakSignal    struct{}
	psContinueSignal struct{}
	psReturnSignal   struct{ vals []any }
	KilledSignal     struct{}
)

// Object is a .NET object as the simulation knows it.
type Object struct {
	TypeName string
	Props    []Prop
	// View is how the formatter shows it: "list", "table" or "" (ToString).
	View    string
	group   string // table group header, e.g. "    Directory: C:\x"
	Cols    []Col
	Str     string
	Methods map[string]func(args []any) any
	// rec is the error an ErrorRecord object stands for.
	rec *ErrorRecord
}

type Prop struct {
	Name string
	Val  any
}

type Col struct {
	Name  string
	Width int // 0: last column
	Right bool
}

func (o *Object) get(name string) (any, bool) {
	for _, p := range o.Props {
		if strings.EqualFold(p.Name, name) {
			return p.Val, true
		}
	}
	return nil, false
}

func (o *Object) set(name string, v any) {
	for i, p := range o.Props {
		if strings.EqualFold(p.Name, name) {
			o.Props[i].Val = v
			return
		}
	}
	o.Props = append(o.Props, Prop{name, v})
}

// Hash is a hashtable (insertion-ordered for display).
type Hash struct {
	keys []string
	m    map[string]any
}

func NewHash() *Hash { return &Hash{m: map[string]any{}} }

func (h *Hash) Set(k string, v any) {
	lk := strings.ToLower(k)
	if _, ok := h.m[lk]; !ok {
		h.keys = append(h.keys, k)
	}
	h.m[lk] = v
}

func (h *Hash) get(k string) (any, bool) {
	v, ok := h.m[strings.ToLower(k)]
	return v, ok
}

type ScriptBlock struct{ Node *parser.Node }

// ErrorRecord is an error as PowerShell prints it.
type ErrorRecord struct {
	Msg      string
	cmd      string // the command the error is attributed to ("" for throw)
	Category string
	Target   string
	// TargetType is the CategoryInfo target's type ("String" if empty).
	TargetType string
	Reason     string // exception type name
	// noActivity leaves CategoryInfo's [activity] empty (command not found).
	noActivity bool
	Fqid       string
	pos, end   int
	// stmt: a statement-terminating error (errors.go); inner and
	// innerMsg the exception a MethodInvocationException wraps; status a
	// WebException's HTTP status.
	stmt            bool
	inner, innerMsg string
	Status          int
	// Details is the ErrorDetails message (an HTTP error's body).
	Details string
	// src and file are the script the position points into (stamped
	// when the error is raised); noPos prints no position lines.
	stamped, noPos, recorded bool
	// activity overrides CategoryInfo's [activity] (Write-Error's).
	activity  string
	src, file string
	obj       *Object
}

// ---- entry ----

// Run is powershell.exe / pwsh: -Command, -File, -EncodedCommand,
// a script path, or a script on stdin.
func Run(p *process.Proc, argv []string, pwsh bool) int {
	args := argv[1:]
	script, file := "", ""
	var scriptArgs []string
	haveScript := false
	for i := 0; i < len(args) && !haveScript; i++ {
		a := args[i]
		la := strings.ToLower(a)
		if !strings.HasPrefix(la, "-") && !strings.HasPrefix(la, "/") || la == "-" {
			if pwsh || process.IsScriptPath(a) {
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
				script = string(p.ReadStdin())
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
			p.Println("")
			p.Println("PowerShell[.exe] [-PSConsoleFile <file> | -Version <version>]")
			p.Println("    [-NoLogo] [-NoExit] [-Sta] [-Mta] [-NoProfile] [-NonInteractive]")
			p.Println("    [-InputFormat {Text | XML}] [-OutputFormat {Text | XML}]")
			p.Println("    [-WindowStyle <style>] [-EncodedCommand <Base64EncodedCommand>]")
			p.Println("    [-ConfigurationName <string>]")
			p.Println("    [-File <filePath> <args>] [-ExecutionPolicy <ExecutionPolicy>]")
			p.Println("    [-Command { - | <script-block> [-args <arg-array>]")
			p.Println("                  | <string> [<CommandParameters>] } ]")
			return 0
		}
	}
	s := &Shell{P: p, Pwsh: pwsh, lastOK: true, Errw: p.Stderr}
	s.initScopes()
	if !haveScript {
		script = string(p.ReadStdin())
	}
	if file != "" {
		data, err := p.ReadFile(file)
		if err != nil && p.ScriptMayExist(file, err) {
			return p.UnknownProgram() // open world: a script of the image (process/openworld.go)
		}
		if err != nil {
			if pwsh {
				p.Eprintln("The argument '" + file + "' is not recognized as the name of a script file. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.")
				return 64
			}
			p.Eprintln("The argument '" + file + "' to the -File parameter does not exist. Provide the path to an existing '.ps1' file as an argument to the -File parameter.")
			return -196608
		}
		s.file = p.Path(file)
		script = DecodeText(data)
		// a script run with -File runs in a script scope of its own, a
		// child of the global scope (about_Scopes)
		defer s.pushScope(true)()
		s.vars["args"] = toAnySlice(scriptArgs)
	}
	s.src = script
	code := s.run(script)
	s.endCompute()
	for _, f := range s.AtExit {
		f()
	}
	if s.hasShouldExit && (code == -2 || code == 1) {
		return s.shouldExit
	}
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
func (s *Shell) run(script string) (code int) {
	block, perr := parser.ParseScript(script)
	if perr != nil {
		if ls := network.Listeners([]string{"powershell", script}); len(ls) > 0 && strings.Contains(script, "System.Net.HttpListener") {
			// An HttpListener script this parser cannot read is still a
			// web server (row S5): announce it the way the docs' script
			// does and serve until the container stops.
			for _, m := range network.HTTPListenerPrefix.FindAllStringSubmatch(script, -1) {
				p := strings.TrimSuffix(strings.TrimPrefix(m[0][strings.Index(m[0], "(")+1:], " "), ")")
				s.P.Println("Listening at " + strings.Trim(strings.TrimSpace(p), `'"`))
			}
			return s.P.Block()
		}
		if perr.ID == "NotSimulated" {
			// a construct the parser does not implement: the open world
			// (the script ends well, or runs until stopped)
			s.P.NotSimulated("powershell: " + perr.Msg)
			return s.P.UnknownProgram()
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
				s.stamp(sig.rec)
				s.printError(sig.rec)
				code = 1
			case KilledSignal:
				code = process.ExitKilledWindows
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
	if args, ok := s.vars["args"].([]any); ok && len(block) > 0 && block[0].Kind == "param" {
		// powershell -File script.ps1 -Name value: the script's param
		// block binds named then positional arguments (about_PowerShell_exe)
		ps, _ := block[0].Val.([]parser.Param)
		named := map[string]any{}
		var rest []any
		for i := 0; i < len(args); i++ {
			a := ToStr(args[i])
			if strings.HasPrefix(a, "-") && len(a) > 1 {
				name, val, colon := strings.Cut(a[1:], ":")
				for _, p := range ps {
					if strings.EqualFold(p.Name, name) {
						switch {
						case colon:
							named[strings.ToLower(p.Name)] = val
						case p.IsSwitch:
							named[strings.ToLower(p.Name)] = true
						case i+1 < len(args):
							i++
							named[strings.ToLower(p.Name)] = args[i]
						}
						goto next
					}
				}
			}
			rest = append(rest, args[i])
		next:
		}
		s.bindParams(ps, named, &rest)
		s.vars["args"] = rest
	}
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

// DecodeText reads a file as Windows tools do: UTF-16 with a BOM, UTF-8
// with or without one.
func DecodeText(b []byte) string {
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

// EncodeOutFile is Out-File's (and `>`'s) encoding: UTF-16LE with a BOM in
// Windows PowerShell 5.1, UTF-8 without BOM in pwsh 7.
func (s *Shell) EncodeOutFile(text string) []byte {
	if s.Pwsh {
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

// CheckCtx is one step of the script (a statement, a loop iteration, a
// pipeline element): it ends the script once the process is stopped and
// is throttled past the process's step budget (process.Proc.Step).
func (s *Shell) CheckCtx() {
	if s.P.Done() || s.P.Step() != nil {
		panic(KilledSignal{})
	}
	s.pace()
}

func (s *Shell) execBlock(block []*parser.Node, out emitter) {
	trapList := traps(block)
	if trapList != nil {
		s.handlers++
		defer func() { s.handlers-- }()
	}
	for _, st := range block {
		s.CheckCtx()
		s.execGuarded(st, out, trapList)
	}
}

func (s *Shell) execStmt(n *parser.Node, out emitter) {
	switch n.Kind {
	case "nop", "trap", "param":
	case "notsim":
		s.P.NotSimulated(n.Name)
	case "if":
		for i := 0; i+1 < len(n.Kids); i += 2 {
			if ToBool(s.evalCond(n.Kids[i])) {
				s.execBlock(n.Kids[i+1].Block, out)
				return
			}
		}
		if len(n.Kids)%2 == 1 {
			s.execBlock(n.Kids[len(n.Kids)-1].Block, out)
		}
	case "while", "dowhile", "dountil":
		first := n.Kind != "while"
		for {
			s.CheckCtx()
			if !first {
				c := ToBool(s.evalCond(n.Kids[0]))
				if c == (n.Kind == "dountil") {
					return
				}
			}
			first = false
			if brk, _ := s.breakable(n.Kids[1].Block, out); brk {
				return
			}
			if n.Kind != "while" {
				c := ToBool(s.evalCond(n.Kids[0]))
				if c == (n.Kind == "dountil") {
					return
				}
				first = true
			}
		}
	case "for":
		if n.Kids[0] != nil {
			s.execStmt(n.Kids[0], func(any) {})
		}
		for {
			s.CheckCtx()
			if n.Kids[1] != nil && !ToBool(s.evalCond(n.Kids[1])) {
				return
			}
			if brk, _ := s.breakable(n.Kids[3].Block, out); brk {
				return
			}
			if n.Kids[2] != nil {
				s.execStmt(n.Kids[2], func(any) {})
			}
		}
	case "foreach":
		if rg, ok := s.rangeOf(n.Kids[0]); ok {
			for i := int64(0); i < rg.count(); i++ {
				s.CheckCtx()
				s.SetVar(n.Name, rg.at(i))
				if brk, _ := s.breakable(n.Kids[1].Block, out); brk {
					return
				}
			}
			return
		}
		for _, v := range Enumerate(s.evalCond(n.Kids[0])) {
			s.CheckCtx()
			s.SetVar(n.Name, v)
			if brk, _ := s.breakable(n.Kids[1].Block, out); brk {
				return
			}
		}
	case "function":
		s.DefineFunc(n)
	case "try":
		s.execTry(n, out)
	case "switch":
		s.execSwitch(n, out)
	case "exit":
		code := 0
		if len(n.Kids) > 0 {
			v := s.evalValue(n.Kids[0])
			code = int(int32(ToInt(v)))
		}
		panic(psExitSignal{code})
	case "throw":
		rec := s.throwValue(n)
		rec.stmt = false
		panic(psThrowSignal{rec})
	case "return":
		var vals []any
		if len(n.Kids) > 0 {
			vals = Enumerate(s.evalValue(n.Kids[0]))
		}
		panic(psReturnSignal{vals})
	case "break":
		panic(psBreakSignal{})
	case "continue":
		panic(psContinueSignal{})
	case "assign":
		before := s.failures
		s.assign(n)
		if s.failures == before {
			s.lastOK = true
		}
	default:
		s.runPipelineNode(n, out)
	}
}

// breakable runs a block that break and continue end (a loop body, a
// switch clause, a trap): brk or cont says which one ended it.
func (s *Shell) breakable(block []*parser.Node, out emitter) (brk, cont bool) {
	defer func() {
		if r := recover(); r != nil {
			switch r.(type) {
			case psBreakSignal:
				brk = true
			case psContinueSignal:
				cont = true
			default:
				panic(r)
			}
		}
	}()
	s.execBlock(block, out)
	return false, false
}

func (s *Shell) evalCond(n *parser.Node) any {
	vals, sink, release := s.collector()
	defer release()
	s.execStmt(n, sink)
	return Collapse(*vals)
}

// evalValue runs a statement or pipeline and returns its output.
func (s *Shell) evalValue(n *parser.Node) any {
	if n.Kind == "pipeline" && len(n.Kids) == 1 && n.Kids[0].Kind == "exprelem" && len(n.Kids[0].Redirs) == 0 {
		return s.eval(n.Kids[0].Kids[0])
	}
	return s.evalCond(n)
}

func Collapse(vals []any) any {
	switch len(vals) {
	case 0:
		return nil
	case 1:
		return vals[0]
	}
	return vals
}

func (s *Shell) assign(n *parser.Node) {
	lv, rhs := n.Kids[0], n.Kids[1]
	var v any
	if rhs.Kind == "lit" {
		v = rhs.Val
	} else if rhs.Kind == "assign" {
		s.assign(rhs)
		v = s.eval(rhs.Kids[0])
	} else {
		v = s.evalValue(rhs)
	}
	if n.Op != "=" {
		old := s.eval(lv)
		v = s.binary(n.Op[:1], old, v)
	}
	switch lv.Kind {
	case "lvalues":
		// the first variables take one element each, the last the rest
		vals := Enumerate(v)
		for i, k := range lv.Kids {
			var x any
			switch {
			case i == len(lv.Kids)-1 && len(vals) > i+1:
				x = vals[i:]
			case i < len(vals):
				x = vals[i]
			}
			s.assign(&parser.Node{Kind: "assign", Op: "=", Kids: []*parser.Node{k, {Kind: "lit", Val: x}}})
		}
	case "var":
		if t := s.constraintOf(lv.Name); t != "" && !strings.HasPrefix(strings.ToLower(lv.Name), "env:") {
			v = s.cast(t, v)
		}
		s.SetVar(lv.Name, v)
	case "typed":
		name := lv.Kids[0].Name
		v = s.cast(lv.Name, v)
		s.SetVar(name, v)
		s.constrain(name, lv.Name)
	case "member":
		if lv.Op == "static" && lv.Kids[0].Kind == "type" {
			s.setStatic(lv.Kids[0].Name, lv.Name, v)
			return
		}
		obj := s.eval(lv.Kids[0])
		s.Grow(sizeOf(v, 1))
		switch o := obj.(type) {
		case *Object:
			o.set(lv.Name, v)
		case *Hash:
			o.Set(lv.Name, v)
		}
	case "index":
		obj := s.eval(lv.Kids[0])
		idx := s.eval(lv.Kids[1])
		switch o := obj.(type) {
		case *Hash:
			old, had := o.get(ToStr(idx))
			delta := sizeOf(v, 1) - sizeOf(old, 1)
			if !had {
				delta += 48 + int64(len(ToStr(idx)))
			}
			s.Grow(delta)
			o.Set(ToStr(idx), v)
		case []any:
			i := int(ToInt(idx))
			if i < 0 {
				i += len(o)
			}
			if i >= 0 && i < len(o) {
				o[i] = v
			}
		}
	}
}

func (s *Shell) SetVar(name string, v any) {
	if env, ok := cutFold(name, "env:"); ok {
		if v == nil || ToStr(v) == "" {
			s.P.Vars.Unset(env)
		} else {
			s.P.Vars.Set(env, ToStr(v))
		}
		return
	}
	mod, bare := scopeModifier(name)
	if strings.EqualFold(bare, "LASTEXITCODE") {
		s.P.LastExit, s.exitKnown = int(ToInt(v)), true
	}
	sc, _ := s.ScopeNamed(mod)
	s.SetIn(sc, bare, v, mod == "private")
}

func cutFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

func (s *Shell) GetVar(name string) any {
	if env, ok := cutFold(name, "env:"); ok {
		v, found := s.P.Vars.Get(env)
		if !found {
			return nil
		}
		return v
	}
	_, bare := scopeModifier(name)
	switch strings.ToLower(bare) {
	case "true":
		return true
	case "false":
		return false
	case "null":
		return nil
	case "?":
		return s.lastOK
	case "error":
		return append([]any{}, s.errs...)
	case "erroractionpreference":
		if v, _, ok := s.LookupVar(name); ok {
			return v
		}
		return "Continue"
	case "lastexitcode":
		if !s.exitKnown && s.P.LastExit == 0 {
			return nil // no native program ran yet
		}
		return int64(s.P.LastExit)
	case "pwd":
		return &Object{TypeName: "System.Management.Automation.PathInfo", Str: s.P.Dir, View: "table", Cols: []Col{{Name: "Path"}}, Props: []Prop{{"Path", s.P.Dir}}}
	case "home":
		v, _ := s.P.Vars.Get("USERPROFILE")
		return v
	case "pid":
		return int64(4242)
	case "host":
		h := &Object{TypeName: "System.Management.Automation.Internal.Host.InternalHost", Props: []Prop{{"Name", "ConsoleHost"}, {"Version", newVersion(5, 1, 0, 0)}}}
		h.Methods = map[string]func([]any) any{
			// SetShouldExit: powershell.exe exits with the code when the
			// script ends (a trap's way to fail the process)
			"setshouldexit": func(a []any) any { s.shouldExit = int(ToInt(ArgAt(a, 0))); s.hasShouldExit = true; return nil },
		}
		return h
	case "input":
		if v, ok := s.vars["input"]; ok {
			return v
		}
		if !s.Scope.script {
			return []any{} // a function or script block not in a pipeline
		}
		// top-level $input is the process's stdin, read when first used
		b := s.P.ReadStdin()
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
		return s.psVersionTable()
	case "psscriptroot":
		// the directory of the running script ("" in -Command)
		if i := strings.LastIndexAny(s.file, `\/`); i >= 0 {
			return s.file[:i]
		}
		return ""
	case "pscommandpath":
		return s.file
	case "myinvocation":
		name := s.file[strings.LastIndexAny(s.file, `\/`)+1:]
		return &Object{TypeName: "System.Management.Automation.InvocationInfo", Props: []Prop{
			{"MyCommand", &Object{TypeName: "System.Management.Automation.ExternalScriptInfo", Str: name, Props: []Prop{{"Name", name}, {"Path", s.file}, {"Definition", s.file}}}},
			{"ScriptName", s.file}, {"PSScriptRoot", s.GetVar("psscriptroot")}, {"PSCommandPath", s.file}, {"InvocationName", s.file}}}
	}
	v, _, _ := s.LookupVar(name)
	return v
}

// ---- pipelines ----

type flushMarker struct{}

func (s *Shell) runPipelineNode(n *parser.Node, out emitter) {
	switch n.Kind {
	case "chain":
		s.runPipeline(n.Kids[0], out)
		for i, a := range n.Args {
			if (a.Param == "&&") == s.lastOK {
				s.runPipeline(n.Kids[i+1], out)
			}
		}
	case "pipeline":
		s.runPipeline(n, out)
	default:
		// a bare expression node used as a statement
		for _, v := range Enumerate(s.eval(n)) {
			out(v)
		}
	}
}

// failed sets $? to False.
func (s *Shell) failed() {
	s.lastOK = false
	s.failures++
}

func (s *Shell) runPipeline(n *parser.Node, out emitter) {
	var input []any
	hasInput := false
	before := s.failures
	defer func() {
		if s.failures == before {
			s.lastOK = true
		}
	}()
	// each stage's output is held until the next stage has run
	releaseInput := func() {}
	defer func() { releaseInput() }()
	first := 0
	if rg, ok := s.streamedRange(n); ok {
		s.streamIn, hasInput, first = &rg, true, 1
		defer func() { s.streamIn = nil }()
	}
	for i, el := range n.Kids {
		if i < first {
			continue
		}
		last := i == len(n.Kids)-1
		collected, sink, release := new([]any), out, func() {}
		if !last {
			collected, sink, release = s.collector()
		}
		s.runElement(el, input, hasInput, sink)
		releaseInput()
		input, hasInput, releaseInput = *collected, true, release
	}
}

// runElement runs one element with its redirections.
func (s *Shell) runElement(el *parser.Node, input []any, hasInput bool, out emitter) {
	if len(el.Redirs) == 0 {
		s.runElementBare(el, input, hasInput, out)
		return
	}
	var fileOut *bytes.Buffer
	var target string
	appendTo := false
	sink := out
	saveErr, saveErrTo := s.Errw, s.errToOut
	defer func() { s.Errw, s.errToOut = saveErr, saveErrTo }()
	for _, r := range el.Redirs {
		switch {
		case r.FD == "2" && r.Op == ">&1":
			s.errToOut = out
		case r.FD == "2" || r.FD == "3" || r.FD == "4" || r.FD == "5" || r.FD == "6":
			t := ToStr(s.eval(r.Target))
			if r.Target.Kind == "var" && strings.EqualFold(r.Target.Name, "null") || strings.EqualFold(t, "$null") {
				s.Errw = io.Discard
				continue
			}
			if r.FD == "2" {
				w, err := s.P.OpenRedirect(t, r.Op == ">>")
				if err != nil {
					s.redirectError(el, t, err)
					return
				}
				s.Errw = w
			}
		default: // 1 or *
			if r.Target.Kind == "var" && strings.EqualFold(r.Target.Name, "null") {
				sink = func(any) {}
				if r.FD == "*" {
					s.Errw = io.Discard
				}
				continue
			}
			target = ToStr(s.eval(r.Target))
			appendTo = r.Op == ">>"
			fileOut = &bytes.Buffer{}
			if s.P.IsNullDevice(target) {
				sink, fileOut = func(any) {}, nil
				continue
			}
			// Out-File opens the file first: a read-only mount fails here.
			if _, err := s.P.OpenRedirect(target, appendTo); err != nil {
				s.redirectError(el, target, err)
				return
			}
			f := newPSFormatter(fileOut, "\r\n")
			sink = f.write
			if r.FD == "*" {
				s.errToOut = sink
			}
		}
	}
	s.runElementBare(el, input, hasInput, sink)
	if fileOut != nil {
		sink(flushMarker{})
		data := s.EncodeOutFile(fileOut.String())
		if appendTo {
			old, _ := s.P.ReadFile(target)
			if len(old) > 0 && !s.Pwsh && len(data) >= 2 {
				data = data[2:] // no second BOM
			}
			data = append(old, data...)
		}
		if err := s.P.WriteFile(target, data, false); err != nil {
			s.redirectError(el, target, err)
		}
	}
}

// redirectError is out-file's error for a path it cannot write (row B11).
func (s *Shell) redirectError(el *parser.Node, target string, err error) {
	full := s.P.Path(target)
	msg, cat, reason, fq := FileError(err, full, true)
	s.writeError(&ErrorRecord{Msg: msg, cmd: "out-file", Category: cat, Target: full, Reason: reason, Fqid: fq + ",Microsoft.PowerShell.Commands.OutFileCommand", pos: el.Pos, end: el.End})
}

func (s *Shell) runElementBare(el *parser.Node, input []any, hasInput bool, out emitter) {
	if el.Kind == "exprelem" {
		v := s.eval(el.Kids[0])
		for _, x := range Enumerate(v) {
			out(x)
		}
		return
	}
	s.runCommand(el, input, hasInput, out)
}

// Enumerate is PowerShell's pipeline unrolling of a value.
func Enumerate(v any) []any {
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		return x
	}
	return []any{v}
}

// ---- errors ----

func (s *Shell) lineCol(pos int) (line, col int, text string) { return lineCol(s.src, pos) }

// lineCol is the line, column and text of a position in a script.
func lineCol(src string, pos int) (line, col int, text string) {
	if pos > len(src) {
		pos = len(src)
	}
	if pos < 0 {
		pos = 0
	}
	line = 1 + strings.Count(src[:pos], "\n")
	start := strings.LastIndex(src[:pos], "\n") + 1
	end := strings.IndexByte(src[pos:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += pos
	}
	return line, pos - start + 1, strings.TrimRight(src[start:end], "\r")
}

// position is "At line:1 char:1" and the source line with its squiggle.
func (s *Shell) position(pos, end int) []string { return position(s.src, s.file, pos, end) }

func position(src, file string, pos, end int) []string {
	line, col, text := lineCol(src, pos)
	at := fmt.Sprintf("At line:%d char:%d", line, col)
	if file != "" {
		at = fmt.Sprintf("At %s:%d char:%d", file, line, col)
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

func (s *Shell) printError(r *ErrorRecord) {
	s.stamp(r)
	io.WriteString(s.Errw, r.render(s.Pwsh, s.P.NL))
}

func (s *Shell) printParseError(e *parser.Error) {
	nl := s.P.NL
	if s.Pwsh {
		line, _, _ := s.lineCol(e.Pos)
		io.WriteString(s.P.Stderr, fmt.Sprintf("ParserError: %s%sLine |%s%4d | %s%s", nl, nl, nl, line, e.Msg, nl))
		return
	}
	var b strings.Builder
	for _, l := range s.position(e.Pos, e.Pos+1) {
		b.WriteString(l + nl)
	}
	b.WriteString(e.Msg + nl)
	b.WriteString("    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException" + nl)
	b.WriteString("    + FullyQualifiedErrorId : " + e.ID + nl)
	b.WriteString(" " + nl)
	io.WriteString(s.P.Stderr, b.String())
}

// writeError reports a non-terminating error: printed (or merged by 2>&1),
// $? becomes False.
func (s *Shell) writeError(r *ErrorRecord) {
	s.failed()
	s.stamp(r)
	if s.errToOut != nil {
		var buf bytes.Buffer
		save := s.Errw
		s.Errw = &buf
		s.printError(r)
		s.Errw = save
		s.errToOut(strings.TrimRight(buf.String(), "\r\n "))
		return
	}
	s.printError(r)
}

// commandNotFound is PowerShell's CommandNotFoundException (row E).
func (s *Shell) commandNotFound(name string, pos, end int) {
	if s.Pwsh && s.handlers == 0 {
		io.WriteString(s.Errw, name+": The term '"+name+"' is not recognized as a name of a cmdlet, function, script file, or executable program."+s.P.NL+
			"Check the spelling of the name, or if a path was included, verify that the path is correct and try again."+s.P.NL)
		s.failed()
		return
	}
	s.throwStmt(&ErrorRecord{
		Msg:        "The term '" + name + "' is not recognized as the name of a cmdlet, function, script file, or operable program. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.",
		cmd:        name,
		Category:   "ObjectNotFound",
		Target:     name,
		Reason:     "CommandNotFoundException",
		Fqid:       "CommandNotFoundException",
		noActivity: true,
		pos:        pos,
		end:        end,
	})
}

// ---- expressions ----

func (s *Shell) eval(n *parser.Node) any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case "lit":
		return n.Val
	case "var":
		return s.GetVar(n.Name)
	case "typed":
		return s.cast(n.Name, s.eval(n.Kids[0]))
	case "str":
		parts := make([]string, len(n.Kids))
		total := 0
		for i, part := range n.Kids {
			parts[i] = ToStr(s.eval(part))
			total += len(parts[i])
		}
		s.Reserve(int64(total))
		return strings.Join(parts, "")
	case "bare":
		if len(n.Kids) == 1 && n.Kids[0].Kind != "lit" {
			v := s.eval(n.Kids[0])
			if n.Kids[0].Kind == "var" || n.Kids[0].Kind == "subexpr" {
				return v
			}
			return ToStr(v)
		}
		var b strings.Builder
		for _, part := range n.Kids {
			b.WriteString(ToStr(s.eval(part)))
		}
		str := b.String()
		if len(n.Kids) == 1 {
			if i, err := strconv.ParseInt(str, 10, 64); err == nil {
				return i
			}
		}
		return str
	case "subexpr", "arrayexpr":
		pv, sink, release := s.collector()
		defer release()
		s.execBlock(n.Block, sink)
		vals := *pv
		if n.Kind == "arrayexpr" {
			if vals == nil {
				return []any{}
			}
			return vals
		}
		return Collapse(vals)
	case "paren":
		if a := n.Kids[0]; a.Kind == "assign" && a.Kids[0].Kind != "lvalues" {
			// ($x = 1) and ($i++) give a value: the variable's after the
			// assignment, the one before a postfix increment
			// (about_Assignment_Operators)
			var old any
			if a.Name == "postfix" {
				old = s.eval(a.Kids[0])
			}
			s.execStmt(a, nil)
			if a.Name == "postfix" {
				return old
			}
			return s.eval(a.Kids[0])
		}
		return s.evalValue(n.Kids[0])
	case "array":
		var out []any
		for _, k := range n.Kids {
			out = append(out, s.eval(k))
		}
		return out
	case "hash":
		h := NewHash()
		for i := 0; i+1 < len(n.Kids); i += 2 {
			h.Set(ToStr(s.eval(n.Kids[i])), s.evalValue(n.Kids[i+1]))
		}
		return h
	case "scriptblock":
		return &ScriptBlock{Node: n}
	case "unary":
		v := s.eval(n.Kids[0])
		switch n.Op {
		case "not":
			return !ToBool(v)
		case "bnot":
			return ^ToInt(v)
		case "-":
			if f, ok := v.(float64); ok {
				return -f
			}
			return -ToInt(v)
		case "join":
			return JoinValues(v, "")
		case "split":
			return toAnySlice(strings.Fields(ToStr(v)))
		}
	case "binary":
		if n.Op == "and" {
			return ToBool(s.eval(n.Kids[0])) && ToBool(s.eval(n.Kids[1]))
		}
		if n.Op == "or" {
			return ToBool(s.eval(n.Kids[0])) || ToBool(s.eval(n.Kids[1]))
		}
		return s.binary(n.Op, s.eval(n.Kids[0]), s.eval(n.Kids[1]))
	case "type":
		return &Object{TypeName: n.Name, Str: n.Name}
	case "cast":
		return s.cast(n.Name, s.eval(n.Kids[0]))
	case "postfix":
		old := s.eval(n.Kids[0])
		s.assign(&parser.Node{Kind: "assign", Op: n.Op, Kids: []*parser.Node{n.Kids[0], {Kind: "lit", Val: int64(1)}}})
		return old
	case "member", "call":
		return s.member(n)
	case "index":
		return s.index(s.eval(n.Kids[0]), s.eval(n.Kids[1]))
	case "pipeline", "chain", "assign", "if", "while", "foreach", "for", "switch", "try":
		return s.evalValue(n)
	}
	return nil
}
