package programs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// This file is the tools that look at files rather than their text:
// stat, readlink, realpath, du, df, mktemp, rmdir (find is find.go).
// The container's file system keeps contents, directories, symbolic links
// and the modes the kubelet gives volume files, not owners or times: every
// file is root's; where no mode is kept a script (a file that starts with
// #!) has mode 0755, another file 0644, a directory 0755; every time is the
// container's clock's now.

// node is what the file system says of one path, without following a
// symbolic link at its end.
type node struct {
	kind   byte // 'f' file, 'd' directory, 'l' symbolic link
	size   int64
	target string // a link's
	script bool
	// mode is what the file system keeps of the permission bits (with
	// setuid, setgid and sticky); 0 when it keeps none.
	mode fs.FileMode
}

// lstat is name's node; fs.ErrNotExist when it is nothing.
func lstat(p *process.Proc, name string) (node, error) {
	if l, ok := p.Env.Files.(process.Symlinks); ok {
		full := p.Path(name)
		info, err := l.Lstat(full)
		if err != nil {
			return node{}, err
		}
		n := node{kind: 'f', size: info.Size(), mode: info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			n.kind, n.mode = 'l', 0
			n.target, _ = l.Readlink(full)
		case info.IsDir():
			n.kind, n.size = 'd', 4096
		default:
			if data, err := p.ReadFile(name); err == nil {
				n.script = strings.HasPrefix(string(data), "#!")
			}
		}
		return n, nil
	}
	if t, err := p.Readlink(name); err == nil {
		return node{kind: 'l', size: int64(len(t)), target: t}, nil
	}
	if data, err := p.ReadFile(name); err == nil {
		return node{kind: 'f', size: int64(len(data)), script: strings.HasPrefix(string(data), "#!")}, nil
	}
	if _, err := p.ReadDir(name); err == nil {
		return node{kind: 'd', size: 4096}, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return node{}, err
	}
	return node{}, fs.ErrNotExist
}

// statFollow is name's node, following a link at its end.
func statFollow(p *process.Proc, name string) (node, error) {
	n, err := lstat(p, name)
	for hops := 0; err == nil && n.kind == 'l'; hops++ {
		if hops == 40 {
			return node{}, errors.New("Too many levels of symbolic links")
		}
		t := n.target
		if !strings.HasPrefix(t, "/") {
			t = path.Join(path.Dir(p.Path(name)), t)
		}
		name = t
		n, err = lstat(p, name)
	}
	return n, err
}

// perm is the node's permission bits.
func (n node) perm() fs.FileMode {
	switch {
	case n.mode != 0 && !(n.script && n.mode == 0o644):
		return n.mode
	case n.kind == 'l':
		return 0o777
	case n.kind == 'd', n.script:
		return 0o755
	}
	return 0o644
}

// modeString is ls -l's and stat %A's -rwxr-xr-x (POSIX ls, "The file
// mode written under the -l option": s/S for setuid and setgid, t/T for
// the sticky bit in the execute places).
func (n node) modeString() string {
	m := n.perm()
	b := []byte(map[byte]string{'f': "-", 'd': "d", 'l': "l"}[n.kind] + "rwxrwxrwx")
	for i := 0; i < 9; i++ {
		if m&(1<<(8-i)) == 0 {
			b[i+1] = '-'
		}
	}
	special := func(i int, set bool, c byte) {
		if set {
			if b[i] == 'x' {
				b[i] = c
			} else {
				b[i] = c - 'a' + 'A'
			}
		}
	}
	special(3, m&fs.ModeSetuid != 0, 's')
	special(6, m&fs.ModeSetgid != 0, 's')
	special(9, m&fs.ModeSticky != 0, 't')
	return string(b)
}

// typeName is stat %F's.
func (n node) typeName() string {
	switch n.kind {
	case 'd':
		return "directory"
	case 'l':
		return "symbolic link"
	}
	if n.size == 0 {
		return "regular empty file"
	}
	return "regular file"
}

// blocks is the node's size in 1 KiB units as du counts them: whole 4 KiB
// blocks of ext4, the file system under a container's overlay.
func (n node) blocks() int64 {
	if n.kind == 'l' {
		return 0
	}
	return (n.size + 4095) / 4096 * 4
}

// Stat is stat [-L] [-c FORMAT | --format=FORMAT | --printf=FORMAT] FILE...
// (https://www.gnu.org/software/coreutils/manual/html_node/stat-invocation.html;
// busybox's stat takes the same -c sequences).
func Stat(p *process.Proc, argv []string) int {
	o := newOptions("stat")
	format := o.StringP("format", "c", "", "")
	printf := o.String("printf", "", "")
	deref := o.BoolP("dereference", "L", false, "")
	terse := o.BoolP("terse", "t", false, "")
	files, ok := o.parse(p, argv[1:])
	if !ok {
		return 1
	}
	if len(files) == 0 {
		p.Eprintln("stat: missing operand")
		return 1
	}
	code := 0
	for _, f := range files {
		get := lstat
		if *deref {
			get = statFollow
		}
		n, err := get(p, f)
		if err != nil {
			p.Eprintln(fmt.Sprintf("stat: cannot stat '%s': %s", f, process.PosixFileError(err, false)))
			code = 1
			continue
		}
		switch {
		case *printf != "":
			io.WriteString(p.Stdout, statFormat(p, f, n, unescapeC(*printf)))
		case *format != "":
			p.Println(statFormat(p, f, n, *format))
		case *terse:
			p.Println(statFormat(p, f, n, "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o"))
		default:
			name := f
			if n.kind == 'l' {
				name = fmt.Sprintf("'%s' -> '%s'", f, n.target)
			} else {
				name = "'" + f + "'"
			}
			p.Println(statFormat(p, f, n, "  File: "+strings.ReplaceAll(name, "%", "%%")+"\n"+
				"  Size: %-15s Blocks: %-10b IO Block: 4096   %F\n"+
				"Device: %Dh/%dd	Inode: %-11i Links: %h\n"+
				"Access: (%04a/%A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n"+
				"Access: %x\nModify: %y\nChange: %z\n Birth: -"))
		}
	}
	return code
}

// statFormat expands stat's %-sequences for file f.
func statFormat(p *process.Proc, f string, n node, format string) string {
	now := p.Now()
	stamp := now.Format("2006-01-02 15:04:05.000000000 -0700")
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b.WriteByte(c)
			continue
		}
		// a width such as %-15s
		j := i + 1
		for j < len(format) && strings.IndexByte("-0123456789", format[j]) >= 0 {
			j++
		}
		if j == len(format) {
			b.WriteString(format[i:])
			break
		}
		width := format[i+1 : j]
		i = j
		var v string
		switch format[j] {
		case '%':
			v = "%"
		case 'n':
			v = f
		case 'N':
			v = "'" + f + "'"
			if n.kind == 'l' {
				v += " -> '" + n.target + "'"
			}
		case 's':
			v = fmt.Sprint(n.size)
		case 'b':
			v = fmt.Sprint(n.blocks() * 2)
		case 'B', 'o':
			v = map[byte]string{'B': "512", 'o': "4096"}[format[j]]
		case 'F':
			v = n.typeName()
		case 'a':
			v = fmt.Sprintf("%o", uint32(n.perm()))
		case 'A':
			v = n.modeString()
		case 'f':
			v = fmt.Sprintf("%x", uint32(n.perm())|map[byte]uint32{'f': 0o100000, 'd': 0o40000, 'l': 0o120000}[n.kind])
		case 'u', 'g':
			v = "0"
		case 'U', 'G':
			v = "root"
		case 'h':
			v = "1"
			if n.kind == 'd' {
				v = "2"
			}
		case 'i':
			v = "0"
		case 'd', 'D', 't', 'T':
			v = "0"
		case 'x', 'y', 'z':
			v = stamp
		case 'X', 'Y', 'Z':
			v = fmt.Sprint(now.Unix())
		case 'w':
			v = "-"
		case 'W':
			v = "0"
		default:
			v = "?"
		}
		if width != "" {
			v = fmt.Sprintf("%"+width+"s", v)
		}
		b.WriteString(v)
	}
	return b.String()
}

// Readlink is readlink [-fnemqsv] FILE: a link's target; -f, -e, -m the
// canonical path (https://www.gnu.org/software/coreutils/manual/html_node/readlink-invocation.html).
// Without -f/-e/-m, a file that is no link prints nothing and exits 1.
func Readlink(p *process.Proc, argv []string) int {
	o := newOptions("readlink")
	canon := o.BoolP("canonicalize", "f", false, "")
	existing := o.BoolP("canonicalize-existing", "e", false, "")
	missing := o.BoolP("canonicalize-missing", "m", false, "")
	noNewline := o.BoolP("no-newline", "n", false, "")
	o.BoolP("quiet", "q", false, "")
	o.BoolP("silent", "s", false, "")
	verbose := o.BoolP("verbose", "v", false, "")
	files, ok := o.parse(p, argv[1:])
	if !ok {
		return 1
	}
	if len(files) == 0 {
		p.Eprintln("readlink: missing operand")
		return 1
	}
	code := 0
	for _, f := range files {
		var out string
		var err error
		switch {
		case *canon, *existing, *missing:
			mode := 'f'
			if *existing {
				mode = 'e'
			} else if *missing {
				mode = 'm'
			}
			out, err = canonical(p, f, mode)
		default:
			out, err = p.Readlink(f)
		}
		if err != nil {
			if *verbose {
				p.Eprintln("readlink: " + f + ": " + process.PosixFileError(err, false))
			}
			code = 1
			continue
		}
		if *noNewline && len(files) == 1 {
			io.WriteString(p.Stdout, out)
		} else {
			p.Println(out)
		}
	}
	return code
}

// Realpath is realpath [-e|-m] FILE...: the canonical path of each.
func Realpath(p *process.Proc, argv []string) int {
	o := newOptions("realpath")
	existing := o.BoolP("canonicalize-existing", "e", false, "")
	missing := o.BoolP("canonicalize-missing", "m", false, "")
	quiet := o.BoolP("quiet", "q", false, "")
	files, ok := o.parse(p, argv[1:])
	if !ok {
		return 1
	}
	mode := 'f'
	if *existing {
		mode = 'e'
	} else if *missing {
		mode = 'm'
	}
	code := 0
	for _, f := range files {
		out, err := canonical(p, f, mode)
		if err != nil {
			if !*quiet {
				p.Eprintln("realpath: " + f + ": " + process.PosixFileError(err, false))
			}
			code = 1
			continue
		}
		p.Println(out)
	}
	return code
}

// canonical is name with every symbolic link resolved, absolute, without
// . and ..: mode 'f' (every component but the last must exist), 'e' (all
// must), 'm' (none need).
func canonical(p *process.Proc, name string, mode rune) (string, error) {
	rest := strings.Split(p.Path(name), "/")
	out := "/"
	for hops := 0; len(rest) > 0; {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			out = path.Dir(out)
			continue
		}
		next := path.Join(out, c)
		n, err := lstat(p, next)
		switch {
		case err != nil && (mode == 'm' || mode == 'f' && len(rest) == 0):
			out = next
			continue
		case err != nil:
			return "", err
		case n.kind == 'l':
			if hops++; hops > 40 {
				return "", errors.New("Too many levels of symbolic links")
			}
			t := n.target
			if strings.HasPrefix(t, "/") {
				out = "/"
			}
			rest = append(strings.Split(t, "/"), rest...)
			continue
		case n.kind == 'f' && len(rest) > 0 && mode != 'm':
			return "", errors.New("Not a directory")
		}
		out = next
	}
	return out, nil
}

// Du is du [-achksmx] [-d N] [FILE]...: the space each file and directory
// takes, in 1 KiB blocks (-h human, -m MiB, -b bytes)
// (https://www.gnu.org/software/coreutils/manual/html_node/du-invocation.html).
func Du(p *process.Proc, argv []string) int {
	o := newOptions("du")
	all := o.BoolP("all", "a", false, "")
	total := o.BoolP("total", "c", false, "")
	human := o.BoolP("human-readable", "h", false, "")
	o.BoolP("kilobytes", "k", false, "")
	mega := o.BoolP("megabytes", "m", false, "")
	summ := o.BoolP("summarize", "s", false, "")
	o.BoolP("one-file-system", "x", false, "")
	o.BoolP("dereference", "L", false, "")
	bytes := o.BoolP("bytes", "b", false, "")
	depth := o.IntP("max-depth", "d", -1, "")
	files, ok := o.parse(p, argv[1:])
	if !ok {
		return 1
	}
	if len(files) == 0 {
		files = []string{"."}
	}
	if *summ {
		*depth = 0
	}
	show := func(size int64, name string) {
		var v string
		switch {
		case *bytes:
			v = fmt.Sprint(size)
		case *human:
			v = humanSize(size * 1024)
		case *mega:
			v = fmt.Sprint((size + 1023) / 1024)
		default:
			v = fmt.Sprint(size)
		}
		p.Println(v + "\t" + name)
	}
	var walk func(name string, level int) (int64, error)
	walk = func(name string, level int) (int64, error) {
		if p.Step() != nil {
			return 0, process.ErrStopped
		}
		n, err := lstat(p, name)
		if err != nil {
			return 0, err
		}
		size := n.blocks()
		if *bytes {
			size = n.size
		}
		if n.kind == 'd' {
			ents, _ := p.ReadDir(name)
			for _, e := range ents {
				s, err := walk(strings.TrimSuffix(name, "/")+"/"+e.Name(), level+1)
				if errors.Is(err, process.ErrStopped) {
					return 0, err
				}
				size += s
			}
		}
		if (n.kind == 'd' || *all || level == 0) && (*depth < 0 || level <= *depth) {
			show(size, name)
		}
		return size, nil
	}
	code := 0
	var sum int64
	for _, f := range files {
		s, err := walk(f, 0)
		if err != nil {
			if errors.Is(err, process.ErrStopped) {
				return process.ExitKilledLinux
			}
			p.Eprintln("du: " + f + ": " + process.PosixFileError(err, false))
			code = 1
		}
		sum += s
	}
	if *total {
		show(sum, "total")
	}
	return code
}

// humanSize is -h's 1.5K, 12M, 3.0G.
func humanSize(n int64) string {
	const units = "BKMGTPE"
	f, u := float64(n), 0
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	switch {
	case u == 0:
		return fmt.Sprint(n)
	case f < 10:
		return fmt.Sprintf("%.1f%c", f, units[u])
	}
	return fmt.Sprintf("%.0f%c", f, units[u])
}

// Df is df [-hkPT] [FILE]...: the container's root file system, an
// overlay of the node's disk, as the only mount wink knows of. Its
// figures are a node's usual ones, not measured.
func Df(p *process.Proc, argv []string) int {
	o := newOptions("df")
	human := o.BoolP("human-readable", "h", false, "")
	o.BoolP("kilobytes", "k", false, "")
	o.BoolP("portability", "P", false, "")
	fstype := o.BoolP("print-type", "T", false, "")
	o.BoolP("all", "a", false, "")
	files, ok := o.parse(p, argv[1:])
	if !ok {
		return 1
	}
	for _, f := range files {
		if _, err := lstat(p, f); err != nil {
			p.Eprintln("df: " + f + ": " + process.PosixFileError(err, false))
			return 1
		}
	}
	p.NotSimulated("df: the figures of the node's disk")
	const size, used = 102626232, 20971520 // 1 KiB blocks: a 100 GiB node disk
	typ, typeHead := "", ""
	if *fstype {
		typ, typeHead = " overlay", " Type   "
	}
	if *human {
		p.Println("Filesystem" + typeHead + "      Size  Used Avail Use% Mounted on")
		p.Println(fmt.Sprintf("overlay%s       %5s %5s %5s %3d%% /", typ, humanSize(size*1024), humanSize(used*1024), humanSize((size-used)*1024), used*100/size+1))
		return 0
	}
	p.Println("Filesystem" + typeHead + "     1K-blocks      Used Available Use% Mounted on")
	p.Println(fmt.Sprintf("overlay%s       %12d %9d %9d %3d%% /", typ, size, used, size-used, used*100/size+1))
	return 0
}

// Mktemp is mktemp [-dqu] [-p DIR] [-t] [TEMPLATE]: makes a file (-d a
// directory) of a new name, TEMPLATE's trailing Xs replaced, in $TMPDIR
// or /tmp unless TEMPLATE has a directory, and prints its name.
func Mktemp(p *process.Proc, argv []string) int {
	o := newOptions("mktemp")
	dir := o.BoolP("directory", "d", false, "")
	quiet := o.BoolP("quiet", "q", false, "")
	dry := o.BoolP("dry-run", "u", false, "")
	tmpdir := o.StringP("tmpdir", "p", "", "")
	t := o.BoolP("t", "t", false, "")
	ops, ok := o.parse(p, argv[1:])
	if !ok {
		return 1
	}
	template := "tmp.XXXXXXXXXX"
	if len(ops) > 0 {
		template = ops[0]
	}
	if !strings.HasSuffix(template, "XXX") {
		p.Eprintln("mktemp: too few X's in template '" + template + "'")
		return 1
	}
	base := *tmpdir
	if base == "" {
		base, _ = p.Vars.Get("TMPDIR")
	}
	if base == "" {
		base = "/tmp"
	}
	if !strings.Contains(template, "/") || *t || *tmpdir != "" {
		template = strings.TrimSuffix(base, "/") + "/" + path.Base(template)
	}
	x := len(template) - len(strings.TrimRight(template, "X"))
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	seed := p.Now().UnixNano()
	for try := 0; try < 100; try++ {
		suffix := make([]byte, x)
		for i := range suffix {
			seed = seed*6364136223846793005 + 1442695040888963407
			suffix[i] = letters[uint64(seed>>33)%uint64(len(letters))]
		}
		name := template[:len(template)-x] + string(suffix)
		if _, err := lstat(p, name); err == nil {
			continue
		}
		var err error
		switch {
		case *dry:
		case *dir:
			err = p.MkdirAll(name)
		default:
			err = p.WriteFile(name, nil, false)
		}
		if err != nil {
			if !*quiet {
				p.Eprintln("mktemp: failed to create " + map[bool]string{true: "directory", false: "file"}[*dir] + " via template '" + template + "': " + process.PosixFileError(err, true))
			}
			return 1
		}
		p.Println(name)
		return 0
	}
	return 1
}

// Rmdir is rmdir [-p] DIR...: removes empty directories.
func Rmdir(p *process.Proc, argv []string) int {
	o := newOptions("rmdir")
	parents := o.BoolP("parents", "p", false, "")
	o.Bool("ignore-fail-on-non-empty", false, "")
	dirs, ok := o.parse(p, argv[1:])
	if !ok {
		return 1
	}
	code := 0
	for _, d := range dirs {
		for {
			ents, err := p.ReadDir(d)
			switch {
			case err != nil && errors.Is(err, fs.ErrNotExist):
				err = fs.ErrNotExist
			case err != nil:
				err = errors.New("Not a directory")
			case len(ents) > 0:
				err = errors.New("Directory not empty")
			default:
				err = p.Remove(d)
			}
			if err != nil {
				p.Eprintln("rmdir: '" + d + "': " + process.PosixFileError(err, true))
				code = 1
				break
			}
			if !*parents || path.Dir(d) == d || path.Dir(d) == "." {
				break
			}
			d = path.Dir(d)
		}
	}
	return code
}
