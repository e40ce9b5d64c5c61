package programs

import (
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// FindPosix is find [-H|-L|-P] [PATH]... [EXPRESSION]: walks each path (the
// working directory by default) and evaluates the expression on every file
// (https://www.gnu.org/software/findutils/manual/html_mono/find.html,
// https://pubs.opengroup.org/onlinepubs/9699919799/utilities/find.html):
// tests -name -iname -path -ipath -wholename -type -empty -size -maxdepth
// -mindepth -true -false; actions -print -print0 -exec -execdir -delete
// -prune -quit; operators ( ) ! -not -a -and -o -or. A test on what the
// file system does not keep (-mtime, -perm, -user, -newer...) is true and
// reported as not simulated.
func FindPosix(p *process.Proc, argv []string) int {
	args := argv[1:]
	follow := false
	for len(args) > 0 && (args[0] == "-H" || args[0] == "-L" || args[0] == "-P") {
		follow = args[0] == "-L"
		args = args[1:]
	}
	var roots []string
	for len(args) > 0 && !strings.HasPrefix(args[0], "-") && args[0] != "(" && args[0] != "!" {
		roots = append(roots, args[0])
		args = args[1:]
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	f := &finder{p: p, follow: follow, maxDepth: -1, reported: map[string]bool{}}
	pr := findParser{f: f, args: args}
	expr, err := pr.parse()
	if err != nil {
		p.Eprintln("find: " + err.Error())
		return 1
	}
	if !pr.acts {
		// POSIX: without an action, the expression is ( expr ) -print
		inner := expr
		expr = func(e *entry) bool {
			if inner(e) {
				f.print(e, "\n")
			}
			return true
		}
	}
	for _, r := range roots {
		if f.quit {
			break
		}
		f.walk(r, 0, expr)
	}
	f.flushExec()
	if f.stopped {
		return process.ExitKilledLinux
	}
	return f.code
}

// maxFindDepth bounds the walk (a loop of links under -L).
const maxFindDepth = 256

// finder is one find run.
type finder struct {
	p                  *process.Proc
	follow             bool
	maxDepth, minDepth int
	code               int
	quit, stopped      bool
	// reported are the tests not simulated that were reported, once each.
	reported map[string]bool
	// batches are the -exec ... {} + commands, run with the paths they
	// gathered once the walk ends.
	batches []*execBatch
}

type execBatch struct {
	argv  []string
	paths []string
}

// entry is one file of the walk.
type entry struct {
	path  string
	depth int
	n     node
	prune bool
}

func (f *finder) walk(name string, depth int, expr func(*entry) bool) {
	if f.p.Step() != nil {
		f.stopped, f.quit = true, true
		return
	}
	get := lstat
	if f.follow {
		get = statFollow
	}
	n, err := get(f.p, name)
	if err != nil {
		f.p.Eprintln("find: " + name + ": " + process.PosixFileError(err, false))
		f.code = 1
		return
	}
	e := &entry{path: name, depth: depth, n: n}
	if depth >= f.minDepth && (f.maxDepth < 0 || depth <= f.maxDepth) {
		expr(e)
	}
	if f.quit || e.prune || n.kind != 'd' || (f.maxDepth >= 0 && depth >= f.maxDepth) {
		return
	}
	if depth >= maxFindDepth {
		f.p.Eprintln("find: File system loop detected; '" + name + "' is part of the same file system loop")
		f.code = 1
		return
	}
	ents, err := f.p.ReadDir(name)
	if err != nil {
		f.p.Eprintln("find: " + name + ": " + process.PosixFileError(err, false))
		f.code = 1
		return
	}
	for _, c := range ents {
		if f.quit {
			return
		}
		f.walk(strings.TrimSuffix(name, "/")+"/"+c.Name(), depth+1, expr)
	}
}

func (f *finder) print(e *entry, end string) {
	io.WriteString(f.p.Stdout, e.path+end)
}

// run runs a command of -exec; true when it exits 0.
func (f *finder) run(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	return f.p.Exec(argv) == 0
}

func (f *finder) flushExec() {
	for _, b := range f.batches {
		if len(b.paths) == 0 {
			continue
		}
		var argv []string
		for _, a := range b.argv {
			if a == "{}" {
				argv = append(argv, b.paths...)
			} else {
				argv = append(argv, a)
			}
		}
		if !f.run(argv) {
			f.code = 1
		}
	}
}

// findParser reads find's expression.
type findParser struct {
	f    *finder
	args []string
	// acts: the expression has an action (no implicit -print).
	acts bool
}

func (pr *findParser) next() (string, bool) {
	if len(pr.args) == 0 {
		return "", false
	}
	a := pr.args[0]
	pr.args = pr.args[1:]
	return a, true
}

func (pr *findParser) parse() (func(*entry) bool, error) {
	if len(pr.args) == 0 {
		return func(*entry) bool { return true }, nil
	}
	e, err := pr.or()
	if err != nil {
		return nil, err
	}
	if len(pr.args) > 0 {
		return nil, fmt.Errorf("unexpected argument '%s'", pr.args[0])
	}
	return e, nil
}

func (pr *findParser) or() (func(*entry) bool, error) {
	x, err := pr.and()
	if err != nil {
		return nil, err
	}
	for len(pr.args) > 0 && (pr.args[0] == "-o" || pr.args[0] == "-or") {
		pr.args = pr.args[1:]
		y, err := pr.and()
		if err != nil {
			return nil, err
		}
		l := x
		x = func(e *entry) bool { return l(e) || y(e) }
	}
	return x, nil
}

func (pr *findParser) and() (func(*entry) bool, error) {
	x, err := pr.unary()
	if err != nil {
		return nil, err
	}
	for len(pr.args) > 0 && pr.args[0] != "-o" && pr.args[0] != "-or" && pr.args[0] != ")" {
		if pr.args[0] == "-a" || pr.args[0] == "-and" {
			pr.args = pr.args[1:]
		}
		y, err := pr.unary()
		if err != nil {
			return nil, err
		}
		l := x
		x = func(e *entry) bool { return l(e) && y(e) }
	}
	return x, nil
}

func (pr *findParser) unary() (func(*entry) bool, error) {
	a, ok := pr.next()
	if !ok {
		return nil, errors.New("expected an expression")
	}
	switch a {
	case "!", "-not":
		x, err := pr.unary()
		if err != nil {
			return nil, err
		}
		return func(e *entry) bool { return !x(e) }, nil
	case "(":
		x, err := pr.or()
		if err != nil {
			return nil, err
		}
		if c, _ := pr.next(); c != ")" {
			return nil, errors.New("invalid expression; you have too many '('")
		}
		return x, nil
	}
	return pr.primary(a)
}

// primary is one test or action.
func (pr *findParser) primary(a string) (func(*entry) bool, error) {
	f := pr.f
	arg := func() (string, error) {
		v, ok := pr.next()
		if !ok {
			return "", fmt.Errorf("missing argument to '%s'", a)
		}
		return v, nil
	}
	switch a {
	case "-true":
		return func(*entry) bool { return true }, nil
	case "-false":
		return func(*entry) bool { return false }, nil
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename":
		pat, err := arg()
		if err != nil {
			return nil, err
		}
		fold := strings.HasPrefix(a, "-i")
		if fold {
			pat = strings.ToLower(pat)
		}
		whole := a != "-name" && a != "-iname"
		return func(e *entry) bool {
			s := e.path
			if !whole {
				s = path.Base(strings.TrimSuffix(s, "/"))
				if e.path == "/" {
					s = "/"
				}
			}
			if fold {
				s = strings.ToLower(s)
			}
			ok, _ := path.Match(pat, s)
			return ok || whole && globAny(pat, s)
		}, nil
	case "-type", "-xtype":
		t, err := arg()
		if err != nil {
			return nil, err
		}
		for _, c := range strings.Split(t, ",") {
			if len(c) != 1 || !strings.Contains("fdlbcpsD", c) {
				return nil, fmt.Errorf("Unknown argument to -type: %s", c)
			}
		}
		return func(e *entry) bool { return strings.IndexByte(t, e.n.kind) >= 0 }, nil
	case "-empty":
		return func(e *entry) bool {
			if e.n.kind == 'd' {
				ents, err := f.p.ReadDir(e.path)
				return err == nil && len(ents) == 0
			}
			return e.n.kind == 'f' && e.n.size == 0
		}, nil
	case "-size":
		v, err := arg()
		if err != nil {
			return nil, err
		}
		return sizeTest(v)
	case "-maxdepth", "-mindepth":
		v, err := arg()
		if err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("invalid argument '%s' to '%s'", v, a)
		}
		if a == "-maxdepth" {
			f.maxDepth = n
		} else {
			f.minDepth = n
		}
		return func(*entry) bool { return true }, nil
	case "-print", "-print0":
		pr.acts = true
		end := "\n"
		if a == "-print0" {
			end = "\x00"
		}
		return func(e *entry) bool { f.print(e, end); return true }, nil
	case "-delete":
		pr.acts = true
		return func(e *entry) bool {
			if err := f.p.Remove(e.path); err != nil {
				f.p.Eprintln("find: cannot delete '" + e.path + "': " + process.PosixFileError(err, true))
				f.code = 1
				return false
			}
			return true
		}, nil
	case "-prune":
		return func(e *entry) bool { e.prune = true; return true }, nil
	case "-quit":
		return func(*entry) bool { f.quit = true; return true }, nil
	case "-exec", "-execdir", "-ok", "-okdir":
		pr.acts = true
		var cmd []string
		for {
			w, ok := pr.next()
			if !ok {
				return nil, fmt.Errorf("missing argument to '%s'", a)
			}
			if w == ";" {
				break
			}
			if w == "+" && len(cmd) > 0 && cmd[len(cmd)-1] == "{}" {
				b := &execBatch{argv: cmd}
				f.batches = append(f.batches, b)
				return func(e *entry) bool { b.paths = append(b.paths, e.path); return true }, nil
			}
			cmd = append(cmd, w)
		}
		return func(e *entry) bool {
			argv := make([]string, len(cmd))
			for i, w := range cmd {
				argv[i] = strings.ReplaceAll(w, "{}", e.path)
			}
			return f.run(argv)
		}, nil
	case "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-newer", "-perm", "-user", "-group", "-uid", "-gid", "-links", "-inum", "-samefile":
		if _, err := arg(); err != nil {
			return nil, err
		}
		return func(*entry) bool {
			if !f.reported[a] {
				f.reported[a] = true
				f.p.NotSimulated("find " + a)
			}
			return true
		}, nil
	case "-nouser", "-nogroup", "-readable", "-writable", "-executable", "-xdev", "-mount", "-depth", "-follow", "-noleaf", "-ignore_readdir_race":
		return func(*entry) bool { return true }, nil
	}
	if strings.HasPrefix(a, "-") {
		return nil, fmt.Errorf("unknown predicate '%s'", a)
	}
	return nil, fmt.Errorf("paths must precede expression: '%s'", a)
}

// globAny is -path's match, where * also matches a '/'.
func globAny(pat, s string) bool {
	if pat == "" {
		return s == ""
	}
	switch pat[0] {
	case '*':
		for i := 0; i <= len(s); i++ {
			if globAny(pat[1:], s[i:]) {
				return true
			}
		}
		return false
	case '?':
		return s != "" && globAny(pat[1:], s[1:])
	case '[':
		if end := strings.IndexByte(pat, ']'); end > 0 && s != "" {
			ok, _ := path.Match(pat[:end+1], s[:1])
			return ok && globAny(pat[end+1:], s[1:])
		}
	}
	return s != "" && s[0] == pat[0] && globAny(pat[1:], s[1:])
}

// sizeTest is -size [+-]N[cwbkMG]: in 512-byte blocks by default, rounded
// up.
func sizeTest(v string) (func(*entry) bool, error) {
	s, cmp := v, byte(0)
	if s != "" && (s[0] == '+' || s[0] == '-') {
		cmp, s = s[0], s[1:]
	}
	unit := int64(512)
	if s != "" {
		switch s[len(s)-1] {
		case 'c':
			unit = 1
		case 'w':
			unit = 2
		case 'b':
			unit = 512
		case 'k':
			unit = 1024
		case 'M':
			unit = 1 << 20
		case 'G':
			unit = 1 << 30
		}
		if s[len(s)-1] < '0' || s[len(s)-1] > '9' {
			s = s[:len(s)-1]
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("invalid -size type '%s'", v)
	}
	return func(e *entry) bool {
		size := (e.n.size + unit - 1) / unit
		switch cmp {
		case '+':
			return size > n
		case '-':
			return size < n
		}
		return size == n
	}, nil
}
