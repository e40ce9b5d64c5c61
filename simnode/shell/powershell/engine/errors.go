package engine

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strings"
	"wink.dev/wink/simnode/shell/powershell/parser"

	"sigs.k8s.io/yaml"
)

// This file is Windows PowerShell 5.1's error model (issue 18), as
// about_Try_Catch_Finally, about_Trap, about_Preference_Variables
// ($ErrorActionPreference) and about_CommonParameters (-ErrorAction,
// -ErrorVariable) describe it:
//   - a non-terminating error (a cmdlet's WriteError) is printed, added to
//     $Error and sets $? to False; the error action (-ErrorAction, else
//     $ErrorActionPreference) Stop makes it terminating, SilentlyContinue
//     hides it, Ignore also keeps it out of $Error;
//   - a statement-terminating error (a cmdlet's ThrowTerminatingError, a
//     .NET method's exception, a command not found, a parameter binding
//     error) ends its statement: uncaught, it is printed and the script
//     goes on with the next statement ($ErrorActionPreference Stop makes
//     it end the script, SilentlyContinue hides it);
//   - a script-terminating error (throw, or an error made terminating by
//     Stop) ends the script: powershell.exe prints it and exits 1;
//   - try/catch/finally and trap catch both kinds; a catch [Type] matches
//     the exception's type or a type it derives from (exceptions.yaml).

//go:embed exceptions.yaml
var exceptionsYAML []byte

// exceptionBase maps a .NET exception type's full name to its base type.
var exceptionBase = func() map[string]string {
	m := map[string]string{}
	if err := yaml.Unmarshal(exceptionsYAML, &m); err != nil {
		panic(err)
	}
	return m
}()

// fullException is the full name of an exception type given by its short
// or full name ("WebException" → "System.Net.WebException").
func fullException(name string) string {
	if _, ok := exceptionBase[name]; ok {
		return name
	}
	for full := range exceptionBase {
		if strings.EqualFold(full, name) || strings.HasSuffix(strings.ToLower(full), "."+strings.ToLower(name)) {
			return full
		}
	}
	if name == "" {
		return "System.Management.Automation.RuntimeException"
	}
	return name
}

// exceptionIs reports whether the exception type (full name) is want or
// derives from it; want may omit "System.", as PowerShell's type names may.
func exceptionIs(typ, want string) bool {
	want = strings.ToLower(want)
	for t, n := typ, 0; t != "" && n < 16; t, n = exceptionBase[t], n+1 {
		lt := strings.ToLower(t)
		if lt == want || lt == "system."+want {
			return true
		}
	}
	return false
}

// stamp fixes where an error happened: the script text its position is in.
func (s *Shell) stamp(r *ErrorRecord) {
	if r.stamped {
		return
	}
	r.stamped, r.src, r.file = true, s.src, s.file
}

// recordError adds an error to $Error (newest first, at most
// $MaximumErrorCount = 256 of them).
func (s *Shell) recordError(r *ErrorRecord) {
	s.errs = append([]any{s.errorObject(r)}, s.errs...)
	if len(s.errs) > 256 {
		s.errs = s.errs[:256]
	}
}

// errorAction is an ActionPreference's name, lower case, from a value a
// script gives (-ErrorAction Stop, -EA 0, $ErrorActionPreference = 'Stop').
func errorAction(v any) string {
	switch x := v.(type) {
	case int64:
		names := []string{"silentlycontinue", "stop", "continue", "inquire", "ignore", "suspend"}
		if x >= 0 && int(x) < len(names) {
			return names[x]
		}
	case *Enum:
		return strings.ToLower(x.name)
	}
	return strings.ToLower(strings.TrimSpace(ToStr(v)))
}

// preference is $ErrorActionPreference.
func (s *Shell) preference() string {
	if a := errorAction(s.GetVar("ErrorActionPreference")); a != "" {
		return a
	}
	return "continue"
}

// nonTerminating is a cmdlet's WriteError under its error action (c may be
// nil: a function's Write-Error).
func (s *Shell) nonTerminating(r *ErrorRecord, c *Call) {
	action := ""
	if c != nil {
		if v, ok := c.Named["ErrorAction"]; ok {
			action = errorAction(v)
		}
		c.errs = append(c.errs, r)
	}
	if action == "" {
		action = s.preference()
	}
	switch action {
	case "stop":
		s.stamp(r)
		r.stmt = false
		panic(psThrowSignal{r})
	case "ignore":
		s.failed()
	case "silentlycontinue":
		s.failed()
		s.recordError(r)
	default:
		s.recordError(r)
		s.writeError(r)
	}
}

// throwStmt raises a statement-terminating error.
func (s *Shell) throwStmt(r *ErrorRecord) {
	r.stmt = true
	panic(psThrowSignal{r})
}

// methodError is the statement-terminating MethodInvocationException of a
// .NET method that threw inner (its short type name).
func methodError(method string, nargs int, msg, inner string) *ErrorRecord {
	return &ErrorRecord{Msg: fmt.Sprintf(`Exception calling "%s" with "%d" argument(s): "%s"`, method, nargs, msg),
		Category: "NotSpecified", Target: ":", Reason: "MethodInvocationException", inner: inner, innerMsg: msg, Fqid: strings.TrimPrefix(inner, "System."), stmt: true}
}

// traps are the trap statements of a block.
func traps(block []*parser.Node) []*parser.Node {
	var out []*parser.Node
	for _, st := range block {
		if st.Kind == "trap" {
			out = append(out, st)
		}
	}
	return out
}

// matchClause is the first catch or trap clause whose types match the
// error (a clause without types matches every error).
func matchClause(clauses []*parser.Node, r *ErrorRecord) *parser.Node {
	for _, c := range clauses {
		types, _ := c.Val.([]string)
		if len(types) == 0 {
			return c
		}
		for _, t := range types {
			if exceptionIs(fullException(r.Reason), t) || (r.inner != "" && exceptionIs(fullException(r.inner), t)) {
				return c
			}
		}
	}
	return nil
}

// execGuarded runs one statement of a block: a terminating error it raises
// goes to the block's trap, else (statement-terminating, with no try or
// trap around it) is reported and the block goes on.
func (s *Shell) execGuarded(st *parser.Node, out emitter, trapList []*parser.Node) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		sig, ok := r.(psThrowSignal)
		if !ok {
			panic(r)
		}
		if !sig.rec.stamped && sig.rec.pos == 0 && sig.rec.end == 0 {
			sig.rec.pos, sig.rec.end = st.Pos, st.End
		}
		s.stamp(sig.rec)
		if t := matchClause(trapList, sig.rec); t != nil {
			s.runTrap(t, sig.rec, out)
			return
		}
		if sig.rec.stmt && s.handlers == 0 {
			switch s.preference() {
			case "stop":
				sig.rec.stmt = false
				panic(sig)
			case "ignore":
				s.failed()
			case "silentlycontinue":
				s.failed()
				s.recordError(sig.rec)
			default:
				s.recordError(sig.rec)
				s.writeError(sig.rec)
			}
			return
		}
		panic(sig)
	}()
	s.execStmt(st, out)
}

// runTrap runs a trap's body for an error (about_Trap): with break the error
// ends the script, with continue it is silenced, otherwise it is printed and
// the block goes on.
func (s *Shell) runTrap(t *parser.Node, r *ErrorRecord, out emitter) {
	s.recordError(r)
	save := s.vars["_"]
	s.vars["_"] = s.errorObject(r)
	defer func() { s.vars["_"] = save }()
	brk, cont := s.breakable(t.Kids[0].Block, out)
	switch {
	case brk:
		r.stmt = false
		r.recorded = true
		panic(psThrowSignal{r})
	case cont:
		s.failed()
	default:
		s.writeError(r)
	}
}

// execTry is try/catch/finally.
func (s *Shell) execTry(n *parser.Node, out emitter) {
	if fin := n.Kids[1]; fin != nil {
		defer func() {
			r := recover()
			if _, killed := r.(KilledSignal); !killed {
				s.execBlock(fin.Block, out)
			}
			if r != nil {
				panic(r)
			}
		}()
	}
	rec := s.tryBody(n.Kids[0], out)
	if rec == nil {
		return
	}
	c := matchClause(n.Kids[2:], rec)
	if c == nil {
		panic(psThrowSignal{rec})
	}
	if !rec.recorded {
		s.recordError(rec)
		rec.recorded = true
	}
	save := s.vars["_"]
	s.vars["_"] = s.errorObject(rec)
	s.vars["psitem"] = s.vars["_"]
	defer func() { s.vars["_"] = save }()
	s.execBlock(c.Kids[0].Block, out)
}

// tryBody runs a try block; the terminating error that ended it, if any.
func (s *Shell) tryBody(b *parser.Node, out emitter) (rec *ErrorRecord) {
	s.handlers++
	defer func() {
		s.handlers--
		if r := recover(); r != nil {
			if sig, ok := r.(psThrowSignal); ok {
				s.stamp(sig.rec)
				rec = sig.rec
				return
			}
			panic(r)
		}
	}()
	s.execBlock(b.Block, out)
	return nil
}

// throwValue is the error `throw <value>` raises: a string's message, an
// error record rethrown, or an exception object.
func (s *Shell) throwValue(n *parser.Node) *ErrorRecord {
	if len(n.Kids) == 0 {
		if cur, ok := s.GetVar("_").(*Object); ok && cur.rec != nil {
			return cur.rec // a bare throw in catch rethrows
		}
		return &ErrorRecord{Msg: "ScriptHalted", Category: "OperationStopped", Target: ":", Reason: "RuntimeException", Fqid: "ScriptHalted", pos: n.Pos, end: n.End}
	}
	v := s.evalValue(n.Kids[0])
	if o, ok := v.(*Object); ok {
		if o.rec != nil {
			return o.rec
		}
		if strings.HasSuffix(o.TypeName, "Exception") {
			msg := ToStr(o)
			if m, ok := o.get("Message"); ok {
				msg = ToStr(m)
			}
			return &ErrorRecord{Msg: msg, Category: "OperationStopped", Target: ":", Reason: typeName(o), Fqid: msg, pos: n.Pos, end: n.End}
		}
	}
	msg := ToStr(v)
	return &ErrorRecord{Msg: msg, Category: "OperationStopped", Target: msg, Reason: "RuntimeException", Fqid: msg, pos: n.Pos, end: n.End}
}

// errorObject is the ErrorRecord a script sees as $_, $Error[0] or an
// -ErrorVariable's element.
func (s *Shell) errorObject(r *ErrorRecord) *Object {
	if r.obj != nil {
		return r.obj
	}
	excType := fullException(r.Reason)
	exc := &Object{TypeName: excType, Str: r.Msg, Props: []Prop{{"Message", r.Msg}, {"InnerException", nil}, {"HResult", int64(-2146233087)}}}
	if r.inner != "" {
		exc.set("InnerException", &Object{TypeName: fullException(r.inner), Str: r.innerMsg, Props: []Prop{{"Message", r.innerMsg}}})
	}
	if r.Status > 0 {
		exc.set("Status", &Enum{name: "ProtocolError", Val: 7})
		exc.set("Response", &Object{TypeName: "System.Net.HttpWebResponse", Props: []Prop{
			{"StatusCode", &Enum{name: httpStatusName(r.Status), Val: int64(r.Status)}},
			{"StatusDescription", httpStatusText(r.Status)}}})
	} else if excType == "System.Net.WebException" {
		exc.set("Status", &Enum{name: "ConnectFailure", Val: 2})
		exc.set("Response", nil)
	}
	tt := r.TargetType
	if tt == "" {
		tt = "String"
	}
	activity := r.cmd
	if r.noActivity {
		activity = ""
	}
	cat := &Object{TypeName: "System.Management.Automation.ErrorCategoryInfo", Str: categoryText(r),
		Props: []Prop{{"Category", r.Category}, {"Activity", activity}, {"Reason", r.Reason}, {"TargetName", strings.Trim(r.Target, ":")}, {"TargetType", tt}}}
	line, col, text := lineCol(r.src, r.pos)
	inv := &Object{TypeName: "System.Management.Automation.InvocationInfo", Props: []Prop{
		{"MyCommand", r.cmd}, {"ScriptLineNumber", int64(line)}, {"OffsetInLine", int64(col)}, {"ScriptName", r.file}, {"Line", text},
		{"PositionMessage", strings.Join(position(r.src, r.file, r.pos, r.end), "\r\n")}, {"InvocationName", r.cmd}}}
	var details any
	if r.Details != "" {
		details = &Object{TypeName: "System.Management.Automation.ErrorDetails", Str: r.Details, Props: []Prop{{"Message", r.Details}}}
	}
	var target any = r.Target
	if r.Target == ":" {
		target = nil
	}
	r.obj = &Object{TypeName: "System.Management.Automation.ErrorRecord", Str: r.Msg, rec: r, Props: []Prop{
		{"Exception", exc}, {"TargetObject", target}, {"CategoryInfo", cat}, {"FullyQualifiedErrorId", r.Fqid},
		{"ErrorDetails", details}, {"InvocationInfo", inv}, {"ScriptStackTrace", fmt.Sprintf("at <ScriptBlock>, <No file>: line %d", line)}}}
	return r.obj
}

func categoryText(r *ErrorRecord) string {
	tt := r.TargetType
	if tt == "" {
		tt = "String"
	}
	activity := r.cmd
	if r.activity != "" {
		activity = r.activity
	}
	if r.noActivity {
		activity = ""
	}
	target := "(" + r.Target + ":" + tt + ")"
	if r.Target == ":" || r.Target == "" {
		target = "(:)"
	}
	return fmt.Sprintf("%s: %s [%s], %s", r.Category, target, activity, r.Reason)
}

// render is the error as Windows PowerShell 5.1 prints it (pwsh 7: its
// ConciseView's first line).
func (r *ErrorRecord) render(pwsh bool, nl string) string {
	var b strings.Builder
	if pwsh {
		prefix := r.cmd
		if prefix == "" {
			prefix = "Exception"
		}
		return prefix + ": " + r.Msg + nl
	}
	if r.cmd != "" {
		b.WriteString(r.cmd + " : " + r.Msg + nl)
	} else {
		b.WriteString(r.Msg + nl)
	}
	if !r.noPos {
		for _, l := range position(r.src, r.file, r.pos, r.end) {
			b.WriteString(l + nl)
		}
	}
	b.WriteString("    + CategoryInfo          : " + categoryText(r) + nl)
	b.WriteString("    + FullyQualifiedErrorId : " + r.Fqid + nl)
	b.WriteString(" " + nl)
	return b.String()
}

// Enum is a value of a .NET enum (HttpStatusCode, WebExceptionStatus):
// its name as a string, its value as a number.
type Enum struct {
	name string
	Val  int64
}

// httpStatusName is System.Net.HttpStatusCode's name of a status (404:
// NotFound).
func httpStatusName(code int) string {
	return strings.NewReplacer(" ", "", "-", "").Replace(http.StatusText(code))
}

// httpStatusText is an HttpWebResponse's StatusDescription.
func httpStatusText(code int) string { return http.StatusText(code) }

// execSwitch is the switch statement (about_Switch): each element of the
// value is tested against every clause in order (-exact by default,
// -wildcard, -regex, a script block as a condition); every matching body
// runs, break ends the switch, continue goes to the next element; default
// runs when no clause matched.
func (s *Shell) execSwitch(n *parser.Node, out emitter) {
	opts, _ := n.Val.([]string)
	has := func(o string) bool {
		for _, x := range opts {
			if strings.HasPrefix(o, x) && x != "" {
				return true
			}
		}
		return false
	}
	cs := has("casesensitive")
	items := Enumerate(s.evalValue(n.Kids[0]))
	if v := s.evalValue(n.Kids[0]); v != nil {
		if _, ok := v.([]any); !ok {
			items = []any{v}
		}
	}
	save := s.vars["_"]
	defer func() { s.vars["_"] = save }()
	for _, item := range items {
		s.CheckCtx()
		s.vars["_"] = item
		matched := false
		brk, cont := false, false
		run := func(body *parser.Node) { brk, cont = s.breakable(body.Block, out) }
		var def *parser.Node
		for i := 1; i+1 < len(n.Kids) && !brk && !cont; i += 2 {
			pat, body := n.Kids[i], n.Kids[i+1]
			if pat == nil {
				def = body
				continue
			}
			ok := false
			if pat.Kind == "scriptblock" {
				var vals []any
				s.invokeBlock(pat, nil, nil, func(v any) {
					if _, f := v.(flushMarker); !f {
						vals = append(vals, v)
					}
				})
				ok = ToBool(Collapse(vals))
			} else {
				p := s.eval(pat)
				switch {
				case has("regex"):
					ok = ToBool(s.compare("match", item, p, cs))
				case has("wildcard"):
					ok = ToBool(s.compare("like", item, p, cs))
				default:
					ok = ToBool(s.compare("eq", item, p, cs))
				}
			}
			if ok {
				matched = true
				run(body)
			}
		}
		if !matched && def != nil && !brk && !cont {
			run(def)
		}
		if brk {
			return
		}
	}
}

// FileError is the message, category, exception and error id of a file
// error (row B11: "Access to the path '...' is denied.").
func FileError(err error, full string, write bool) (msg, category, reason, fqid string) {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return "Access to the path '" + full + "' is denied.", "PermissionDenied", "UnauthorizedAccessException", "System.UnauthorizedAccessException"
	case errors.Is(err, fs.ErrNotExist) && write:
		return "Could not find a part of the path '" + full + "'.", "ObjectNotFound", "DirectoryNotFoundException", "GetContentWriterDirectoryNotFoundError"
	case errors.Is(err, fs.ErrNotExist):
		return "Cannot find path '" + full + "' because it does not exist.", "ObjectNotFound", "ItemNotFoundException", "PathNotFound"
	}
	return err.Error(), "NotSpecified", "IOException", "System.IO.IOException"
}
