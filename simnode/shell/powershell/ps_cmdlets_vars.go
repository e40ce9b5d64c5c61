package powershell

import (
	"sort"
	"strconv"
	"strings"
)

// This file is the *-Variable cmdlets (issue 18, about_Scopes): Get-Variable,
// Set-Variable, New-Variable, Remove-Variable and Clear-Variable, each with
// -Scope (Global, Script, Local, Private or a number of levels up).

// varScope is the scope -Scope names (the current one without it); a number
// past the global scope is an ArgumentOutOfRange error.
func varScope(c *psCall) (*psScope, bool) {
	sc, ok := c.s.scopeNamed(c.str("Scope"))
	if _, err := strconv.Atoi(c.str("Scope")); !ok && err != nil {
		// a -Scope that is neither a scope's name nor a number: its
		// error is not simulated; the current scope is used
		c.s.p.NotSimulated("powershell: -Scope " + c.str("Scope"))
		return c.s.scope, true
	}
	if !ok {
		// .NET Framework's ArgumentOutOfRangeException message names the
		// parameter and the value
		n := c.str("Scope")
		c.fail("The scope number '"+n+"' exceeds the number of active scopes."+c.s.p.NL+"Parameter name: Scope"+c.s.p.NL+"Actual value was "+n+".", "InvalidArgument", n, "PSArgumentOutOfRangeException", "ArgumentOutOfRange")
	}
	return sc, ok
}

// varNames are the -Name values (wildcards allowed in Get-Variable).
func varNames(c *psCall) []string {
	var names []string
	for _, v := range enumerate(c.named["Name"]) {
		names = append(names, toStr(v))
	}
	return names
}

func cmdletGetVariable(c *psCall) {
	sc, ok := varScope(c)
	if !ok {
		return
	}
	vars := c.s.visibleVars(sc, c.set("Scope"))
	names := varNames(c)
	if len(names) == 0 {
		// the automatic and preference variables are not listed
		c.s.p.NotSimulated("powershell: Get-Variable's automatic variables")
		names = []string{"*"}
	}
	for _, pat := range names {
		if !strings.ContainsAny(pat, "*?[") {
			v, ok := vars[strings.ToLower(pat)]
			if !ok && !c.set("Scope") && isAutomatic(pat) {
				v, ok = c.s.getVar(pat), true
			}
			if !ok {
				c.fail("Cannot find a variable with the name '"+pat+"'.", "ObjectNotFound", pat, "ItemNotFoundException", "VariableNotFound")
				continue
			}
			c.outVar(pat, v)
			continue
		}
		var found []string
		for k := range vars {
			if k != "args" && k != "input" && k != "_" && k != "psitem" && wildcardMatch(pat, k, true) {
				found = append(found, k)
			}
		}
		sort.Strings(found)
		for _, k := range found {
			c.outVar(k, vars[k])
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
func cmdletSetVariable(c *psCall, mustNotExist bool) {
	sc, ok := varScope(c)
	if !ok {
		return
	}
	value := c.named["Value"]
	if !c.set("Value") && len(c.input) > 0 {
		value = collapse(c.input)
	}
	opt := strings.ToLower(joinValues(c.named["Option"], ","))
	for _, name := range varNames(c) {
		k := strings.ToLower(name)
		if _, exists := sc.vars[k]; exists && mustNotExist && !c.has("Force") {
			c.fail("A variable with name '"+name+"' already exists.", "ResourceExists", name, "SessionStateException", "VariableAlreadyExists")
			continue
		}
		if c.has("Force") {
			delete(sc.readOnly, k)
		}
		c.s.setIn(sc, name, value, strings.Contains(opt, "private") || strings.EqualFold(c.str("Visibility"), "private"))
		if strings.Contains(opt, "readonly") || strings.Contains(opt, "constant") {
			if sc.readOnly == nil {
				sc.readOnly = map[string]bool{}
			}
			sc.readOnly[k] = true
		}
		if strings.Contains(opt, "allscope") {
			c.s.p.NotSimulated("powershell: Set-Variable -Option AllScope")
		}
		if c.has("PassThru") {
			c.out(varObject(name, value))
		}
	}
}

// cmdletRemoveVariable is Remove-Variable (and Clear-Variable with clear).
func cmdletRemoveVariable(c *psCall, clear bool) {
	sc, ok := varScope(c)
	if !ok {
		return
	}
	for _, name := range varNames(c) {
		target := sc
		if !c.set("Scope") {
			_, target, _ = c.s.lookupVar(name)
		}
		k := strings.ToLower(name)
		if target == nil || !hasVar(target, k) {
			c.fail("Cannot find a variable with the name '"+name+"'.", "ObjectNotFound", name, "ItemNotFoundException", "VariableNotFound")
			continue
		}
		if target.readOnly[k] && !c.has("Force") {
			c.fail("Cannot remove variable "+name+" because it is constant or read-only. If the variable is read-only, try the operation again specifying the Force option.", "WriteError", name, "SessionStateUnauthorizedAccessException", "VariableNotRemovable")
			continue
		}
		if clear {
			c.s.setIn(target, name, nil, target.private[k])
			continue
		}
		c.s.removeIn(target, name)
	}
}

func hasVar(sc *psScope, k string) bool {
	_, ok := sc.vars[k]
	return ok
}

func init() {
	registerCmdlets(
		&psCmdlet{name: "Get-Variable", aliases: []string{"gv"}, help: "Gets variables (about_Scopes).", positional: []string{"Name"}, params: []string{"Scope"}, switches: []string{"ValueOnly"}, run: cmdletGetVariable},
		&psCmdlet{name: "Set-Variable", aliases: []string{"set", "sv"}, help: "Sets a variable in a scope (about_Scopes).", positional: []string{"Name", "Value"}, params: []string{"Scope", "Option", "Visibility", "Description"}, switches: []string{"Force", "PassThru"}, run: func(c *psCall) { cmdletSetVariable(c, false) }},
		&psCmdlet{name: "New-Variable", aliases: []string{"nv"}, help: "Creates a variable in a scope (about_Scopes).", positional: []string{"Name", "Value"}, params: []string{"Scope", "Option", "Visibility", "Description"}, switches: []string{"Force", "PassThru"}, run: func(c *psCall) { cmdletSetVariable(c, true) }},
		&psCmdlet{name: "Remove-Variable", aliases: []string{"rv"}, help: "Removes a variable (about_Scopes).", positional: []string{"Name"}, params: []string{"Scope"}, switches: []string{"Force"}, run: func(c *psCall) { cmdletRemoveVariable(c, false) }},
		&psCmdlet{name: "Clear-Variable", aliases: []string{"clv"}, help: "Clears a variable's value (about_Scopes).", positional: []string{"Name"}, params: []string{"Scope"}, switches: []string{"Force"}, run: func(c *psCall) { cmdletRemoveVariable(c, true) }},
	)
}
