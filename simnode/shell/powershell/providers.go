package powershell

import (
	"sort"
	"strings"
	"wink.dev/wink/simnode/shell/powershell/engine"
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
	item(s *engine.Shell, path string) (v any, found, known bool)
	// children lists the items of the container at path.
	children(s *engine.Shell, path string) ([]any, bool)
	// content is what Get-Content reads of an item.
	content(s *engine.Shell, path string) (any, bool)
	// set gives the item at path a value (Set-Item, New-Item); false when
	// the provider does not simulate it.
	set(s *engine.Shell, path string, v any) bool
	// remove removes the item at path; false when it is not there.
	remove(s *engine.Shell, path string) bool
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
func nameValue(typeName, name string, v any) *engine.Object {
	return &engine.Object{TypeName: typeName, View: "table", Str: typeName,
		Cols: []engine.Col{{Name: "Name", Width: 31}, {Name: "Value"}}, Props: []engine.Prop{{Name: "Name", Val: name}, {Name: "Key", Val: name}, {Name: "Value", Val: v}}}
}

// envDrive is env: (about_Environment_Provider).
type envDrive struct{}

func (envDrive) item(s *engine.Shell, path string) (any, bool, bool) {
	if path == "" {
		return nil, true, true
	}
	v, ok := s.P.Vars.Get(path)
	return nameValue("System.Collections.DictionaryEntry", path, v), ok, true
}

func (envDrive) children(s *engine.Shell, path string) ([]any, bool) {
	if path != "" {
		return nil, false
	}
	var out []any
	for _, e := range s.P.Vars.Sorted() {
		out = append(out, nameValue("System.Collections.DictionaryEntry", e.Name, e.Value))
	}
	return out, true
}

func (envDrive) content(s *engine.Shell, path string) (any, bool) {
	v, ok := s.P.Vars.Get(path)
	return v, ok
}

func (envDrive) set(s *engine.Shell, path string, v any) bool {
	s.SetVar("env:"+path, v)
	return true
}

func (envDrive) remove(s *engine.Shell, path string) bool {
	if _, ok := s.P.Vars.Get(path); !ok {
		return false
	}
	s.P.Vars.Unset(path)
	return true
}

// variableDrive is variable: (about_Variable_Provider): the variables
// visible in the current scope.
type variableDrive struct{}

func (variableDrive) item(s *engine.Shell, path string) (any, bool, bool) {
	if path == "" {
		return nil, true, true
	}
	v, _, ok := s.LookupVar(path)
	return engine.VarObject(path, v), ok, true
}

func (variableDrive) children(s *engine.Shell, path string) ([]any, bool) {
	if path != "" {
		return nil, false
	}
	vars := s.VisibleVars(s.Scope, false)
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]any, len(names))
	for i, k := range names {
		out[i] = engine.VarObject(k, vars[k])
	}
	return out, true
}

func (variableDrive) content(s *engine.Shell, path string) (any, bool) {
	v, _, ok := s.LookupVar(path)
	return v, ok
}

func (variableDrive) set(s *engine.Shell, path string, v any) bool {
	s.SetVar(path, v)
	return true
}

func (variableDrive) remove(s *engine.Shell, path string) bool {
	_, sc, ok := s.LookupVar(path)
	if ok {
		s.RemoveIn(sc, path)
	}
	return ok
}

// functionDrive is function: (about_Function_Provider).
type functionDrive struct{}

func functionInfo(name string, fn *parser.Node) *engine.Object {
	return &engine.Object{TypeName: "System.Management.Automation.FunctionInfo", View: "table", Str: name,
		Cols:  []engine.Col{{Name: "CommandType", Width: 15}, {Name: "Name", Width: 50}, {Name: "Version", Width: 10}, {Name: "Source"}},
		Props: []engine.Prop{{Name: "CommandType", Val: "Function"}, {Name: "Name", Val: name}, {Name: "Version", Val: ""}, {Name: "Source", Val: ""}, {Name: "ScriptBlock", Val: &engine.ScriptBlock{Node: fn.Kids[0]}}}}
}

func (functionDrive) item(s *engine.Shell, path string) (any, bool, bool) {
	if path == "" {
		return nil, true, true
	}
	fn, ok := s.LookupFunc(path)
	if !ok {
		return nil, false, true
	}
	return functionInfo(path, fn), true, true
}

func (functionDrive) children(s *engine.Shell, path string) ([]any, bool) {
	if path != "" {
		return nil, false
	}
	seen := map[string]*parser.Node{}
	for sc := s.Scope; sc != nil; sc = sc.Parent {
		for k, fn := range sc.Funcs {
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

func (functionDrive) content(s *engine.Shell, path string) (any, bool) {
	fn, ok := s.LookupFunc(path)
	if !ok {
		return nil, false
	}
	return &engine.ScriptBlock{Node: fn.Kids[0]}, true
}

func (functionDrive) set(s *engine.Shell, path string, v any) bool {
	sb, ok := v.(*engine.ScriptBlock)
	if !ok {
		return false
	}
	s.DefineFunc(&parser.Node{Kind: "function", Name: path, Kids: []*parser.Node{sb.Node}})
	return true
}

func (functionDrive) remove(s *engine.Shell, path string) bool {
	for sc := s.Scope; sc != nil; sc = sc.Parent {
		if _, ok := sc.Funcs[strings.ToLower(path)]; ok {
			delete(sc.Funcs, strings.ToLower(path))
			return true
		}
	}
	return false
}

// registryDrive is HKLM: or HKCU: (about_Registry_Provider), read-only:
// what scripts write there is not simulated.
type registryDrive struct{ hive string }

func (d registryDrive) key(s *engine.Shell, path string) (process.RegKey, bool, bool) {
	name := d.hive + `\` + path
	k, found, known := s.P.RegistryKey(name)
	if !known {
		s.P.NotSimulated("powershell: registry key " + name)
	}
	return k, found, known
}

// registryKeyObject is the Microsoft.Win32.RegistryKey Get-Item returns.
func registryKeyObject(k process.RegKey) *engine.Object {
	names := make([]any, len(k.Values))
	for i, v := range k.Values {
		names[i] = v.Name
	}
	o := &engine.Object{TypeName: "Microsoft.Win32.RegistryKey", Str: k.Name,
		Props: []engine.Prop{{Name: "Name", Val: k.Name}, {Name: "Property", Val: names}, {Name: "SubKeyCount", Val: int64(len(k.SubKeys))}, {Name: "ValueCount", Val: int64(len(k.Values))}}}
	o.Methods = map[string]func(args []any) any{
		"getvalue": func(args []any) any {
			if v, ok := k.Value(engine.ToStr(engine.ArgAt(args, 0))); ok {
				return v.Data
			}
			return engine.ArgAt(args, 1)
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

func (d registryDrive) item(s *engine.Shell, path string) (any, bool, bool) {
	k, found, known := d.key(s, path)
	if !found {
		return nil, false, known
	}
	return registryKeyObject(k), true, true
}

func (d registryDrive) children(s *engine.Shell, path string) ([]any, bool) {
	k, found, _ := d.key(s, path)
	if !found {
		return nil, false
	}
	if k.SubKeys == nil {
		s.P.NotSimulated("powershell: the subkeys of registry key " + k.Name)
	}
	var out []any
	for _, sub := range k.SubKeys {
		if c, ok, _ := d.key(s, path+`\`+sub); ok {
			out = append(out, registryKeyObject(c))
		}
	}
	return out, true
}

func (registryDrive) content(*engine.Shell, string) (any, bool) { return nil, false }

func (d registryDrive) set(s *engine.Shell, path string, _ any) bool {
	s.P.NotSimulated("powershell: writing registry key " + d.hive + `\` + path)
	return true
}

func (d registryDrive) remove(s *engine.Shell, path string) bool {
	s.P.NotSimulated("powershell: removing registry key " + d.hive + `\` + path)
	return true
}

// itemNotFound is the provider cmdlets' error for a path that is not there.
func itemNotFound(c *engine.Call, path string) {
	c.Fail("Cannot find path '"+path+"' because it does not exist.", "ObjectNotFound", path, "ItemNotFoundException", "PathNotFound")
}

// providerPath runs a cmdlet's work for a path on a provider drive; false
// when the path is the file system's.
func providerPath(c *engine.Call, p string, work func(d psDrive, rest string)) bool {
	d, rest, ok := driveOf(p)
	if ok {
		work(d, rest)
	}
	return ok
}

// cmdletGetItemProperty is Get-ItemProperty: the registry values of a key
// (or those -Name picks) as one object, or a file system item.
func cmdletGetItemProperty(c *engine.Call) {
	names := engine.Enumerate(c.Named["Name"])
	for _, p := range c.Paths() {
		d, rest, ok := driveOf(p)
		reg, isReg := d.(registryDrive)
		if !ok || !isReg {
			c.S.InvokeCmdlet(engine.CmdletIndex["get-item"], &parser.Node{Kind: "command", Pos: c.Node.Pos, End: c.Node.End, Args: []parser.Arg{{Value: &parser.Node{Kind: "lit", Val: p}}}}, nil, false, c.Out)
			continue
		}
		k, found, known := reg.key(c.S, rest)
		if !found {
			if known {
				itemNotFound(c, p)
			}
			continue
		}
		var props []engine.Prop
		for _, v := range k.Values {
			if len(names) == 0 || containsFold(names, v.Name) {
				props = append(props, engine.Prop{Name: v.Name, Val: v.Data})
			}
		}
		for _, n := range names {
			if _, ok := k.Value(engine.ToStr(n)); !ok {
				c.Fail("Property "+engine.ToStr(n)+" does not exist at path "+k.Name+".", "InvalidArgument", engine.ToStr(n), "PSArgumentException", "System.Management.Automation.PSArgumentException")
			}
		}
		if len(props) == 0 {
			continue
		}
		parent, child, _ := cutLast(k.Name, `\`)
		props = append(props,
			engine.Prop{Name: "PSPath", Val: `Microsoft.PowerShell.Core\Registry::` + k.Name},
			engine.Prop{Name: "PSParentPath", Val: `Microsoft.PowerShell.Core\Registry::` + parent},
			engine.Prop{Name: "PSChildName", Val: child},
			engine.Prop{Name: "PSDrive", Val: reg.hive},
			engine.Prop{Name: "PSProvider", Val: `Microsoft.PowerShell.Core\Registry`})
		o := engine.CustomObject(props)
		o.View, o.Cols = "list", nil
		c.Out(o)
	}
}

// cmdletGetItemPropertyValue is Get-ItemPropertyValue: the values -Name
// names of a registry key.
func cmdletGetItemPropertyValue(c *engine.Call) {
	for _, p := range c.Paths() {
		d, rest, _ := driveOf(p)
		reg, isReg := d.(registryDrive)
		if !isReg {
			c.S.P.NotSimulated("powershell: Get-ItemPropertyValue " + p)
			continue
		}
		k, found, known := reg.key(c.S, rest)
		if !found {
			if known {
				itemNotFound(c, p)
			}
			continue
		}
		for _, n := range engine.Enumerate(c.Named["Name"]) {
			v, ok := k.Value(engine.ToStr(n))
			if !ok {
				c.Fail("Property "+engine.ToStr(n)+" does not exist at path "+k.Name+".", "InvalidArgument", engine.ToStr(n), "PSArgumentException", "System.Management.Automation.PSArgumentException")
				continue
			}
			c.Out(v.Data)
		}
	}
}

// cmdletSetItem is Set-Item on a provider drive (env:, variable:,
// function:); file system items have no value to set.
func cmdletSetItem(c *engine.Call) {
	for _, p := range c.Paths() {
		if !providerPath(c, p, func(d psDrive, rest string) {
			if !d.set(c.S, rest, c.Named["Value"]) {
				c.S.P.NotSimulated("powershell: Set-Item " + p)
			}
		}) {
			c.S.P.NotSimulated("powershell: Set-Item on the file system")
		}
	}
}

func containsFold(list []any, s string) bool {
	for _, x := range list {
		if strings.EqualFold(engine.ToStr(x), s) {
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
	engine.RegisterCmdlets(
		&engine.Cmdlet{Name: "Get-ItemProperty", Aliases: []string{"gp"}, Help: "Gets the properties of an item (registry values).", Positional: []string{"Path", "Name*"}, Params: []string{"LiteralPath"}, Run: cmdletGetItemProperty},
		&engine.Cmdlet{Name: "Get-ItemPropertyValue", Aliases: []string{"gpv"}, Help: "Gets the value of item properties (registry values).", Positional: []string{"Path", "Name*"}, Params: []string{"LiteralPath"}, Run: cmdletGetItemPropertyValue},
		&engine.Cmdlet{Name: "Set-Item", Aliases: []string{"si"}, Help: "Sets an item's value (env:, variable:, function:).", Positional: []string{"Path", "Value"}, Params: []string{"LiteralPath"}, Switches: []string{"Force", "PassThru"}, Run: cmdletSetItem},
	)
}
