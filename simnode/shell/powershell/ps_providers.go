package powershell

import (
	"sort"
	"strings"
	"wink.dev/wink/simnode/shell/powershell/parser"

	"wink.dev/wink/simnode/shell/process"
)

// This file is PowerShell's providers other than the file system
// (about_Providers): the Environment provider's env: drive, the Variable
// and Function providers' variable: and function: drives, and the
// Registry provider's HKLM: and HKCU: drives (the keys process/registry.go
// simulates). The item cmdlets (Get-Item, Test-Path, Get-ChildItem,
// Get-Content, Set-Item, Remove-Item, New-Item) reach them through
// driveOf; Get-ItemProperty and Get-ItemPropertyValue read the registry.

// psDrive is a drive of a provider other than the file system; path is the
// item's path below the drive's root ("" for the root).
type psDrive interface {
	// item returns the item at path; known is false when wink cannot tell
	// whether the image has it.
	item(s *psShell, path string) (v any, found, known bool)
	// children lists the items of the container at path.
	children(s *psShell, path string) ([]any, bool)
	// content is what Get-Content reads of an item.
	content(s *psShell, path string) (any, bool)
	// set gives the item at path a value (Set-Item, New-Item); false when
	// the provider does not simulate it.
	set(s *psShell, path string, v any) bool
	// remove removes the item at path; false when it is not there.
	remove(s *psShell, path string) bool
}

var psDrives = map[string]psDrive{
	"env": envDrive{}, "variable": variableDrive{}, "function": functionDrive{},
	"hklm": registryDrive{"HKLM"}, "hkcu": registryDrive{"HKCU"},
}

// driveOf splits a path on a provider drive: env:PATH, Variable:\x,
// HKLM:\SOFTWARE. A one-letter drive is the file system's.
func driveOf(path string) (d psDrive, rest string, ok bool) {
	name, rest, found := strings.Cut(path, ":")
	if !found || len(name) < 2 {
		return nil, "", false
	}
	d, ok = psDrives[strings.ToLower(name)]
	return d, strings.Trim(strings.ReplaceAll(rest, "/", `\`), `\`), ok
}

// nameValue is the Name/Value item the env: and variable: drives list.
func nameValue(typeName, name string, v any) *psObject {
	return &psObject{typeName: typeName, view: "table", str: typeName,
		cols: []psCol{{name: "Name", width: 31}, {name: "Value"}}, props: []psProp{{"Name", name}, {"Key", name}, {"Value", v}}}
}

// envDrive is env: (about_Environment_Provider).
type envDrive struct{}

func (envDrive) item(s *psShell, path string) (any, bool, bool) {
	if path == "" {
		return nil, true, true
	}
	v, ok := s.p.Vars.Get(path)
	return nameValue("System.Collections.DictionaryEntry", path, v), ok, true
}

func (envDrive) children(s *psShell, path string) ([]any, bool) {
	if path != "" {
		return nil, false
	}
	var out []any
	for _, e := range s.p.Vars.Sorted() {
		out = append(out, nameValue("System.Collections.DictionaryEntry", e.Name, e.Value))
	}
	return out, true
}

func (envDrive) content(s *psShell, path string) (any, bool) {
	v, ok := s.p.Vars.Get(path)
	return v, ok
}

func (envDrive) set(s *psShell, path string, v any) bool {
	s.setVar("env:"+path, v)
	return true
}

func (envDrive) remove(s *psShell, path string) bool {
	if _, ok := s.p.Vars.Get(path); !ok {
		return false
	}
	s.p.Vars.Unset(path)
	return true
}

// variableDrive is variable: (about_Variable_Provider): the variables
// visible in the current scope.
type variableDrive struct{}

func (variableDrive) item(s *psShell, path string) (any, bool, bool) {
	if path == "" {
		return nil, true, true
	}
	v, _, ok := s.lookupVar(path)
	return varObject(path, v), ok, true
}

func (variableDrive) children(s *psShell, path string) ([]any, bool) {
	if path != "" {
		return nil, false
	}
	vars := s.visibleVars(s.scope, false)
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]any, len(names))
	for i, k := range names {
		out[i] = varObject(k, vars[k])
	}
	return out, true
}

func (variableDrive) content(s *psShell, path string) (any, bool) {
	v, _, ok := s.lookupVar(path)
	return v, ok
}

func (variableDrive) set(s *psShell, path string, v any) bool {
	s.setVar(path, v)
	return true
}

func (variableDrive) remove(s *psShell, path string) bool {
	_, sc, ok := s.lookupVar(path)
	if ok {
		s.removeIn(sc, path)
	}
	return ok
}

// functionDrive is function: (about_Function_Provider).
type functionDrive struct{}

func functionInfo(name string, fn *parser.Node) *psObject {
	return &psObject{typeName: "System.Management.Automation.FunctionInfo", view: "table", str: name,
		cols:  []psCol{{name: "CommandType", width: 15}, {name: "Name", width: 50}, {name: "Version", width: 10}, {name: "Source"}},
		props: []psProp{{"CommandType", "Function"}, {"Name", name}, {"Version", ""}, {"Source", ""}, {"ScriptBlock", &psScriptBlock{node: fn.Kids[0]}}}}
}

func (functionDrive) item(s *psShell, path string) (any, bool, bool) {
	if path == "" {
		return nil, true, true
	}
	fn, ok := s.lookupFunc(path)
	if !ok {
		return nil, false, true
	}
	return functionInfo(path, fn), true, true
}

func (functionDrive) children(s *psShell, path string) ([]any, bool) {
	if path != "" {
		return nil, false
	}
	seen := map[string]*parser.Node{}
	for sc := s.scope; sc != nil; sc = sc.parent {
		for k, fn := range sc.funcs {
			if _, ok := seen[k]; !ok {
				seen[k] = fn
			}
		}
	}
	names := make([]string, 0, len(seen))
	for k := range seen {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]any, len(names))
	for i, k := range names {
		out[i] = functionInfo(seen[k].Name, seen[k])
	}
	return out, true
}

func (functionDrive) content(s *psShell, path string) (any, bool) {
	fn, ok := s.lookupFunc(path)
	if !ok {
		return nil, false
	}
	return &psScriptBlock{node: fn.Kids[0]}, true
}

func (functionDrive) set(s *psShell, path string, v any) bool {
	sb, ok := v.(*psScriptBlock)
	if !ok {
		return false
	}
	s.defineFunc(&parser.Node{Kind: "function", Name: path, Kids: []*parser.Node{sb.node}})
	return true
}

func (functionDrive) remove(s *psShell, path string) bool {
	for sc := s.scope; sc != nil; sc = sc.parent {
		if _, ok := sc.funcs[strings.ToLower(path)]; ok {
			delete(sc.funcs, strings.ToLower(path))
			return true
		}
	}
	return false
}

// registryDrive is HKLM: or HKCU: (about_Registry_Provider), read-only:
// what scripts write there is not simulated.
type registryDrive struct{ hive string }

func (d registryDrive) key(s *psShell, path string) (process.RegKey, bool, bool) {
	name := d.hive + `\` + path
	k, found, known := s.p.RegistryKey(name)
	if !known {
		s.p.NotSimulated("powershell: registry key " + name)
	}
	return k, found, known
}

// registryKeyObject is the Microsoft.Win32.RegistryKey Get-Item returns.
func registryKeyObject(k process.RegKey) *psObject {
	names := make([]any, len(k.Values))
	for i, v := range k.Values {
		names[i] = v.Name
	}
	o := &psObject{typeName: "Microsoft.Win32.RegistryKey", str: k.Name,
		props: []psProp{{"Name", k.Name}, {"Property", names}, {"SubKeyCount", int64(len(k.SubKeys))}, {"ValueCount", int64(len(k.Values))}}}
	o.methods = map[string]func(args []any) any{
		"getvalue": func(args []any) any {
			if v, ok := k.Value(toStr(argAt(args, 0))); ok {
				return v.Data
			}
			return argAt(args, 1)
		},
		"getvaluenames": func([]any) any { return names },
		"getsubkeynames": func([]any) any {
			out := make([]any, len(k.SubKeys))
			for i, n := range k.SubKeys {
				out[i] = n
			}
			return out
		},
	}
	return o
}

func (d registryDrive) item(s *psShell, path string) (any, bool, bool) {
	k, found, known := d.key(s, path)
	if !found {
		return nil, false, known
	}
	return registryKeyObject(k), true, true
}

func (d registryDrive) children(s *psShell, path string) ([]any, bool) {
	k, found, _ := d.key(s, path)
	if !found {
		return nil, false
	}
	if k.SubKeys == nil {
		s.p.NotSimulated("powershell: the subkeys of registry key " + k.Name)
	}
	var out []any
	for _, sub := range k.SubKeys {
		if c, ok, _ := d.key(s, path+`\`+sub); ok {
			out = append(out, registryKeyObject(c))
		}
	}
	return out, true
}

func (registryDrive) content(*psShell, string) (any, bool) { return nil, false }

func (d registryDrive) set(s *psShell, path string, _ any) bool {
	s.p.NotSimulated("powershell: writing registry key " + d.hive + `\` + path)
	return true
}

func (d registryDrive) remove(s *psShell, path string) bool {
	s.p.NotSimulated("powershell: removing registry key " + d.hive + `\` + path)
	return true
}

// itemNotFound is the provider cmdlets' error for a path that is not there.
func itemNotFound(c *psCall, path string) {
	c.fail("Cannot find path '"+path+"' because it does not exist.", "ObjectNotFound", path, "ItemNotFoundException", "PathNotFound")
}

// providerPath runs a cmdlet's work for a path on a provider drive; false
// when the path is the file system's.
func providerPath(c *psCall, p string, work func(d psDrive, rest string)) bool {
	d, rest, ok := driveOf(p)
	if ok {
		work(d, rest)
	}
	return ok
}

// cmdletGetItemProperty is Get-ItemProperty: the registry values of a key
// (or those -Name picks) as one object, or a file system item.
func cmdletGetItemProperty(c *psCall) {
	names := enumerate(c.named["Name"])
	for _, p := range c.paths() {
		d, rest, ok := driveOf(p)
		reg, isReg := d.(registryDrive)
		if !ok || !isReg {
			c.s.invokeCmdlet(psCmdletIndex["get-item"], &parser.Node{Kind: "command", Pos: c.node.Pos, End: c.node.End, Args: []parser.Arg{{Value: &parser.Node{Kind: "lit", Val: p}}}}, nil, false, c.out)
			continue
		}
		k, found, known := reg.key(c.s, rest)
		if !found {
			if known {
				itemNotFound(c, p)
			}
			continue
		}
		var props []psProp
		for _, v := range k.Values {
			if len(names) == 0 || containsFold(names, v.Name) {
				props = append(props, psProp{v.Name, v.Data})
			}
		}
		for _, n := range names {
			if _, ok := k.Value(toStr(n)); !ok {
				c.fail("Property "+toStr(n)+" does not exist at path "+k.Name+".", "InvalidArgument", toStr(n), "PSArgumentException", "System.Management.Automation.PSArgumentException")
			}
		}
		if len(props) == 0 {
			continue
		}
		parent, child, _ := cutLast(k.Name, `\`)
		props = append(props,
			psProp{"PSPath", `Microsoft.PowerShell.Core\Registry::` + k.Name},
			psProp{"PSParentPath", `Microsoft.PowerShell.Core\Registry::` + parent},
			psProp{"PSChildName", child},
			psProp{"PSDrive", reg.hive},
			psProp{"PSProvider", `Microsoft.PowerShell.Core\Registry`})
		o := customObject(props)
		o.view, o.cols = "list", nil
		c.out(o)
	}
}

// cmdletGetItemPropertyValue is Get-ItemPropertyValue: the values -Name
// names of a registry key.
func cmdletGetItemPropertyValue(c *psCall) {
	for _, p := range c.paths() {
		d, rest, _ := driveOf(p)
		reg, isReg := d.(registryDrive)
		if !isReg {
			c.s.p.NotSimulated("powershell: Get-ItemPropertyValue " + p)
			continue
		}
		k, found, known := reg.key(c.s, rest)
		if !found {
			if known {
				itemNotFound(c, p)
			}
			continue
		}
		for _, n := range enumerate(c.named["Name"]) {
			v, ok := k.Value(toStr(n))
			if !ok {
				c.fail("Property "+toStr(n)+" does not exist at path "+k.Name+".", "InvalidArgument", toStr(n), "PSArgumentException", "System.Management.Automation.PSArgumentException")
				continue
			}
			c.out(v.Data)
		}
	}
}

// cmdletSetItem is Set-Item on a provider drive (env:, variable:,
// function:); file system items have no value to set.
func cmdletSetItem(c *psCall) {
	for _, p := range c.paths() {
		if !providerPath(c, p, func(d psDrive, rest string) {
			if !d.set(c.s, rest, c.named["Value"]) {
				c.s.p.NotSimulated("powershell: Set-Item " + p)
			}
		}) {
			c.s.p.NotSimulated("powershell: Set-Item on the file system")
		}
	}
}

func containsFold(list []any, s string) bool {
	for _, x := range list {
		if strings.EqualFold(toStr(x), s) {
			return true
		}
	}
	return false
}

func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return "", s, false
}

func init() {
	registerCmdlets(
		&psCmdlet{name: "Get-ItemProperty", aliases: []string{"gp"}, help: "Gets the properties of an item (registry values).", positional: []string{"Path", "Name*"}, params: []string{"LiteralPath"}, run: cmdletGetItemProperty},
		&psCmdlet{name: "Get-ItemPropertyValue", aliases: []string{"gpv"}, help: "Gets the value of item properties (registry values).", positional: []string{"Path", "Name*"}, params: []string{"LiteralPath"}, run: cmdletGetItemPropertyValue},
		&psCmdlet{name: "Set-Item", aliases: []string{"si"}, help: "Sets an item's value (env:, variable:, function:).", positional: []string{"Path", "Value"}, params: []string{"LiteralPath"}, switches: []string{"Force", "PassThru"}, run: cmdletSetItem},
	)
}
