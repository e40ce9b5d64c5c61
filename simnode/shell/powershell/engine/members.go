package engine

import (
	"strings"
	"wink.dev/wink/simnode/shell/powershell/parser"

	"wink.dev/wink/simnode/shell/process"
)

func (s *Shell) cast(t string, v any) any {
	switch strings.ToLower(strings.TrimPrefix(strings.ToLower(t), "system.")) {
	case "int", "int32", "int64", "long":
		return ToInt(v)
	case "string":
		return ToStr(v)
	case "bool", "boolean":
		return ToBool(v)
	case "double", "float", "single", "decimal":
		return ToFloat(v)
	case "array", "object[]", "string[]", "int[]", "collections.arraylist", "collections.generic.list[string]", "collections.generic.list[object]":
		if v == nil {
			return []any{}
		}
		return Enumerate(v)
	case "void":
		return nil
	case "pscustomobject", "management.automation.pscustomobject":
		if h, ok := v.(*Hash); ok {
			return CustomObject(HashProps(h))
		}
	case "datetime":
		if d, ok := parseDate(ToStr(v)); ok {
			return d
		}
	case "version":
		if isVersion(v) {
			return v
		}
		if ver, ok := parseVersion(ToStr(v)); ok {
			return ver
		}
		s.throwStmt(&ErrorRecord{Msg: "Cannot convert value \"" + ToStr(v) + "\" to type \"System.Version\".", Category: "InvalidArgument", Target: ":", Reason: "RuntimeException", Fqid: "InvalidCastParseTargetInvocation"})
	case "char":
		if i, ok := v.(int64); ok {
			return string(rune(i))
		}
	case "byte[]":
		return Enumerate(v)
	case "xml", "ipaddress", "net.ipaddress", "uri", "regex", "scriptblock", "timespan", "guid":
		s.P.NotSimulated("powershell: [" + t + "] cast")
	}
	return v
}

func (s *Shell) index(obj, idx any) any {
	switch o := obj.(type) {
	case []any:
		i := int(ToInt(idx))
		if i < 0 {
			i += len(o)
		}
		if i >= 0 && i < len(o) {
			return o[i]
		}
		return nil
	case string:
		i := int(ToInt(idx))
		if i < 0 {
			i += len(o)
		}
		if i >= 0 && i < len(o) {
			return string(o[i])
		}
	case *Hash:
		v, _ := o.get(ToStr(idx))
		return v
	case *Object:
		v, _ := o.get(ToStr(idx))
		return v
	}
	return nil
}

// member is .Prop, .Method(args) and [Type]::Static.
func (s *Shell) member(n *parser.Node) any {
	var args []any
	isCall := n.Kind == "call"
	if isCall {
		for _, a := range n.Kids[1:] {
			args = append(args, s.eval(a))
		}
	}
	name := n.Name
	if strings.HasPrefix(name, "$") {
		name = ToStr(s.GetVar(name[1:]))
	}
	if n.Op == "static" && n.Kids[0].Kind == "type" {
		return s.static(n.Kids[0].Name, name, args, isCall)
	}
	obj := s.eval(n.Kids[0])
	if obj == nil && isCall {
		// about_Automatic_Variables / about_Null: calling a method on
		// $null is a statement-terminating RuntimeException
		s.throwStmt(&ErrorRecord{Msg: "You cannot call a method on a null-valued expression.", Category: "InvalidOperation", Target: ":", Reason: "RuntimeException", Fqid: "InvokeMethodOnNull", pos: n.Pos, end: n.End})
	}
	if list, ok := obj.([]any); ok && isCall && strings.EqualFold(name, "add") && n.Kids[0].Kind == "var" {
		// $list.Add(x) on an ArrayList or List[T] a variable holds: the
		// variable's list grows (arrays here are values); Add returns the
		// new element's index
		s.SetVar(n.Kids[0].Name, append(list, ArgAt(args, 0)))
		return int64(len(list))
	}
	return s.MemberOf(obj, name, args, isCall)
}

func (s *Shell) MemberOf(obj any, name string, args []any, isCall bool) any {
	lname := strings.ToLower(name)
	arg := func(i int) any {
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	if isCall && lname == "tostring" && len(args) == 0 {
		return ToStr(obj)
	}
	if isCall && lname == "gettype" {
		full := fullTypeName(obj)
		return &Object{TypeName: "System.RuntimeType", Str: full, Props: []Prop{{"Name", typeName(obj)}, {"FullName", full}}}
	}
	if v, ok := s.moreMembers(obj, lname, args, isCall); ok {
		return v
	}
	switch o := obj.(type) {
	case string:
		switch lname {
		case "length":
			return int64(len(o))
		case "toupper", "toupperinvariant":
			return strings.ToUpper(o)
		case "tolower", "tolowerinvariant":
			return strings.ToLower(o)
		case "trim":
			if len(args) > 0 {
				return strings.Trim(o, ToStr(arg(0)))
			}
			return strings.TrimSpace(o)
		case "trimend":
			if len(args) > 0 {
				return strings.TrimRight(o, ToStr(arg(0)))
			}
			return strings.TrimRight(o, " \t\r\n")
		case "trimstart":
			if len(args) > 0 {
				return strings.TrimLeft(o, ToStr(arg(0)))
			}
			return strings.TrimLeft(o, " \t\r\n")
		case "contains":
			return strings.Contains(o, ToStr(arg(0)))
		case "startswith":
			return strings.HasPrefix(o, ToStr(arg(0)))
		case "endswith":
			return strings.HasSuffix(o, ToStr(arg(0)))
		case "replace":
			return strings.ReplaceAll(o, ToStr(arg(0)), ToStr(arg(1)))
		case "split":
			sep := ToStr(arg(0))
			if sep == "" {
				return toAnySlice(strings.Fields(o))
			}
			return toAnySlice(strings.FieldsFunc(o, func(r rune) bool { return strings.ContainsRune(sep, r) }))
		case "indexof":
			return int64(strings.Index(o, ToStr(arg(0))))
		case "substring":
			i := int(ToInt(arg(0)))
			if i < 0 || i > len(o) {
				return ""
			}
			if len(args) > 1 {
				j := i + int(ToInt(arg(1)))
				if j > len(o) || j < i {
					j = len(o)
				}
				return o[i:j]
			}
			return o[i:]
		}
	case []any:
		switch lname {
		case "count", "length":
			return int64(len(o))
		case "contains":
			for _, x := range o {
				if looseEqual(x, arg(0), true) {
					return true
				}
			}
			return false
		}
		if !isCall {
			// member enumeration
			var out []any
			for _, x := range o {
				if v := s.MemberOf(x, name, nil, false); v != nil {
					out = append(out, v)
				}
			}
			return Collapse(out)
		}
	case *Hash:
		switch lname {
		case "count":
			if !isCall {
				return int64(len(o.keys))
			}
		case "keys":
			if !isCall {
				return toAnySlice(o.keys)
			}
		case "values":
			if !isCall {
				var vs []any
				for _, k := range o.keys {
					v, _ := o.get(k)
					vs = append(vs, v)
				}
				return vs
			}
		case "get_item", "item":
			if isCall {
				v, _ := o.get(ToStr(arg(0)))
				return v
			}
		case "set_item", "add":
			if isCall {
				o.Set(ToStr(arg(0)), arg(1))
				return nil
			}
		case "getenumerator":
			if isCall {
				var out []any
				for _, k := range o.keys {
					v, _ := o.get(k)
					out = append(out, &Object{TypeName: "System.Collections.DictionaryEntry", View: "table", Str: "System.Collections.DictionaryEntry",
						Cols:  []Col{{Name: "Name", Width: 31}, {Name: "Value"}},
						Props: []Prop{{"Name", k}, {"Key", k}, {"Value", v}}})
				}
				return out
			}
		case "containskey", "contains":
			_, ok := o.get(ToStr(arg(0)))
			return ok
		case "remove":
			lk := strings.ToLower(ToStr(arg(0)))
			delete(o.m, lk)
			for i, k := range o.keys {
				if strings.ToLower(k) == lk {
					o.keys = append(o.keys[:i], o.keys[i+1:]...)
					break
				}
			}
			return nil
		}
		v, _ := o.get(name)
		return v
	case *Object:
		if isCall {
			if m, ok := o.Methods[lname]; ok {
				return m(args)
			}
			return nil
		}
		v, _ := o.get(name)
		return v
	case *Enum:
		if lname == "value__" {
			return o.Val
		}
	case int64, float64:
		return nil
	}
	return nil
}

func typeName(v any) string {
	switch o := v.(type) {
	case string:
		return "String"
	case int64:
		return "Int32"
	case float64:
		return "Double"
	case bool:
		return "Boolean"
	case []any:
		return "Object[]"
	case *Hash:
		return "Hashtable"
	case *Date:
		return "DateTime"
	case *Object:
		if i := strings.LastIndex(o.TypeName, "."); i >= 0 {
			return o.TypeName[i+1:]
		}
		return o.TypeName
	}
	return "Object"
}

// static is [Type]::Member.
func (s *Shell) static(t, name string, args []any, isCall bool) any {
	lt := strings.ToLower(strings.TrimPrefix(strings.ToLower(t), "system."))
	ln := strings.ToLower(name)
	arg := func(i int) any {
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	switch lt {
	case "version":
		// [version]::new(major, minor[, build[, revision]]) and ::Parse
		switch {
		case ln == "new" && len(args) >= 2:
			parts := make([]int64, len(args))
			for i, a := range args {
				parts[i] = ToInt(a)
			}
			return newVersion(parts...)
		case ln == "new" && len(args) == 1, ln == "parse":
			return s.cast("version", arg(0))
		case ln == "tryparse":
			_, ok := parseVersion(ToStr(arg(0)))
			return ok
		}
	case "environment":
		switch ln {
		case "machinename":
			return process.ComputerName(s.P.Env.Hostname)
		case "username":
			u, _ := s.P.Vars.Get("USERNAME")
			return u
		case "getenvironmentvariable":
			if t := strings.ToLower(ToStr(arg(1))); t == "machine" || t == "user" {
				s.P.NotSimulated("powershell: [Environment]::GetEnvironmentVariable " + ToStr(arg(1)))
			}
			v, ok := s.P.Vars.Get(ToStr(arg(0)))
			if !ok {
				return nil
			}
			return v
		case "setenvironmentvariable":
			// The process scope (no target, or "Process") changes this
			// process's environment; "User" and "Machine" go to the
			// registry, seen only by processes started later.
			if t := strings.ToLower(ToStr(arg(2))); t == "" || t == "process" {
				s.P.Vars.Set(ToStr(arg(0)), ToStr(arg(1)))
			}
			return nil
		case "newline":
			return "\r\n"
		case "exit":
			panic(psExitSignal{int(ToInt(arg(0)))})
		}
	case "net.dns":
		if ln == "gethostaddresses" || ln == "gethostentry" {
			addrs, err := s.P.Resolve(ToStr(arg(0)))
			if err != nil {
				s.throwStmt(methodError("GetHostAddresses", 1, "No such host is known", "SocketException"))
			}
			var out []any
			for _, a := range addrs {
				out = append(out, &Object{TypeName: "System.Net.IPAddress", Str: a.String(), Props: []Prop{{"IPAddressToString", a.String()}, {"AddressFamily", "InterNetwork"}}})
			}
			return Collapse(out)
		}
		if ln == "gethostname" {
			return s.P.Env.Hostname
		}
	}
	if v, ok := s.staticMember(t, lt, ln, args, isCall); ok {
		return v
	}
	return nil
}

func ArgAt(a []any, i int) any {
	if i < len(a) {
		return a[i]
	}
	return nil
}
