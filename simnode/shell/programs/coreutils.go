package programs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"sort"
	"strconv"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// This file is the busybox applets (coreutils on Debian) chart scripts use
// beside sed and awk (issue 18; busybox 1.36 applets, https://busybox.net/
// downloads/BusyBox.html): cut, head, basename, dirname, tr, sort, uniq,
// tee, mkdir, cp, ln, chmod/chown/chgrp, xargs, which.

// lines splits text into lines without their newlines.
func lines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// readAll is the concatenated input of files (stdin when none).
func readAll(p *process.Proc, tool string, files []string) (string, int) {
	_, data, code := readInputs(p, tool, files)
	var b strings.Builder
	for _, d := range data {
		b.Write(d)
	}
	return b.String(), code
}

// cutList parses a cut LIST (N, N-M, N-, -M, comma-separated) into a
// selector of 1-based positions.
func cutList(s string) (func(int) bool, error) {
	type span struct{ lo, hi int }
	var spans []span
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		sp := span{1, 1 << 30}
		var err error
		if lo != "" {
			if sp.lo, err = strconv.Atoi(lo); err != nil || sp.lo < 1 {
				return nil, fmt.Errorf("invalid field value '%s'", part)
			}
		}
		if !isRange {
			sp.hi = sp.lo
		} else if hi != "" {
			if sp.hi, err = strconv.Atoi(hi); err != nil {
				return nil, fmt.Errorf("invalid field value '%s'", part)
			}
		}
		spans = append(spans, sp)
	}
	return func(n int) bool {
		for _, sp := range spans {
			if n >= sp.lo && n <= sp.hi {
				return true
			}
		}
		return false
	}, nil
}

// Cut is busybox cut -f LIST [-d DELIM] [-s] | -c LIST | -b LIST [FILE]...
func Cut(p *process.Proc, argv []string) int {
	delim, list, mode, only := "\t", "", byte(0), false
	var files []string
	args := argv[1:]
	for len(args) > 0 {
		a := args[0]
		args = args[1:]
		switch {
		case a == "-s":
			only = true
		case len(a) >= 2 && a[0] == '-' && strings.IndexByte("fcbd", a[1]) >= 0:
			v := a[2:]
			if v == "" {
				if len(args) == 0 {
					p.Eprintln(fmt.Sprintf("cut: option requires an argument -- '%c'", a[1]))
					return 1
				}
				v, args = args[0], args[1:]
			}
			if a[1] == 'd' {
				delim = v
			} else {
				mode, list = a[1], v
			}
		default:
			files = append(files, a)
		}
	}
	if mode == 0 {
		p.Eprintln("cut: expected a list of bytes, characters, or fields")
		return 1
	}
	sel, err := cutList(list)
	if err != nil {
		p.Eprintln("cut: " + err.Error())
		return 1
	}
	text, code := readAll(p, "cut", files)
	var b strings.Builder
	for _, line := range lines(text) {
		if p.Step() != nil {
			return p.Killed()
		}
		if mode == 'f' {
			if !strings.Contains(line, delim) {
				if !only {
					b.WriteString(line + "\n")
				}
				continue
			}
			var out []string
			for i, f := range strings.Split(line, delim) {
				if sel(i + 1) {
					out = append(out, f)
				}
			}
			b.WriteString(strings.Join(out, delim) + "\n")
			continue
		}
		for i, r := range []rune(line) {
			if sel(i + 1) {
				b.WriteRune(r)
			}
		}
		b.WriteString("\n")
	}
	io.WriteString(p.Stdout, b.String())
	return code
}

// Head is head [-n [-]N | -N] [-c [-]N] [-qv] [FILE]...: the first N
// lines (default 10) or bytes of each file or of stdin; with a leading -,
// all but the last N (GNU)
// (https://www.gnu.org/software/coreutils/manual/html_node/head-invocation.html).
func Head(p *process.Proc, argv []string) int {
	args := argv[1:]
	if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && args[0][1] >= '0' && args[0][1] <= '9' {
		args = append([]string{"-n", args[0][1:]}, args[1:]...) // head -5
	}
	o := newOptions("head")
	lineCount := o.StringP("lines", "n", "10", "")
	byteCount := o.StringP("bytes", "c", "", "")
	quiet := o.BoolP("quiet", "q", false, "")
	verbose := o.BoolP("verbose", "v", false, "")
	files, ok := o.parse(p, args)
	if !ok {
		return 1
	}
	count, unit := *lineCount, "lines"
	if *byteCount != "" {
		count, unit = *byteCount, "bytes"
	}
	n, allBut, err := headCount(count)
	if err != nil {
		p.Eprintln("head: invalid number '" + count + "'")
		return 1
	}
	names, data, code := readInputs(p, "head", files)
	for k, d := range data {
		fileHeader(p, names, k, *quiet, *verbose)
		var end int
		if unit == "bytes" {
			end = min(n, len(d))
			if allBut {
				end = max(len(d)-n, 0)
			}
		} else {
			ends := lineEnds(d)
			switch {
			case allBut && n < len(ends):
				end = 0
				if len(ends)-n > 0 {
					end = ends[len(ends)-n-1]
				}
			case allBut:
				end = 0
			case n < len(ends):
				end = ends[n-1]
				if n == 0 {
					end = 0
				}
			default:
				end = len(d)
			}
		}
		p.Stdout.Write(d[:end])
	}
	return code
}

// headCount reads head's and tail's N: digits with an optional sign and
// a multiplier suffix (b 512, K/k 1024, M 1048576); allBut: a leading -.
func headCount(s string) (n int, sign bool, err error) {
	sign = strings.HasPrefix(s, "-")
	s = strings.TrimLeft(s, "+-")
	mult := 1
	for suffix, m := range map[string]int{"b": 512, "k": 1024, "K": 1024, "kB": 1000, "M": 1 << 20, "MB": 1000000, "G": 1 << 30} {
		if strings.HasSuffix(s, suffix) {
			s, mult = strings.TrimSuffix(s, suffix), m
			break
		}
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 {
		return 0, false, strconv.ErrSyntax
	}
	return min(v*mult, 1<<40), sign, nil
}

// lineEnds are the offsets just past each line of d (the last line may
// lack its newline).
func lineEnds(d []byte) []int {
	var ends []int
	for i, c := range d {
		if c == '\n' {
			ends = append(ends, i+1)
		}
	}
	if len(d) > 0 && d[len(d)-1] != '\n' {
		ends = append(ends, len(d))
	}
	return ends
}

// Basename is basename NAME [SUFFIX].
func Basename(p *process.Proc, argv []string) int {
	if len(argv) < 2 {
		p.Eprintln("Usage: basename FILE [SUFFIX]")
		return 1
	}
	s := strings.TrimRight(argv[1], "/")
	if s == "" && argv[1] != "" {
		p.Println("/")
		return 0
	}
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	if len(argv) > 2 && s != argv[2] {
		s = strings.TrimSuffix(s, argv[2])
	}
	p.Println(s)
	return 0
}

// Dirname is dirname NAME.
func Dirname(p *process.Proc, argv []string) int {
	if len(argv) < 2 {
		p.Eprintln("Usage: dirname FILENAME")
		return 1
	}
	s := strings.TrimRight(argv[1], "/")
	switch i := strings.LastIndexByte(s, '/'); {
	case argv[1] != "" && s == "":
		s = "/"
	case i < 0:
		s = "."
	default:
		s = strings.TrimRight(s[:i], "/")
		if s == "" {
			s = "/"
		}
	}
	p.Println(s)
	return 0
}

// trSet expands a tr SET: ranges a-z, classes [:upper:] and escapes.
func trSet(s string) []rune {
	classes := map[string]string{
		"[:upper:]": "A-Z", "[:lower:]": "a-z", "[:digit:]": "0-9", "[:alpha:]": "a-zA-Z",
		"[:alnum:]": "a-zA-Z0-9", "[:space:]": " \t\n\r\v\f", "[:blank:]": " \t", "[:punct:]": "!-/:-@[-`{-~",
	}
	for k, v := range classes {
		s = strings.ReplaceAll(s, k, v)
	}
	in := []rune(sedUnescape(strings.NewReplacer(`\r`, "\r").Replace(s)))
	var out []rune
	for i := 0; i < len(in); i++ {
		if i+2 < len(in) && in[i+1] == '-' && in[i] <= in[i+2] {
			for r := in[i]; r <= in[i+2]; r++ {
				out = append(out, r)
			}
			i += 2
			continue
		}
		out = append(out, in[i])
	}
	return out
}

// Tr is busybox tr [-cds] SET1 [SET2].
func Tr(p *process.Proc, argv []string) int {
	flags, ops := busyboxArgs(argv[1:])
	del, squeeze := strings.Contains(flags, "d"), strings.Contains(flags, "s")
	if len(ops) == 0 || (!del && !squeeze && len(ops) < 2) {
		p.Eprintln("Usage: tr [-cds] STRING1 [STRING2]")
		return 1
	}
	from := trSet(ops[0])
	var to []rune
	if len(ops) > 1 {
		to = trSet(ops[1])
	}
	in, _ := io.ReadAll(io.LimitReader(p.Stdin, process.MaxInput))
	var b strings.Builder
	var last rune = -1
	for _, r := range string(in) {
		k := -1
		for i, f := range from {
			if f == r {
				k = i
				break
			}
		}
		if strings.Contains(flags, "c") {
			if k < 0 {
				k = 0
			} else {
				k = -1
			}
		}
		if k >= 0 && del {
			continue
		}
		if k >= 0 && len(to) > 0 {
			r = to[min(k, len(to)-1)]
		}
		if squeeze && r == last && (k >= 0 || containsRune(to, r)) {
			continue
		}
		b.WriteRune(r)
		last = r
	}
	io.WriteString(p.Stdout, b.String())
	return 0
}

func containsRune(rs []rune, r rune) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// Sort is sort [-bcfhnrsuVz] [-t SEP] [-k KEYDEF]... [-o FILE] [FILE]...
// (https://www.gnu.org/software/coreutils/manual/html_node/sort-invocation.html;
// https://pubs.opengroup.org/onlinepubs/9699919799/utilities/sort.html):
// KEYDEF is F[.C][OPTS][,F[.C][OPTS]], a key from field F to the end of
// the line unless its end is given; lines equal by their keys are
// compared whole, unless -s or -u.
func Sort(p *process.Proc, argv []string) int {
	o := newOptions("sort")
	var g sortKey
	o.BoolVarP(&g.numeric, "numeric-sort", "n", false, "")
	o.BoolVarP(&g.human, "human-numeric-sort", "h", false, "")
	o.BoolVarP(&g.general, "general-numeric-sort", "g", false, "")
	o.BoolVarP(&g.version, "version-sort", "V", false, "")
	o.BoolVarP(&g.reverse, "reverse", "r", false, "")
	o.BoolVarP(&g.fold, "ignore-case", "f", false, "")
	o.BoolVarP(&g.blanks, "ignore-leading-blanks", "b", false, "")
	unique := o.BoolP("unique", "u", false, "")
	stable := o.BoolP("stable", "s", false, "")
	check := o.BoolP("check", "c", false, "")
	zero := o.BoolP("zero-terminated", "z", false, "")
	sep := o.StringP("field-separator", "t", "", "")
	keys := o.StringArrayP("key", "k", nil, "")
	out := o.StringP("output", "o", "", "")
	o.StringP("buffer-size", "S", "", "")
	o.StringP("temporary-directory", "T", "", "")
	o.String("parallel", "", "")
	files, ok := o.parse(p, argv[1:])
	if !ok {
		return 2
	}
	var defs []sortKey
	for _, k := range *keys {
		d, ok := parseSortKey(k, g)
		if !ok {
			p.Eprintln("sort: invalid number at field start: invalid count at start of '" + k + "'")
			return 2
		}
		defs = append(defs, d)
	}
	text, code := readAll(p, "sort", files)
	end := "\n"
	if *zero {
		end = "\x00"
	}
	ls := strings.SplitAfter(text, end)
	if n := len(ls); n > 0 && ls[n-1] == "" {
		ls = ls[:n-1]
	}
	for i := range ls {
		ls[i] = strings.TrimSuffix(ls[i], end)
	}
	cmp := func(a, b string) int {
		if len(defs) == 0 {
			if c := g.compare(a, b); c != 0 || *stable || *unique {
				return c
			}
		}
		for _, d := range defs {
			if c := d.compare(d.extract(a, *sep), d.extract(b, *sep)); c != 0 {
				return c
			}
		}
		if *stable || *unique {
			return 0
		}
		c := strings.Compare(a, b)
		if g.reverse {
			c = -c
		}
		return c
	}
	if *check {
		for i := 1; i < len(ls); i++ {
			if c := cmp(ls[i-1], ls[i]); c > 0 || *unique && c == 0 {
				p.Eprintln(fmt.Sprintf("sort: -:%d: disorder: %s", i+1, ls[i]))
				return 1
			}
		}
		return code
	}
	sort.SliceStable(ls, func(i, j int) bool { return cmp(ls[i], ls[j]) < 0 })
	var b strings.Builder
	for i, l := range ls {
		if *unique && i > 0 && cmp(ls[i-1], l) == 0 {
			continue
		}
		b.WriteString(l + end)
	}
	if *out != "" {
		if err := p.WriteFile(*out, []byte(b.String()), false); err != nil {
			p.Eprintln("sort: open failed: " + *out + ": " + process.PosixFileError(err, true))
			return 2
		}
		return code
	}
	io.WriteString(p.Stdout, b.String())
	return code
}

// sortKey is one -k KEYDEF, or the global ordering options.
type sortKey struct {
	startField, startChar, endField, endChar                          int
	numeric, human, general, version, reverse, fold, blanks, hasOrder bool
}

// parseSortKey reads KEYDEF; a key without ordering options of its own
// takes the global ones.
func parseSortKey(s string, global sortKey) (sortKey, bool) {
	var k sortKey
	pos := func(s string) (field, char int, opts string, ok bool) {
		i := 0
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
			i++
		}
		f, c, _ := strings.Cut(s[:i], ".")
		field, err := strconv.Atoi(f)
		if err != nil || field < 1 {
			return 0, 0, "", false
		}
		if c != "" {
			if char, err = strconv.Atoi(c); err != nil {
				return 0, 0, "", false
			}
		}
		return field, char, s[i:], true
	}
	start, end, hasEnd := strings.Cut(s, ",")
	var opts, opts2 string
	var ok bool
	if k.startField, k.startChar, opts, ok = pos(start); !ok {
		return k, false
	}
	if hasEnd {
		if k.endField, k.endChar, opts2, ok = pos(end); !ok {
			return k, false
		}
	}
	for _, c := range opts + opts2 {
		k.hasOrder = true
		switch c {
		case 'n':
			k.numeric = true
		case 'h':
			k.human = true
		case 'g':
			k.general = true
		case 'V':
			k.version = true
		case 'r':
			k.reverse = true
		case 'f':
			k.fold = true
		case 'b':
			k.blanks = true
		default:
			return k, false
		}
	}
	if !k.hasOrder {
		sf, sc, ef, ec := k.startField, k.startChar, k.endField, k.endChar
		k = global
		k.startField, k.startChar, k.endField, k.endChar = sf, sc, ef, ec
	}
	return k, true
}

// extract is the key's text of line: fields separated by sep, or by the
// empty-to-non-blank transition (a field then keeps its leading blanks).
func (k sortKey) extract(line, sep string) string {
	var starts, ends []int
	if sep != "" {
		i := 0
		for {
			starts = append(starts, i)
			j := strings.Index(line[i:], sep)
			if j < 0 {
				ends = append(ends, len(line))
				break
			}
			ends = append(ends, i+j)
			i += j + len(sep)
		}
	} else {
		i := 0
		for i < len(line) {
			st := i
			for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
				i++
			}
			for i < len(line) && line[i] != ' ' && line[i] != '\t' {
				i++
			}
			starts, ends = append(starts, st), append(ends, i)
		}
	}
	if k.startField > len(starts) {
		return ""
	}
	from := starts[k.startField-1]
	if k.blanks {
		for from < len(line) && (line[from] == ' ' || line[from] == '\t') {
			from++
		}
	}
	if k.startChar > 0 {
		from = min(from+k.startChar-1, len(line))
	}
	to := len(line)
	if k.endField > 0 && k.endField <= len(ends) {
		to = ends[k.endField-1]
		if k.endChar > 0 {
			to = min(starts[k.endField-1]+k.endChar, len(line))
		}
	}
	if to < from {
		return ""
	}
	return line[from:to]
}

// compare orders two keys by the key's options.
func (k sortKey) compare(a, b string) int {
	if k.blanks {
		a, b = strings.TrimLeft(a, " \t"), strings.TrimLeft(b, " \t")
	}
	var c int
	switch {
	case k.numeric, k.general, k.human:
		x, y := sortNumber(a, k.human), sortNumber(b, k.human)
		switch {
		case x < y:
			c = -1
		case x > y:
			c = 1
		}
	case k.version:
		c = versionCompare(a, b)
	case k.fold:
		c = strings.Compare(strings.ToUpper(a), strings.ToUpper(b))
	default:
		c = strings.Compare(a, b)
	}
	if k.reverse {
		c = -c
	}
	return c
}

// sortNumber is the number a key starts with (0 when none); human: with
// its K, M, G... suffix.
func sortNumber(s string, human bool) float64 {
	s = strings.TrimSpace(s)
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	v, _ := strconv.ParseFloat(s[:i], 64)
	if human && i < len(s) {
		if e := strings.IndexByte("KMGTPEZY", s[i]&^0x20); e >= 0 {
			v *= math.Pow(1024, float64(e+1))
		}
	}
	return v
}

// versionCompare is sort -V's order: runs of digits compare as numbers.
func versionCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := a[0] >= '0' && a[0] <= '9', b[0] >= '0' && b[0] <= '9'
		if da && db {
			i, j := 0, 0
			for i < len(a) && a[i] >= '0' && a[i] <= '9' {
				i++
			}
			for j < len(b) && b[j] >= '0' && b[j] <= '9' {
				j++
			}
			x, y := strings.TrimLeft(a[:i], "0"), strings.TrimLeft(b[:j], "0")
			if len(x) != len(y) {
				return map[bool]int{true: -1, false: 1}[len(x) < len(y)]
			}
			if c := strings.Compare(x, y); c != 0 {
				return c
			}
			a, b = a[i:], b[j:]
			continue
		}
		if a[0] != b[0] {
			return map[bool]int{true: -1, false: 1}[a[0] < b[0]]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) - len(b)
}

// Uniq is uniq [-cdiu] [-f N] [-s N] [-w N] [INPUT [OUTPUT]]: adjacent
// repeated lines once (https://www.gnu.org/software/coreutils/manual/html_node/uniq-invocation.html).
func Uniq(p *process.Proc, argv []string) int {
	o := newOptions("uniq")
	count := o.BoolP("count", "c", false, "")
	dups := o.BoolP("repeated", "d", false, "")
	uniques := o.BoolP("unique", "u", false, "")
	fold := o.BoolP("ignore-case", "i", false, "")
	skipFields := o.IntP("skip-fields", "f", 0, "")
	skipChars := o.IntP("skip-chars", "s", 0, "")
	width := o.IntP("check-chars", "w", -1, "")
	ops, ok := o.parse(p, argv[1:])
	if !ok {
		return 1
	}
	in := ops[:min(len(ops), 1)]
	if len(in) == 1 && in[0] == "-" {
		in = nil
	}
	text, code := readAll(p, "uniq", in)
	key := func(l string) string {
		for f := 0; f < *skipFields; f++ {
			l = strings.TrimLeft(l, " \t")
			if i := strings.IndexAny(l, " \t"); i >= 0 {
				l = l[i:]
			} else {
				l = ""
			}
		}
		l = l[min(*skipChars, len(l)):]
		if *width >= 0 {
			l = l[:min(*width, len(l))]
		}
		if *fold {
			l = strings.ToLower(l)
		}
		return l
	}
	var b strings.Builder
	ls := lines(text)
	for i := 0; i < len(ls); {
		j := i
		for j < len(ls) && key(ls[j]) == key(ls[i]) {
			j++
		}
		n := j - i
		switch {
		case *dups && n == 1, *uniques && n > 1:
		case *count:
			fmt.Fprintf(&b, "%7d %s\n", n, ls[i])
		default:
			b.WriteString(ls[i] + "\n")
		}
		i = j
	}
	if len(ops) > 1 {
		if err := p.WriteFile(ops[1], []byte(b.String()), false); err != nil {
			p.Eprintln("uniq: " + ops[1] + ": " + process.PosixFileError(err, true))
			return 1
		}
		return code
	}
	io.WriteString(p.Stdout, b.String())
	return code
}

// Tee is busybox tee [-a] [FILE]...: stdin to stdout and to each file.
func Tee(p *process.Proc, argv []string) int {
	flags, files := busyboxArgs(argv[1:])
	code := 0
	ws := []io.Writer{p.Stdout}
	for _, f := range files {
		w, err := p.OpenRedirect(f, strings.Contains(flags, "a"))
		if err != nil {
			p.Eprintln("tee: " + f + ": " + process.PosixFileError(err, true))
			code = 1
			continue
		}
		ws = append(ws, w)
	}
	if _, err := io.Copy(io.MultiWriter(ws...), io.LimitReader(p.Stdin, process.MaxInput)); err != nil {
		code = 1
	}
	return code
}

// statPath reports whether a file or directory is there, and which.
func statPath(p *process.Proc, name string) (isDir, ok bool) {
	if _, err := p.ReadDir(name); err == nil {
		return true, true
	}
	_, err := p.ReadFile(name)
	return false, err == nil
}

// Mkdir is busybox mkdir [-p] [-m MODE] DIR...
func Mkdir(p *process.Proc, argv []string) int {
	var dirs []string
	parents := false
	args := argv[1:]
	for len(args) > 0 {
		a := args[0]
		args = args[1:]
		switch {
		case a == "-m" && len(args) > 0:
			args = args[1:]
		case strings.HasPrefix(a, "-") && len(a) > 1:
			parents = parents || strings.Contains(a, "p")
		default:
			dirs = append(dirs, a)
		}
	}
	if len(dirs) == 0 {
		p.Eprintln("Usage: mkdir [-m MODE] [-p] DIRECTORY...")
		return 1
	}
	code := 0
	for _, d := range dirs {
		isDir, ok := statPath(p, d)
		switch {
		case ok && (!isDir || !parents):
			p.Eprintln("mkdir: can't create directory '" + d + "': File exists")
			code = 1
			continue
		case ok:
			continue
		case !parents:
			if parentDir, ok := statPath(p, path.Dir(p.Path(d))); !ok || !parentDir {
				p.Eprintln("mkdir: can't create directory '" + d + "': No such file or directory")
				code = 1
				continue
			}
		}
		if err := p.MkdirAll(d); err != nil {
			p.Eprintln("mkdir: can't create directory '" + d + "': " + process.PosixFileError(err, true))
			code = 1
		}
	}
	return code
}

// cpTree copies src (a file, or with recursive a directory) to dst.
func cpTree(p *process.Proc, src, dst string, recursive bool) error {
	if !recursive {
		if _, err := p.ReadDir(src); err == nil {
			return fmt.Errorf("omitting directory '%s'", src)
		}
	}
	return p.CopyTree(src, dst)
}

// Cp is busybox cp [-rRafp] SOURCE... DEST.
func Cp(p *process.Proc, argv []string) int {
	flags, ops := busyboxArgs(argv[1:])
	if len(ops) < 2 {
		p.Eprintln("Usage: cp [-arPLHpfinlsTu] SOURCE... DEST")
		return 1
	}
	recursive := strings.ContainsAny(flags, "rRa")
	dst := ops[len(ops)-1]
	dstDir, _ := statPath(p, dst)
	code := 0
	for _, src := range ops[:len(ops)-1] {
		to := dst
		if dstDir {
			to = dst + "/" + process.BaseName(strings.TrimRight(src, "/"))
		}
		if err := cpTree(p, src, to, recursive); err != nil {
			if _, ok := statPath(p, src); !ok && p.ScriptMayExist(src, err) {
				p.NotSimulated("cp: a file of the image") // open world: the image may have it
				continue
			}
			msg := err.Error()
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
				msg = "can't stat '" + src + "': " + process.PosixFileError(err, false)
				if _, ok := statPath(p, src); ok {
					msg = "can't create '" + to + "': " + process.PosixFileError(err, true)
				}
			}
			p.Eprintln("cp: " + msg)
			code = 1
		}
	}
	return code
}

// Ln is ln [-sfnTv] TARGET LINK, or TARGET... DIR
// (https://www.gnu.org/software/coreutils/manual/html_node/ln-invocation.html):
// -s makes a symbolic link, where the file system keeps them
// (process.Symlinks); a hard link, or a symbolic link on a file system
// without them, is a copy of the file as it is now.
func Ln(p *process.Proc, argv []string) int {
	o := newOptions("ln")
	symbolic := o.BoolP("symbolic", "s", false, "")
	force := o.BoolP("force", "f", false, "")
	noDeref := o.BoolP("no-dereference", "n", false, "")
	o.BoolP("no-target-directory", "T", false, "")
	verbose := o.BoolP("verbose", "v", false, "")
	o.BoolP("b", "b", false, "")
	ops, ok := o.parse(p, argv[1:])
	if !ok {
		return 1
	}
	if len(ops) == 0 {
		p.Eprintln("ln: missing file operand")
		return 1
	}
	if len(ops) == 1 {
		ops = append(ops, path.Base(ops[0]))
	}
	targets, dest := ops[:len(ops)-1], ops[len(ops)-1]
	destNode, destErr := lstat(p, dest)
	if destErr == nil && destNode.kind == 'l' && !*noDeref {
		destNode, destErr = statFollow(p, dest)
	}
	intoDir := destErr == nil && destNode.kind == 'd'
	if len(targets) > 1 && !intoDir {
		p.Eprintln("ln: target '" + dest + "' is not a directory")
		return 1
	}
	code := 0
	for _, target := range targets {
		link := dest
		if intoDir {
			link = strings.TrimSuffix(dest, "/") + "/" + path.Base(target)
		}
		if _, err := lstat(p, link); err == nil {
			if !*force {
				p.Eprintln("ln: " + link + ": File exists")
				code = 1
				continue
			}
			p.Remove(link)
		}
		if *verbose {
			p.Println("'" + link + "' -> '" + target + "'")
		}
		if *symbolic {
			err := p.Symlink(target, link)
			if err == nil {
				continue
			}
			if !errors.Is(err, process.ErrNoLinks) {
				p.Eprintln("ln: " + link + ": " + process.PosixFileError(err, true))
				code = 1
				continue
			}
		}
		from := target
		if *symbolic && !strings.HasPrefix(target, "/") {
			from = path.Join(path.Dir(p.Path(link)), target) // relative to the link
		}
		data, err := p.ReadFile(from)
		if err != nil {
			if !*symbolic {
				p.Eprintln("ln: " + target + ": " + process.PosixFileError(err, false))
				code = 1
				continue
			}
			p.NotSimulated("ln -s: a link to a directory or a missing file")
			continue
		}
		if *symbolic {
			p.NotSimulated("ln -s: a symbolic link (a copy on this file system)")
		}
		if err := p.WriteFile(link, data, false); err != nil {
			p.Eprintln("ln: " + link + ": " + process.PosixFileError(err, true))
			code = 1
		}
	}
	return code
}

// Chmod is chmod, chown and chgrp: the container's file system keeps no
// modes or owners; each file must exist.
func Chmod(p *process.Proc, argv []string) int {
	name := process.ProgramName(argv[0], false)
	_, ops := busyboxArgs(argv[1:])
	if len(ops) < 2 {
		p.Eprintln("Usage: " + name + " [-R] MODE FILE...")
		return 1
	}
	code := 0
	for _, f := range ops[1:] {
		if _, ok := statPath(p, f); !ok {
			p.Eprintln(name + ": " + f + ": No such file or directory")
			code = 1
		}
	}
	return code
}

// Xargs is busybox xargs [-n N] [-I STR] [-r] [COMMAND [ARG]...]: the
// words of stdin as arguments of COMMAND (echo by default).
func Xargs(p *process.Proc, argv []string) int {
	n, repl, noEmpty := 0, "", false
	args := argv[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		a := args[0]
		args = args[1:]
		switch {
		case (a == "-n" || a == "-I") && len(args) > 0:
			if a == "-n" {
				n, _ = strconv.Atoi(args[0])
			} else {
				repl = args[0]
			}
			args = args[1:]
		case strings.HasPrefix(a, "-n"):
			n, _ = strconv.Atoi(a[2:])
		case strings.HasPrefix(a, "-I"):
			repl = a[2:]
		case a == "-r":
			noEmpty = true
		}
	}
	if len(args) == 0 {
		args = []string{"echo"}
	}
	in, _ := io.ReadAll(io.LimitReader(p.Stdin, process.MaxInput))
	var items []string
	if repl != "" {
		items, n = lines(string(in)), 1
	} else {
		items = strings.Fields(string(in))
	}
	if len(items) == 0 && (noEmpty || repl != "") {
		return 0
	}
	if n <= 0 {
		n = max(len(items), 1)
	}
	code := 0
	for i := 0; i < len(items) || i == 0; i += n {
		if p.Step() != nil {
			return p.Killed()
		}
		batch := items[i:min(i+n, len(items))]
		cmd := append([]string(nil), args...)
		if repl != "" {
			for k := range cmd {
				cmd[k] = strings.ReplaceAll(cmd[k], repl, batch[0])
			}
		} else {
			cmd = append(cmd, batch...)
		}
		if c := p.Exec(cmd); c != 0 {
			code = 123
			if c == 255 {
				return 124
			}
		}
		if len(items) == 0 {
			break
		}
	}
	return code
}

// Which is which NAME...: the path of each program the image has.
func Which(p *process.Proc, argv []string) int {
	code := 0
	for _, name := range argv[1:] {
		if _, ok := p.Programs.Lookup(process.Linux, name); (ok || process.BaseHas(p.Env.Image.Base, name)) && !process.BaseLacks(p.Env.Image.Base, name) {
			p.Println("/usr/bin/" + name)
			continue
		}
		code = 1
	}
	return code
}

// IDFlags is id with -u, -g, -G, -n: the numbers (or names) alone.
func IDFlags(p *process.Proc, argv []string) int {
	flags, _ := busyboxArgs(argv[1:])
	if flags == "" {
		return ID(p, argv)
	}
	uid, name := "0", "root"
	if u := p.Env.User; u != "" && u != "root" && u != "0" {
		uid, name = u, u
		if _, err := strconv.Atoi(u); err == nil {
			name = u
		} else {
			uid = "1000"
		}
	}
	gid, gname := "0", "root"
	if uid == "1000" {
		gid, gname = "1000", name
	}
	nameOut := strings.Contains(flags, "n")
	switch {
	case strings.Contains(flags, "u"):
		if nameOut {
			p.Println(name)
		} else {
			p.Println(uid)
		}
	case strings.ContainsAny(flags, "gG"):
		if nameOut {
			p.Println(gname)
		} else {
			p.Println(gid)
		}
	default:
		return ID(p, argv[:1])
	}
	return 0
}
