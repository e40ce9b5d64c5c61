package engine

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

// This file is the cmdlet table and the cmdlets of the pipeline itself:
// Write-Output/-Host/-Error, Where-, ForEach-, Select-, Sort- and
// Measure-Object, Select-String, the Out- and Format- cmdlets, New-Object,
// Get-Date, Start-Sleep, Get-Command and Get-Help. The other cmdlets are
// package powershell's, a file per noun family.

// Cmdlet is one row of the cmdlet table.
type Cmdlet struct {
	Name    string
	Aliases []string
	Help    string
	Rows    string
	// Positional parameter names in position order; the last one named
	// "*" soaks up the remaining positional values.
	Positional []string
	Switches   []string
	Params     []string
	// Class overrides the FullyQualifiedErrorId's command class.
	Class string
	Run   func(c *Call)
}

// Call is one invocation of a cmdlet.
type Call struct {
	S        *Shell
	Cmdlet   *Cmdlet
	Node     *parser.Node
	Named    map[string]any
	extra    []any
	Input    []any
	hasInput bool
	Out      emitter
	// errs are the errors the call wrote (-ErrorVariable).
	errs []*ErrorRecord
	// stream is a range streamed in as input (range.go).
	stream *psRange
}

// each runs f on each input object: the input, or a streamed range one
// number at a time.
func (c *Call) each(f func(item any)) {
	if c.stream != nil {
		for i := int64(0); i < c.stream.count(); i++ {
			f(c.stream.at(i))
		}
		return
	}
	for _, item := range c.Input {
		f(item)
	}
}

// Cmdlets is the cmdlet table (filled in init: some cmdlets run scripts).
var Cmdlets []*Cmdlet

func init() {
	Cmdlets = []*Cmdlet{
		{Name: "Write-Output", Aliases: []string{"echo", "write"}, Help: "Sends objects to the pipeline.", Rows: "E", Positional: []string{"InputObject*"}, Switches: []string{"NoEnumerate"}, Run: cmdletWriteOutput},
		{Name: "Write-Host", Help: "Writes to the host (the container log).", Rows: "E, S5", Positional: []string{"Object*"}, Switches: []string{"NoNewline"}, Params: []string{"Separator", "ForegroundColor", "BackgroundColor"}, Run: cmdletWriteHost},
		{Name: "Write-Error", Help: "Writes a non-terminating error.", Positional: []string{"Message*"}, Params: []string{"Category", "ErrorId"}, Run: cmdletWriteError},
		{Name: "Get-Location", Aliases: []string{"pwd", "gl"}, Help: "Gets the current directory.", Run: func(c *Call) { c.Out(c.S.GetVar("pwd")) }},
		{Name: "Start-Sleep", Aliases: []string{"sleep"}, Help: "Waits (env.Sleep: a fake clock in tests).", Rows: "E", Positional: []string{"Seconds"}, Params: []string{"Milliseconds", "Duration"}, Run: cmdletStartSleep},
		{Name: "Get-Date", Help: "Gets the date.", Positional: []string{"Date"}, Params: []string{"Format", "UFormat"}, Run: cmdletGetDate},
		{Name: "New-Object", Help: "Creates a .NET object (HttpListener, TcpClient, WebClient, PSObject).", Rows: "S5", Positional: []string{"TypeName", "ArgumentList*"}, Params: []string{"Property", "ComObject"}, Run: cmdletNewObject},
		{Name: "ForEach-Object", Aliases: []string{"%", "foreach"}, Help: "Runs a script block for each input.", Positional: []string{"Process*"}, Params: []string{"Begin", "End", "MemberName"}, Run: cmdletForEach},
		{Name: "Where-Object", Aliases: []string{"?", "where"}, Help: "Filters input.", Positional: []string{"FilterScript", "Value"}, Params: []string{"InputObject", "Property"}, Switches: whereOps, Run: cmdletWhere},
		{Name: "Select-Object", Aliases: []string{"select"}, Help: "Selects objects or properties.", Positional: []string{"Property*"}, Params: []string{"First", "Last", "Skip", "ExpandProperty", "Index"}, Switches: []string{"Unique"}, Run: cmdletSelect},
		{Name: "Select-String", Aliases: []string{"sls"}, Help: "Finds text.", Positional: []string{"Pattern", "Path"}, Params: []string{"InputObject", "Context"}, Switches: []string{"SimpleMatch", "CaseSensitive", "NotMatch", "Quiet", "List", "AllMatches"}, Run: cmdletSelectString},
		{Name: "Sort-Object", Aliases: []string{"sort"}, Help: "Sorts input.", Positional: []string{"Property*"}, Switches: []string{"Descending", "Unique"}, Run: cmdletSort},
		{Name: "Measure-Object", Aliases: []string{"measure"}, Help: "Counts input.", Positional: []string{"Property"}, Switches: []string{"Sum", "Average", "Line", "Word", "Character"}, Run: func(c *Call) {
			c.Out(&Object{TypeName: "Microsoft.PowerShell.Commands.GenericMeasureInfo", View: "list", Props: []Prop{{"Count", int64(len(c.Input))}, {"Average", nil}, {"Sum", nil}, {"Maximum", nil}, {"Minimum", nil}, {"Property", nil}}})
		}},
		{Name: "Out-Null", Help: "Discards output.", Run: func(*Call) {}},
		{Name: "Out-String", Help: "Formats output as one string.", Switches: []string{"Stream"}, Params: []string{"InputObject", "Width"}, Run: func(c *Call) {
			c.Out(FormatToString(c.Input, c.S.P.NL))
		}},
		{Name: "Out-Host", Aliases: []string{"oh"}, Help: "Writes to the console.", Run: passThrough},
		{Name: "Out-Default", Help: "Writes to the console.", Run: passThrough},
		{Name: "Format-Table", Aliases: []string{"ft"}, Help: "Formats as a table.", Positional: []string{"Property*"}, Switches: []string{"AutoSize", "HideTableHeaders", "Wrap"}, Run: passThrough},
		{Name: "Format-List", Aliases: []string{"fl"}, Help: "Formats as a list.", Positional: []string{"Property*"}, Run: cmdletFormatList},
		{Name: "Clear-Host", Aliases: []string{"cls", "clear"}, Help: "Clears the screen.", Run: func(*Call) {}},
		{Name: "Join-Path", Help: "Joins path parts.", Positional: []string{"Path", "ChildPath"}, Run: func(c *Call) {
			c.Out(strings.TrimRight(c.Str("Path"), `\/`) + `\` + strings.TrimLeft(c.Str("ChildPath"), `\/`))
		}},
		{Name: "Split-Path", Help: "Splits a path.", Positional: []string{"Path"}, Switches: []string{"Leaf", "Parent", "Qualifier", "NoQualifier"}, Run: func(c *Call) {
			p := strings.ReplaceAll(c.Str("Path"), "/", `\`)
			i := strings.LastIndex(p, `\`)
			if c.Has("Leaf") {
				c.Out(p[i+1:])
			} else if i >= 0 {
				c.Out(p[:i])
			} else {
				c.Out("")
			}
		}},
		{Name: "Invoke-Expression", Aliases: []string{"iex"}, Help: "Runs a string as a script.", Positional: []string{"Command"}, Run: func(c *Call) {
			block, perr := parser.ParseScript(c.Str("Command"))
			if perr != nil {
				c.S.printParseError(perr)
				c.S.failed()
				return
			}
			c.S.execBlock(block, c.Out)
		}},
		{Name: "Get-Command", Aliases: []string{"gcm"}, Help: "Finds commands.", Positional: []string{"Name"}, Run: cmdletGetCommand},
		{Name: "Get-Help", Aliases: []string{"help", "man"}, Help: "Describes commands.", Positional: []string{"Name"}, Run: cmdletGetHelp},
	}
}

var CmdletIndex = map[string]*Cmdlet{}

func init() {
	for _, c := range Cmdlets {
		CmdletIndex[strings.ToLower(c.Name)] = c
		for _, a := range c.Aliases {
			CmdletIndex[strings.ToLower(a)] = c
		}
	}
}

func passThrough(c *Call) {
	for _, v := range c.Input {
		c.Out(v)
	}
}

// ---- cmdlets ----

func cmdletWriteOutput(c *Call) {
	if v, ok := c.Named["InputObject"]; ok {
		if c.Has("NoEnumerate") {
			c.Out(v)
			return
		}
		for _, x := range Enumerate(v) {
			c.Out(x)
		}
		return
	}
	passThrough(c)
}

// cmdletWriteHost writes to the console directly (the win-webserver script
// of fixtures/docs/win-webserver.yaml prints `Listening at http://*:80/`).
func cmdletWriteHost(c *Call) {
	sep := " "
	if c.Set("Separator") {
		sep = c.Str("Separator")
	}
	var parts []string
	v, ok := c.Named["Object"]
	if !ok && c.hasInput {
		v = c.Input
	}
	for _, x := range Enumerate(v) {
		parts = append(parts, ToStr(x))
	}
	text := strings.Join(parts, sep)
	if !c.Has("NoNewline") {
		text += c.S.P.NL
	}
	io.WriteString(c.S.P.Stdout, text)
}

// cmdletWriteError is Write-Error: a non-terminating error attributed to
// the function it runs in (at its call), else to the script file, else to
// the command line itself, without a position (Windows PowerShell 5.1).
func cmdletWriteError(c *Call) {
	msg := JoinValues(c.Named["Message"], " ")
	cat := "NotSpecified"
	if c.Set("Category") {
		cat = c.Str("Category")
	}
	fq := "Microsoft.PowerShell.Commands.WriteErrorException"
	if c.Set("ErrorId") {
		fq = c.Str("ErrorId") + "," + fq
	}
	r := &ErrorRecord{Msg: msg, cmd: "Write-Error", activity: "Write-Error", Category: cat, Target: ":", Reason: "WriteErrorException", Fqid: fq}
	s := c.S
	switch {
	case len(s.calls) > 0:
		f := s.calls[len(s.calls)-1]
		r.cmd, r.pos, r.end, r.src, r.file, r.stamped = f.name, f.pos, f.end, f.src, f.file, true
		r.Fqid += "," + f.name
	case s.file != "":
		r.cmd, r.noPos, r.stamped = s.file, true, true
		r.Fqid += "," + s.file[strings.LastIndexAny(s.file, `\/`)+1:]
	default:
		r.cmd, r.noPos, r.stamped = strings.TrimSpace(s.src), true, true
	}
	s.nonTerminating(r, c)
}

// cmdletStartSleep is Start-Sleep / sleep (upstream gmsa_kubelet.go:72 and
// host_process.go:648 `sleep -Seconds 600`).
func cmdletStartSleep(c *Call) {
	var d time.Duration
	switch {
	case c.Set("Seconds"):
		d = time.Duration(ToFloat(c.Named["Seconds"]) * float64(time.Second))
	case c.Set("Milliseconds"):
		d = time.Duration(ToInt(c.Named["Milliseconds"])) * time.Millisecond
	default:
		c.S.cmdletError(c, "Parameter set cannot be resolved using the specified named parameters.", "InvalidArgument", "", "ParameterBindingException", "AmbiguousParameterSet", c.Node.Pos, c.Node.End)
		return
	}
	if d < 0 {
		d = 0
	}
	if !c.S.P.Sleep(d) {
		panic(KilledSignal{})
	}
}

var dotnetDate = strings.NewReplacer("yyyy", "2006", "yy", "06", "MMMM", "January", "MMM", "Jan", "MM", "01", "dddd", "Monday", "ddd", "Mon", "dd", "02", "HH", "15", "hh", "03", "mm", "04", "ss", "05", "fff", "000", "tt", "PM", "zzz", "-07:00")

func cmdletGetDate(c *Call) {
	t := c.S.P.Now()
	if c.Set("Date") {
		switch d := c.Named["Date"].(type) {
		case *Date:
			t = d.T
		default:
			if pd, ok := parseDate(ToStr(d)); ok {
				t = pd.T
			}
		}
	}
	if f := c.Str("Format"); f != "" {
		c.Out(formatDate(t, f))
		return
	}
	if f := c.Str("UFormat"); f != "" {
		c.Out(strings.NewReplacer("%Y", t.Format("2006"), "%m", t.Format("01"), "%d", t.Format("02"), "%H", t.Format("15"), "%M", t.Format("04"), "%S", t.Format("05"), "%s", fmt.Sprint(t.Unix())).Replace(f))
		return
	}
	c.Out(&Date{t})
}

func HashProps(h *Hash) []Prop {
	var out []Prop
	for _, k := range h.keys {
		v, _ := h.get(k)
		out = append(out, Prop{k, v})
	}
	return out
}

// cmdletNewObject creates the few .NET objects scripts use: HttpListener
// (the docs' win-webserver, row S5: GetContext blocks until the container
// stops), TcpClient (a connectivity test), WebClient, PSObject.
func cmdletNewObject(c *Call) {
	s := c.S
	t := c.Str("TypeName")
	lt := strings.ToLower(strings.TrimPrefix(strings.ToLower(t), "system."))
	args := Enumerate(c.Named["ArgumentList"])
	switch lt {
	case "net.httplistener":
		l := &Object{TypeName: "System.Net.HttpListener"}
		var prefixes []any
		pre := &Object{TypeName: "System.Net.HttpListenerPrefixCollection"}
		pre.Methods = map[string]func([]any) any{"add": func(a []any) any {
			prefixes = append(prefixes, ToStr(ArgAt(a, 0)))
			pre.set("Count", int64(len(prefixes)))
			return nil
		}}
		l.Props = []Prop{{"Prefixes", pre}, {"IsListening", false}}
		l.Methods = map[string]func([]any) any{
			"start":      func([]any) any { l.set("IsListening", true); return nil },
			"stop":       func([]any) any { l.set("IsListening", false); return nil },
			"close":      func([]any) any { l.set("IsListening", false); return nil },
			"getcontext": func([]any) any { s.P.Block(); panic(KilledSignal{}) },
		}
		c.Out(l)
	case "net.sockets.tcpclient":
		o := &Object{TypeName: "System.Net.Sockets.TcpClient", Props: []Prop{{"Connected", false}}}
		connect := func(a []any) any {
			host, port := ToStr(ArgAt(a, 0)), int(ToInt(ArgAt(a, 1)))
			addrs, err := s.P.Resolve(host)
			addr, ok := process.Pick(addrs, 0)
			var msg string
			if err != nil || !ok {
				msg = "No such host is known"
			} else if err := s.P.Net().Dial(s.P.Ctx, "tcp", addr, port); err != nil {
				s.CheckCtx()
				msg = fmt.Sprintf("No connection could be made because the target machine actively refused it %s:%d", addr, port)
				if errors.Is(err, process.ErrTimeout) || errors.Is(err, process.ErrUnreachable) {
					msg = fmt.Sprintf("A connection attempt failed because the connected party did not properly respond after a period of time, or established connection failed because connected host has failed to respond %s:%d", addr, port)
				}
			}
			if msg != "" {
				c.S.throwStmt(methodError("Connect", 2, msg, "SocketException"))
			}
			o.set("Connected", true)
			return nil
		}
		o.Methods = map[string]func([]any) any{"connect": connect, "close": func([]any) any { o.set("Connected", false); return nil }, "dispose": func([]any) any { return nil }}
		if len(args) >= 2 {
			func() {
				defer func() {
					if r := recover(); r != nil {
						if t, ok := r.(psThrowSignal); ok {
							t.rec.Msg = strings.Replace(t.rec.Msg, "\"Connect\"", "\".ctor\"", 1)
							c.failRecord(&ErrorRecord{Msg: t.rec.Msg, Category: "InvalidOperation", Target: ":", Reason: "MethodInvocationException", Fqid: "ConstructorInvokedThrowException,Microsoft.PowerShell.Commands.NewObjectCommand"})
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
			c.Out(o)
		}
	case "net.webclient":
		o := &Object{TypeName: "System.Net.WebClient"}
		o.Methods = map[string]func([]any) any{"downloadstring": func(a []any) any {
			resp, err := s.P.Net().HTTP(s.P.Ctx, "GET", ToStr(ArgAt(a, 0)), false)
			s.CheckCtx()
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
				r.Status = status
				s.throwStmt(r)
			}
			return string(resp.Body)
		}}
		c.Out(o)
	case "psobject", "object", "management.automation.psobject":
		o := &Object{TypeName: "System.Management.Automation.PSCustomObject", View: "list"}
		if h, ok := c.Named["Property"].(*Hash); ok {
			o.Props = HashProps(h)
		}
		c.Out(o)
	case "collections.hashtable":
		c.Out(NewHash())
	case "collections.arraylist", "collections.generic.list[string]", "collections.generic.list[object]":
		c.Out([]any{})
	default:
		c.failRecord(&ErrorRecord{Msg: fmt.Sprintf("Cannot find type [%s]: verify that the assembly containing this type is loaded.", t), Category: "InvalidType", Target: ":", Reason: "PSArgumentException", Fqid: "TypeNotFound,Microsoft.PowerShell.Commands.NewObjectCommand"})
	}
}

func (s *Shell) runWithItem(sb *ScriptBlock, item any, out emitter) {
	save := s.vars["_"]
	s.vars["_"] = item
	s.vars["psitem"] = item
	defer func() { s.vars["_"] = save }()
	s.invokeBlock(sb.Node, nil, nil, out)
}

func cmdletForEach(c *Call) {
	blocks := Enumerate(c.Named["Process"])
	if b, ok := c.Named["Begin"].(*ScriptBlock); ok {
		c.S.invokeBlock(b.Node, nil, nil, c.Out)
	}
	c.each(func(item any) {
		c.S.CheckCtx()
		for _, b := range blocks {
			if sb, ok := b.(*ScriptBlock); ok {
				c.S.runWithItem(sb, item, c.Out)
			} else if name := ToStr(b); name != "" {
				c.Out(c.S.MemberOf(item, name, nil, false))
			}
		}
	})
	if b, ok := c.Named["End"].(*ScriptBlock); ok {
		c.S.invokeBlock(b.Node, nil, nil, c.Out)
	}
}

// whereOps are Where-Object's comparison switches (its simplified syntax:
// Where-Object Status -eq Running).
var whereOps = []string{"EQ", "NE", "GT", "GE", "LT", "LE", "Like", "NotLike", "Match", "NotMatch", "Contains", "NotContains", "In", "NotIn", "Is", "IsNot",
	"CEQ", "CNE", "CGT", "CGE", "CLT", "CLE", "CLike", "CNotLike", "CMatch", "CNotMatch", "CContains", "CNotContains", "CIn", "CNotIn"}

func cmdletWhere(c *Call) {
	sb, ok := c.Named["FilterScript"].(*ScriptBlock)
	op := ""
	for _, w := range whereOps {
		if c.Has(w) {
			op = strings.ToLower(w)
		}
	}
	prop := c.Str("FilterScript")
	if c.Set("Property") {
		prop = c.Str("Property")
	}
	c.each(func(item any) {
		c.S.CheckCtx()
		if !ok {
			v := c.S.MemberOf(item, prop, nil, false)
			if op == "" && ToBool(v) || op != "" && ToBool(c.S.binary(op, v, c.Named["Value"])) {
				c.Out(item)
			}
			return
		}
		var vals []any
		c.S.runWithItem(sb, item, func(v any) {
			if _, f := v.(flushMarker); !f {
				vals = append(vals, v)
			}
		})
		if ToBool(Collapse(vals)) {
			c.Out(item)
		}
	})
}

func cmdletSelect(c *Call) {
	items := c.Input
	if c.Set("Skip") {
		n := int(ToInt(c.Named["Skip"]))
		if n > len(items) {
			n = len(items)
		}
		if n > 0 {
			items = items[n:]
		}
	}
	if c.Set("First") {
		if n := int(ToInt(c.Named["First"])); n >= 0 && n < len(items) {
			items = items[:n]
		}
	}
	if c.Set("Last") {
		if n := int(ToInt(c.Named["Last"])); n >= 0 && n < len(items) {
			items = items[len(items)-n:]
		}
	}
	if c.Has("Unique") {
		seen := map[string]bool{}
		var u []any
		for _, it := range items {
			if !seen[ToStr(it)] {
				seen[ToStr(it)] = true
				u = append(u, it)
			}
		}
		items = u
	}
	if p := c.Str("ExpandProperty"); p != "" {
		for _, it := range items {
			for _, v := range Enumerate(c.S.MemberOf(it, p, nil, false)) {
				c.Out(v)
			}
		}
		return
	}
	props := Enumerate(c.Named["Property"])
	for _, it := range items {
		if len(props) == 0 {
			c.Out(it)
			continue
		}
		o := &Object{TypeName: "Selected", View: "list"}
		for _, p := range props {
			if h, ok := p.(*Hash); ok {
				// a calculated property: @{Name=...; Expression={...}}
				name, expr := "", any(nil)
				for _, k := range []string{"Name", "N", "Label", "L"} {
					if v, ok := h.get(k); ok {
						name = ToStr(v)
					}
				}
				for _, k := range []string{"Expression", "E"} {
					if v, ok := h.get(k); ok {
						expr = v
					}
				}
				var val any
				if sb, ok := expr.(*ScriptBlock); ok {
					var vals []any
					c.S.runWithItem(sb, it, func(x any) {
						if _, f := x.(flushMarker); !f {
							vals = append(vals, x)
						}
					})
					val = Collapse(vals)
				} else {
					val = c.S.MemberOf(it, ToStr(expr), nil, false)
				}
				o.Props = append(o.Props, Prop{name, val})
				continue
			}
			o.Props = append(o.Props, Prop{ToStr(p), c.S.MemberOf(it, ToStr(p), nil, false)})
		}
		if len(o.Props) <= 4 {
			o.View, o.Cols = "table", AutoCols(o.Props)
		}
		c.Out(o)
	}
}

func cmdletSelectString(c *Call) {
	pat := c.Str("Pattern")
	if c.Has("SimpleMatch") {
		pat = regexp.QuoteMeta(pat)
	}
	if !c.Has("CaseSensitive") {
		pat = "(?i)" + pat
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		c.Fail("The string "+c.Str("Pattern")+" is not a valid regular expression.", "InvalidArgument", c.Str("Pattern"), "ArgumentException", "InvalidRegex")
		return
	}
	lines := c.Input
	if v, ok := c.Named["InputObject"]; ok {
		lines = Enumerate(v)
	}
	if c.Set("Path") {
		data, err := c.S.P.ReadFile(c.Str("Path"))
		if err != nil {
			full := c.S.P.Path(c.Str("Path"))
			msg, cat, reason, fq := FileError(err, full, false)
			c.Fail(msg, cat, full, reason, fq)
			return
		}
		lines = toAnySlice(strings.Split(strings.ReplaceAll(DecodeText(data), "\r\n", "\n"), "\n"))
	}
	file, path := "InputStream", "InputStream"
	if c.Set("Path") {
		path = c.S.P.Path(c.Str("Path"))
		file = process.BaseName(path)
	}
	found := false
	for i, l := range lines {
		line := ToStr(l)
		if re.MatchString(line) == c.Has("NotMatch") {
			continue
		}
		found = true
		if c.Has("Quiet") {
			continue
		}
		n := 1
		if c.Has("AllMatches") {
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
		c.Out(&Object{TypeName: "Microsoft.PowerShell.Commands.MatchInfo", Str: str, Props: []Prop{
			{"IgnoreCase", !c.Has("CaseSensitive")}, {"LineNumber", int64(i + 1)}, {"Line", line}, {"Filename", file},
			{"Path", path}, {"Pattern", c.Str("Pattern")}, {"Context", nil}, {"Matches", matches}}})
	}
	if c.Has("Quiet") {
		c.Out(found)
	}
}

// regexMatch is the System.Text.RegularExpressions.Match of the submatch
// indexes m in s: its Value, Index, Length, Success and Groups (0 the
// whole match).
// https://learn.microsoft.com/dotnet/api/system.text.regularexpressions.match
func regexMatch(s string, m []int) *Object {
	var groups []any
	for g := 0; 2*g+1 < len(m); g++ {
		ok := m[2*g] >= 0
		val, idx := "", int64(0)
		if ok {
			val, idx = s[m[2*g]:m[2*g+1]], int64(m[2*g])
		}
		groups = append(groups, &Object{TypeName: "System.Text.RegularExpressions.Group", Str: val,
			Props: []Prop{{"Success", ok}, {"Name", strconv.Itoa(g)}, {"Index", idx}, {"Length", int64(len(val))}, {"Value", val}}})
	}
	whole := groups[0].(*Object)
	return &Object{TypeName: "System.Text.RegularExpressions.Match", Str: s[m[0]:m[1]],
		Props: append([]Prop{{"Groups", groups}}, whole.Props...)}
}

// cmdletSort is Sort-Object: numbers as numbers, text case-insensitively,
// by the first -Property if given; stable.
func cmdletSort(c *Call) {
	items := append([]any{}, c.Input...)
	key := func(v any) any {
		if p := Enumerate(c.Named["Property"]); len(p) > 0 {
			if sb, ok := p[0].(*ScriptBlock); ok {
				var vals []any
				c.S.runWithItem(sb, v, func(x any) {
					if _, f := x.(flushMarker); !f {
						vals = append(vals, x)
					}
				})
				return Collapse(vals)
			}
			return c.S.MemberOf(v, ToStr(p[0]), nil, false)
		}
		return v
	}
	desc := c.Has("Descending")
	sort.SliceStable(items, func(i, j int) bool {
		r := CompareValues(key(items[i]), key(items[j]))
		if desc {
			return r > 0
		}
		return r < 0
	})
	var prev any
	for i, it := range items {
		if c.Has("Unique") && i > 0 && CompareValues(key(it), key(prev)) == 0 {
			continue
		}
		prev = it
		c.Out(it)
	}
}

func cmdletFormatList(c *Call) {
	if props := Enumerate(c.Named["Property"]); len(props) > 0 && !(len(props) == 1 && ToStr(props[0]) == "*") {
		for _, v := range c.Input {
			o := &Object{TypeName: "FormatList", View: "list"}
			for _, p := range props {
				o.Props = append(o.Props, Prop{ToStr(p), c.S.MemberOf(v, ToStr(p), nil, false)})
			}
			c.Out(o)
		}
		return
	}
	for _, v := range c.Input {
		if o, ok := v.(*Object); ok && len(o.Props) > 0 {
			cp := *o
			cp.View = "list"
			c.Out(&cp)
			continue
		}
		c.Out(v)
	}
}

func cmdletGetCommand(c *Call) {
	name := c.Str("Name")
	cols := []Col{{Name: "CommandType", Width: 16}, {Name: "Name", Width: 40}, {Name: "Version", Width: 11}, {Name: "Source"}}
	if cl, ok := CmdletIndex[strings.ToLower(name)]; ok {
		c.Out(&Object{TypeName: "CommandInfo", View: "table", Cols: cols, Str: cl.Name, Props: []Prop{{"CommandType", "Cmdlet"}, {"Name", cl.Name}, {"Version", "3.1.0.0"}, {"Source", "Microsoft.PowerShell.Utility"}}})
		return
	}
	if _, ok := c.S.P.Programs.Lookup(process.Windows, name); ok {
		exe := process.ProgramName(name, true) + ".exe"
		c.Out(&Object{TypeName: "CommandInfo", View: "table", Cols: cols, Str: exe, Props: []Prop{{"CommandType", "Application"}, {"Name", exe}, {"Version", "10.0.20348.1"}, {"Source", `C:\Windows\system32\` + exe}}})
		return
	}
	c.Fail("The term '"+name+"' is not recognized as the name of a cmdlet, function, script file, or operable program. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.", "ObjectNotFound", name, "CommandNotFoundException", "CommandNotFoundException")
}

func cmdletGetHelp(c *Call) {
	name := c.Str("Name")
	if cl, ok := CmdletIndex[strings.ToLower(name)]; ok {
		c.Out("")
		c.Out("NAME")
		c.Out("    " + cl.Name)
		c.Out("")
		c.Out("SYNOPSIS")
		c.Out("    " + cl.Help)
		return
	}
	for _, cl := range Cmdlets {
		c.Out(fmt.Sprintf("%-24s %s", cl.Name, cl.Help))
	}
}

// Simulates reports whether name is a cmdlet (or its alias) that the shell
// simulates.
func Simulates(name string) bool { return CmdletIndex[strings.ToLower(name)] != nil }

func (c *Call) Paths() []string {
	v := c.Named["Path"]
	if lp, ok := c.Named["LiteralPath"]; ok {
		v = lp
	}
	var out []string
	for _, x := range Enumerate(v) {
		out = append(out, ToStr(x))
	}
	return out
}

// RegisterCmdlets adds cmdlets defined outside the table of cmdlets.go.
func RegisterCmdlets(cs ...*Cmdlet) {
	for _, c := range cs {
		Cmdlets = append(Cmdlets, c)
		CmdletIndex[strings.ToLower(c.Name)] = c
		for _, a := range c.Aliases {
			CmdletIndex[strings.ToLower(a)] = c
		}
	}
}
