package programs

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"wink.dev/wink/simnode/shell/process"
)

// Text tools of busybox (and busybox-w32, the e2e images' C:\bin, row E):
// wc, and awk for the one-rule field printing scripts use
// (`wc -l f | awk '{print $1}'`, upstream common/node/runtime.go).

// readInputs reads the named files, or stdin when there are none; the
// name "" stands for stdin. A file that cannot be read is reported with
// the tool's name and skipped.
func readInputs(p *process.Proc, tool string, names []string) (names2 []string, data [][]byte, code int) {
	if len(names) == 0 {
		b, _ := io.ReadAll(p.Stdin)
		return []string{""}, [][]byte{b}, 0
	}
	for _, n := range names {
		if n == "-" {
			b, _ := io.ReadAll(p.Stdin)
			names2, data = append(names2, n), append(data, b)
			continue
		}
		b, err := p.ReadFile(n)
		if err != nil {
			p.Eprintln(fmt.Sprintf("%s: can't open '%s': %s", tool, n, process.PosixFileError(err, false)))
			code = 1
			continue
		}
		names2, data = append(names2, n), append(data, b)
	}
	return names2, data, code
}

// Wc is busybox wc (-l, -w, -c, -m; default lines, words, bytes): one
// count alone is printed unpadded, several in columns of 9 (coreutils/wc.c).
func Wc(p *process.Proc, argv []string) int {
	var kinds []byte // in output order: l, w, m, c
	var names []string
	set := map[byte]bool{}
	for _, a := range argv[1:] {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			for i := 1; i < len(a); i++ {
				if strings.IndexByte("lwcmL", a[i]) < 0 {
					p.Eprintln("wc: invalid option -- '" + a[i:i+1] + "'")
					return 1
				}
				set[a[i]] = true
			}
			continue
		}
		names = append(names, a)
	}
	for _, k := range []byte("lwmc") {
		if set[k] {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		kinds = []byte("lwc")
	}
	names, data, code := readInputs(p, "wc", names)
	totals := map[byte]int{}
	line := func(counts map[byte]int, name string) {
		var b strings.Builder
		for i, k := range kinds {
			switch {
			case len(kinds) == 1:
				fmt.Fprintf(&b, "%d", counts[k])
			case i == 0:
				fmt.Fprintf(&b, "%9d", counts[k])
			default:
				fmt.Fprintf(&b, " %9d", counts[k])
			}
		}
		if name != "" {
			b.WriteString(" " + name)
		}
		p.Println(b.String())
	}
	for i, d := range data {
		s := string(d)
		c := map[byte]int{'l': strings.Count(s, "\n"), 'w': len(strings.Fields(s)), 'c': len(d), 'm': utf8.RuneCount(d)}
		for k, v := range c {
			totals[k] += v
		}
		line(c, names[i])
	}
	if len(data) > 1 {
		line(totals, "total")
	}
	return code
}

// Awk runs the awk programs made of one action printing fields:
// `{print}`, `{print $1, $NF}`, `{ print $2 }`, with -F sep. Any other
// program: in an open image (whose files wink does not know) it ends at
// once with 0, as the tools of inbox.yaml do; in a known image it is
// refused with a message saying wink does not simulate it, exit 2.
func Awk(p *process.Proc, argv []string) int {
	sep := ""
	var prog string
	var files []string
	args := argv[1:]
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "-F" && len(args) > 1:
			sep, args = args[1], args[2:]
			continue
		case strings.HasPrefix(a, "-F") && len(a) > 2:
			sep, args = a[2:], args[1:]
			continue
		}
		break
	}
	if len(args) == 0 {
		p.Eprintln("Usage: awk [OPTIONS] [AWK_PROGRAM] [FILE]...")
		return 1
	}
	prog, files = args[0], args[1:]
	fields, ok := awkPrintFields(prog)
	if !ok {
		if p.Env.Image.Open {
			return 0
		}
		p.Eprintln("awk: wink simulates only {print ...} of fields, not: " + prog)
		return 2
	}
	_, data, code := readInputs(p, "awk", files)
	for _, d := range data {
		text := strings.TrimSuffix(string(d), "\n")
		if text == "" && len(d) == 0 {
			continue
		}
		for _, rec := range strings.Split(text, "\n") {
			rec = strings.TrimSuffix(rec, "\r")
			var fs []string
			if sep == "" || sep == " " {
				fs = strings.Fields(rec)
			} else {
				fs = strings.Split(rec, sep)
			}
			var out []string
			for _, f := range fields {
				switch {
				case f == 0:
					out = append(out, rec)
				case f == -1 && len(fs) > 0:
					out = append(out, fs[len(fs)-1])
				case f > 0 && f <= len(fs):
					out = append(out, fs[f-1])
				default:
					out = append(out, "")
				}
			}
			p.Println(strings.Join(out, " "))
		}
	}
	return code
}

// awkPrintFields parses `{print $a, $b}`: the field numbers (0 the whole
// record, -1 $NF); ok false for any other program.
func awkPrintFields(prog string) ([]int, bool) {
	s := strings.TrimSpace(prog)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return nil, false
	}
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s[1:len(s)-1]), ";"))
	if s == "print" {
		return []int{0}, true
	}
	rest, ok := strings.CutPrefix(s, "print ")
	if !ok {
		return nil, false
	}
	var out []int
	for _, f := range strings.Split(rest, ",") {
		f = strings.TrimSpace(f)
		switch {
		case f == "$NF":
			out = append(out, -1)
		case strings.HasPrefix(f, "$"):
			n, err := strconv.Atoi(f[1:])
			if err != nil || n < 0 {
				return nil, false
			}
			out = append(out, n)
		default:
			return nil, false
		}
	}
	return out, true
}
