package programs

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// Od is od [-A o|d|x|n] [-t TYPE]... [-bcdosxv] [-j SKIP] [-N COUNT]
// [FILE]... (https://www.gnu.org/software/coreutils/manual/html_node/od-invocation.html;
// busybox's od is the same program): 16 bytes a line, each line's offset
// first, a repeated line as *, the end offset last.
func Od(p *process.Proc, argv []string) int {
	o := newOptions("od")
	radix := o.StringP("address-radix", "A", "o", "")
	types := o.StringArrayP("format", "t", nil, "")
	skip := o.Int64P("skip-bytes", "j", 0, "")
	count := o.Int64P("read-bytes", "N", -1, "")
	all := o.BoolP("output-duplicates", "v", false, "")
	short := map[string]string{"b": "o1", "c": "c", "d": "u2", "o": "o2", "s": "d2", "x": "x2", "a": "a", "i": "d4", "l": "d8"}
	flags := map[string]*bool{}
	for _, f := range []string{"a", "b", "c", "d", "o", "s", "x", "i", "l"} {
		flags[f] = o.BoolP(f, f, false, "")
	}
	files, ok := o.parse(p, argv[1:])
	if !ok {
		return 1
	}
	// the options in the order given: -t and the short ones mixed
	var order []string
	for _, a := range argv[1:] {
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && a[1] != 't' && a[1] != 'A' && a[1] != 'j' && a[1] != 'N' {
			for _, c := range a[1:] {
				if t, ok := short[string(c)]; ok {
					order = append(order, t)
				}
			}
		}
	}
	for _, t := range *types {
		order = append(order, odTypes(t)...)
	}
	if len(order) == 0 {
		order = []string{"o2"}
	}
	var fmts []odFormat
	for _, t := range order {
		f, ok := odFormatOf(t)
		if !ok {
			p.Eprintln("od: invalid type string '" + t + "'")
			return 1
		}
		fmts = append(fmts, f)
	}
	addr := map[string]string{"o": "%07o", "d": "%07d", "x": "%06x", "n": ""}
	af, ok := addr[*radix]
	if !ok {
		p.Eprintln("od: invalid output address radix '" + *radix + "'; it must be one character from [doxn]")
		return 1
	}
	text, code := readAll(p, "od", files)
	data := []byte(text)
	data = data[min(int64(len(data)), max(*skip, 0)):]
	if *count >= 0 && *count < int64(len(data)) {
		data = data[:*count]
	}
	unit := 0
	for _, f := range fmts {
		unit = max(unit, (f.width+1+f.size-1)/f.size)
	}
	var b strings.Builder
	var prev []byte
	starred := false
	for off := 0; off < len(data); off += 16 {
		line := data[off:min(off+16, len(data))]
		if !*all && prev != nil && len(line) == 16 && bytes.Equal(line, prev) {
			if !starred {
				io.WriteString(p.Stdout, "*\n")
				starred = true
			}
			continue
		}
		starred, prev = false, line
		for i, f := range fmts {
			if af != "" {
				if i == 0 {
					fmt.Fprintf(&b, af, off+int(*skip))
				} else {
					b.WriteString(strings.Repeat(" ", len(fmt.Sprintf(af, 0))))
				}
			}
			padded := append(append([]byte{}, line...), make([]byte, f.size)...)
			for j := 0; j < len(line); j += f.size {
				fmt.Fprintf(&b, "%*s", unit*f.size, f.format(padded[j:j+f.size]))
			}
			b.WriteString("\n")
		}
		// a line at a time: the dump is several times its input
		io.WriteString(p.Stdout, b.String())
		b.Reset()
	}
	if af != "" {
		fmt.Fprintf(&b, af+"\n", len(data)+int(*skip))
	}
	io.WriteString(p.Stdout, b.String())
	return code
}

// odTypes splits a -t TYPE string (x1z, o2, cx1) into its types.
func odTypes(t string) []string {
	var out []string
	for t != "" {
		c := t[:1]
		t = t[1:]
		if c == "a" || c == "c" {
			out = append(out, c)
			continue
		}
		n := 0
		for n < len(t) && (t[n] >= '0' && t[n] <= '9' || strings.IndexByte("CSILFDz", t[n]) >= 0) {
			n++
		}
		out = append(out, c+strings.TrimSuffix(t[:n], "z"))
		t = t[n:]
	}
	return out
}

// odFormat is one output type of od.
type odFormat struct {
	size, width int
	format      func([]byte) string
}

var odNames = strings.Fields("nul soh stx etx eot enq ack bel bs ht nl vt ff cr so si dle dc1 dc2 dc3 dc4 nak syn etb can em sub esc fs gs rs us sp")

func odFormatOf(t string) (odFormat, bool) {
	switch t {
	case "c":
		return odFormat{1, 3, func(b []byte) string {
			if s, ok := map[byte]string{0: `\0`, 7: `\a`, 8: `\b`, 9: `\t`, 10: `\n`, 11: `\v`, 12: `\f`, 13: `\r`}[b[0]]; ok {
				return s
			}
			if b[0] >= 32 && b[0] < 127 {
				return string(b[:1])
			}
			return fmt.Sprintf("%03o", b[0])
		}}, true
	case "a":
		return odFormat{1, 3, func(b []byte) string {
			c := b[0] & 0x7f
			switch {
			case int(c) < len(odNames):
				return odNames[c]
			case c == 127:
				return "del"
			}
			return string(rune(c))
		}}, true
	}
	if len(t) < 1 || !strings.Contains("doux", t[:1]) {
		return odFormat{}, false
	}
	size := 4
	if len(t) > 1 {
		switch t[1:] {
		case "1", "C":
			size = 1
		case "2", "S":
			size = 2
		case "4", "I":
			size = 4
		case "8", "L":
			size = 8
		default:
			return odFormat{}, false
		}
	}
	value := func(b []byte) uint64 {
		switch size {
		case 1:
			return uint64(b[0])
		case 2:
			return uint64(binary.LittleEndian.Uint16(b))
		case 4:
			return uint64(binary.LittleEndian.Uint32(b))
		}
		return binary.LittleEndian.Uint64(b)
	}
	signed := func(b []byte) int64 {
		v := value(b)
		shift := 64 - 8*size
		return int64(v<<shift) >> shift
	}
	bits := 8 * size
	switch t[0] {
	case 'x':
		w := size * 2
		return odFormat{size, w, func(b []byte) string { return fmt.Sprintf("%0*x", w, value(b)) }}, true
	case 'o':
		w := (bits + 2) / 3
		return odFormat{size, w, func(b []byte) string { return fmt.Sprintf("%0*o", w, value(b)) }}, true
	case 'u':
		w := len(fmt.Sprint(uint64(1)<<bits - 1))
		if size == 8 {
			w = 20
		}
		return odFormat{size, w, func(b []byte) string { return fmt.Sprint(value(b)) }}, true
	}
	w := len(fmt.Sprint(-(int64(1) << (bits - 1))))
	if size == 8 {
		w = 20
	}
	return odFormat{size, w, func(b []byte) string { return fmt.Sprint(signed(b)) }}, true
}
