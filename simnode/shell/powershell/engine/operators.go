package engine

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"wink.dev/wink/simnode/shell/powershell/parser"
)

func (s *Shell) binary(op string, l, r any) any {
	cs := false
	bare := op
	if len(op) > 2 && (op[0] == 'c' || op[0] == 'i') && parser.ComparisonOps[op] && parser.ComparisonOps[op[1:]] {
		cs = op[0] == 'c'
		bare = op[1:]
	}
	switch bare {
	case "+":
		switch x := l.(type) {
		case string:
			rs := ToStr(r)
			s.Reserve(int64(len(x) + len(rs)))
			return x + rs
		case []any:
			rs := Enumerate(r)
			s.Reserve(int64(16 * (len(x) + len(rs))))
			return append(append([]any{}, x...), rs...)
		case *Hash:
			h := NewHash()
			for _, k := range x.keys {
				v, _ := x.get(k)
				h.Set(k, v)
			}
			if y, ok := r.(*Hash); ok {
				for _, k := range y.keys {
					v, _ := y.get(k)
					h.Set(k, v)
				}
			}
			return h
		case nil:
			return r
		}
		return psArith(l, r, func(a, b float64) float64 { return a + b }, func(a, b int64) int64 { return a + b })
	case "-":
		if a, ok := l.(*Date); ok {
			if b, ok := r.(*Date); ok {
				return TimeSpan(a.T.Sub(b.T))
			}
		}
		return psArith(l, r, func(a, b float64) float64 { return a - b }, func(a, b int64) int64 { return a - b })
	case "*":
		if x, ok := l.(string); ok {
			n := ToInt(r)
			if n < 0 {
				n = 0
			}
			if len(x) > 0 && n > (1<<40)/int64(len(x)) {
				s.outOfMemory()
			}
			s.Reserve(int64(len(x)) * n)
			return strings.Repeat(x, int(n))
		}
		return psArith(l, r, func(a, b float64) float64 { return a * b }, func(a, b int64) int64 { return a * b })
	case "/":
		d := ToFloat(r)
		if d == 0 {
			panic(psThrowSignal{&ErrorRecord{Msg: "Attempted to divide by zero.", Category: "NotSpecified", Target: ":", Reason: "RuntimeException", inner: "DivideByZeroException", innerMsg: "Attempted to divide by zero.", Fqid: "RuntimeException", stmt: true}})
		}
		q := ToFloat(l) / d
		if q == math.Trunc(q) && math.Abs(q) < 1e15 {
			return int64(q)
		}
		return q
	case "%":
		d := ToInt(r)
		if d == 0 {
			panic(psThrowSignal{&ErrorRecord{Msg: "Attempted to divide by zero.", Category: "NotSpecified", Target: ":", Reason: "RuntimeException", inner: "DivideByZeroException", innerMsg: "Attempted to divide by zero.", Fqid: "RuntimeException", stmt: true}})
		}
		return ToInt(l) % d
	case "..":
		return s.rangeArray(l, r)
	case "f":
		return formatOp(ToStr(l), Enumerate(r))
	case "eq", "ne", "gt", "ge", "lt", "le", "like", "notlike", "match", "notmatch":
		if arr, ok := l.([]any); ok {
			var out []any
			for _, x := range arr {
				if ToBool(s.compare(bare, x, r, cs)) {
					out = append(out, x)
				}
			}
			if out == nil {
				return []any{}
			}
			return out
		}
		return s.compare(bare, l, r, cs)
	case "contains", "notcontains":
		found := false
		for _, x := range Enumerate(l) {
			if looseEqual(x, r, !cs) {
				found = true
			}
		}
		return found == (bare == "contains")
	case "in", "notin":
		found := false
		for _, x := range Enumerate(r) {
			if looseEqual(l, x, !cs) {
				found = true
			}
		}
		return found == (bare == "in")
	case "replace":
		parts := Enumerate(r)
		pat, rep := "", ""
		if len(parts) > 0 {
			pat = ToStr(parts[0])
		}
		if len(parts) > 1 {
			rep = ToStr(parts[1])
		}
		if !cs {
			pat = "(?i)" + pat
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			return ToStr(l)
		}
		return re.ReplaceAllString(ToStr(l), strings.ReplaceAll(rep, "$_", "$0"))
	case "split":
		re, err := regexp.Compile(ToStr(r))
		if err != nil {
			return []any{ToStr(l)}
		}
		return toAnySlice(re.Split(ToStr(l), -1))
	case "join":
		s.Reserve(sizeOf(l, 1) + int64(len(Enumerate(l))*len(ToStr(r))))
		return JoinValues(l, ToStr(r))
	case "is", "isnot":
		want := strings.ToLower(strings.Trim(ToStr(r), "[]"))
		want = strings.TrimPrefix(want, "system.")
		got := strings.ToLower(typeName(l))
		match := got == want || (want == "int" && got == "int32") || (want == "array" && got == "object[]") || (want == "bool" && got == "boolean")
		return match == (bare == "is")
	case "as":
		return s.cast(strings.Trim(ToStr(r), "[]"), l)
	case "xor":
		return ToBool(l) != ToBool(r)
	case "band":
		return ToInt(l) & ToInt(r)
	case "bor":
		return ToInt(l) | ToInt(r)
	case "bxor":
		return ToInt(l) ^ ToInt(r)
	case "shl":
		return ToInt(l) << (uint64(ToInt(r)) & 63)
	case "shr":
		return ToInt(l) >> (uint64(ToInt(r)) & 63)
	}
	return nil
}

func psArith(l, r any, ff func(a, b float64) float64, fi func(a, b int64) int64) any {
	_, lf := l.(float64)
	_, rf := r.(float64)
	if ls, ok := l.(string); ok && strings.Contains(ls, ".") {
		lf = true
	}
	if lf || rf {
		return ff(ToFloat(l), ToFloat(r))
	}
	return fi(ToInt(l), ToInt(r))
}

func (s *Shell) compare(op string, l, r any, cs bool) any {
	if v, ok := l.(*Object); ok && isVersion(v) && (op == "eq" || op == "ne") {
		c, ok := compareVersions(v, r)
		return (ok && c == 0) == (op == "eq")
	}
	switch op {
	case "eq":
		return looseEqual(l, r, !cs)
	case "ne":
		return !looseEqual(l, r, !cs)
	case "like", "notlike":
		ok := WildcardMatch(ToStr(r), ToStr(l), !cs)
		return ok == (op == "like")
	case "match", "notmatch":
		pat := ToStr(r)
		if !cs {
			pat = "(?i)" + pat
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			return false
		}
		m := re.FindStringSubmatch(ToStr(l))
		if m != nil {
			h := NewHash()
			for i, g := range m {
				h.Set(strconv.Itoa(i), g)
			}
			s.vars["matches"] = h
		}
		return (m != nil) == (op == "match")
	}
	// ordering
	var c int
	switch x := l.(type) {
	case *Object:
		if !isVersion(x) {
			c = strings.Compare(ToStr(x), ToStr(r))
			break
		}
		var ok bool
		if c, ok = compareVersions(x, r); !ok {
			return false
		}
	case string:
		a, b := x, ToStr(r)
		if !cs {
			a, b = strings.ToLower(a), strings.ToLower(b)
		}
		c = strings.Compare(a, b)
	default:
		a, b := ToFloat(l), ToFloat(r)
		switch {
		case a < b:
			c = -1
		case a > b:
			c = 1
		}
	}
	switch op {
	case "gt":
		return c > 0
	case "ge":
		return c >= 0
	case "lt":
		return c < 0
	case "le":
		return c <= 0
	}
	return false
}

// looseEqual is -eq: the right side converts to the left side's type.
func looseEqual(l, r any, fold bool) bool {
	switch x := l.(type) {
	case *Enum:
		switch r.(type) {
		case int64, float64:
			return x.Val == ToInt(r)
		}
		return strings.EqualFold(x.name, ToStr(r))
	case nil:
		return r == nil
	case string:
		if fold {
			return strings.EqualFold(x, ToStr(r))
		}
		return x == ToStr(r)
	case bool:
		return x == ToBool(r)
	case int64, float64:
		if s, ok := r.(string); ok {
			if _, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil {
				return false
			}
		}
		if r == nil {
			return false
		}
		return ToFloat(l) == ToFloat(r)
	}
	return l == r
}

func WildcardMatch(pattern, s string, fold bool) bool {
	var b strings.Builder
	if fold {
		b.WriteString("(?is)")
	} else {
		b.WriteString("(?s)")
	}
	b.WriteString("^")
	for _, c := range pattern {
		switch c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	return err == nil && re.MatchString(s)
}

var formatItem = regexp.MustCompile(`\{(\d+)(?:,(-?\d+))?(?::([^}]*))?\}`)

// formatOp is the -f operator (.NET composite formatting: {0}, {0,5},
// {0:N2}).
func formatOp(f string, args []any) string {
	f = strings.ReplaceAll(strings.ReplaceAll(f, "{{", "\x00"), "}}", "\x01")
	out := formatItem.ReplaceAllStringFunc(f, func(m string) string {
		sub := formatItem.FindStringSubmatch(m)
		i, _ := strconv.Atoi(sub[1])
		if i >= len(args) {
			return m
		}
		v := ToStr(args[i])
		spec := strings.ToUpper(sub[3])
		if d, ok := args[i].(*Date); ok && sub[3] != "" {
			v = formatDate(d.T, sub[3])
			spec = ""
		}
		prec := func(def int) int {
			d, err := strconv.Atoi(spec[1:])
			if err != nil || spec[1:] == "" {
				d = def
			}
			return min(d, 15)
		}
		switch {
		case spec == "":
		case spec[0] == 'D':
			n := ToInt(args[i])
			v = strconv.FormatInt(n, 10)
			neg := n < 0
			if neg {
				v = v[1:]
			}
			if d := prec(0); d > len(v) {
				v = strings.Repeat("0", d-len(v)) + v
			}
			if neg {
				v = "-" + v
			}
		case spec[0] == 'X':
			v = strconv.FormatInt(ToInt(args[i]), 16)
			if d := prec(0); d > len(v) {
				v = strings.Repeat("0", d-len(v)) + v
			}
			if sub[3][0] == 'X' {
				v = strings.ToUpper(v)
			}
		case spec[0] == 'P':
			d := prec(2)
			scale := math.Pow(10, float64(d))
			v = strconv.FormatFloat(math.Round(ToFloat(args[i])*100*scale)/scale, 'f', d, 64) + " %"
		case spec[0] == 'N':
			d := prec(2)
			scale := math.Pow(10, float64(d))
			v = groupThousands(strconv.FormatFloat(math.Round(ToFloat(args[i])*scale)/scale, 'f', d, 64))
			spec = ""
		}
		if strings.HasPrefix(spec, "F") {
			d, _ := strconv.Atoi(spec[1:])
			if spec == "N" || spec == "F" {
				d = 2
			}
			if d > 15 {
				d = 15
			}
			// .NET rounds half away from zero
			scale := math.Pow(10, float64(d))
			v = strconv.FormatFloat(math.Round(ToFloat(args[i])*scale)/scale, 'f', d, 64)
		}
		if sub[2] != "" {
			w, _ := strconv.Atoi(sub[2])
			if w < 0 && -w > len(v) && -w < 1000 {
				v += strings.Repeat(" ", -w-len(v))
			} else if w > len(v) && w < 1000 {
				v = strings.Repeat(" ", w-len(v)) + v
			}
		}
		return v
	})
	return strings.ReplaceAll(strings.ReplaceAll(out, "\x00", "{"), "\x01", "}")
}

// groupThousands puts en-US group separators in a formatted number.
func groupThousands(num string) string {
	sign := ""
	if strings.HasPrefix(num, "-") {
		sign, num = "-", num[1:]
	}
	intPart, frac, hasFrac := strings.Cut(num, ".")
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		return sign + b.String() + "." + frac
	}
	return sign + b.String()
}

func JoinValues(v any, sep string) string {
	var parts []string
	for _, x := range Enumerate(v) {
		parts = append(parts, ToStr(x))
	}
	return strings.Join(parts, sep)
}

// ---- conversions ----

func ToBool(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case int64:
		return x != 0
	case float64:
		return x != 0
	case string:
		return x != ""
	case []any:
		if len(x) == 1 {
			return ToBool(x[0])
		}
		return len(x) > 0
	}
	return true
}

func ToStr(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		if x {
			return "True"
		}
		return "False"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	case []any:
		return JoinValues(x, " ")
	case *Hash:
		return "System.Collections.Hashtable"
	case *Object:
		if x.Str != "" {
			return x.Str
		}
		return x.TypeName
	case *ScriptBlock:
		return x.Node.Text
	case *Enum:
		return x.name
	case *Date:
		return x.String()
	}
	return fmt.Sprint(v)
}

func ToInt(v any) int64 {
	switch x := v.(type) {
	case *Enum:
		return x.Val
	case int64:
		return x
	case float64:
		if x != x || math.IsInf(x, 0) || math.Abs(x) > 9e18 {
			return 0
		}
		// .NET's conversion rounds half to even: [int]2.5 is 2
		return int64(math.RoundToEven(x))
	case bool:
		if x {
			return 1
		}
		return 0
	case string:
		t := strings.TrimSpace(x)
		if i, err := strconv.ParseInt(t, 0, 64); err == nil {
			return i
		}
		if f, err := strconv.ParseFloat(t, 64); err == nil {
			return ToInt(f)
		}
	case []any:
		if len(x) == 1 {
			return ToInt(x[0])
		}
	}
	return 0
}

func ToFloat(v any) float64 {
	switch x := v.(type) {
	case *Date:
		return float64(x.T.UnixNano()) / 1e9
	case *Enum:
		return float64(x.Val)
	case int64:
		return float64(x)
	case float64:
		return x
	case string:
		f, _ := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f
	case bool:
		if x {
			return 1
		}
	case []any:
		if len(x) == 1 {
			return ToFloat(x[0])
		}
	}
	return 0
}

// CompareValues orders two values as Sort-Object and Measure-Object do:
// numbers as numbers, anything else as case-insensitive text.
func CompareValues(a, b any) int {
	_, an := a.(int64)
	_, af := a.(float64)
	_, bn := b.(int64)
	_, bf := b.(float64)
	_, ad := a.(*Date)
	if (an || af) && (bn || bf) || ad {
		x, y := ToFloat(a), ToFloat(b)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
	return strings.Compare(strings.ToLower(ToStr(a)), strings.ToLower(ToStr(b)))
}
