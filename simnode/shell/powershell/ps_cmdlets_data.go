package powershell

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// This file is the cmdlets that compute over objects (issue 18):
// Measure-Object, Group-Object, ConvertTo-Json, ConvertFrom-Json,
// Format-Table's properties, and [pscustomobject] as the formatter shows
// it (a table up to 4 properties, a list from 5, as Windows PowerShell
// 5.1's default view).

func init() {
	for _, c := range psCmdlets {
		if c.name == "Measure-Object" {
			c.positional, c.switches, c.run = []string{"Property*"}, []string{"Sum", "Average", "Maximum", "Minimum", "Line", "Word", "Character", "IgnoreWhiteSpace"}, cmdletMeasure
			c.params = []string{"InputObject"}
		}
		if c.name == "Format-Table" {
			c.run = cmdletFormatTable
		}
	}
	registerCmdlets(
		&psCmdlet{name: "Group-Object", aliases: []string{"group"}, help: "Groups objects by a property.", positional: []string{"Property*"}, switches: []string{"NoElement", "AsHashTable", "AsString", "CaseSensitive"}, run: cmdletGroup},
		&psCmdlet{name: "ConvertTo-Json", help: "Converts objects to JSON (Windows PowerShell 5.1's layout).", positional: []string{"InputObject"}, params: []string{"Depth"}, switches: []string{"Compress"}, run: cmdletToJSON},
		&psCmdlet{name: "ConvertFrom-Json", help: "Converts JSON to objects.", positional: []string{"InputObject"}, run: cmdletFromJSON},
		&psCmdlet{name: "New-TimeSpan", help: "Creates a TimeSpan.", positional: []string{"Start", "End"}, params: []string{"Days", "Hours", "Minutes", "Seconds"}, run: cmdletNewTimeSpan},
	)
}

// cmdletMeasure is Measure-Object: Count, and with -Sum, -Average,
// -Maximum, -Minimum those statistics of the input or its -Property
// (GenericMeasureInfo); -Line, -Word, -Character count text.
func cmdletMeasure(c *psCall) {
	items := c.input
	if v, ok := c.named["InputObject"]; ok {
		items = []any{v}
	}
	prop := ""
	if p := enumerate(c.named["Property"]); len(p) > 0 {
		prop = toStr(p[0])
	}
	if c.has("Line") || c.has("Word") || c.has("Character") {
		var lines, words, chars int64
		for _, it := range items {
			t := toStr(it)
			lines += int64(strings.Count(t, "\n") + 1)
			words += int64(len(strings.Fields(t)))
			chars += int64(len(t))
		}
		var props []psProp
		if c.has("Line") {
			props = append(props, psProp{"Lines", lines})
		}
		if c.has("Word") {
			props = append(props, psProp{"Words", words})
		}
		if c.has("Character") {
			props = append(props, psProp{"Characters", chars})
		}
		props = append(props, psProp{"Property", nil})
		c.out(&psObject{typeName: "Microsoft.PowerShell.Commands.TextMeasureInfo", view: "table", props: props, cols: autoCols(props)})
		return
	}
	var count int64
	var sum float64
	var maxV, minV any
	for _, it := range items {
		v := it
		if prop != "" {
			v = c.s.memberOf(it, prop, nil, false)
			if v == nil {
				continue
			}
		}
		count++
		f := toFloat(v)
		sum += f
		if maxV == nil || compareValues(v, maxV) > 0 {
			maxV = v
		}
		if minV == nil || compareValues(v, minV) < 0 {
			minV = v
		}
	}
	var avg, sumV any
	if c.has("Sum") {
		sumV = sum
	}
	if c.has("Average") && count > 0 {
		avg = sum / float64(count)
	}
	if !c.has("Maximum") {
		maxV = nil
	} else if maxV != nil {
		maxV = toFloat(maxV)
	}
	if !c.has("Minimum") {
		minV = nil
	} else if minV != nil {
		minV = toFloat(minV)
	}
	var property any
	if prop != "" {
		property = prop
	}
	c.out(&psObject{typeName: "Microsoft.PowerShell.Commands.GenericMeasureInfo", view: "list", props: []psProp{
		{"Count", count}, {"Average", avg}, {"Sum", sumV}, {"Maximum", maxV}, {"Minimum", minV}, {"Property", property}}})
}

// cmdletGroup is Group-Object: groups in the order their first member came.
func cmdletGroup(c *psCall) {
	prop := ""
	if p := enumerate(c.named["Property"]); len(p) > 0 {
		prop = toStr(p[0])
	}
	var order []string
	groups := map[string][]any{}
	names := map[string]string{}
	for _, it := range c.input {
		v := it
		if prop != "" {
			v = c.s.memberOf(it, prop, nil, false)
		}
		name := toStr(v)
		k := strings.ToLower(name)
		if c.has("CaseSensitive") {
			k = name
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
			names[k] = name
		}
		groups[k] = append(groups[k], it)
	}
	if c.has("AsHashTable") {
		h := newHash()
		for _, k := range order {
			h.set(names[k], collapse(groups[k]))
		}
		c.out(h)
		return
	}
	for _, k := range order {
		g := groups[k]
		var parts []string
		for _, x := range g {
			parts = append(parts, toStr(x))
		}
		o := &psObject{typeName: "Microsoft.PowerShell.Commands.GroupInfo", view: "table", str: "Microsoft.PowerShell.Commands.GroupInfo",
			cols:  []psCol{{name: "Count", width: 6, right: true}, {name: "Name", width: 26}, {name: "Group"}},
			props: []psProp{{"Count", int64(len(g))}, {"Name", names[k]}, {"Group", &psObject{typeName: "System.Collections.ObjectModel.Collection", str: "{" + strings.Join(parts, ", ") + "}", props: nil}}, {"Values", names[k]}}}
		if c.has("NoElement") {
			o.cols = o.cols[:2]
			o.cols[1].width = 0
		}
		c.out(o)
	}
}

// cmdletFormatTable is Format-Table: with -Property the table of those
// properties, else the objects' own table view.
func cmdletFormatTable(c *psCall) {
	props := enumerate(c.named["Property"])
	if len(props) == 0 {
		for _, v := range c.input {
			if o, ok := v.(*psObject); ok && o.view == "list" && len(o.props) > 0 {
				cp := *o
				cp.props = append([]psProp{}, o.props...)
				c.out(tableOf(&cp, o.props))
				continue
			}
			c.out(v)
		}
		return
	}
	rows := make([][]psProp, len(c.input))
	widths := make([]int, len(props))
	for i, p := range props {
		widths[i] = len(toStr(p))
	}
	for r, it := range c.input {
		for i, p := range props {
			v := c.s.memberOf(it, toStr(p), nil, false)
			rows[r] = append(rows[r], psProp{toStr(p), v})
			if l := len(toStr(v)); l > widths[i] {
				widths[i] = l
			}
		}
	}
	var cols []psCol
	for i, p := range props {
		w := widths[i] + 1
		if i == len(props)-1 {
			w = 0
		}
		cols = append(cols, psCol{name: toStr(p), width: w})
	}
	for _, r := range rows {
		c.out(&psObject{typeName: "FormatTable", view: "table", props: r, cols: cols})
	}
}

func tableOf(o *psObject, props []psProp) *psObject {
	o.view, o.cols = "table", autoCols(props)
	return o
}

func cmdletNewTimeSpan(c *psCall) {
	if s, ok := c.named["Start"].(*psDate); ok {
		e := &psDate{c.s.p.Now()}
		if x, ok := c.named["End"].(*psDate); ok {
			e = x
		}
		c.out(timeSpan(e.t.Sub(s.t)))
		return
	}
	secs := toFloat(c.named["Days"])*86400 + toFloat(c.named["Hours"])*3600 + toFloat(c.named["Minutes"])*60 + toFloat(c.named["Seconds"])
	c.out(timeSpan(durationOf(secs)))
}

// ---- JSON ----

// cmdletToJSON is ConvertTo-Json: Windows PowerShell 5.1 indents by four
// and aligns a nested object under its key, writes "key":  value with two
// spaces, escapes <, >, & and ' as \u00XX, and stops at -Depth (2).
func cmdletToJSON(c *psCall) {
	items := c.input
	if v, ok := c.named["InputObject"]; ok {
		items = []any{v}
	}
	depth := 2
	if c.set("Depth") {
		depth = int(toInt(c.named["Depth"]))
	}
	var v any
	if len(items) == 1 {
		v = items[0]
	} else {
		v = items
	}
	var b strings.Builder
	j := &jsonWriter{b: &b, compress: c.has("Compress"), s: c.s}
	j.value(v, 0, depth)
	c.out(b.String())
}

type jsonWriter struct {
	b        *strings.Builder
	compress bool
	s        *psShell
}

func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(true)
	enc.Encode(s)
	return strings.ReplaceAll(strings.TrimSuffix(b.String(), "\n"), "'", `\u0027`)
}

func (j *jsonWriter) value(v any, indent, depth int) {
	j.s.reserve(int64(j.b.Len()))
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
	case *psEnum:
		j.b.WriteString(strconv.FormatInt(x.val, 10))
	case []any:
		if depth < 0 {
			j.b.WriteString(jsonString(joinValues(x, " ")))
			return
		}
		j.list(x, indent, depth)
	case *psHash:
		if depth < 0 {
			j.b.WriteString(jsonString("System.Collections.Hashtable"))
			return
		}
		j.object(hashProps(x), indent, depth)
	case *psObject:
		if depth < 0 || len(x.props) == 0 {
			j.b.WriteString(jsonString(toStr(x)))
			return
		}
		j.object(x.props, indent, depth)
	default:
		j.b.WriteString(jsonString(toStr(v)))
	}
}

func (j *jsonWriter) list(x []any, indent, depth int) {
	j.members("[", "]", len(x), nil, func(i int) any { return x[i] }, indent, depth)
}

func (j *jsonWriter) object(props []psProp, indent, depth int) {
	j.members("{", "}", len(props), func(i int) string { return props[i].name }, func(i int) any { return props[i].val }, indent, depth)
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
func cmdletFromJSON(c *psCall) {
	text := c.str("InputObject")
	if !c.set("InputObject") {
		var parts []string
		for _, v := range c.input {
			parts = append(parts, toStr(v))
		}
		text = strings.Join(parts, "\n")
	}
	c.s.reserve(int64(4 * len(text)))
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	v, err := jsonValue(dec, 0)
	if err != nil {
		c.terminate(&psErrorRecord{msg: "Invalid JSON primitive: " + strings.TrimSpace(text) + ".", category: "NotSpecified", target: ":", reason: "ArgumentException",
			fqid: "System.ArgumentException,Microsoft.PowerShell.Commands.ConvertFromJsonCommand"})
		return
	}
	if arr, ok := v.([]any); ok {
		c.out(arr) // the array is one object in 5.1
		return
	}
	c.out(v)
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
			var props []psProp
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := jsonValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				props = append(props, psProp{fmt.Sprint(k), v})
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return customObject(props), nil
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
