package powershell

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

func (s *psShell) topEmitter() emitter {
	return newPSFormatter(s.p.Stdout, s.p.NL).write
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
	case *psDate:
		f.endTable()
		f.line("")
		f.line(x.display())
		f.line("")
		f.line("")
	case []any:
		for _, e := range x {
			f.write(e)
		}
	case *psHash:
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
	case *psObject:
		if x.rec != nil {
			f.endTable()
			io.WriteString(f.w, strings.ReplaceAll(x.rec.render(false, "\n"), "\n", f.nl))
			return
		}
		switch x.view {
		case "list":
			f.endTable()
			width := 0
			for _, p := range x.props {
				if len(p.name) > width {
					width = len(p.name)
				}
			}
			f.line("")
			for _, p := range x.props {
				val := strings.ReplaceAll(cellText(p.val), "\r\n", "\n")
				lines := strings.Split(strings.TrimRight(val, "\n"), "\n")
				f.line(strings.TrimRight(fmt.Sprintf("%-*s : %s", width, p.name, lines[0]), " "))
				for _, l := range lines[1:] {
					f.line(strings.Repeat(" ", width+3) + l)
				}
			}
			f.line("")
			f.line("")
		case "table":
			key := x.typeName + "\x00" + x.group
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
				for _, c := range x.cols {
					h1.WriteString(pad(c.name, c))
					h2.WriteString(pad(strings.Repeat("-", len(c.name)), c))
				}
				f.line(strings.TrimRight(h1.String(), " "))
				f.line(strings.TrimRight(h2.String(), " "))
			}
			var row strings.Builder
			for _, c := range x.cols {
				v, _ := x.get(c.name)
				row.WriteString(pad(cellText(v), c))
			}
			f.line(strings.TrimRight(row.String(), " "))
		default:
			f.endTable()
			f.line(toStr(x))
		}
	default:
		f.endTable()
		f.line(toStr(v))
	}
}

// cellText is a value in a table cell or list line: a collection shows as
// {a, b, c, d...}, at most $FormatEnumerationLimit (4) elements.
func cellText(v any) string {
	arr, ok := v.([]any)
	if !ok {
		return toStr(v)
	}
	var parts []string
	for i, x := range arr {
		if i == 4 {
			return "{" + strings.Join(parts, ", ") + "...}"
		}
		parts = append(parts, toStr(x))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func pad(s string, c psCol) string {
	if c.width == 0 {
		return s
	}
	if len(s) >= c.width {
		return s[:c.width-1] + " "
	}
	if c.right {
		return strings.Repeat(" ", c.width-1-len(s)) + s + " "
	}
	return s + strings.Repeat(" ", c.width-len(s))
}

// formatToString renders values as Out-String does.
func formatToString(vals []any, nl string) string {
	var b bytes.Buffer
	f := newPSFormatter(&b, nl)
	for _, v := range vals {
		f.write(v)
	}
	f.write(flushMarker{})
	return b.String()
}

// customObject is a PSCustomObject with its default view.
func customObject(props []psProp) *psObject {
	o := &psObject{typeName: "System.Management.Automation.PSCustomObject", view: "list", props: props}
	if len(props) <= 4 {
		o.view, o.cols = "table", autoCols(props)
	}
	return o
}

// autoCols are the columns of a table of these properties, as wide as
// their names and values; numbers are right-aligned.
func autoCols(props []psProp) []psCol {
	var cols []psCol
	for i, p := range props {
		w := len(p.name) + 1
		if l := len(cellText(p.val)) + 1; l > w {
			w = l
		}
		_, isInt := p.val.(int64)
		_, isFloat := p.val.(float64)
		right := isInt || isFloat
		if i == len(props)-1 && !right {
			w = 0
		}
		cols = append(cols, psCol{name: p.name, width: w, right: right})
	}
	return cols
}

var childItemCols = []psCol{{name: "Mode", width: 13}, {name: "LastWriteTime", width: 21, right: true}, {name: "Length", width: 15, right: true}, {name: "Name"}}

func (c *psCall) fileObject(dir, name string, isDir bool, size int64, mt time.Time) *psObject {
	mode, length := "-a----", strconv.FormatInt(size, 10)
	if isDir {
		mode, length = "d-----", ""
	}
	return &psObject{
		typeName: map[bool]string{true: "System.IO.DirectoryInfo", false: "System.IO.FileInfo"}[isDir],
		view:     "table", cols: childItemCols, group: "    Directory: " + dir, str: name,
		props: []psProp{{"Mode", mode}, {"LastWriteTime", fmt.Sprintf("%10s  %8s", mt.Format("1/2/2006"), mt.Format("3:04 PM"))}, {"Length", length}, {"Name", name},
			{"FullName", process.WinJoin(dir, name)}},
	}
}
