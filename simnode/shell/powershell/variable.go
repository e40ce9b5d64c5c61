package powershell

import (
	"sort"
	"strconv"
	"strings"
	"wink.dev/wink/simnode/shell/powershell/engine"
)

// This file is the *-Variable cmdlets (issue 18, about_Scopes): Get-Variable,
// Set-Variable, New-Variable, Remove-Variable and Clear-Variable, each with
// -Scope (Global, Script, Local, Private or a number of levels up).

// varScope is the scope -Scope names (the current one without it); a number
// past the global scope is an ArgumentOutOfRange error.
func varScope(c *engine.Call) (*engine.Scope, bool) {
	sc, ok := c.S.ScopeNamed(c.Str("Scope"))
	if _, err := strconv.Atoi(c.Str("Scope")); !ok && err != nil {
		// a -Scope that is neither a scope's name nor a number: its
		// error is not simulated; the current scope is used
		c.S.P.NotSimulated("powershell: -Scope " + c.Str("Scope"))
		return c.S.Scope, true
	}
	if !ok {
		// .NET Framework's ArgumentOutOfRangeException message names the
		// parameter and the value
		n := c.Str("Scope")
		c.Fail("The scope number '"+n+"' exceeds the number of active scopes."+c.S.P.NL+"Parameter name: Scope"+c.S.P.NL+"Actual value was "+n+".", "InvalidArgument", n, "PSArgumentOutOfRangeException", "ArgumentOutOfRange")
	}
	return sc, ok
}

// varNames are the -Name values (wildcards allowed in Get-Variable).
func varNames(c *engine.Call) []string {
	var names []string
	for _, v := range engine.Enumerate(c.Named["Name"]) {
		names = append(names, engine.ToStr(v))
	}
	return names
}

func cmdletGetVariable(c *engine.Call) {
	sc, ok := varScope(c)
	if !ok {
		return
	}
	vars := c.S.VisibleVars(sc, c.Set("Scope"))
	names := varNames(c)
	if len(names) == 0 {
		// the automatic and preference variables are not listed
		c.S.P.NotSimulated("powershell: Get-Variable's automatic variables")
		names = []string{"*"}
	}
	for _, pat := range names {
		if !strings.ContainsAny(pat, "*?[") {
			v, ok := vars[strings.ToLower(pat)]
			if !ok && !c.Set("Scope") && isAutomatic(pat) {
				v, ok = c.S.GetVar(pat), true
			}
			if !ok {
				c.Fail("Cannot find a variable with the name '"+pat+"'.", "ObjectNotFound", pat, "ItemNotFoundException", "VariableNotFound")
				continue
			}
			c.OutVar(pat, v)
			continue
		}
		var found []string
		for k := range vars {
			if k != "args" && k != "input" && k != "_" && k != "psitem" && engine.WildcardMatch(pat, k, true) {
				found = append(found, k)
			}
		}
		sort.Strings(found)
		for _, k := range found {
			c.OutVar(k, vars[k])
		}
	}
}

// isAutomatic: variables the interpreter answers itself (getVar).
func isAutomatic(name string) bool {
	switch strings.ToLower(name) {
	case "true", "false", "null", "?", "error", "erroractionpreference", "lastexitcode", "pwd", "home", "pid", "host", "psversiontable", "psscriptroot", "pscommandpath", "myinvocation":
		return true
	}
	return false
}

// cmdletSetVariable is Set-Variable (and New-Variable with mustNotExist).
func cmdletSetVariable(c *engine.Call, mustNotExist bool) {
	sc, ok := varScope(c)
	if !ok {
		return
	}
	value := c.Named["Value"]
	if !c.Set("Value") && len(c.Input) > 0 {
		value = engine.Collapse(c.Input)
	}
	opt := strings.ToLower(engine.JoinValues(c.Named["Option"], ","))
	for _, name := range varNames(c) {
		k := strings.ToLower(name)
		if _, exists := sc.Vars[k]; exists && mustNotExist && !c.Has("Force") {
			c.Fail("A variable with name '"+name+"' already exists.", "ResourceExists", name, "SessionStateException", "VariableAlreadyExists")
			continue
		}
		if c.Has("Force") {
			delete(sc.ReadOnly, k)
		}
		c.S.SetIn(sc, name, value, strings.Contains(opt, "private") || strings.EqualFold(c.Str("Visibility"), "private"))
		if strings.Contains(opt, "readonly") || strings.Contains(opt, "constant") {
			if sc.ReadOnly == nil {
				sc.ReadOnly = map[string]bool{}
			}
			sc.ReadOnly[k] = true
		}
		if strings.Contains(opt, "allscope") {
			c.S.P.NotSimulated("powershell: Set-Variable -Option AllScope")
		}
		if c.Has("PassThru") {
			c.Out(engine.VarObject(name, value))
		}
	}
}

// cmdletRemoveVariable is Remove-Variable (and Clear-Variable with clear).
func cmdletRemoveVariable(c *engine.Call, clear bool) {
	sc, ok := varScope(c)
	if !ok {
		return
	}
	for _, name := range varNames(c) {
		target := sc
		if !c.Set("Scope") {
			_, target, _ = c.S.LookupVar(name)
		}
		k := strings.ToLower(name)
		if target == nil || !hasVar(target, k) {
			c.Fail("Cannot find a variable with the name '"+name+"'.", "ObjectNotFound", name, "ItemNotFoundException", "VariableNotFound")
			continue
		}
		if target.ReadOnly[k] && !c.Has("Force") {
			c.Fail("Cannot remove variable "+name+" because it is constant or read-only. If the variable is read-only, try the operation again specifying the Force option.", "WriteError", name, "SessionStateUnauthorizedAccessException", "VariableNotRemovable")
			continue
		}
		if clear {
			c.S.SetIn(target, name, nil, target.Private[k])
			continue
		}
		c.S.RemoveIn(target, name)
	}
}

func hasVar(sc *engine.Scope, k string) bool {
	_, ok := sc.Vars[k]
	return ok
}

func init() {
	engine.RegisterCmdlets(
		&engine.Cmdlet{Name: "Get-Variable", Aliases: []string{"gv"}, Help: "Gets variables (about_Scopes).", Positional: []string{"Name"}, Params: []string{"Scope"}, Switches: []string{"ValueOnly"}, Run: cmdletGetVariable},
		&engine.Cmdlet{Name: "Set-Variable", Aliases: []string{"set", "sv"}, Help: "Sets a variable in a scope (about_Scopes).", Positional: []string{"Name", "Value"}, Params: []string{"Scope", "Option", "Visibility", "Description"}, Switches: []string{"Force", "PassThru"}, Run: func(c *engine.Call) { cmdletSetVariable(c, false) }},
		&engine.Cmdlet{Name: "New-Variable", Aliases: []string{"nv"}, Help: "Creates a variable in a scope (about_Scopes).", Positional: []string{"Name", "Value"}, Params: []string{"Scope", "Option", "Visibility", "Description"}, Switches: []string{"Force", "PassThru"}, Run: func(c *engine.Call) { cmdletSetVariable(c, true) }},
		&engine.Cmdlet{Name: "Remove-Variable", Aliases: []string{"rv"}, Help: "Removes a variable (about_Scopes).", Positional: []string{"Name"}, Params: []string{"Scope"}, Switches: []string{"Force"}, Run: func(c *engine.Call) { cmdletRemoveVariable(c, false) }},
		&engine.Cmdlet{Name: "Clear-Variable", Aliases: []string{"clv"}, Help: "Clears a variable's value (about_Scopes).", Positional: []string{"Name"}, Params: []string{"Scope"}, Switches: []string{"Force"}, Run: func(c *engine.Call) { cmdletRemoveVariable(c, true) }},
	)
}
