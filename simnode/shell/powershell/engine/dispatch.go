package engine

import (
	"fmt"
	"io"
	"strings"
	"wink.dev/wink/simnode/shell/powershell/parser"
	"wink.dev/wink/simnode/shell/process"
)

// This file is PowerShell's command dispatch: functions, cmdlets (their
// parameter binding and common parameters), scripts and native programs.

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
func (s *Shell) expandSplats(el *parser.Node) *parser.Node {
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
		case *Hash:
			for _, k := range v.keys {
				x, _ := v.get(k)
				cp.Args = append(cp.Args, parser.Arg{Param: k, Colon: true, Value: &parser.Node{Kind: "lit", Val: x}, Pos: a.Pos, End: a.End})
			}
		default:
			for _, x := range Enumerate(v) {
				cp.Args = append(cp.Args, parser.Arg{Value: &parser.Node{Kind: "lit", Val: x}, Pos: a.Pos, End: a.End})
			}
		}
	}
	return &cp
}

func (s *Shell) runCommand(el *parser.Node, input []any, hasInput bool, out emitter) {
	el = s.expandSplats(el)
	nameNode := el.Kids[0]
	var target any
	if nameNode.Kind == "bare" {
		target = ToStr(s.eval(nameNode))
	} else {
		target = s.eval(nameNode)
	}
	if sb, ok := target.(*ScriptBlock); ok {
		// & { } runs in a child scope, . { } in the caller's (about_Scopes)
		args := s.evalArgs(el)
		if el.Op != "." {
			defer s.pushScope(false)()
		}
		s.invokeBlock(sb.Node, args, input, out)
		return
	}
	name := ToStr(target)
	lname := strings.ToLower(name)
	if fn, ok := s.LookupFunc(lname); ok {
		s.callFunction(fn, el, input, out)
		return
	}
	if c, ok := CmdletIndex[lname]; ok {
		s.InvokeCmdlet(c, el, input, hasInput, out)
		return
	}
	if process.IsScriptPath(name) {
		data, err := s.P.ReadFile(name)
		if err == nil {
			s.runScriptFile(name, DecodeText(data), el, out)
			return
		}
	}
	if c, ok := s.P.Programs.Lookup(process.Windows, name); ok {
		s.runNative(c, name, el, input, hasInput, out)
		return
	}
	if s.unsimulated(name, el) {
		return // open world (openworld.go)
	}
	s.commandNotFound(name, nameNode.Pos, nameNode.End)
}

// evalArgs evaluates arguments for functions, scripts and native programs.
func (s *Shell) evalArgs(el *parser.Node) []any {
	var args []any
	for _, a := range el.Args {
		if a.Param != "" {
			if a.Param == "--" {
				continue
			}
			if a.Colon {
				args = append(args, "-"+a.Param+":"+ToStr(s.eval(a.Value)))
			} else {
				args = append(args, "-"+a.Param)
			}
			continue
		}
		args = append(args, s.eval(a.Value))
	}
	return args
}

func (s *Shell) runNative(c *process.Command, name string, el *parser.Node, input []any, hasInput bool, out emitter) {
	argv := []string{name}
	for _, a := range s.evalArgs(el) {
		for _, v := range Enumerate(a) {
			argv = append(argv, ToStr(v))
		}
	}
	var stdin io.Reader
	if hasInput {
		stdin = strings.NewReader(FormatToString(input, "\r\n"))
	}
	lw := &lineWriter{emit: out}
	var errw io.Writer = s.Errw
	var elw *lineWriter
	if s.errToOut != nil {
		elw = &lineWriter{emit: s.errToOut}
		errw = elw
	}
	child := s.P.Sub(stdin, lw, errw)
	code := child.Exec(argv)
	lw.flush()
	if elw != nil {
		elw.flush()
	}
	s.P.LastExit, s.exitKnown = code, true
	if code != 0 {
		s.failed()
	}
	s.CheckCtx()
}

func (s *Shell) invokeBlock(block *parser.Node, args []any, input []any, out emitter) {
	if !s.P.Enter() {
		s.P.Leave()
		s.throwStmt(&ErrorRecord{Msg: "The script failed due to call depth overflow.", Category: "InvalidOperation", Target: ":", Reason: "ParentContainsErrorRecordException", Fqid: "CallDepthOverflow"})
	}
	defer s.P.Leave()
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
			k := strings.ToLower(ToStr(name.Kids[0].Val))
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
func (s *Shell) execBody(block []*parser.Node, input []any, filter bool, out emitter) {
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
			s.CheckCtx()
			s.vars["_"], s.vars["psitem"] = item, item
			for _, p := range pipeParams {
				s.SetIn(s.Scope, p, item, false)
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
func (s *Shell) splitArgs(params []parser.Param, el *parser.Node) (map[string]any, []any) {
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
				positional = append(positional, "-"+a.Param+":"+ToStr(s.eval(a.Value)))
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

func (s *Shell) callFunction(fn *parser.Node, el *parser.Node, input []any, out emitter) {
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
func (s *Shell) bindParams(params []parser.Param, named map[string]any, positional *[]any) {
	// $PSBoundParameters: the parameters given, not defaulted
	// (about_Automatic_Variables)
	bound := NewHash()
	for _, p := range params {
		k := strings.ToLower(p.Name)
		var v any
		switch named, ok := named[k]; {
		case ok:
			v = named
			bound.Set(p.Name, v)
		case !p.IsSwitch && len(*positional) > 0:
			v = (*positional)[0]
			*positional = (*positional)[1:]
			bound.Set(p.Name, v)
		case p.Def != nil:
			v = s.eval(p.Def)
		case p.IsSwitch:
			v = false
		}
		s.SetIn(s.Scope, k, v, false)
	}
	s.vars["psboundparameters"] = bound
}

// runScriptFile runs a .ps1 (upstream host_process.go:825 runs
// `powershell.exe ./etc/configmap/validationscript.ps1`).
func (s *Shell) runScriptFile(name, text string, el *parser.Node, out emitter) {
	dot := el.Op == "."
	block, perr := parser.ParseScript(text)
	saveSrc, saveFile := s.src, s.file
	s.src, s.file = text, s.P.Path(name)
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
			s.P.LastExit, s.exitKnown = sig.code, true
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

// InvokeCmdlet binds parameters by name (unique prefixes, as PowerShell
// allows: -V is -Value), then by position, and runs the cmdlet.
func (s *Shell) InvokeCmdlet(c *Cmdlet, el *parser.Node, input []any, hasInput bool, out emitter) {
	call := &Call{S: s, Cmdlet: c, Node: el, Named: map[string]any{}, Input: input, hasInput: hasInput, Out: out, stream: s.streamIn}
	s.streamIn = nil
	all := append(append(append([]string{}, c.Switches...), c.Params...), "ErrorAction", "ErrorVariable", "WarningAction", "Verbose", "Debug", "OutVariable", "InformationAction", "WarningVariable", "InformationVariable", "OutBuffer", "PipelineVariable")
	for _, p := range c.Positional {
		all = append(all, strings.TrimSuffix(p, "*"))
	}
	isSwitch := func(n string) bool {
		for _, sw := range c.Switches {
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
			call.Named[name] = s.eval(a.Value)
		case isSwitch(name):
			call.Named[name] = true
		case i+1 < len(el.Args) && el.Args[i+1].Param == "":
			i++
			argNode[name] = el.Args[i].Value
			call.Named[name] = s.eval(el.Args[i].Value)
		default:
			s.cmdletError(call, fmt.Sprintf("Missing an argument for parameter '%s'. Specify a parameter of type 'System.String' and try again.", name),
				"InvalidArgument", "", "ParameterBindingException", "MissingArgument", a.Pos, a.End)
			return
		}
	}
	for _, p := range c.Positional {
		name := strings.TrimSuffix(p, "*")
		if _, set := call.Named[name]; set {
			continue
		}
		if len(positional) == 0 {
			break
		}
		if strings.HasSuffix(p, "*") {
			call.Named[name] = collapseKeep(positional)
			positional = nil
			break
		}
		call.Named[name] = positional[0]
		argNode[name] = posNodes[0]
		positional, posNodes = positional[1:], posNodes[1:]
	}
	if len(positional) > 0 {
		s.cmdletError(call, fmt.Sprintf("A positional parameter cannot be found that accepts argument '%s'.", ToStr(positional[0])),
			"InvalidArgument", "", "ParameterBindingException", "PositionalParameterNotFound", el.Pos, el.End)
		return
	}
	for _, p := range notNullParams[strings.ToLower(c.Name)] {
		if v, set := call.Named[p]; set && (v == nil || v == "") {
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
	if ev := strings.TrimPrefix(call.Str("ErrorVariable"), "+"); ev != "" {
		defer s.setErrorVariable(call, ev, strings.HasPrefix(call.Str("ErrorVariable"), "+"))
	}
	c.Run(call)
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
func (s *Shell) setErrorVariable(c *Call, name string, appendTo bool) {
	var list []any
	if appendTo {
		list = Enumerate(s.GetVar(name))
	}
	for _, r := range c.errs {
		list = append(list, s.errorObject(r))
	}
	if list == nil {
		list = []any{}
	}
	s.SetVar(name, list)
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
func (s *Shell) cmdletError(c *Call, msg, category, target, reason, fq string, pos, end int) {
	class := "Microsoft.PowerShell.Commands." + strings.ReplaceAll(c.Cmdlet.Name, "-", "") + "Command"
	if c.Cmdlet.Class != "" {
		class = c.Cmdlet.Class
	}
	s.throwStmt(&ErrorRecord{Msg: msg, cmd: c.Cmdlet.Name, Category: category, Target: target, Reason: reason, Fqid: fq + "," + class, pos: pos, end: end})
}

// ---- psCall helpers ----

func (c *Call) Has(name string) bool {
	v, ok := c.Named[name]
	return ok && ToBool(v)
}

func (c *Call) Str(name string) string {
	return ToStr(c.Named[name])
}

func (c *Call) Set(name string) bool {
	_, ok := c.Named[name]
	return ok
}

// Fail reports a non-terminating error of the cmdlet (-ErrorAction Stop
// makes it terminating, SilentlyContinue hides it: errors.go).
func (c *Call) Fail(msg, category, target, reason, fq string) {
	class := "Microsoft.PowerShell.Commands." + strings.ReplaceAll(c.Cmdlet.Name, "-", "") + "Command"
	if c.Cmdlet.Class != "" {
		class = c.Cmdlet.Class
	}
	c.S.nonTerminating(&ErrorRecord{Msg: msg, cmd: c.Cmdlet.Name, Category: category, Target: target, Reason: reason, Fqid: fq + "," + class, pos: c.Node.Pos, end: c.Node.End}, c)
}

// failRecord is a non-terminating error given as a record.
func (c *Call) failRecord(rec *ErrorRecord) {
	rec.cmd, rec.pos, rec.end = c.Cmdlet.Name, c.Node.Pos, c.Node.End
	c.S.nonTerminating(rec, c)
}

// Terminate is the cmdlet's ThrowTerminatingError: a statement-terminating
// error (Invoke-WebRequest's WebException).
func (c *Call) Terminate(rec *ErrorRecord) {
	rec.cmd, rec.pos, rec.end = c.Cmdlet.Name, c.Node.Pos, c.Node.End
	c.errs = append(c.errs, rec)
	c.S.throwStmt(rec)
}
