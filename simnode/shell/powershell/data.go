package powershell

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"wink.dev/wink/simnode/shell/powershell/engine"
)

// This file is the cmdlets that compute over objects (issue 18):
// Measure-Object, Group-Object, ConvertTo-Json, ConvertFrom-Json,
// Format-Table's properties, and [pscustomobject] as the formatter shows
// it (a table up to 4 properties, a list from 5, as Windows PowerShell
// 5.1's default view).

func init() {
	for _, c := range engine.Cmdlets {
		if c.Name == "Measure-Object" {
			c.Positional, c.Switches, c.Run = []string{"Property*"}, []string{"Sum", "Average", "Maximum", "Minimum", "Line", "Word", "Character", "IgnoreWhiteSpace"}, cmdletMeasure
			c.Params = []string{"InputObject"}
		}
		if c.Name == "Format-Table" {
			c.Run = cmdletFormatTable
		}
	}
	engine.RegisterCmdlets(
		&engine.Cmdlet{Name: "Group-Object", Aliases: []string{"group"}, Help: "Groups objects by a property.", Positional: []string{"Property*"}, Switches: []string{"NoElement", "AsHashTable", "AsString", "CaseSensitive"}, Run: cmdletGroup},
		&engine.Cmdlet{Name: "ConvertTo-Json", Help: "Converts objects to JSON (Windows PowerShell 5.1's layout).", Positional: []string{"InputObject"}, Params: []string{"Depth"}, Switches: []string{"Compress"}, Run: cmdletToJSON},
		&engine.Cmdlet{Name: "ConvertFrom-Json", Help: "Converts JSON to objects.", Positional: []string{"InputObject"}, Run: cmdletFromJSON},
		&engine.Cmdlet{Name: "New-TimeSpan", Help: "Creates a TimeSpan.", Positional: []string{"Start", "End"}, Params: []string{"Days", "Hours", "Minutes", "Seconds"}, Run: cmdletNewTimeSpan},
	)
}

// cmdletMeasure is Measure-Object: Count, and with -Sum, -Average,
// -Maximum, -Minimum those statistics of the input or its -Property
// (GenericMeasureInfo); -Line, -Word, -Character count text.
func cmdletMeasure(c *engine.Call) {
	items := c.Input
	if v, ok := c.Named["InputObject"]; ok {
		items = []any{v}
	}
	prop := ""
	if p := engine.Enumerate(c.Named["Property"]); len(p) > 0 {
		prop = engine.ToStr(p[0])
	}
	if c.Has("Line") || c.Has("Word") || c.Has("Character") {
		var lines, words, chars int64
		for _, it := range items {
			t := engine.ToStr(it)
			lines += int64(strings.Count(t, "\n") + 1)
			words += int64(len(strings.Fields(t)))
			chars += int64(len(t))
		}
		var props []engine.Prop
		if c.Has("Line") {
			props = append(props, engine.Prop{Name: "Lines", Val: lines})
		}
		if c.Has("Word") {
			props = append(props, engine.Prop{Name: "Words", Val: words})
		}
		if c.Has("Character") {
			props = append(props, engine.Prop{Name: "Characters", Val: chars})
		}
		props = append(props, engine.Prop{Name: "Property", Val: nil})
		c.Out(&engine.Object{TypeName: "Microsoft.PowerShell.Commands.TextMeasureInfo", View: "table", Props: props, Cols: engine.AutoCols(props)})
		return
	}
	var count int64
	var sum float64
	var maxV, minV any
	for _, it := range items {
		v := it
		if prop != "" {
			v = c.S.MemberOf(it, prop, nil, false)
			if v == nil {
				continue
			}
		}
		count++
		f := engine.ToFloat(v)
		sum += f
		if maxV == nil || engine.CompareValues(v, maxV) > 0 {
			maxV = v
		}
		if minV == nil || engine.CompareValues(v, minV) < 0 {
			minV = v
		}
	}
	var avg, sumV any
	if c.Has("Sum") {
		sumV = sum
	}
	if c.Has("Average") && count > 0 {
		avg = sum / float64(count)
	}
	if !c.Has("Maximum") {
		maxV = nil
	} else if maxV != nil {
		maxV = engine.ToFloat(maxV)
	}
	if !c.Has("Minimum") {
		minV = nil
	} else if minV != nil {
		minV = engine.ToFloat(minV)
	}
	var property any
	if prop != "" {
		property = prop
	}
	c.Out(&engine.Object{TypeName: "Microsoft.PowerShell.Commands.GenericMeasureInfo", View: "list", Props: []engine.Prop{
		{Name: "Count", Val: count}, {Name: "Average", Val: avg}, {Name: "Sum", Val: sumV}, {Name: "Maximum", Val: maxV}, {Name: "Minimum", Val: minV}, {Name: "Property", Val: property}}})
}

// cmdletGroup is Group-Object: groups in the order their first member came.
func cmdletGroup(c *engine.Call) {
	prop := ""
	if p := engine.Enumerate(c.Named["Property"]); len(p) > 0 {
		prop = engine.ToStr(p[0])
	}
	var order []string
	groups := map[string][]any{}
	names := map[string]string{}
	for _, it := range c.Input {
		v := it
		if prop != "" {
			v = c.S.MemberOf(it, prop, nil, false)
		}
		name := engine.ToStr(v)
		k := strings.ToLower(name)
		if c.Has("CaseSensitive") {
			k = name
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
			names[k] = name
		}
		groups[k] = append(groups[k], it)
	}
	if c.Has("AsHashTable") {
		h := engine.NewHash()
		for _, k := range order {
			h.Set(names[k], engine.Collapse(groups[k]))
		}
		c.Out(h)
		return
	}
	for _, k := range order {
		g := groups[k]
		var parts []string
		for _, x := range g {
			parts = append(parts, engine.ToStr(x))
		}
		o := &engine.Object{TypeName: "Microsoft.PowerShell.Commands.GroupInfo", View: "table", Str: "Microsoft.PowerShell.Commands.GroupInfo",
			Cols:  []engine.Col{{Name: "Count", Width: 6, Right: true}, {Name: "Name", Width: 26}, {Name: "Group"}},
			Props: []engine.Prop{{Name: "Count", Val: int64(len(g))}, {Name: "Name", Val: names[k]}, {Name: "Group", Val: &engine.Object{TypeName: "System.Collections.ObjectModel.Collection", Str: "{" + strings.Join(parts, ", ") + "}", Props: nil}}, {Name: "Values", Val: names[k]}}}
		if c.Has("NoElement") {
			o.Cols = o.Cols[:2]
			o.Cols[1].Width = 0
		}
		c.Out(o)
	}
}

// cmdletFormatTable is Format-Table: with -Property the table of those
// properties, else the objects' own table view.
func cmdletFormatTable(c *engine.Call) {
	props := engine.Enumerate(c.Named["Property"])
	if len(props) == 0 {
		for _, v := range c.Input {
			if o, ok := v.(*engine.Object); ok && o.View == "list" && len(o.Props) > 0 {
				cp := *o
				cp.Props = append([]engine.Prop{}, o.Props...)
				c.Out(tableOf(&cp, o.Props))
				continue
			}
			c.Out(v)
		}
		return
	}
	rows := make([][]engine.Prop, len(c.Input))
	widths := make([]int, len(props))
	for i, p := range props {
		widths[i] = len(engine.ToStr(p))
	}
	for r, it := range c.Input {
		for i, p := range props {
			v := c.S.MemberOf(it, engine.ToStr(p), nil, false)
			rows[r] = append(rows[r], engine.Prop{Name: engine.ToStr(p), Val: v})
			if l := len(engine.ToStr(v)); l > widths[i] {
				widths[i] = l
			}
		}
	}
	var cols []engine.Col
	for i, p := range props {
		w := widths[i] + 1
		if i == len(props)-1 {
			w = 0
		}
		cols = append(cols, engine.Col{Name: engine.ToStr(p), Width: w})
	}
	for _, r := range rows {
		c.Out(&engine.Object{TypeName: "FormatTable", View: "table", Props: r, Cols: cols})
	}
}

func tableOf(o *engine.Object, props []engine.Prop) *engine.Object {
	o.View, o.Cols = "table", engine.AutoCols(props)
	return o
}

func cmdletNewTimeSpan(c *engine.Call) {
	if s, ok := c.Named["Start"].(*engine.Date); ok {
		e := &engine.Date{T: c.S.P.Now()}
		if x, ok := c.Named["End"].(*engine.Date); ok {
			e = x
		}
		c.Out(engine.TimeSpan(e.T.Sub(s.T)))
		return
	}
	secs := engine.ToFloat(c.Named["Days"])*86400 + engine.ToFloat(c.Named["Hours"])*3600 + engine.ToFloat(c.Named["Minutes"])*60 + engine.ToFloat(c.Named["Seconds"])
	c.Out(engine.TimeSpan(durationOf(secs)))
}

// ---- JSON ----

// cmdletToJSON is ConvertTo-Json: Windows PowerShell 5.1 indents by four
// and aligns a nested object under its key, writes "key":  value with two
// spaces, escapes <, >, & and ' as \u00XX, and stops at -Depth (2).
func cmdletToJSON(c *engine.Call) {
	items := c.Input
	if v, ok := c.Named["InputObject"]; ok {
		items = []any{v}
	}
	depth := 2
	if c.Set("Depth") {
		depth = int(engine.ToInt(c.Named["Depth"]))
	}
	var v any
	if len(items) == 1 {
		v = items[0]
	} else {
		v = items
	}
	var b strings.Builder
	j := &jsonWriter{b: &b, compress: c.Has("Compress"), s: c.S}
	j.value(v, 0, depth)
	c.Out(b.String())
}

type jsonWriter struct {
	b        *strings.Builder
	compress bool
	s        *engine.Shell
}

func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(true)
	enc.Encode(s)
	return strings.ReplaceAll(strings.TrimSuffix(b.String(), "\n"), "'", `\u0027`)
}

func (j *jsonWriter) value(v any, indent, depth int) {
	j.s.Reserve(int64(j.b.Len()))
	switch x := v.(type) {
	case nil:
		j.b.WriteString("null")
	case bool:
		j.b.WriteString(map[bool]string{true: "true", false: "false"}[x])
	case int64:
		j.b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		j.b.WriteString(strconv.FormatFloat(x, 'f', -1, 64))
	case string:
		j.b.WriteString(jsonString(x))
	case *engine.Enum:
		j.b.WriteString(strconv.FormatInt(x.Val, 10))
	case []any:
		if depth < 0 {
			j.b.WriteString(jsonString(engine.JoinValues(x, " ")))
			return
		}
		j.list(x, indent, depth)
	case *engine.Hash:
		if depth < 0 {
			j.b.WriteString(jsonString("System.Collections.Hashtable"))
			return
		}
		j.object(engine.HashProps(x), indent, depth)
	case *engine.Object:
		if depth < 0 || len(x.Props) == 0 {
			j.b.WriteString(jsonString(engine.ToStr(x)))
			return
		}
		j.object(x.Props, indent, depth)
	default:
		j.b.WriteString(jsonString(engine.ToStr(v)))
	}
}

func (j *jsonWriter) list(x []any, indent, depth int) {
	j.members("[", "]", len(x), nil, func(i int) any { return x[i] }, indent, depth)
}

func (j *jsonWriter) object(props []engine.Prop, indent, depth int) {
	j.members("{", "}", len(props), func(i int) string { return props[i].Name }, func(i int) any { return props[i].Val }, indent, depth)
}

// members writes the n members of a list or (with name) an object as
// ConvertTo-Json lays them out: on one line with -Compress, else one a
// line, 4 columns in from the opening bracket's line, a nested value
// indented to its key's end.
func (j *jsonWriter) members(open, close string, n int, name func(int) string, val func(int) any, indent, depth int) {
	if j.compress {
		j.b.WriteString(open)
		for i := range n {
			if i > 0 {
				j.b.WriteString(",")
			}
			if name != nil {
				j.b.WriteString(jsonString(name(i)) + ":")
			}
			j.value(val(i), 0, depth-1)
		}
		j.b.WriteString(close)
		return
	}
	if n == 0 {
		j.b.WriteString(open + "\r\n\r\n" + strings.Repeat(" ", indent) + close)
		return
	}
	j.b.WriteString(open + "\r\n")
	for i := range n {
		key := ""
		if name != nil {
			key = jsonString(name(i)) + ":  "
		}
		j.b.WriteString(strings.Repeat(" ", indent+4) + key)
		j.value(val(i), indent+4+len(key), depth-1)
		if i < n-1 {
			j.b.WriteString(",")
		}
		j.b.WriteString("\r\n")
	}
	j.b.WriteString(strings.Repeat(" ", indent) + close)
}

// cmdletFromJSON is ConvertFrom-Json: objects become PSCustomObjects with
// their properties in order; an invalid document is an ArgumentException.
func cmdletFromJSON(c *engine.Call) {
	text := c.Str("InputObject")
	if !c.Set("InputObject") {
		var parts []string
		for _, v := range c.Input {
			parts = append(parts, engine.ToStr(v))
		}
		text = strings.Join(parts, "\n")
	}
	c.S.Reserve(int64(4 * len(text)))
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	v, err := jsonValue(dec, 0)
	if err != nil {
		c.Terminate(&engine.ErrorRecord{Msg: "Invalid JSON primitive: " + strings.TrimSpace(text) + ".", Category: "NotSpecified", Target: ":", Reason: "ArgumentException",
			Fqid: "System.ArgumentException,Microsoft.PowerShell.Commands.ConvertFromJsonCommand"})
		return
	}
	if arr, ok := v.([]any); ok {
		c.Out(arr) // the array is one object in 5.1
		return
	}
	c.Out(v)
}

func jsonValue(dec *json.Decoder, depth int) (any, error) {
	if depth > 100 {
		return nil, fmt.Errorf("too deep")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			var props []engine.Prop
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := jsonValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				props = append(props, engine.Prop{Name: fmt.Sprint(k), Val: v})
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return engine.CustomObject(props), nil
		case '[':
			out := []any{}
			for dec.More() {
				v, err := jsonValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return out, nil
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i, nil
		}
		f, _ := t.Float64()
		return f, nil
	case string, bool, nil:
		return t, nil
	}
	return nil, fmt.Errorf("unexpected %v", tok)
}

func durationOf(secs float64) (d time.Duration) {
	if math.IsNaN(secs) || math.Abs(secs) > 1e11 {
		return 0
	}
	return time.Duration(secs * 1e9)
}
