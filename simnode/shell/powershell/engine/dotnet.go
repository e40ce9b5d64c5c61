package engine

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
)

// This file is the .NET members scripts use beyond members.go (issue
// 18): [Math], [DateTime] and dates, [System.IO.Path], [System.IO.File],
// [System.IO.Directory], [Convert], [Text.Encoding], [string],
// [Environment]::OSVersion, System.Version ($PSVersionTable.PSVersion),
// exceptions' ::new, and string methods. A static member it does not know
// is a NotSimulated construct: it answers $null, as an open world would
// not fail there.

// Date is a System.DateTime.
type Date struct{ T time.Time }

// String is a DateTime as PowerShell converts it to a string (invariant
// culture).
func (d *Date) String() string { return d.T.Format("01/02/2006 15:04:05") }

// display is a DateTime as Out-Default shows it (en-US long format).
func (d *Date) display() string { return d.T.Format("Monday, January 2, 2006 3:04:05 PM") }

// TimeSpan is a System.TimeSpan.
func TimeSpan(d time.Duration) *Object {
	neg := ""
	if d < 0 {
		neg = "-"
	}
	a := d.Abs()
	str := fmt.Sprintf("%s%02d:%02d:%02d", neg, int(a.Hours())%24, int(a.Minutes())%60, int(a.Seconds())%60)
	if days := int(a.Hours()) / 24; days > 0 {
		str = fmt.Sprintf("%s%d.%s", neg, days, str[len(neg):])
	}
	if ms := a % time.Second; ms > 0 {
		str += fmt.Sprintf(".%07d", ms/100)
	}
	return &Object{TypeName: "System.TimeSpan", Str: str, View: "list", Props: []Prop{
		{"Days", int64(d.Hours() / 24)}, {"Hours", int64(d.Hours()) % 24}, {"Minutes", int64(d.Minutes()) % 60}, {"Seconds", int64(d.Seconds()) % 60},
		{"Milliseconds", int64(d.Milliseconds()) % 1000}, {"Ticks", int64(d / 100)}, {"TotalDays", d.Hours() / 24}, {"TotalHours", d.Hours()},
		{"TotalMinutes", d.Minutes()}, {"TotalSeconds", d.Seconds()}, {"TotalMilliseconds", float64(d.Milliseconds())}}}
}

// parseVersion is System.Version.Parse: two to four dot-separated
// non-negative numbers (https://learn.microsoft.com/dotnet/api/system.version.parse).
func parseVersion(text string) (*Object, bool) {
	fields := strings.Split(strings.TrimSpace(text), ".")
	if len(fields) < 2 || len(fields) > 4 {
		return nil, false
	}
	parts := make([]int64, len(fields))
	for i, f := range fields {
		n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 32)
		if err != nil || n < 0 {
			return nil, false
		}
		parts[i] = n
	}
	return newVersion(parts...), true
}

// isVersion reports whether v is a System.Version.
func isVersion(v any) bool {
	o, ok := v.(*Object)
	return ok && o.TypeName == "System.Version"
}

// compareVersions is System.Version.CompareTo: Major, Minor, Build and
// Revision in turn, an undefined component (-1) before any defined one.
// The right side converts to a version; ok is false when it cannot.
func compareVersions(l *Object, r any) (c int, ok bool) {
	rv, isV := r.(*Object)
	if !isVersion(r) {
		if rv, isV = parseVersion(ToStr(r)); !isV {
			return 0, false
		}
	}
	for _, name := range []string{"Major", "Minor", "Build", "Revision"} {
		a, _ := l.get(name)
		b, _ := rv.get(name)
		if d := ToInt(a) - ToInt(b); d != 0 {
			if d < 0 {
				return -1, true
			}
			return 1, true
		}
	}
	return 0, true
}

// newVersion is a System.Version, shown as its table.
func newVersion(parts ...int64) *Object {
	names := []string{"Major", "Minor", "Build", "Revision"}
	o := &Object{TypeName: "System.Version", View: "table"}
	var strs []string
	for i, n := range names {
		v := int64(-1)
		if i < len(parts) {
			v = parts[i]
			strs = append(strs, strconv.FormatInt(v, 10))
		}
		o.Props = append(o.Props, Prop{n, v})
		w := 7
		if i == 3 {
			w = 0
		}
		o.Cols = append(o.Cols, Col{Name: n, Width: w})
	}
	o.Str = strings.Join(strs, ".")
	return o
}

// osBuild is the build and revision of the image's Windows (env.OSVersion,
// row N3).
func (s *Shell) osBuild() (build, rev int64) {
	parts := strings.Split(s.P.OSVersion(), ".")
	if len(parts) >= 3 {
		build, _ = strconv.ParseInt(parts[2], 10, 64)
	}
	if len(parts) >= 4 {
		rev, _ = strconv.ParseInt(parts[3], 10, 64)
	}
	return build, rev
}

// psVersionTable is $PSVersionTable: Windows PowerShell 5.1 of the image's
// build (about_Automatic_Variables), or pwsh 7.
func (s *Shell) psVersionTable() *Hash {
	h := NewHash()
	build, rev := s.osBuild()
	if s.Pwsh {
		h.Set("PSVersion", newVersion(7, 4, 6))
		h.Set("PSEdition", "Core")
		h.Set("GitCommitId", "7.4.6")
		h.Set("OS", "Microsoft Windows "+s.P.OSVersion())
		h.Set("Platform", "Win32NT")
	} else {
		h.Set("PSVersion", newVersion(5, 1, build, rev))
		h.Set("PSEdition", "Desktop")
		h.Set("PSCompatibleVersions", []any{newVersion(1, 0), newVersion(2, 0), newVersion(3, 0), newVersion(4, 0), newVersion(5, 0), newVersion(5, 1, build, rev)})
		h.Set("BuildVersion", newVersion(10, 0, build, rev))
		h.Set("CLRVersion", newVersion(4, 0, 30319, 42000))
		h.Set("WSManStackVersion", newVersion(3, 0))
		h.Set("PSRemotingProtocolVersion", newVersion(2, 3))
		h.Set("SerializationVersion", newVersion(1, 1, 0, 1))
	}
	return h
}

// fullTypeName is GetType().FullName: System. and typeName but for the
// types of other namespaces.
func fullTypeName(v any) string {
	switch o := v.(type) {
	case *Hash:
		return "System.Collections.Hashtable"
	case *Object:
		if strings.Contains(o.TypeName, ".") {
			return o.TypeName
		}
	}
	return "System." + typeName(v)
}

// encoding is a System.Text.Encoding: UTF8, ASCII, Unicode (UTF-16LE).
func encoding(name string) *Object {
	utf16le := name == "unicode"
	return &Object{TypeName: "System.Text." + map[bool]string{true: "UnicodeEncoding", false: "UTF8Encoding"}[utf16le], Methods: map[string]func([]any) any{
		"getbytes": func(a []any) any {
			str := ToStr(ArgAt(a, 0))
			var out []any
			if utf16le {
				for _, u := range utf16.Encode([]rune(str)) {
					out = append(out, int64(u&0xff), int64(u>>8))
				}
				return out
			}
			for _, c := range []byte(str) {
				if name == "ascii" && c > 127 {
					c = '?'
				}
				out = append(out, int64(c))
			}
			return out
		},
		"getstring": func(a []any) any {
			b := bytesOf(ArgAt(a, 0))
			if utf16le {
				return DecodeText(append([]byte{0xff, 0xfe}, b...))
			}
			return string(b)
		},
	}}
}

func bytesOf(v any) []byte {
	var b []byte
	for _, x := range Enumerate(v) {
		b = append(b, byte(ToInt(x)))
	}
	return b
}

func bytesValue(b []byte) []any {
	out := make([]any, len(b))
	for i, c := range b {
		out[i] = int64(c)
	}
	return out
}

// winPath cleans a Windows path's separators.
func joinWinPath(parts []any) string {
	out := ""
	for _, p := range parts {
		ps := ToStr(p)
		switch {
		case ps == "":
		case out == "" || strings.HasPrefix(ps, `\`) || (len(ps) > 1 && ps[1] == ':'):
			out = ps
		case strings.HasSuffix(out, `\`) || strings.HasSuffix(out, "/"):
			out += ps
		default:
			out += `\` + ps
		}
	}
	return out
}

func lastSep(p string) int { return strings.LastIndexAny(p, `\/`) }

// staticMember is [Type]::Member for the types of this file.
func (s *Shell) staticMember(t, lt, ln string, args []any, isCall bool) (any, bool) {
	arg := func(i int) any { return ArgAt(args, i) }
	ioErr := func(method string, err error, path string) {
		msg, _, reason, _ := FileError(err, s.P.Path(path), false)
		inner := reason
		if reason == "ItemNotFoundException" {
			msg, inner = "Could not find file '"+s.P.Path(path)+"'.", "FileNotFoundException"
		}
		s.throwStmt(methodError(method, len(args), msg, inner))
	}
	switch lt {
	case "math":
		x, y := ToFloat(arg(0)), ToFloat(arg(1))
		switch ln {
		case "pi":
			return math.Pi, true
		case "e":
			return math.E, true
		case "abs":
			if i, ok := arg(0).(int64); ok {
				if i < 0 {
					i = -i
				}
				return i, true
			}
			return math.Abs(x), true
		case "ceiling":
			return math.Ceil(x), true
		case "floor":
			return math.Floor(x), true
		case "truncate":
			return math.Trunc(x), true
		case "round":
			p := math.Pow(10, y)
			return math.RoundToEven(x*p) / p, true
		case "pow":
			return math.Pow(x, y), true
		case "sqrt":
			return math.Sqrt(x), true
		case "max", "min":
			_, fi := arg(0).(float64)
			_, fj := arg(1).(float64)
			v := math.Max(x, y)
			if ln == "min" {
				v = math.Min(x, y)
			}
			if !fi && !fj {
				return int64(v), true
			}
			return v, true
		}
	case "datetime":
		switch ln {
		case "now":
			return &Date{s.P.Now()}, true
		case "utcnow":
			return &Date{s.P.Now().UTC()}, true
		case "today":
			n := s.P.Now()
			return &Date{time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, n.Location())}, true
		case "parse":
			if d, ok := parseDate(ToStr(arg(0))); ok {
				return d, true
			}
			s.throwStmt(methodError("Parse", 1, "String was not recognized as a valid DateTime.", "FormatException"))
		case "parseexact":
			// DateTime.ParseExact(s, format, provider): the .NET custom
			// format as Get-Date -Format reads it
			if t, err := time.Parse(dotnetDate.Replace(ToStr(arg(1))), ToStr(arg(0))); err == nil {
				return &Date{t}, true
			}
			s.throwStmt(methodError("ParseExact", 3, "String was not recognized as a valid DateTime.", "FormatException"))
		}
	case "io.path":
		p := ToStr(arg(0))
		switch ln {
		case "combine":
			return joinWinPath(args), true
		case "getfilename":
			return p[lastSep(p)+1:], true
		case "getdirectoryname":
			if i := lastSep(p); i >= 0 {
				return p[:i], true
			}
			return "", true
		case "getextension":
			b := p[lastSep(p)+1:]
			if i := strings.LastIndex(b, "."); i >= 0 {
				return b[i:], true
			}
			return "", true
		case "getfilenamewithoutextension":
			b := p[lastSep(p)+1:]
			if i := strings.LastIndex(b, "."); i >= 0 {
				return b[:i], true
			}
			return b, true
		case "gettemppath":
			tmp, ok := s.P.Vars.Get("TEMP")
			if !ok {
				tmp = `C:\Users\ContainerAdministrator\AppData\Local\Temp`
			}
			return strings.TrimRight(tmp, `\`) + `\`, true
		case "ispathrooted":
			return strings.HasPrefix(p, `\`) || strings.HasPrefix(p, "/") || (len(p) > 1 && p[1] == ':'), true
		case "getfullpath":
			return s.P.Path(p), true
		case "directoryseparatorchar":
			return `\`, true
		case "pathseparator":
			return ";", true
		}
	case "io.file":
		p := ToStr(arg(0))
		switch ln {
		case "exists":
			_, err := s.P.ReadFile(p)
			return err == nil, true
		case "readalltext", "readalllines":
			b, err := s.P.ReadFile(p)
			if err != nil {
				ioErr(map[string]string{"readalltext": "ReadAllText", "readalllines": "ReadAllLines"}[ln], err, p)
			}
			text := DecodeText(b)
			if ln == "readalllines" {
				return toAnySlice(strings.Split(strings.TrimSuffix(strings.ReplaceAll(text, "\r\n", "\n"), "\n"), "\n")), true
			}
			return text, true
		case "writealltext", "appendalltext", "writealllines":
			text := ToStr(arg(1))
			if ln == "writealllines" {
				text = JoinValues(arg(1), "\r\n") + "\r\n"
			}
			s.Reserve(int64(len(text)))
			if err := s.P.WriteFile(p, []byte(text), ln == "appendalltext"); err != nil {
				ioErr(map[string]string{"writealltext": "WriteAllText", "appendalltext": "AppendAllText", "writealllines": "WriteAllLines"}[ln], err, p)
			}
			return nil, true
		case "delete":
			s.P.Remove(p)
			return nil, true
		}
	case "io.directory":
		switch ln {
		case "exists":
			_, err := s.P.ReadDir(ToStr(arg(0)))
			return err == nil, true
		case "createdirectory":
			return &Object{TypeName: "System.IO.DirectoryInfo", Str: s.P.Path(ToStr(arg(0))), Props: []Prop{{"FullName", s.P.Path(ToStr(arg(0)))}}}, true
		}
	case "convert":
		switch ln {
		case "tobase64string":
			return base64.StdEncoding.EncodeToString(bytesOf(arg(0))), true
		case "frombase64string":
			b, err := base64.StdEncoding.DecodeString(ToStr(arg(0)))
			if err != nil {
				s.throwStmt(methodError("FromBase64String", 1, "The input is not a valid Base-64 string as it contains a non-base 64 character, more than two padding characters, or an illegal character among the padding characters. ", "FormatException"))
			}
			s.Reserve(int64(16 * len(b)))
			return bytesValue(b), true
		case "toint32", "toint64":
			if len(args) > 1 {
				i, _ := strconv.ParseInt(ToStr(arg(0)), int(ToInt(arg(1))), 64)
				return i, true
			}
			return ToInt(arg(0)), true
		case "tostring":
			return ToStr(arg(0)), true
		case "toboolean":
			return ToBool(arg(0)), true
		}
	case "text.encoding":
		return encoding(ln), true
	case "string":
		switch ln {
		case "isnullorempty":
			return ToStr(arg(0)) == "", true
		case "isnullorwhitespace":
			return strings.TrimSpace(ToStr(arg(0))) == "", true
		case "join":
			var parts []any
			for _, a := range args[1:] {
				parts = append(parts, Enumerate(a)...)
			}
			return JoinValues(parts, ToStr(arg(0))), true
		case "format":
			var rest []any
			if len(args) > 1 {
				rest = args[1:]
				if len(rest) == 1 {
					rest = Enumerate(rest[0])
				}
			}
			return formatOp(ToStr(arg(0)), rest), true
		case "empty":
			return "", true
		}
	case "environment":
		switch ln {
		case "osversion":
			build, _ := s.osBuild()
			return &Object{TypeName: "System.OperatingSystem", Str: fmt.Sprintf("Microsoft Windows NT 10.0.%d.0", build), View: "table",
				Cols:  []Col{{Name: "Platform", Width: 9, Right: true}, {Name: "ServicePack", Width: 12}, {Name: "Version", Width: 13}, {Name: "VersionString"}},
				Props: []Prop{{"Platform", &Enum{name: "Win32NT", Val: 2}}, {"ServicePack", ""}, {"Version", newVersion(10, 0, build, 0)}, {"VersionString", fmt.Sprintf("Microsoft Windows NT 10.0.%d.0", build)}}}, true
		case "is64bitoperatingsystem", "is64bitprocess":
			return true, true
		case "processorcount":
			return int64(2), true
		case "currentdirectory":
			return s.P.Dir, true
		case "userdomainname":
			return "User Manager", true
		case "systemdirectory":
			return `C:\Windows\system32`, true
		}
	case "int", "int32", "int64", "long":
		switch ln {
		case "maxvalue":
			if lt == "int64" || lt == "long" {
				return int64(math.MaxInt64), true
			}
			return int64(math.MaxInt32), true
		case "parse":
			i, err := strconv.ParseInt(strings.TrimSpace(ToStr(arg(0))), 10, 64)
			if err != nil {
				s.throwStmt(methodError("Parse", 1, "Input string was not in a correct format.", "FormatException"))
			}
			return i, true
		}
	case "net.securityprotocoltype":
		vals := map[string]int64{"ssl3": 48, "tls": 192, "tls11": 768, "tls12": 3072, "tls13": 12288, "systemdefault": 0}
		if v, ok := vals[ln]; ok {
			return &Enum{name: map[string]string{"ssl3": "Ssl3", "tls": "Tls", "tls11": "Tls11", "tls12": "Tls12", "tls13": "Tls13", "systemdefault": "SystemDefault"}[ln], Val: v}, true
		}
	case "net.servicepointmanager":
		if ln == "securityprotocol" {
			return &Enum{name: "Ssl3, Tls", Val: 240}, true
		}
	case "guid":
		if ln == "newguid" {
			return &Object{TypeName: "System.Guid", Str: "3f2504e0-4f89-11d3-9a0c-0305e82c3301", Props: []Prop{{"Guid", "3f2504e0-4f89-11d3-9a0c-0305e82c3301"}}}, true
		}
	}
	if ln == "new" && strings.HasSuffix(lt, "exception") {
		name := t
		if !strings.Contains(name, ".") {
			name = fullException(name)
		}
		msg := ToStr(arg(0))
		if len(args) == 0 {
			msg = "Exception of type '" + name + "' was thrown."
		}
		return &Object{TypeName: name, Str: msg, Props: []Prop{{"Message", msg}}}, true
	}
	s.P.NotSimulated("powershell: [" + t + "]::" + ln)
	return nil, false
}

// setStatic is [Type]::Member = value. The TLS protocols a script enables
// ([Net.ServicePointManager]::SecurityProtocol) change nothing the
// simulation models; anything else is NotSimulated.
func (s *Shell) setStatic(t, name string, v any) {
	lt := strings.ToLower(strings.TrimPrefix(strings.ToLower(t), "system."))
	if lt == "net.servicepointmanager" {
		return
	}
	s.P.NotSimulated("powershell: [" + t + "]::" + name + " =")
}

// parseDate reads the date forms scripts write.
func parseDate(v string) (*Date, bool) {
	for _, f := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02", "01/02/2006 15:04:05", "01/02/2006"} {
		if t, err := time.Parse(f, strings.TrimSpace(v)); err == nil {
			return &Date{t}, true
		}
	}
	return nil, false
}

// moreMembers are instance members of strings, numbers, dates and scalars
// that members.go does not answer.
func (s *Shell) moreMembers(obj any, ln string, args []any, isCall bool) (any, bool) {
	arg := func(i int) any { return ArgAt(args, i) }
	switch o := obj.(type) {
	case string:
		switch ln {
		case "padleft", "padright":
			n := int(ToInt(arg(0))) - len(o)
			if n <= 0 {
				return o, true
			}
			s.Reserve(int64(n))
			pad := " "
			if len(args) > 1 {
				pad = ToStr(arg(1))[:1]
			}
			if ln == "padleft" {
				return strings.Repeat(pad, n) + o, true
			}
			return o + strings.Repeat(pad, n), true
		case "lastindexof":
			return int64(strings.LastIndex(o, ToStr(arg(0)))), true
		case "insert":
			i := int(ToInt(arg(0)))
			if i >= 0 && i <= len(o) {
				return o[:i] + ToStr(arg(1)) + o[i:], true
			}
		case "remove":
			i := int(ToInt(arg(0)))
			if i >= 0 && i <= len(o) {
				if len(args) > 1 {
					j := min(len(o), i+int(ToInt(arg(1))))
					return o[:i] + o[j:], true
				}
				return o[:i], true
			}
		case "equals":
			return o == ToStr(arg(0)), true
		case "tochararray":
			var out []any
			for _, r := range o {
				out = append(out, string(r))
			}
			return out, true
		case "count":
			if !isCall {
				return int64(1), true
			}
		case "chars":
			if i := int(ToInt(arg(0))); i >= 0 && i < len(o) {
				return string(o[i]), true
			}
		}
	case int64, float64, bool:
		switch ln {
		case "count", "length":
			if !isCall {
				return int64(1), true
			}
		case "tostring":
			if f := ToStr(arg(0)); f != "" {
				return formatOp("{0:"+f+"}", []any{o}), true
			}
		}
	case *Date:
		add := func(unit time.Duration) (any, bool) {
			return &Date{o.T.Add(time.Duration(ToFloat(arg(0)) * float64(unit)))}, true
		}
		switch ln {
		case "addmilliseconds":
			return add(time.Millisecond)
		case "addseconds":
			return add(time.Second)
		case "addminutes":
			return add(time.Minute)
		case "addhours":
			return add(time.Hour)
		case "adddays":
			return add(24 * time.Hour)
		case "tostring":
			if f := ToStr(arg(0)); f != "" {
				return formatDate(o.T, f), true
			}
			return o.String(), true
		case "touniversaltime":
			return &Date{o.T.UTC()}, true
		case "tolocaltime":
			return o, true
		case "subtract":
			if d, ok := arg(0).(*Date); ok {
				return TimeSpan(o.T.Sub(d.T)), true
			}
		case "year":
			return int64(o.T.Year()), true
		case "month":
			return int64(o.T.Month()), true
		case "day":
			return int64(o.T.Day()), true
		case "hour":
			return int64(o.T.Hour()), true
		case "minute":
			return int64(o.T.Minute()), true
		case "second":
			return int64(o.T.Second()), true
		case "dayofweek":
			return o.T.Weekday().String(), true
		case "ticks":
			return o.T.UnixNano()/100 + 621355968000000000, true
		case "date":
			return &Date{time.Date(o.T.Year(), o.T.Month(), o.T.Day(), 0, 0, 0, 0, o.T.Location())}, true
		}
		return nil, true
	case nil:
		if ln == "count" || ln == "length" {
			return int64(0), true
		}
	}
	return nil, false
}

// formatDate is DateTime.ToString(format) / Get-Date -Format.
func formatDate(t time.Time, f string) string {
	switch f {
	case "o", "O":
		return t.Format("2006-01-02T15:04:05.0000000Z07:00")
	case "s":
		return t.Format("2006-01-02T15:04:05")
	case "u":
		return t.UTC().Format("2006-01-02 15:04:05Z")
	case "yyyyMMddHHmmss":
		return t.Format("20060102150405")
	}
	return t.Format(dotnetDate.Replace(f))
}
