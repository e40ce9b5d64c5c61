package programs

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// This file is the tools that compare or join files line by line: cmp,
// comm, paste, and run-parts, which runs a directory's scripts in order.

// Cmp is cmp [-ls] FILE1 [FILE2]: exit 0 when the files are the same, 1
// when they differ (saying where, unless -s), 2 on trouble
// (https://pubs.opengroup.org/onlinepubs/9699919799/utilities/cmp.html).
func Cmp(p *process.Proc, argv []string) int {
	o := newOptions("cmp")
	silent := o.BoolP("silent", "s", false, "")
	o.Bool("quiet", false, "")
	list := o.BoolP("verbose", "l", false, "")
	ops, ok := o.parse(p, argv[1:])
	if !ok {
		return 2
	}
	if len(ops) == 1 {
		ops = append(ops, "-")
	}
	if len(ops) < 2 {
		p.Eprintln("cmp: missing operand")
		return 2
	}
	names, data, code := readInputs(p, "cmp", ops[:2])
	if code != 0 || len(data) < 2 {
		return 2
	}
	a, b := data[0], data[1]
	line, differ := 1, false
	for i := 0; i < min(len(a), len(b)); i++ {
		if a[i] != b[i] {
			differ = true
			switch {
			case *silent:
				return 1
			case *list:
				p.Println(fmt.Sprintf("%d %o %o", i+1, a[i], b[i]))
				continue
			}
			p.Println(fmt.Sprintf("%s %s differ: char %d, line %d", names[0], names[1], i+1, line))
			return 1
		}
		if a[i] == '\n' {
			line++
		}
	}
	if len(a) != len(b) {
		if !*silent {
			short := names[0]
			if len(b) < len(a) {
				short = names[1]
			}
			p.Eprintln("cmp: EOF on " + short)
		}
		return 1
	}
	if differ {
		return 1
	}
	return 0
}

// Comm is comm [-123] FILE1 FILE2: the lines only in FILE1, only in FILE2,
// and in both, of two sorted files, in three columns; -N drops column N
// (https://pubs.opengroup.org/onlinepubs/9699919799/utilities/comm.html).
func Comm(p *process.Proc, argv []string) int {
	o := newOptions("comm")
	drop := [4]*bool{nil, o.BoolP("1", "1", false, ""), o.BoolP("2", "2", false, ""), o.BoolP("3", "3", false, "")}
	ops, ok := o.parse(p, argv[1:])
	if !ok {
		return 1
	}
	if len(ops) != 2 {
		p.Eprintln("comm: missing operand")
		return 1
	}
	_, data, code := readInputs(p, "comm", ops)
	if code != 0 {
		return code
	}
	a, b := lines(string(data[0])), lines(string(data[1]))
	var out strings.Builder
	put := func(col int, l string) {
		if *drop[col] {
			return
		}
		for c := 1; c < col; c++ {
			if !*drop[c] {
				out.WriteByte('\t')
			}
		}
		out.WriteString(l + "\n")
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			put(1, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			put(2, b[j])
			j++
		default:
			put(3, a[i])
			i, j = i+1, j+1
		}
	}
	io.WriteString(p.Stdout, out.String())
	return 0
}

// Paste is paste [-s] [-d LIST] FILE...: the files' lines side by side,
// joined by the delimiters of LIST in turn (a tab by default); -s each
// file's lines on one line (https://pubs.opengroup.org/onlinepubs/9699919799/utilities/paste.html).
func Paste(p *process.Proc, argv []string) int {
	o := newOptions("paste")
	serial := o.BoolP("serial", "s", false, "")
	delims := o.StringP("delimiters", "d", "\t", "")
	ops, ok := o.parse(p, argv[1:])
	if !ok {
		return 1
	}
	if len(ops) == 0 {
		ops = []string{"-"}
	}
	list := []rune(unescapeC(*delims))
	if len(list) == 0 {
		list = []rune{0}
	}
	delim := func(i int) string {
		if d := list[i%len(list)]; d != 0 {
			return string(d)
		}
		return ""
	}
	// stdin named more than once is read once, its lines dealt in turn
	_, data, code := readInputs(p, "paste", ops)
	files := make([][]string, len(data))
	for i, d := range data {
		files[i] = lines(string(d))
	}
	var out strings.Builder
	if *serial {
		for _, f := range files {
			for i, l := range f {
				if i > 0 {
					out.WriteString(delim(i - 1))
				}
				out.WriteString(l)
			}
			out.WriteString("\n")
		}
	} else {
		rows := 0
		for _, f := range files {
			rows = max(rows, len(f))
		}
		for r := 0; r < rows; r++ {
			for i, f := range files {
				if i > 0 {
					out.WriteString(delim(i - 1))
				}
				if r < len(f) {
					out.WriteString(f[r])
				}
			}
			out.WriteString("\n")
		}
	}
	io.WriteString(p.Stdout, out.String())
	return code
}

// runPartsName is the names run-parts runs by default (Debian's LANANA
// rule): letters, digits, underscores and hyphens.
var runPartsName = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

// RunParts is run-parts [--test] [--list] [--report] [--exit-on-error]
// [--regex RE] [-a ARG]... DIR: runs the executable files of DIR in the
// order of their names (https://manpages.debian.org/bookworm/debianutils/run-parts.8.en.html);
// a file is executable when it is a script (it starts with #!).
func RunParts(p *process.Proc, argv []string) int {
	o := newOptions("run-parts")
	test := o.Bool("test", false, "")
	list := o.Bool("list", false, "")
	report := o.Bool("report", false, "")
	exitOnError := o.Bool("exit-on-error", false, "")
	verbose := o.BoolP("verbose", "v", false, "")
	re := o.String("regex", "", "")
	args := o.StringArrayP("arg", "a", nil, "")
	o.StringP("umask", "u", "", "")
	ops, ok := o.parse(p, argv[1:])
	if !ok {
		return 1
	}
	if len(ops) != 1 {
		p.Eprintln("run-parts: missing operand")
		return 1
	}
	match := runPartsName
	if *re != "" {
		var err error
		if match, err = regexp.Compile(*re); err != nil {
			p.Eprintln("run-parts: regex error: " + err.Error())
			return 1
		}
	}
	dir := strings.TrimSuffix(ops[0], "/")
	ents, err := p.ReadDir(dir)
	if err != nil {
		p.Eprintln("run-parts: failed to open directory " + dir + ": " + process.PosixFileError(err, false))
		return 1
	}
	var names []string
	for _, e := range ents {
		if !e.IsDir() && match.MatchString(e.Name()) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	code := 0
	for _, n := range names {
		path := dir + "/" + n
		nd, err := statFollow(p, path)
		if err != nil || !nd.script && !*list {
			continue
		}
		if *test || *list {
			p.Println(path)
			continue
		}
		c := p
		if *verbose {
			p.Eprintln("run-parts: executing " + path)
		} else if *report {
			// the name leads the script's first output, on that stream
			once := &headerOnce{header: path + ":\n"}
			c = p.Sub(nil, &headerWriter{once, p.Stdout}, &headerWriter{once, p.Stderr})
		}
		if c := c.Exec(append([]string{path}, *args...)); c != 0 {
			p.Eprintln(fmt.Sprintf("run-parts: %s exited with return code %d", path, c))
			code = 1
			if *exitOnError {
				return c
			}
		}
	}
	return code
}

// headerOnce is run-parts --report's header, written once before a
// script's first output.
type headerOnce struct {
	header string
	done   bool
}

// headerWriter is one of the script's streams, writing the header first.
type headerWriter struct {
	once *headerOnce
	w    io.Writer
}

func (h *headerWriter) Write(b []byte) (int, error) {
	if !h.once.done && len(b) > 0 {
		h.once.done = true
		io.WriteString(h.w, h.once.header)
	}
	return h.w.Write(b)
}
