package programs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
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

// Head is busybox head [-n N | -N] [-c N] [FILE]...
func Head(p *process.Proc, argv []string) int {
	n, bytes := 10, -1
	var files []string
	args := argv[1:]
	for len(args) > 0 {
		a := args[0]
		args = args[1:]
		switch {
		case (a == "-n" || a == "-c") && len(args) > 0:
			v, err := strconv.Atoi(args[0])
			if err != nil {
				p.Eprintln("head: invalid number '" + args[0] + "'")
				return 1
			}
			if a == "-n" {
				n = v
			} else {
				bytes = v
			}
			args = args[1:]
		case strings.HasPrefix(a, "-n") && len(a) > 2:
			n, _ = strconv.Atoi(a[2:])
		case len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9':
			n, _ = strconv.Atoi(a[1:])
		default:
			files = append(files, a)
		}
	}
	names, data, code := readInputs(p, "head", files)
	for k, d := range data {
		if len(names) > 1 {
			if k > 0 {
				p.Println("")
			}
			p.Println("==> " + names[k] + " <==")
		}
		if bytes >= 0 {
			p.Stdout.Write(d[:min(bytes, len(d))])
			continue
		}
		text := string(d)
		end, count := 0, 0
		for end < len(text) && count < n {
			j := strings.IndexByte(text[end:], '\n')
			if j < 0 {
				end = len(text)
				break
			}
			end += j + 1
			count++
		}
		io.WriteString(p.Stdout, text[:end])
	}
	return code
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
	in, _ := io.ReadAll(io.LimitReader(p.Stdin, maxInput))
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

// maxInput bounds what a filter reads from stdin (issue 18).
const maxInput = 16 << 20

// Sort is busybox sort [-nrufb] [-t SEP] [-k N[,M]] [FILE]...
func Sort(p *process.Proc, argv []string) int {
	var files []string
	numeric, reverse, unique, fold := false, false, false, false
	sep, key := "", 0
	args := argv[1:]
	for len(args) > 0 {
		a := args[0]
		args = args[1:]
		switch {
		case (a == "-t" || a == "-k") && len(args) > 0:
			if a == "-t" {
				sep = args[0]
			} else {
				key, _ = strconv.Atoi(strings.SplitN(args[0], ",", 2)[0])
			}
			args = args[1:]
		case strings.HasPrefix(a, "-t") && len(a) > 2:
			sep = a[2:]
		case strings.HasPrefix(a, "-k") && len(a) > 2:
			key, _ = strconv.Atoi(strings.SplitN(a[2:], ",", 2)[0])
		case strings.HasPrefix(a, "-") && len(a) > 1:
			numeric = numeric || strings.Contains(a, "n")
			reverse = reverse || strings.Contains(a, "r")
			unique = unique || strings.Contains(a, "u")
			fold = fold || strings.Contains(a, "f")
		default:
			files = append(files, a)
		}
	}
	text, code := readAll(p, "sort", files)
	ls := lines(text)
	field := func(l string) string {
		if key <= 0 {
			return l
		}
		var fs []string
		if sep == "" {
			fs = strings.Fields(l)
		} else {
			fs = strings.Split(l, sep)
		}
		if key <= len(fs) {
			return fs[key-1]
		}
		return ""
	}
	less := func(a, b string) bool {
		a, b = field(a), field(b)
		if numeric {
			x, _ := strconv.ParseFloat(strings.TrimSpace(a), 64)
			y, _ := strconv.ParseFloat(strings.TrimSpace(b), 64)
			if x != y {
				return x < y
			}
		}
		if fold {
			a, b = strings.ToLower(a), strings.ToLower(b)
		}
		return a < b
	}
	sort.SliceStable(ls, func(i, j int) bool {
		if reverse {
			return less(ls[j], ls[i])
		}
		return less(ls[i], ls[j])
	})
	var b strings.Builder
	for i, l := range ls {
		if unique && i > 0 && !less(ls[i-1], l) && !less(l, ls[i-1]) {
			continue
		}
		b.WriteString(l + "\n")
	}
	io.WriteString(p.Stdout, b.String())
	return code
}

// Uniq is busybox uniq [-cdu] [INPUT].
func Uniq(p *process.Proc, argv []string) int {
	flags, ops := busyboxArgs(argv[1:])
	text, code := readAll(p, "uniq", ops[:min(len(ops), 1)])
	var b strings.Builder
	ls := lines(text)
	for i := 0; i < len(ls); {
		j := i
		for j < len(ls) && ls[j] == ls[i] {
			j++
		}
		n := j - i
		switch {
		case strings.Contains(flags, "d") && n == 1, strings.Contains(flags, "u") && n > 1:
		case strings.Contains(flags, "c"):
			fmt.Fprintf(&b, "%7d %s\n", n, ls[i])
		default:
			b.WriteString(ls[i] + "\n")
		}
		i = j
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
	if _, err := io.Copy(io.MultiWriter(ws...), io.LimitReader(p.Stdin, maxInput)); err != nil {
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

// Ln is busybox ln [-sfn] TARGET LINK. The container's file system has no
// links: a link to a file is a copy of it as it is now, a link to a
// directory is not simulated.
func Ln(p *process.Proc, argv []string) int {
	flags, ops := busyboxArgs(argv[1:])
	if len(ops) < 2 {
		p.Eprintln("Usage: ln [-sfnbtv] [-S SUF] TARGET... LINK|DIR")
		return 1
	}
	target, link := ops[0], ops[1]
	if isDir, ok := statPath(p, link); ok && isDir {
		link = link + "/" + process.BaseName(target)
	} else if ok && !strings.Contains(flags, "f") {
		p.Eprintln("ln: " + link + ": File exists")
		return 1
	}
	from := target
	if strings.Contains(flags, "s") && !strings.HasPrefix(target, "/") {
		from = path.Join(path.Dir(p.Path(link)), target) // relative to the link
	}
	data, err := p.ReadFile(from)
	if err != nil {
		p.NotSimulated("ln: a link to a directory or a missing file")
		return 0
	}
	if err := p.WriteFile(link, data, false); err != nil {
		p.Eprintln("ln: " + link + ": " + process.PosixFileError(err, true))
		return 1
	}
	return 0
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
	in, _ := io.ReadAll(io.LimitReader(p.Stdin, maxInput))
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
