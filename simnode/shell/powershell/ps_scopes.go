package powershell

import (
	"strconv"
	"strings"
	"wink.dev/wink/simnode/shell/powershell/parser"
)

// This file is PowerShell's scopes (about_Scopes, issue 18): the global
// scope of the session, a script scope per script file, a child scope per
// function and script block call. Reads fall through to the parent scopes
// (dynamic scoping: a function sees its caller's variables), writes create
// a variable in the current scope unless a scope modifier ($global:,
// $script:, $local:, $private:) or Set-Variable -Scope names another. A
// private variable is seen only in the scope that holds it. Dot-sourcing
// (`. f`, `. { }`, `. .\x.ps1`) runs in the caller's scope; the call
// operator (`& { }`) and plain calls in a child scope. ForEach-Object's and
// Where-Object's script blocks run in the caller's scope, as a pipeline's
// script blocks are dot-sourced.
//
// A scope's variables are held memory (ps_bounds.go); when the scope ends
// what it held is released (process.Proc.Grow with a negative delta).

// psScope is one scope.
type psScope struct {
	parent *psScope
	vars   map[string]any
	funcs  map[string]*parser.Node
	// private names the variables only this scope sees; readOnly those
	// Set-Variable -Option ReadOnly/Constant made read-only.
	private, readOnly map[string]bool
	// held is what each variable holds, in bytes (ps_bounds.go).
	held map[string]int64
	// script: the global scope or a script file's scope ($script:).
	script bool
}

func newScope(parent *psScope, script bool) *psScope {
	return &psScope{parent: parent, vars: map[string]any{}, funcs: map[string]*parser.Node{}, script: script}
}

// newShellScopes gives a shell its global scope.
func (s *psShell) initScopes() {
	s.scope = newScope(nil, true)
	s.vars, s.funcs = s.scope.vars, s.scope.funcs
}

// pushScope enters a child scope; the returned function leaves it,
// releasing the memory its variables held.
func (s *psShell) pushScope(script bool) func() {
	parent := s.scope
	sc := newScope(parent, script)
	s.scope, s.vars, s.funcs = sc, sc.vars, sc.funcs
	return func() {
		var total int64
		for _, n := range sc.held {
			total += n
		}
		if total > 0 {
			s.p.Grow(-total)
		}
		s.scope, s.vars, s.funcs = parent, parent.vars, parent.funcs
	}
}

// scopeModifier splits a variable or function name's scope modifier off
// ("global", "script", "local", "private", or "").
func scopeModifier(name string) (mod, rest string) {
	for _, m := range []string{"global", "script", "local", "private"} {
		if r, ok := cutFold(name, m+":"); ok {
			return m, r
		}
	}
	return "", name
}

// scopeNamed is the scope a modifier or -Scope argument names: Global,
// Script, Local/Private, or a number of levels up (0 is the current scope).
// ok is false for a number past the global scope.
func (s *psShell) scopeNamed(mod string) (*psScope, bool) {
	switch strings.ToLower(mod) {
	case "", "local", "private":
		return s.scope, true
	case "global":
		sc := s.scope
		for sc.parent != nil {
			sc = sc.parent
		}
		return sc, true
	case "script":
		sc := s.scope
		for !sc.script {
			sc = sc.parent
		}
		return sc, true
	}
	n, err := strconv.Atoi(mod)
	if err != nil || n < 0 {
		return nil, false
	}
	sc := s.scope
	for ; n > 0 && sc != nil; n-- {
		sc = sc.parent
	}
	return sc, sc != nil
}

// lookupVar finds a variable: in the scope a modifier names, or from the
// current scope up through its parents (private variables of other scopes
// are skipped).
func (s *psShell) lookupVar(name string) (any, *psScope, bool) {
	mod, name := scopeModifier(name)
	k := strings.ToLower(name)
	if mod != "" {
		sc, _ := s.scopeNamed(mod)
		v, ok := sc.vars[k]
		return v, sc, ok
	}
	for sc := s.scope; sc != nil; sc = sc.parent {
		if v, ok := sc.vars[k]; ok && (sc == s.scope || !sc.private[k]) {
			return v, sc, true
		}
	}
	return nil, nil, false
}

// setIn sets a variable in a scope, accounting what it holds.
func (s *psShell) setIn(sc *psScope, name string, v any, private bool) {
	k := strings.ToLower(name)
	if sc.readOnly[k] {
		s.throwStmt(&psErrorRecord{msg: "Cannot overwrite variable " + name + " because it is read-only or constant.", category: "WriteError", target: name,
			targetType: "String", reason: "SessionStateUnauthorizedAccessException", fqid: "VariableNotWritable"})
	}
	s.hold(sc, k, v)
	sc.vars[k] = v
	if private {
		if sc.private == nil {
			sc.private = map[string]bool{}
		}
		sc.private[k] = true
	}
}

// removeIn removes a variable from a scope, releasing what it held.
func (s *psShell) removeIn(sc *psScope, name string) {
	k := strings.ToLower(name)
	if n := sc.held[k]; n > 0 {
		s.p.Grow(-n)
	}
	delete(sc.held, k)
	delete(sc.vars, k)
	delete(sc.private, k)
	delete(sc.readOnly, k)
}

// lookupFunc finds a function from the current scope up.
func (s *psShell) lookupFunc(name string) (*parser.Node, bool) {
	mod, name := scopeModifier(name)
	k := strings.ToLower(name)
	if mod != "" {
		sc, _ := s.scopeNamed(mod)
		fn, ok := sc.funcs[k]
		return fn, ok
	}
	for sc := s.scope; sc != nil; sc = sc.parent {
		if fn, ok := sc.funcs[k]; ok {
			return fn, true
		}
	}
	return nil, false
}

// defineFunc is the function statement: function global:f { } defines f in
// the global scope, function f { } in the current one.
func (s *psShell) defineFunc(n *parser.Node) {
	mod, name := scopeModifier(n.Name)
	sc, _ := s.scopeNamed(mod)
	sc.funcs[strings.ToLower(name)] = n
}

// visibleVars are the variables seen from a scope: its own, then its
// parents' not hidden by a nearer one or private (with -Scope, only that
// scope's).
func (s *psShell) visibleVars(from *psScope, only bool) map[string]any {
	seen := map[string]any{}
	for sc := from; sc != nil; sc = sc.parent {
		for k, v := range sc.vars {
			if _, ok := seen[k]; !ok && (sc == from || !sc.private[k]) {
				seen[k] = v
			}
		}
		if only {
			break
		}
	}
	return seen
}

func varObject(name string, v any) *psObject {
	return &psObject{typeName: "System.Management.Automation.PSVariable", view: "table", str: "System.Management.Automation.PSVariable",
		cols: []psCol{{name: "Name", width: 31}, {name: "Value"}}, props: []psProp{{"Name", name}, {"Value", v}}}
}

func (c *psCall) outVar(name string, v any) {
	if c.has("ValueOnly") {
		c.out(v)
		return
	}
	c.out(varObject(name, v))
}
