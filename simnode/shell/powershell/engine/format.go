package engine

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"wink.dev/wink/simnode/shell/process"
)

// ---- formatting ----

// psFormatter is Out-Default: strings and numbers one a line, objects in
// list or table view, consecutive rows of one table under one header.
type psFormatter struct {
	w     io.Writer
	nl    string
	table string
}

func newPSFormatter(w io.Writer, nl string) *psFormatter { return &psFormatter{w: w, nl: nl} }

func (s *Shell) topEmitter() emitter {
	return newPSFormatter(s.P.Stdout, s.P.NL).write
}

func (f *psFormatter) line(s string) { io.WriteString(f.w, s+f.nl) }

func (f *psFormatter) endTable() {
	if f.table != "" {
		f.line("")
		f.line("")
		f.table = ""
	}
}

func (f *psFormatter) write(v any) {
	switch x := v.(type) {
	case flushMarker:
		f.endTable()
	case nil:
	case *Date:
		f.endTable()
		f.line("")
		f.line(x.display())
		f.line("")
		f.line("")
	case []any:
		for _, e := range x {
			f.write(e)
		}
	case *Hash:
		f.endTable()
		f.line("")
		f.line(fmt.Sprintf("%-30s %s", "Name", "Value"))
		f.line(fmt.Sprintf("%-30s %s", "----", "-----"))
		for _, k := range x.keys {
			val, _ := x.get(k)
			f.line(strings.TrimRight(fmt.Sprintf("%-30s %s", k, cellText(val)), " "))
		}
		f.line("")
		f.line("")
	case *Object:
		if x.rec != nil {
			f.endTable()
			io.WriteString(f.w, strings.ReplaceAll(x.rec.render(false, "\n"), "\n", f.nl))
			return
		}
		switch x.View {
		case "list":
			f.endTable()
			width := 0
			for _, p := range x.Props {
				if len(p.Name) > width {
					width = len(p.Name)
				}
			}
			f.line("")
			for _, p := range x.Props {
				val := strings.ReplaceAll(cellText(p.Val), "\r\n", "\n")
				lines := strings.Split(strings.TrimRight(val, "\n"), "\n")
				f.line(strings.TrimRight(fmt.Sprintf("%-*s : %s", width, p.Name, lines[0]), " "))
				for _, l := range lines[1:] {
					f.line(strings.Repeat(" ", width+3) + l)
				}
			}
			f.line("")
			f.line("")
		case "table":
			key := x.TypeName + "\x00" + x.group
			if f.table != key {
				f.endTable()
				f.table = key
				f.line("")
				if x.group != "" {
					f.line(x.group)
					f.line("")
					f.line("")
				}
				var h1, h2 strings.Builder
				for _, c := range x.Cols {
					h1.WriteString(pad(c.Name, c))
					h2.WriteString(pad(strings.Repeat("-", len(c.Name)), c))
				}
				f.line(strings.TrimRight(h1.String(), " "))
				f.line(strings.TrimRight(h2.String(), " "))
			}
			var row strings.Builder
			for _, c := range x.Cols {
				v, _ := x.get(c.Name)
				row.WriteString(pad(cellText(v), c))
			}
			f.line(strings.TrimRight(row.String(), " "))
		default:
			f.endTable()
			f.line(ToStr(x))
		}
	default:
		f.endTable()
		f.line(ToStr(v))
	}
}

// cellText is a value in a table cell or list line: a collection shows as
// {a, b, c, d...}, at most $FormatEnumerationLimit (4) elements.
func cellText(v any) string {
	arr, ok := v.([]any)
	if !ok {
		return ToStr(v)
	}
	var parts []string
	for i, x := range arr {
		if i == 4 {
			return "{" + strings.Join(parts, ", ") + "...}"
		}
		parts = append(parts, ToStr(x))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func pad(s string, c Col) string {
	if c.Width == 0 {
		return s
	}
	if len(s) >= c.Width {
		return s[:c.Width-1] + " "
	}
	if c.Right {
		return strings.Repeat(" ", c.Width-1-len(s)) + s + " "
	}
	return s + strings.Repeat(" ", c.Width-len(s))
}

// FormatToString renders values as Out-String does.
func FormatToString(vals []any, nl string) string {
	var b bytes.Buffer
	f := newPSFormatter(&b, nl)
	for _, v := range vals {
		f.write(v)
	}
	f.write(flushMarker{})
	return b.String()
}

// CustomObject is a PSCustomObject with its default view.
func CustomObject(props []Prop) *Object {
	o := &Object{TypeName: "System.Management.Automation.PSCustomObject", View: "list", Props: props}
	if len(props) <= 4 {
		o.View, o.Cols = "table", AutoCols(props)
	}
	return o
}

// AutoCols are the columns of a table of these properties, as wide as
// their names and values; numbers are right-aligned.
func AutoCols(props []Prop) []Col {
	var cols []Col
	for i, p := range props {
		w := len(p.Name) + 1
		if l := len(cellText(p.Val)) + 1; l > w {
			w = l
		}
		_, isInt := p.Val.(int64)
		_, isFloat := p.Val.(float64)
		right := isInt || isFloat
		if i == len(props)-1 && !right {
			w = 0
		}
		cols = append(cols, Col{Name: p.Name, Width: w, Right: right})
	}
	return cols
}

var childItemCols = []Col{{Name: "Mode", Width: 13}, {Name: "LastWriteTime", Width: 21, Right: true}, {Name: "Length", Width: 15, Right: true}, {Name: "Name"}}

func (c *Call) FileObject(dir, name string, isDir bool, size int64, mt time.Time) *Object {
	mode, length := "-a----", strconv.FormatInt(size, 10)
	if isDir {
		mode, length = "d-----", ""
	}
	return &Object{
		TypeName: map[bool]string{true: "System.IO.DirectoryInfo", false: "System.IO.FileInfo"}[isDir],
		View:     "table", Cols: childItemCols, group: "    Directory: " + dir, Str: name,
		Props: []Prop{{"Mode", mode}, {"LastWriteTime", fmt.Sprintf("%10s  %8s", mt.Format("1/2/2006"), mt.Format("3:04 PM"))}, {"Length", length}, {"Name", name},
			{"FullName", process.WinJoin(dir, name)}},
	}
}
