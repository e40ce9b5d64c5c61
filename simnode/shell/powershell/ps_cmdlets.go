package powershell

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"wink.dev/wink/simnode/shell/powershell/parser"

	"wink.dev/wink/simnode/shell/process"
)

// This file is PowerShell's command dispatch (functions, cmdlets, scripts,
// native programs) and the cmdlet table.

// psCmdlet is one row of the cmdlet table.
type psCmdlet struct {
	name    string
	aliases []string
	help    string
	rows    string
	// positional parameter names in position order; the last one named
	// "*" soaks up the remaining positional values.
	positional []string
	switches   []string
	params     []string
	// class overrides the FullyQualifiedErrorId's command class.
	class string
	run   func(c *psCall)
}

// psCall is one invocation of a cmdlet.
type psCall struct {
	s        *psShell
	cmdlet   *psCmdlet
	node     *parser.Node
	named    map[string]any
	extra    []any
	input    []any
	hasInput bool
	out      emitter
	// errs are the errors the call wrote (-ErrorVariable).
	errs []*psErrorRecord
	// stream is a range streamed in as input (ps_range.go).
	stream *psRange
}

// each runs f on each input object: the input, or a streamed range one
// number at a time.
func (c *psCall) each(f func(item any)) {
	if c.stream != nil {
		for i := int64(0); i < c.stream.count(); i++ {
			f(c.stream.at(i))
		}
		return
	}
	for _, item := range c.input {
		f(item)
	}
}

// psCmdlets is the cmdlet table (filled in init: some cmdlets run scripts).
var psCmdlets []*psCmdlet

func init() {
	psCmdlets = []*psCmdlet{
		{name: "Write-Output", aliases: []string{"echo", "write"}, help: "Sends objects to the pipeline.", rows: "E", positional: []string{"InputObject*"}, switches: []string{"NoEnumerate"}, run: cmdletWriteOutput},
		{name: "Write-Host", help: "Writes to the host (the container log).", rows: "E, S5", positional: []string{"Object*"}, switches: []string{"NoNewline"}, params: []string{"Separator", "ForegroundColor", "BackgroundColor"}, run: cmdletWriteHost},
		{name: "Write-Error", help: "Writes a non-terminating error.", positional: []string{"Message*"}, params: []string{"Category", "ErrorId"}, run: cmdletWriteError},
		{name: "Get-Location", aliases: []string{"pwd", "gl"}, help: "Gets the current directory.", run: func(c *psCall) { c.out(c.s.getVar("pwd")) }},
		{name: "Start-Sleep", aliases: []string{"sleep"}, help: "Waits (env.Sleep: a fake clock in tests).", rows: "E", positional: []string{"Seconds"}, params: []string{"Milliseconds", "Duration"}, run: cmdletStartSleep},
		{name: "Get-Date", help: "Gets the date.", positional: []string{"Date"}, params: []string{"Format", "UFormat"}, run: cmdletGetDate},
		{name: "New-Object", help: "Creates a .NET object (HttpListener, TcpClient, WebClient, PSObject).", rows: "S5", positional: []string{"TypeName", "ArgumentList*"}, params: []string{"Property", "ComObject"}, run: cmdletNewObject},
		{name: "ForEach-Object", aliases: []string{"%", "foreach"}, help: "Runs a script block for each input.", positional: []string{"Process*"}, params: []string{"Begin", "End", "MemberName"}, run: cmdletForEach},
		{name: "Where-Object", aliases: []string{"?", "where"}, help: "Filters input.", positional: []string{"FilterScript", "Value"}, params: []string{"InputObject", "Property"}, switches: whereOps, run: cmdletWhere},
		{name: "Select-Object", aliases: []string{"select"}, help: "Selects objects or properties.", positional: []string{"Property*"}, params: []string{"First", "Last", "Skip", "ExpandProperty", "Index"}, switches: []string{"Unique"}, run: cmdletSelect},
		{name: "Select-String", aliases: []string{"sls"}, help: "Finds text.", positional: []string{"Pattern", "Path"}, params: []string{"InputObject", "Context"}, switches: []string{"SimpleMatch", "CaseSensitive", "NotMatch", "Quiet", "List", "AllMatches"}, run: cmdletSelectString},
		{name: "Sort-Object", aliases: []string{"sort"}, help: "Sorts input.", positional: []string{"Property*"}, switches: []string{"Descending", "Unique"}, run: cmdletSort},
		{name: "Measure-Object", aliases: []string{"measure"}, help: "Counts input.", positional: []string{"Property"}, switches: []string{"Sum", "Average", "Line", "Word", "Character"}, run: func(c *psCall) {
			c.out(&psObject{typeName: "Microsoft.PowerShell.Commands.GenericMeasureInfo", view: "list", props: []psProp{{"Count", int64(len(c.input))}, {"Average", nil}, {"Sum", nil}, {"Maximum", nil}, {"Minimum", nil}, {"Property", nil}}})
		}},
		{name: "Out-Null", help: "Discards output.", run: func(*psCall) {}},
		{name: "Out-String", help: "Formats output as one string.", switches: []string{"Stream"}, params: []string{"InputObject", "Width"}, run: func(c *psCall) {
			c.out(formatToString(c.input, c.s.p.NL))
		}},
		{name: "Out-Host", aliases: []string{"oh"}, help: "Writes to the console.", run: passThrough},
		{name: "Out-Default", help: "Writes to the console.", run: passThrough},
		{name: "Format-Table", aliases: []string{"ft"}, help: "Formats as a table.", positional: []string{"Property*"}, switches: []string{"AutoSize", "HideTableHeaders", "Wrap"}, run: passThrough},
		{name: "Format-List", aliases: []string{"fl"}, help: "Formats as a list.", positional: []string{"Property*"}, run: cmdletFormatList},
		{name: "Clear-Host", aliases: []string{"cls", "clear"}, help: "Clears the screen.", run: func(*psCall) {}},
		{name: "Join-Path", help: "Joins path parts.", positional: []string{"Path", "ChildPath"}, run: func(c *psCall) {
			c.out(strings.TrimRight(c.str("Path"), `\/`) + `\` + strings.TrimLeft(c.str("ChildPath"), `\/`))
		}},
		{name: "Split-Path", help: "Splits a path.", positional: []string{"Path"}, switches: []string{"Leaf", "Parent", "Qualifier", "NoQualifier"}, run: func(c *psCall) {
			p := strings.ReplaceAll(c.str("Path"), "/", `\`)
			i := strings.LastIndex(p, `\`)
			if c.has("Leaf") {
				c.out(p[i+1:])
			} else if i >= 0 {
				c.out(p[:i])
			} else {
				c.out("")
			}
		}},
		{name: "Invoke-Expression", aliases: []string{"iex"}, help: "Runs a string as a script.", positional: []string{"Command"}, run: func(c *psCall) {
			block, perr := parser.ParseScript(c.str("Command"))
			if perr != nil {
				c.s.printParseError(perr)
				c.s.failed()
				return
			}
			c.s.execBlock(block, c.out)
		}},
		{name: "Get-Command", aliases: []string{"gcm"}, help: "Finds commands.", positional: []string{"Name"}, run: cmdletGetCommand},
		{name: "Get-Help", aliases: []string{"help", "man"}, help: "Describes commands.", positional: []string{"Name"}, run: cmdletGetHelp},
	}
}

var psCmdletIndex = map[string]*psCmdlet{}

func init() {
	for _, c := range psCmdlets {
		psCmdletIndex[strings.ToLower(c.name)] = c
		for _, a := range c.aliases {
			psCmdletIndex[strings.ToLower(a)] = c
		}
	}
}

func passThrough(c *psCall) {
	for _, v := range c.input {
		c.out(v)
	}
}

// ---- dispatch ----

// lineWriter turns a native program's output into string objects, one a
// line, as PowerShell does, streaming as lines complete.
type lineWriter struct {
	emit emitter
	buf  []byte
}

func (l *lineWriter) Write(b []byte) (int, error) {
	l.buf = append(l.buf, b...)
	for {
		i := strings.IndexByte(string(l.buf), '\n')
		if i < 0 {
			break
		}
		l.emit(strings.TrimRight(string(l.buf[:i]), "\r"))
		l.buf = l.buf[i+1:]
	}
	return len(b), nil
}

func (l *lineWriter) flush() {
	if len(l.buf) > 0 {
		l.emit(strings.TrimRight(string(l.buf), "\r"))
		l.buf = nil
	}
}

// expandSplats replaces @name arguments with the hashtable's entries as
// named arguments or the array's elements as positional ones
// (about_Splatting).
func (s *psShell) expandSplats(el *parser.Node) *parser.Node {
	splat := false
	for _, a := range el.Args {
		splat = splat || a.Param == "@"
	}
	if !splat {
		return el
	}
	cp := *el
	cp.Args = nil
	for _, a := range el.Args {
		if a.Param != "@" {
			cp.Args = append(cp.Args, a)
			continue
		}
		switch v := s.eval(a.Value).(type) {
		case *psHash:
			for _, k := range v.keys {
				x, _ := v.get(k)
				cp.Args = append(cp.Args, parser.Arg{Param: k, Colon: true, Value: &parser.Node{Kind: "lit", Val: x}, Pos: a.Pos, End: a.End})
			}
		default:
			for _, x := range enumerate(v) {
				cp.Args = append(cp.Args, parser.Arg{Value: &parser.Node{Kind: "lit", Val: x}, Pos: a.Pos, End: a.End})
			}
		}
	}
	return &cp
}

func (s *psShell) runCommand(el *parser.Node, input []any, hasInput bool, out emitter) {
	el = s.expandSplats(el)
	nameNode := el.Kids[0]
	var target any
	if nameNode.Kind == "bare" {
		target = toStr(s.eval(nameNode))
	} else {
		target = s.eval(nameNode)
	}
	if sb, ok := target.(*psScriptBlock); ok {
		// & { } runs in a child scope, . { } in the caller's (about_Scopes)
		args := s.evalArgs(el)
		if el.Op != "." {
			defer s.pushScope(false)()
		}
		s.invokeBlock(sb.node, args, input, out)
		return
	}
	name := toStr(target)
	lname := strings.ToLower(name)
	if fn, ok := s.lookupFunc(lname); ok {
		s.callFunction(fn, el, input, out)
		return
	}
	if c, ok := psCmdletIndex[lname]; ok {
		s.invokeCmdlet(c, el, input, hasInput, out)
		return
	}
	if process.IsScriptPath(name) {
		data, err := s.p.ReadFile(name)
		if err == nil {
			s.runScriptFile(name, DecodeText(data), el, out)
			return
		}
	}
	if c, ok := s.p.Programs.Lookup(process.Windows, name); ok {
		s.runNative(c, name, el, input, hasInput, out)
		return
	}
	if s.unsimulated(name, el) {
		return // open world (openworld.go)
	}
	s.commandNotFound(name, nameNode.Pos, nameNode.End)
}

// evalArgs evaluates arguments for functions, scripts and native programs.
func (s *psShell) evalArgs(el *parser.Node) []any {
	var args []any
	for _, a := range el.Args {
		if a.Param != "" {
			if a.Param == "--" {
				continue
			}
			if a.Colon {
				args = append(args, "-"+a.Param+":"+toStr(s.eval(a.Value)))
			} else {
				args = append(args, "-"+a.Param)
			}
			continue
		}
		args = append(args, s.eval(a.Value))
	}
	return args
}

func (s *psShell) runNative(c *process.Command, name string, el *parser.Node, input []any, hasInput bool, out emitter) {
	argv := []string{name}
	for _, a := range s.evalArgs(el) {
		for _, v := range enumerate(a) {
			argv = append(argv, toStr(v))
		}
	}
	var stdin io.Reader
	if hasInput {
		stdin = strings.NewReader(formatToString(input, "\r\n"))
	}
	lw := &lineWriter{emit: out}
	var errw io.Writer = s.errw
	var elw *lineWriter
	if s.errToOut != nil {
		elw = &lineWriter{emit: s.errToOut}
		errw = elw
	}
	child := s.p.Sub(stdin, lw, errw)
	code := child.Exec(argv)
	lw.flush()
	if elw != nil {
		elw.flush()
	}
	s.p.LastExit, s.exitKnown = code, true
	if code != 0 {
		s.failed()
	}
	s.checkCtx()
}

func (s *psShell) invokeBlock(block *parser.Node, args []any, input []any, out emitter) {
	if !s.p.Enter() {
		s.p.Leave()
		s.throwStmt(&psErrorRecord{msg: "The script failed due to call depth overflow.", category: "InvalidOperation", target: ":", reason: "ParentContainsErrorRecordException", fqid: "CallDepthOverflow"})
	}
	defer s.p.Leave()
	saveArgs := s.vars["args"]
	if b := block.Block; len(b) > 0 && b[0].Kind == "param" && block.Kind != "body" {
		ps, _ := b[0].Val.([]parser.Param)
		s.bindParams(ps, nil, &args)
	}
	s.vars["args"] = args
	defer func() { s.vars["args"] = saveArgs }()
	if input != nil {
		s.vars["input"] = input
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if ret, ok := r.(psReturnSignal); ok {
					for _, v := range ret.vals {
						out(v)
					}
					return
				}
				panic(r)
			}
		}()
		if block.Kind == "body" {
			s.execBody(block.Block, input, block.Op == "filter", out)
			return
		}
		s.execBlock(block.Block, out)
	}()
}

// namedBlocks are a function body's begin, process and end blocks
// (about_Functions: "Piping Objects to Functions"), nil when the body is
// a plain statement list.
func namedBlocks(block []*parser.Node) map[string][]*parser.Node {
	named := map[string][]*parser.Node{}
	for _, st := range block {
		if st.Kind == "param" {
			continue
		}
		if st.Kind != "pipeline" || len(st.Kids) != 1 || st.Kids[0].Kind != "command" {
			return nil
		}
		// begin { } process { } end { } on one line parses as one command:
		// name, block, name, block, ...
		cmd := st.Kids[0]
		words := append([]*parser.Node{cmd.Kids[0]}, nil)[:1]
		for _, a := range cmd.Args {
			if a.Param != "" || a.Value == nil {
				return nil
			}
			words = append(words, a.Value)
		}
		if len(words)%2 != 0 {
			return nil
		}
		for i := 0; i < len(words); i += 2 {
			name, body := words[i], words[i+1]
			if name.Kind != "bare" || len(name.Kids) != 1 || name.Kids[0].Kind != "lit" || body.Kind != "scriptblock" {
				return nil
			}
			k := strings.ToLower(toStr(name.Kids[0].Val))
			if k != "begin" && k != "process" && k != "end" {
				return nil
			}
			named[k] = body.Block
		}
	}
	if len(named) == 0 {
		return nil
	}
	return named
}

// execBody runs a function's body: begin once, process once per pipeline
// object ($_ is the object; once when the function is not in a pipeline),
// end once; return ends only the block it is in.
func (s *psShell) execBody(block []*parser.Node, input []any, filter bool, out emitter) {
	named := namedBlocks(block)
	if filter {
		named = map[string][]*parser.Node{"process": block}
	}
	if named == nil {
		s.execBlock(block, out)
		return
	}
	run := func(b []*parser.Node) {
		defer func() {
			if r := recover(); r != nil {
				ret, ok := r.(psReturnSignal)
				if !ok {
					panic(r)
				}
				for _, v := range ret.vals {
					out(v)
				}
			}
		}()
		s.execBlock(b, out)
	}
	if b, ok := named["begin"]; ok {
		run(b)
	}
	if b, ok := named["process"]; ok {
		if input == nil {
			run(b)
		}
		var pipeParams []string
		if len(block) > 0 && block[0].Kind == "param" {
			ps, _ := block[0].Val.([]parser.Param)
			for _, p := range ps {
				if p.Pipeline {
					pipeParams = append(pipeParams, p.Name)
				}
			}
		}
		for _, item := range input {
			s.checkCtx()
			s.vars["_"], s.vars["psitem"] = item, item
			for _, p := range pipeParams {
				s.setIn(s.scope, p, item, false)
			}
			run(b)
		}
	}
	if b, ok := named["end"]; ok {
		run(b)
	}
}

// paramsOf are a function's parameters: function f($a, $b) or the param
// block that opens its body.
func paramsOf(fn *parser.Node) []parser.Param {
	if ps, ok := fn.Val.([]parser.Param); ok && len(ps) > 0 {
		return ps
	}
	if b := fn.Kids[0].Block; len(b) > 0 && b[0].Kind == "param" {
		ps, _ := b[0].Val.([]parser.Param)
		return ps
	}
	return nil
}

// callFunction runs a function: -Name value and positional arguments bind
// to its parameters (about_Functions), the rest are $args.
// splitArgs binds a call's arguments to parameters: -Name value (or a
// unique prefix, -Name:value, a switch) by name, the rest positional
// (about_Functions, about_Scripts).
func (s *psShell) splitArgs(params []parser.Param, el *parser.Node) (map[string]any, []any) {
	named := map[string]any{}
	var positional []any
	for i := 0; i < len(el.Args); i++ {
		a := el.Args[i]
		if a.Param == "" || a.Param == "--" {
			if a.Value != nil {
				positional = append(positional, s.eval(a.Value))
			}
			continue
		}
		var match *parser.Param
		for k := range params {
			if strings.EqualFold(params[k].Name, a.Param) || (match == nil && len(a.Param) < len(params[k].Name) && strings.EqualFold(params[k].Name[:len(a.Param)], a.Param)) {
				match = &params[k]
			}
		}
		switch {
		case match == nil:
			if a.Colon {
				positional = append(positional, "-"+a.Param+":"+toStr(s.eval(a.Value)))
			} else {
				positional = append(positional, "-"+a.Param)
			}
		case a.Colon:
			named[strings.ToLower(match.Name)] = s.eval(a.Value)
		case match.IsSwitch:
			named[strings.ToLower(match.Name)] = true
		case i+1 < len(el.Args) && el.Args[i+1].Param == "":
			i++
			named[strings.ToLower(match.Name)] = s.eval(el.Args[i].Value)
		}
	}
	return named, positional
}

func (s *psShell) callFunction(fn *parser.Node, el *parser.Node, input []any, out emitter) {
	params := paramsOf(fn)
	named, positional := s.splitArgs(params, el)
	s.calls = append(s.calls, psFrame{name: fn.Name, pos: el.Pos, end: el.End, src: s.src, file: s.file})
	defer func() { s.calls = s.calls[:len(s.calls)-1] }()
	// a function runs in a child scope, its parameters its variables;
	// `. f` runs it in the caller's scope (about_Scopes)
	if el.Op != "." {
		defer s.pushScope(false)()
	}
	s.bindParams(params, named, &positional)
	s.invokeBlock(&parser.Node{Kind: "body", Op: fn.Op, Block: fn.Kids[0].Block}, positional, input, out)
}

// bindParams sets parameters in the current scope from named values, then
// positional ones in order, then defaults.
func (s *psShell) bindParams(params []parser.Param, named map[string]any, positional *[]any) {
	// $PSBoundParameters: the parameters given, not defaulted
	// (about_Automatic_Variables)
	bound := newHash()
	for _, p := range params {
		k := strings.ToLower(p.Name)
		var v any
		switch named, ok := named[k]; {
		case ok:
			v = named
			bound.set(p.Name, v)
		case !p.IsSwitch && len(*positional) > 0:
			v = (*positional)[0]
			*positional = (*positional)[1:]
			bound.set(p.Name, v)
		case p.Def != nil:
			v = s.eval(p.Def)
		case p.IsSwitch:
			v = false
		}
		s.setIn(s.scope, k, v, false)
	}
	s.vars["psboundparameters"] = bound
}

// runScriptFile runs a .ps1 (upstream host_process.go:825 runs
// `powershell.exe ./etc/configmap/validationscript.ps1`).
func (s *psShell) runScriptFile(name, text string, el *parser.Node, out emitter) {
	dot := el.Op == "."
	block, perr := parser.ParseScript(text)
	saveSrc, saveFile := s.src, s.file
	s.src, s.file = text, s.p.Path(name)
	defer func() { s.src, s.file = saveSrc, saveFile }()
	if perr != nil {
		s.printParseError(perr)
		s.failed()
		return
	}
	// errors inside the script point into the script (stamped as they
	// are raised), and reach the caller's try/catch; exit N ends the
	// script only, setting $LASTEXITCODE (about_Language_Keywords: exit)
	defer func() {
		if r := recover(); r != nil {
			sig, ok := r.(psExitSignal)
			if !ok {
				panic(r)
			}
			s.p.LastExit, s.exitKnown = sig.code, true
			if sig.code != 0 {
				s.failed()
			}
		}
	}()
	// a script runs in a script scope of its own; `. .\x.ps1` in the
	// caller's scope, so its functions and variables stay (about_Scopes)
	if !dot {
		defer s.pushScope(true)()
	}
	// the script's param block binds -Name value and positional
	// arguments as a function's does (about_Scripts)
	var ps []parser.Param
	if len(block) > 0 && block[0].Kind == "param" {
		ps, _ = block[0].Val.([]parser.Param)
	}
	named, positional := s.splitArgs(ps, el)
	s.bindParams(ps, named, &positional)
	s.invokeBlock(&parser.Node{Kind: "body", Block: block}, positional, nil, out)
}

// invokeCmdlet binds parameters by name (unique prefixes, as PowerShell
// allows: -V is -Value), then by position, and runs the cmdlet.
func (s *psShell) invokeCmdlet(c *psCmdlet, el *parser.Node, input []any, hasInput bool, out emitter) {
	call := &psCall{s: s, cmdlet: c, node: el, named: map[string]any{}, input: input, hasInput: hasInput, out: out, stream: s.streamIn}
	s.streamIn = nil
	all := append(append(append([]string{}, c.switches...), c.params...), "ErrorAction", "ErrorVariable", "WarningAction", "Verbose", "Debug", "OutVariable", "InformationAction", "WarningVariable", "InformationVariable", "OutBuffer", "PipelineVariable")
	for _, p := range c.positional {
		all = append(all, strings.TrimSuffix(p, "*"))
	}
	isSwitch := func(n string) bool {
		for _, sw := range c.switches {
			if sw == n {
				return true
			}
		}
		return n == "Verbose" || n == "Debug"
	}
	var positional []any
	var posNodes []*parser.Node
	argNode := map[string]*parser.Node{} // where each parameter's argument is
	for i := 0; i < len(el.Args); i++ {
		a := el.Args[i]
		if a.Param == "" || a.Param == "--" {
			if a.Value != nil {
				positional = append(positional, s.eval(a.Value))
				posNodes = append(posNodes, a.Value)
			}
			continue
		}
		given := a.Param
		if alias, ok := commonAliases[strings.ToLower(given)]; ok {
			given = alias
		}
		name, err := matchParam(given, all)
		if err != "" {
			s.cmdletError(call, err, "InvalidArgument", "", "ParameterBindingException", map[bool]string{true: "AmbiguousParameter", false: "NamedParameterNotFound"}[strings.Contains(err, "ambiguous")], a.Pos, a.End)
			return
		}
		argNode[name] = a.Value
		switch {
		case a.Colon:
			call.named[name] = s.eval(a.Value)
		case isSwitch(name):
			call.named[name] = true
		case i+1 < len(el.Args) && el.Args[i+1].Param == "":
			i++
			argNode[name] = el.Args[i].Value
			call.named[name] = s.eval(el.Args[i].Value)
		default:
			s.cmdletError(call, fmt.Sprintf("Missing an argument for parameter '%s'. Specify a parameter of type 'System.String' and try again.", name),
				"InvalidArgument", "", "ParameterBindingException", "MissingArgument", a.Pos, a.End)
			return
		}
	}
	for _, p := range c.positional {
		name := strings.TrimSuffix(p, "*")
		if _, set := call.named[name]; set {
			continue
		}
		if len(positional) == 0 {
			break
		}
		if strings.HasSuffix(p, "*") {
			call.named[name] = collapseKeep(positional)
			positional = nil
			break
		}
		call.named[name] = positional[0]
		argNode[name] = posNodes[0]
		positional, posNodes = positional[1:], posNodes[1:]
	}
	if len(positional) > 0 {
		s.cmdletError(call, fmt.Sprintf("A positional parameter cannot be found that accepts argument '%s'.", toStr(positional[0])),
			"InvalidArgument", "", "ParameterBindingException", "PositionalParameterNotFound", el.Pos, el.End)
		return
	}
	for _, p := range notNullParams[strings.ToLower(c.name)] {
		if v, set := call.named[p]; set && (v == nil || v == "") {
			what, id := "null", "ParameterArgumentValidationErrorNullNotAllowed"
			if v == "" {
				what, id = "an empty string", "ParameterArgumentValidationErrorEmptyStringNotAllowed"
			}
			pos, end := el.Pos, el.End
			if n := argNode[p]; n != nil && n.End > n.Pos {
				pos, end = n.Pos, n.End
			}
			s.cmdletError(call, fmt.Sprintf("Cannot bind argument to parameter '%s' because it is %s.", p, what), "InvalidData", ":", "ParameterBindingValidationException", id, pos, end)
		}
	}
	if ev := strings.TrimPrefix(call.str("ErrorVariable"), "+"); ev != "" {
		defer s.setErrorVariable(call, ev, strings.HasPrefix(call.str("ErrorVariable"), "+"))
	}
	c.run(call)
}

// notNullParams are the mandatory parameters that refuse $null and ""
// (a parameter binding error, statement-terminating): Test-Path $env:UNSET.
var notNullParams = map[string][]string{
	"test-path": {"Path"}, "get-content": {"Path"}, "set-content": {"Path"}, "add-content": {"Path"}, "remove-item": {"Path"},
	"new-item": {"Path"}, "copy-item": {"Path"}, "join-path": {"Path"}, "split-path": {"Path"}, "out-file": {"FilePath"},
	"invoke-webrequest": {"Uri"}, "invoke-restmethod": {"Uri"}, "resolve-dnsname": {"Name"},
}

// commonAliases are the common parameters' aliases (about_CommonParameters).
var commonAliases = map[string]string{"ea": "ErrorAction", "ev": "ErrorVariable", "wa": "WarningAction", "ov": "OutVariable", "infa": "InformationAction", "vb": "Verbose", "db": "Debug", "wv": "WarningVariable", "iv": "InformationVariable", "ob": "OutBuffer", "pv": "PipelineVariable"}

// setErrorVariable is -ErrorVariable: the errors of the call (+name appends).
func (s *psShell) setErrorVariable(c *psCall, name string, appendTo bool) {
	var list []any
	if appendTo {
		list = enumerate(s.getVar(name))
	}
	for _, r := range c.errs {
		list = append(list, s.errorObject(r))
	}
	if list == nil {
		list = []any{}
	}
	s.setVar(name, list)
}

// collapseKeep is one value or an array of several.
func collapseKeep(vals []any) any {
	if len(vals) == 1 {
		return vals[0]
	}
	return vals
}

var commonParams = map[string]bool{"ErrorAction": true, "ErrorVariable": true, "WarningAction": true, "Verbose": true, "Debug": true, "OutVariable": true, "InformationAction": true, "WarningVariable": true, "InformationVariable": true, "OutBuffer": true, "PipelineVariable": true}

// matchParam resolves -Name against the cmdlet's parameters: exact, else a
// unique prefix.
func matchParam(given string, all []string) (string, string) {
	var found []string
	for _, p := range all {
		if strings.EqualFold(p, given) {
			return p, ""
		}
		if len(given) <= len(p) && strings.EqualFold(p[:len(given)], given) {
			found = append(found, p)
		}
	}
	uniq := map[string]bool{}
	var list []string
	for _, f := range found {
		if !uniq[f] {
			uniq[f] = true
			list = append(list, f)
		}
	}
	if len(list) > 1 {
		// the cmdlet's own parameters win over the common ones (-V is
		// -Value, not -Verbose: upstream host_process.go:168)
		var own []string
		for _, f := range list {
			if !commonParams[f] {
				own = append(own, f)
			}
		}
		if len(own) == 1 {
			list = own
		}
	}
	switch len(list) {
	case 1:
		return list[0], ""
	case 0:
		return "", fmt.Sprintf("A parameter cannot be found that matches parameter name '%s'.", given)
	}
	return "", fmt.Sprintf("Parameter cannot be processed because the parameter name '%s' is ambiguous. Possible matches include: -%s.", given, strings.Join(list, " -"))
}

// cmdletError is a statement-terminating error of a cmdlet's invocation
// (a parameter binding error).
func (s *psShell) cmdletError(c *psCall, msg, category, target, reason, fq string, pos, end int) {
	class := "Microsoft.PowerShell.Commands." + strings.ReplaceAll(c.cmdlet.name, "-", "") + "Command"
	if c.cmdlet.class != "" {
		class = c.cmdlet.class
	}
	s.throwStmt(&psErrorRecord{msg: msg, cmd: c.cmdlet.name, category: category, target: target, reason: reason, fqid: fq + "," + class, pos: pos, end: end})
}

// ---- psCall helpers ----

func (c *psCall) has(name string) bool {
	v, ok := c.named[name]
	return ok && toBool(v)
}

func (c *psCall) str(name string) string {
	return toStr(c.named[name])
}

func (c *psCall) set(name string) bool {
	_, ok := c.named[name]
	return ok
}

// fail reports a non-terminating error of the cmdlet (-ErrorAction Stop
// makes it terminating, SilentlyContinue hides it: ps_errors.go).
func (c *psCall) fail(msg, category, target, reason, fq string) {
	class := "Microsoft.PowerShell.Commands." + strings.ReplaceAll(c.cmdlet.name, "-", "") + "Command"
	if c.cmdlet.class != "" {
		class = c.cmdlet.class
	}
	c.s.nonTerminating(&psErrorRecord{msg: msg, cmd: c.cmdlet.name, category: category, target: target, reason: reason, fqid: fq + "," + class, pos: c.node.Pos, end: c.node.End}, c)
}

// failRecord is a non-terminating error given as a record.
func (c *psCall) failRecord(rec *psErrorRecord) {
	rec.cmd, rec.pos, rec.end = c.cmdlet.name, c.node.Pos, c.node.End
	c.s.nonTerminating(rec, c)
}

// terminate is the cmdlet's ThrowTerminatingError: a statement-terminating
// error (Invoke-WebRequest's WebException).
func (c *psCall) terminate(rec *psErrorRecord) {
	rec.cmd, rec.pos, rec.end = c.cmdlet.name, c.node.Pos, c.node.End
	c.errs = append(c.errs, rec)
	c.s.throwStmt(rec)
}

// ---- cmdlets ----

func cmdletWriteOutput(c *psCall) {
	if v, ok := c.named["InputObject"]; ok {
		if c.has("NoEnumerate") {
			c.out(v)
			return
		}
		for _, x := range enumerate(v) {
			c.out(x)
		}
		return
	}
	passThrough(c)
}

// cmdletWriteHost writes to the console directly (the win-webserver script
// of fixtures/docs/win-webserver.yaml prints `Listening at http://*:80/`).
func cmdletWriteHost(c *psCall) {
	sep := " "
	if c.set("Separator") {
		sep = c.str("Separator")
	}
	var parts []string
	v, ok := c.named["Object"]
	if !ok && c.hasInput {
		v = c.input
	}
	for _, x := range enumerate(v) {
		parts = append(parts, toStr(x))
	}
	text := strings.Join(parts, sep)
	if !c.has("NoNewline") {
		text += c.s.p.NL
	}
	io.WriteString(c.s.p.Stdout, text)
}

// cmdletWriteError is Write-Error: a non-terminating error attributed to
// the function it runs in (at its call), else to the script file, else to
// the command line itself, without a position (Windows PowerShell 5.1).
func cmdletWriteError(c *psCall) {
	msg := joinValues(c.named["Message"], " ")
	cat := "NotSpecified"
	if c.set("Category") {
		cat = c.str("Category")
	}
	fq := "Microsoft.PowerShell.Commands.WriteErrorException"
	if c.set("ErrorId") {
		fq = c.str("ErrorId") + "," + fq
	}
	r := &psErrorRecord{msg: msg, cmd: "Write-Error", activity: "Write-Error", category: cat, target: ":", reason: "WriteErrorException", fqid: fq}
	s := c.s
	switch {
	case len(s.calls) > 0:
		f := s.calls[len(s.calls)-1]
		r.cmd, r.pos, r.end, r.src, r.file, r.stamped = f.name, f.pos, f.end, f.src, f.file, true
		r.fqid += "," + f.name
	case s.file != "":
		r.cmd, r.noPos, r.stamped = s.file, true, true
		r.fqid += "," + s.file[strings.LastIndexAny(s.file, `\/`)+1:]
	default:
		r.cmd, r.noPos, r.stamped = strings.TrimSpace(s.src), true, true
	}
	s.nonTerminating(r, c)
}

// cmdletStartSleep is Start-Sleep / sleep (upstream gmsa_kubelet.go:72 and
// host_process.go:648 `sleep -Seconds 600`).
func cmdletStartSleep(c *psCall) {
	var d time.Duration
	switch {
	case c.set("Seconds"):
		d = time.Duration(toFloat(c.named["Seconds"]) * float64(time.Second))
	case c.set("Milliseconds"):
		d = time.Duration(toInt(c.named["Milliseconds"])) * time.Millisecond
	default:
		c.s.cmdletError(c, "Parameter set cannot be resolved using the specified named parameters.", "InvalidArgument", "", "ParameterBindingException", "AmbiguousParameterSet", c.node.Pos, c.node.End)
		return
	}
	if d < 0 {
		d = 0
	}
	if !c.s.p.Sleep(d) {
		panic(psKilledSignal{})
	}
}

var dotnetDate = strings.NewReplacer("yyyy", "2006", "yy", "06", "MMMM", "January", "MMM", "Jan", "MM", "01", "dddd", "Monday", "ddd", "Mon", "dd", "02", "HH", "15", "hh", "03", "mm", "04", "ss", "05", "fff", "000", "tt", "PM", "zzz", "-07:00")

func cmdletGetDate(c *psCall) {
	t := c.s.p.Now()
	if c.set("Date") {
		switch d := c.named["Date"].(type) {
		case *psDate:
			t = d.t
		default:
			if pd, ok := parseDate(toStr(d)); ok {
				t = pd.t
			}
		}
	}
	if f := c.str("Format"); f != "" {
		c.out(formatDate(t, f))
		return
	}
	if f := c.str("UFormat"); f != "" {
		c.out(strings.NewReplacer("%Y", t.Format("2006"), "%m", t.Format("01"), "%d", t.Format("02"), "%H", t.Format("15"), "%M", t.Format("04"), "%S", t.Format("05"), "%s", fmt.Sprint(t.Unix())).Replace(f))
		return
	}
	c.out(&psDate{t})
}

func hashProps(h *psHash) []psProp {
	var out []psProp
	for _, k := range h.keys {
		v, _ := h.get(k)
		out = append(out, psProp{k, v})
	}
	return out
}

// cmdletNewObject creates the few .NET objects scripts use: HttpListener
// (the docs' win-webserver, row S5: GetContext blocks until the container
// stops), TcpClient (a connectivity test), WebClient, PSObject.
func cmdletNewObject(c *psCall) {
	s := c.s
	t := c.str("TypeName")
	lt := strings.ToLower(strings.TrimPrefix(strings.ToLower(t), "system."))
	args := enumerate(c.named["ArgumentList"])
	switch lt {
	case "net.httplistener":
		l := &psObject{typeName: "System.Net.HttpListener"}
		var prefixes []any
		pre := &psObject{typeName: "System.Net.HttpListenerPrefixCollection"}
		pre.methods = map[string]func([]any) any{"add": func(a []any) any {
			prefixes = append(prefixes, toStr(argAt(a, 0)))
			pre.set("Count", int64(len(prefixes)))
			return nil
		}}
		l.props = []psProp{{"Prefixes", pre}, {"IsListening", false}}
		l.methods = map[string]func([]any) any{
			"start":      func([]any) any { l.set("IsListening", true); return nil },
			"stop":       func([]any) any { l.set("IsListening", false); return nil },
			"close":      func([]any) any { l.set("IsListening", false); return nil },
			"getcontext": func([]any) any { s.p.Block(); panic(psKilledSignal{}) },
		}
		c.out(l)
	case "net.sockets.tcpclient":
		o := &psObject{typeName: "System.Net.Sockets.TcpClient", props: []psProp{{"Connected", false}}}
		connect := func(a []any) any {
			host, port := toStr(argAt(a, 0)), int(toInt(argAt(a, 1)))
			addrs, err := s.p.Resolve(host)
			addr, ok := process.Pick(addrs, 0)
			var msg string
			if err != nil || !ok {
				msg = "No such host is known"
			} else if err := s.p.Net().Dial(s.p.Ctx, "tcp", addr, port); err != nil {
				s.checkCtx()
				msg = fmt.Sprintf("No connection could be made because the target machine actively refused it %s:%d", addr, port)
				if errors.Is(err, process.ErrTimeout) || errors.Is(err, process.ErrUnreachable) {
					msg = fmt.Sprintf("A connection attempt failed because the connected party did not properly respond after a period of time, or established connection failed because connected host has failed to respond %s:%d", addr, port)
				}
			}
			if msg != "" {
				c.s.throwStmt(methodError("Connect", 2, msg, "SocketException"))
			}
			o.set("Connected", true)
			return nil
		}
		o.methods = map[string]func([]any) any{"connect": connect, "close": func([]any) any { o.set("Connected", false); return nil }, "dispose": func([]any) any { return nil }}
		if len(args) >= 2 {
			func() {
				defer func() {
					if r := recover(); r != nil {
						if t, ok := r.(psThrowSignal); ok {
							t.rec.msg = strings.Replace(t.rec.msg, "\"Connect\"", "\".ctor\"", 1)
							c.failRecord(&psErrorRecord{msg: t.rec.msg, category: "InvalidOperation", target: ":", reason: "MethodInvocationException", fqid: "ConstructorInvokedThrowException,Microsoft.PowerShell.Commands.NewObjectCommand"})
							o = nil
							return
						}
						panic(r)
					}
				}()
				connect(args)
			}()
		}
		if o != nil {
			c.out(o)
		}
	case "net.webclient":
		o := &psObject{typeName: "System.Net.WebClient"}
		o.methods = map[string]func([]any) any{"downloadstring": func(a []any) any {
			resp, err := s.p.Net().HTTP(s.p.Ctx, "GET", toStr(argAt(a, 0)), false)
			s.checkCtx()
			if err != nil || resp == nil || resp.Status >= 400 {
				status := 0
				if resp != nil && resp.Status >= 400 {
					status = resp.Status
				}
				msg := "Unable to connect to the remote server"
				if status > 0 {
					msg = fmt.Sprintf("The remote server returned an error: (%d) %s.", status, http.StatusText(status))
				}
				r := methodError("DownloadString", 1, msg, "WebException")
				r.status = status
				s.throwStmt(r)
			}
			return string(resp.Body)
		}}
		c.out(o)
	case "psobject", "object", "management.automation.psobject":
		o := &psObject{typeName: "System.Management.Automation.PSCustomObject", view: "list"}
		if h, ok := c.named["Property"].(*psHash); ok {
			o.props = hashProps(h)
		}
		c.out(o)
	case "collections.hashtable":
		c.out(newHash())
	case "collections.arraylist", "collections.generic.list[string]", "collections.generic.list[object]":
		c.out([]any{})
	default:
		c.failRecord(&psErrorRecord{msg: fmt.Sprintf("Cannot find type [%s]: verify that the assembly containing this type is loaded.", t), category: "InvalidType", target: ":", reason: "PSArgumentException", fqid: "TypeNotFound,Microsoft.PowerShell.Commands.NewObjectCommand"})
	}
}

func (s *psShell) runWithItem(sb *psScriptBlock, item any, out emitter) {
	save := s.vars["_"]
	s.vars["_"] = item
	s.vars["psitem"] = item
	defer func() { s.vars["_"] = save }()
	s.invokeBlock(sb.node, nil, nil, out)
}

func cmdletForEach(c *psCall) {
	blocks := enumerate(c.named["Process"])
	if b, ok := c.named["Begin"].(*psScriptBlock); ok {
		c.s.invokeBlock(b.node, nil, nil, c.out)
	}
	c.each(func(item any) {
		c.s.checkCtx()
		for _, b := range blocks {
			if sb, ok := b.(*psScriptBlock); ok {
				c.s.runWithItem(sb, item, c.out)
			} else if name := toStr(b); name != "" {
				c.out(c.s.memberOf(item, name, nil, false))
			}
		}
	})
	if b, ok := c.named["End"].(*psScriptBlock); ok {
		c.s.invokeBlock(b.node, nil, nil, c.out)
	}
}

// whereOps are Where-Object's comparison switches (its simplified syntax:
// Where-Object Status -eq Running).
var whereOps = []string{"EQ", "NE", "GT", "GE", "LT", "LE", "Like", "NotLike", "Match", "NotMatch", "Contains", "NotContains", "In", "NotIn", "Is", "IsNot",
	"CEQ", "CNE", "CGT", "CGE", "CLT", "CLE", "CLike", "CNotLike", "CMatch", "CNotMatch", "CContains", "CNotContains", "CIn", "CNotIn"}

func cmdletWhere(c *psCall) {
	sb, ok := c.named["FilterScript"].(*psScriptBlock)
	op := ""
	for _, w := range whereOps {
		if c.has(w) {
			op = strings.ToLower(w)
		}
	}
	prop := c.str("FilterScript")
	if c.set("Property") {
		prop = c.str("Property")
	}
	c.each(func(item any) {
		c.s.checkCtx()
		if !ok {
			v := c.s.memberOf(item, prop, nil, false)
			if op == "" && toBool(v) || op != "" && toBool(c.s.binary(op, v, c.named["Value"])) {
				c.out(item)
			}
			return
		}
		var vals []any
		c.s.runWithItem(sb, item, func(v any) {
			if _, f := v.(flushMarker); !f {
				vals = append(vals, v)
			}
		})
		if toBool(collapse(vals)) {
			c.out(item)
		}
	})
}

func cmdletSelect(c *psCall) {
	items := c.input
	if c.set("Skip") {
		n := int(toInt(c.named["Skip"]))
		if n > len(items) {
			n = len(items)
		}
		if n > 0 {
			items = items[n:]
		}
	}
	if c.set("First") {
		if n := int(toInt(c.named["First"])); n >= 0 && n < len(items) {
			items = items[:n]
		}
	}
	if c.set("Last") {
		if n := int(toInt(c.named["Last"])); n >= 0 && n < len(items) {
			items = items[len(items)-n:]
		}
	}
	if c.has("Unique") {
		seen := map[string]bool{}
		var u []any
		for _, it := range items {
			if !seen[toStr(it)] {
				seen[toStr(it)] = true
				u = append(u, it)
			}
		}
		items = u
	}
	if p := c.str("ExpandProperty"); p != "" {
		for _, it := range items {
			for _, v := range enumerate(c.s.memberOf(it, p, nil, false)) {
				c.out(v)
			}
		}
		return
	}
	props := enumerate(c.named["Property"])
	for _, it := range items {
		if len(props) == 0 {
			c.out(it)
			continue
		}
		o := &psObject{typeName: "Selected", view: "list"}
		for _, p := range props {
			if h, ok := p.(*psHash); ok {
				// a calculated property: @{Name=...; Expression={...}}
				name, expr := "", any(nil)
				for _, k := range []string{"Name", "N", "Label", "L"} {
					if v, ok := h.get(k); ok {
						name = toStr(v)
					}
				}
				for _, k := range []string{"Expression", "E"} {
					if v, ok := h.get(k); ok {
						expr = v
					}
				}
				var val any
				if sb, ok := expr.(*psScriptBlock); ok {
					var vals []any
					c.s.runWithItem(sb, it, func(x any) {
						if _, f := x.(flushMarker); !f {
							vals = append(vals, x)
						}
					})
					val = collapse(vals)
				} else {
					val = c.s.memberOf(it, toStr(expr), nil, false)
				}
				o.props = append(o.props, psProp{name, val})
				continue
			}
			o.props = append(o.props, psProp{toStr(p), c.s.memberOf(it, toStr(p), nil, false)})
		}
		if len(o.props) <= 4 {
			o.view, o.cols = "table", autoCols(o.props)
		}
		c.out(o)
	}
}

func cmdletSelectString(c *psCall) {
	pat := c.str("Pattern")
	if c.has("SimpleMatch") {
		pat = regexp.QuoteMeta(pat)
	}
	if !c.has("CaseSensitive") {
		pat = "(?i)" + pat
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		c.fail("The string "+c.str("Pattern")+" is not a valid regular expression.", "InvalidArgument", c.str("Pattern"), "ArgumentException", "InvalidRegex")
		return
	}
	lines := c.input
	if v, ok := c.named["InputObject"]; ok {
		lines = enumerate(v)
	}
	if c.set("Path") {
		data, err := c.s.p.ReadFile(c.str("Path"))
		if err != nil {
			full := c.s.p.Path(c.str("Path"))
			msg, cat, reason, fq := psFileError(err, full, false)
			c.fail(msg, cat, full, reason, fq)
			return
		}
		lines = toAnySlice(strings.Split(strings.ReplaceAll(DecodeText(data), "\r\n", "\n"), "\n"))
	}
	file, path := "InputStream", "InputStream"
	if c.set("Path") {
		path = c.s.p.Path(c.str("Path"))
		file = process.BaseName(path)
	}
	found := false
	for i, l := range lines {
		line := toStr(l)
		if re.MatchString(line) == c.has("NotMatch") {
			continue
		}
		found = true
		if c.has("Quiet") {
			continue
		}
		n := 1
		if c.has("AllMatches") {
			n = -1
		}
		var matches []any
		for _, m := range re.FindAllStringSubmatchIndex(line, n) {
			matches = append(matches, regexMatch(line, m))
		}
		str := line
		if path != "InputStream" {
			str = fmt.Sprintf("%s:%d:%s", path, i+1, line)
		}
		c.out(&psObject{typeName: "Microsoft.PowerShell.Commands.MatchInfo", str: str, props: []psProp{
			{"IgnoreCase", !c.has("CaseSensitive")}, {"LineNumber", int64(i + 1)}, {"Line", line}, {"Filename", file},
			{"Path", path}, {"Pattern", c.str("Pattern")}, {"Context", nil}, {"Matches", matches}}})
	}
	if c.has("Quiet") {
		c.out(found)
	}
}

// regexMatch is the System.Text.RegularExpressions.Match of the submatch
// indexes m in s: its Value, Index, Length, Success and Groups (0 the
// whole match).
// https://learn.microsoft.com/dotnet/api/system.text.regularexpressions.match
func regexMatch(s string, m []int) *psObject {
	var groups []any
	for g := 0; 2*g+1 < len(m); g++ {
		ok := m[2*g] >= 0
		val, idx := "", int64(0)
		if ok {
			val, idx = s[m[2*g]:m[2*g+1]], int64(m[2*g])
		}
		groups = append(groups, &psObject{typeName: "System.Text.RegularExpressions.Group", str: val,
			props: []psProp{{"Success", ok}, {"Name", strconv.Itoa(g)}, {"Index", idx}, {"Length", int64(len(val))}, {"Value", val}}})
	}
	whole := groups[0].(*psObject)
	return &psObject{typeName: "System.Text.RegularExpressions.Match", str: s[m[0]:m[1]],
		props: append([]psProp{{"Groups", groups}}, whole.props...)}
}

// cmdletSort is Sort-Object: numbers as numbers, text case-insensitively,
// by the first -Property if given; stable.
func cmdletSort(c *psCall) {
	items := append([]any{}, c.input...)
	key := func(v any) any {
		if p := enumerate(c.named["Property"]); len(p) > 0 {
			if sb, ok := p[0].(*psScriptBlock); ok {
				var vals []any
				c.s.runWithItem(sb, v, func(x any) {
					if _, f := x.(flushMarker); !f {
						vals = append(vals, x)
					}
				})
				return collapse(vals)
			}
			return c.s.memberOf(v, toStr(p[0]), nil, false)
		}
		return v
	}
	desc := c.has("Descending")
	sort.SliceStable(items, func(i, j int) bool {
		r := compareValues(key(items[i]), key(items[j]))
		if desc {
			return r > 0
		}
		return r < 0
	})
	var prev any
	for i, it := range items {
		if c.has("Unique") && i > 0 && compareValues(key(it), key(prev)) == 0 {
			continue
		}
		prev = it
		c.out(it)
	}
}

func cmdletFormatList(c *psCall) {
	if props := enumerate(c.named["Property"]); len(props) > 0 && !(len(props) == 1 && toStr(props[0]) == "*") {
		for _, v := range c.input {
			o := &psObject{typeName: "FormatList", view: "list"}
			for _, p := range props {
				o.props = append(o.props, psProp{toStr(p), c.s.memberOf(v, toStr(p), nil, false)})
			}
			c.out(o)
		}
		return
	}
	for _, v := range c.input {
		if o, ok := v.(*psObject); ok && len(o.props) > 0 {
			cp := *o
			cp.view = "list"
			c.out(&cp)
			continue
		}
		c.out(v)
	}
}

func cmdletGetCommand(c *psCall) {
	name := c.str("Name")
	cols := []psCol{{name: "CommandType", width: 16}, {name: "Name", width: 40}, {name: "Version", width: 11}, {name: "Source"}}
	if cl, ok := psCmdletIndex[strings.ToLower(name)]; ok {
		c.out(&psObject{typeName: "CommandInfo", view: "table", cols: cols, str: cl.name, props: []psProp{{"CommandType", "Cmdlet"}, {"Name", cl.name}, {"Version", "3.1.0.0"}, {"Source", "Microsoft.PowerShell.Utility"}}})
		return
	}
	if _, ok := c.s.p.Programs.Lookup(process.Windows, name); ok {
		exe := process.ProgramName(name, true) + ".exe"
		c.out(&psObject{typeName: "CommandInfo", view: "table", cols: cols, str: exe, props: []psProp{{"CommandType", "Application"}, {"Name", exe}, {"Version", "10.0.20348.1"}, {"Source", `C:\Windows\system32\` + exe}}})
		return
	}
	c.fail("The term '"+name+"' is not recognized as the name of a cmdlet, function, script file, or operable program. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.", "ObjectNotFound", name, "CommandNotFoundException", "CommandNotFoundException")
}

func cmdletGetHelp(c *psCall) {
	name := c.str("Name")
	if cl, ok := psCmdletIndex[strings.ToLower(name)]; ok {
		c.out("")
		c.out("NAME")
		c.out("    " + cl.name)
		c.out("")
		c.out("SYNOPSIS")
		c.out("    " + cl.help)
		return
	}
	for _, cl := range psCmdlets {
		c.out(fmt.Sprintf("%-24s %s", cl.name, cl.help))
	}
}

// Simulates reports whether name is a cmdlet (or its alias) that the shell
// simulates.
func Simulates(name string) bool { return psCmdletIndex[strings.ToLower(name)] != nil }

func (c *psCall) paths() []string {
	v := c.named["Path"]
	if lp, ok := c.named["LiteralPath"]; ok {
		v = lp
	}
	var out []string
	for _, x := range enumerate(v) {
		out = append(out, toStr(x))
	}
	return out
}
