package engine

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
// A scope's variables are held memory (bounds.go); when the scope ends
// what it held is released (process.Proc.Grow with a negative delta).

// Scope is one scope.
type Scope struct {
	Parent *Scope
	Vars   map[string]any
	Funcs  map[string]*parser.Node
	// private names the variables only this scope sees; readOnly those
	// Set-Variable -Option ReadOnly/Constant made read-only.
	Private, ReadOnly map[string]bool
	// held is what each variable holds, in bytes (bounds.go).
	held map[string]int64
	// types are the type constraints of variables assigned as [type]$x
	// (about_Variables): later values convert to the type.
	types map[string]string
	// script: the global scope or a script file's scope ($script:).
	script bool
}

func newScope(parent *Scope, script bool) *Scope {
	return &Scope{Parent: parent, Vars: map[string]any{}, Funcs: map[string]*parser.Node{}, script: script}
}

// newShellScopes gives a shell its global scope.
func (s *Shell) initScopes() {
	s.Scope = newScope(nil, true)
	s.vars, s.funcs = s.Scope.Vars, s.Scope.Funcs
}

// pushScope enters a child scope; the returned function leaves it,
// releasing the memory its variables held.
func (s *Shell) pushScope(script bool) func() {
	parent := s.Scope
	sc := newScope(parent, script)
	s.Scope, s.vars, s.funcs = sc, sc.Vars, sc.Funcs
	return func() {
		var total int64
		for _, n := range sc.held {
			total += n
		}
		if total > 0 {
			s.P.Grow(-total)
		}
		s.Scope, s.vars, s.funcs = parent, parent.Vars, parent.Funcs
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

// ScopeNamed is the scope a modifier or -Scope argument names: Global,
// Script, Local/Private, or a number of levels up (0 is the current scope).
// ok is false for a number past the global scope.
func (s *Shell) ScopeNamed(mod string) (*Scope, bool) {
	switch strings.ToLower(mod) {
	case "", "local", "private":
		return s.Scope, true
	case "global":
		sc := s.Scope
		for sc.Parent != nil {
			sc = sc.Parent
		}
		return sc, true
	case "script":
		sc := s.Scope
		for !sc.script {
			sc = sc.Parent
		}
		return sc, true
	}
	n, err := strconv.Atoi(mod)
	if err != nil || n < 0 {
		return nil, false
	}
	sc := s.Scope
	for ; n > 0 && sc != nil; n-- {
		sc = sc.Parent
	}
	return sc, sc != nil
}

// LookupVar finds a variable: in the scope a modifier names, or from the
// current scope up through its parents (private variables of other scopes
// are skipped).
func (s *Shell) LookupVar(name string) (any, *Scope, bool) {
	mod, name := scopeModifier(name)
	k := strings.ToLower(name)
	if mod != "" {
		sc, _ := s.ScopeNamed(mod)
		v, ok := sc.Vars[k]
		return v, sc, ok
	}
	for sc := s.Scope; sc != nil; sc = sc.Parent {
		if v, ok := sc.Vars[k]; ok && (sc == s.Scope || !sc.Private[k]) {
			return v, sc, true
		}
	}
	return nil, nil, false
}

// SetIn sets a variable in a scope, accounting what it holds.
func (s *Shell) SetIn(sc *Scope, name string, v any, private bool) {
	k := strings.ToLower(name)
	if sc.ReadOnly[k] {
		s.throwStmt(&ErrorRecord{Msg: "Cannot overwrite variable " + name + " because it is read-only or constant.", Category: "WriteError", Target: name,
			TargetType: "String", Reason: "SessionStateUnauthorizedAccessException", Fqid: "VariableNotWritable"})
	}
	s.hold(sc, k, v)
	sc.Vars[k] = v
	if private {
		if sc.Private == nil {
			sc.Private = map[string]bool{}
		}
		sc.Private[k] = true
	}
}

// RemoveIn removes a variable from a scope, releasing what it held.
func (s *Shell) RemoveIn(sc *Scope, name string) {
	k := strings.ToLower(name)
	if n := sc.held[k]; n > 0 {
		s.P.Grow(-n)
	}
	delete(sc.held, k)
	delete(sc.Vars, k)
	delete(sc.Private, k)
	delete(sc.ReadOnly, k)
}

// LookupFunc finds a function from the current scope up.
func (s *Shell) LookupFunc(name string) (*parser.Node, bool) {
	mod, name := scopeModifier(name)
	k := strings.ToLower(name)
	if mod != "" {
		sc, _ := s.ScopeNamed(mod)
		fn, ok := sc.Funcs[k]
		return fn, ok
	}
	for sc := s.Scope; sc != nil; sc = sc.Parent {
		if fn, ok := sc.Funcs[k]; ok {
			return fn, true
		}
	}
	return nil, false
}

// DefineFunc is the function statement: function global:f { } defines f in
// the global scope, function f { } in the current one.
func (s *Shell) DefineFunc(n *parser.Node) {
	mod, name := scopeModifier(n.Name)
	sc, _ := s.ScopeNamed(mod)
	sc.Funcs[strings.ToLower(name)] = n
}

// VisibleVars are the variables seen from a scope: its own, then its
// parents' not hidden by a nearer one or private (with -Scope, only that
// Scope's).
func (s *Shell) VisibleVars(from *Scope, only bool) map[string]any {
	seen := map[string]any{}
	for sc := from; sc != nil; sc = sc.Parent {
		for k, v := range sc.Vars {
			if _, ok := seen[k]; !ok && (sc == from || !sc.Private[k]) {
				seen[k] = v
			}
		}
		if only {
			break
		}
	}
	return seen
}

func VarObject(name string, v any) *Object {
	return &Object{TypeName: "System.Management.Automation.PSVariable", View: "table", Str: "System.Management.Automation.PSVariable",
		Cols: []Col{{Name: "Name", Width: 31}, {Name: "Value"}}, Props: []Prop{{"Name", name}, {"Value", v}}}
}

func (c *Call) OutVar(name string, v any) {
	if c.Has("ValueOnly") {
		c.Out(v)
		return
	}
	c.Out(VarObject(name, v))
}

// constraintOf is the type constraint of the variable name, "" if none.
func (s *Shell) constraintOf(name string) string {
	_, sc, ok := s.LookupVar(name)
	if !ok {
		return ""
	}
	_, bare := scopeModifier(name)
	return sc.types[strings.ToLower(bare)]
}

// constrain gives the variable name the type constraint t.
func (s *Shell) constrain(name, t string) {
	_, sc, ok := s.LookupVar(name)
	if !ok {
		return
	}
	if sc.types == nil {
		sc.types = map[string]string{}
	}
	_, bare := scopeModifier(name)
	sc.types[strings.ToLower(bare)] = t
}
