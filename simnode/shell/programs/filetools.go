package programs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"wink.dev/wink/simnode/shell/process"
)

// Cat is busybox cat.
func Cat(p *process.Proc, argv []string) int {
	files := argv[1:]
	if len(files) == 0 {
		b := make([]byte, 4096)
		for {
			n, err := p.Stdin.Read(b)
			p.Stdout.Write(b[:n])
			if err != nil {
				return 0
			}
			if p.Step() != nil { // issue 18: an endless input is paced
				return p.Killed()
			}
		}
	}
	code := 0
	for _, f := range files {
		if strings.HasPrefix(f, "-") && f != "-" {
			continue
		}
		data, err := p.ReadFile(f)
		if err != nil {
			p.Eprintln(fmt.Sprintf("cat: can't open '%s': %s", f, process.PosixFileError(err, false)))
			code = 1
			continue
		}
		p.Stdout.Write(data)
	}
	return code
}

// Ls is ls [-1aAdlR...] [FILE]... (https://pubs.opengroup.org/onlinepubs/9699919799/utilities/ls.html;
// busybox's ls): one name a line, since stdout is not a terminal; -a
// adds . and .., -A the other dot files; -l the long format, a
// directory's listing led by its "total" of 1 KiB blocks; -d a directory
// itself. Sorted by name; the other options (sort orders, colours,
// classifiers) are accepted and leave this order and format.
func Ls(p *process.Proc, argv []string) int {
	o := newOptions("ls")
	long := o.BoolP("l", "l", false, "")
	all := o.BoolP("all", "a", false, "")
	almost := o.BoolP("almost-all", "A", false, "")
	dirs := o.BoolP("directory", "d", false, "")
	numeric := o.BoolP("numeric-uid-gid", "n", false, "")
	deref := o.BoolP("dereference", "L", false, "")
	derefArgs := o.BoolP("dereference-command-line", "H", false, "")
	for _, c := range "1CFRSceghikpqrstux" {
		o.BoolP(string(c), string(c), false, "")
	}
	o.String("color", "", "")
	o.Lookup("color").NoOptDefVal = "always"
	o.Bool("full-time", false, "")
	o.Bool("group-directories-first", false, "")
	names, ok := o.parse(p, argv[1:])
	// exit status: busybox's 1, GNU's 2 for an operand it cannot access
	failed := 1
	if !busybox(p) {
		failed = 2
	}
	if !ok {
		return failed
	}
	*long = *long || *numeric
	if len(names) == 0 {
		names = []string{"."}
	}
	owner := "root     root    "
	if *numeric {
		owner = "0        0       "
	}
	line := func(name string, n node) string {
		if !*long {
			return name
		}
		if n.kind == 'l' {
			name += " -> " + n.target
		}
		links := 1
		if n.kind == 'd' {
			links = 2
		}
		return fmt.Sprintf("%s %4d %s %9d %s %s", n.modeString(), links, owner, n.size, p.Now().Format("Jan _2 15:04"), name)
	}
	code := 0
	var files, listed []string
	for _, n := range names {
		nd, err := lstat(p, n)
		// a link named here is listed as itself under -l or -d, unless its
		// name ends in / or -L or -H say to follow it (coreutils
		// --dereference-command-line-symlink-to-dir)
		if err == nil && nd.kind == 'l' && (!*long && !*dirs || strings.HasSuffix(n, "/") || *deref || *derefArgs) {
			nd, err = statFollow(p, n)
		}
		switch {
		case err != nil && busybox(p):
			p.Eprintln(fmt.Sprintf("ls: %s: %s", n, process.PosixFileError(err, false)))
			code = failed
		case err != nil:
			p.Eprintln(fmt.Sprintf("ls: cannot access '%s': %s", n, process.PosixFileError(err, false)))
			code = failed
		case nd.kind == 'd' && !*dirs:
			listed = append(listed, n)
		default:
			files = append(files, line(n, nd))
		}
	}
	for _, f := range files {
		p.Println(f)
	}
	for i, n := range listed {
		ents, err := p.ReadDir(n)
		if err != nil {
			p.Eprintln(fmt.Sprintf("ls: %s: %s", n, process.PosixFileError(err, false)))
			code = failed
			continue
		}
		if len(names) > 1 {
			if i > 0 || len(files) > 0 {
				p.Println("")
			}
			p.Println(n + ":")
		}
		var out []string
		var blocks int64
		add := func(name string) {
			nd, err := lstat(p, strings.TrimSuffix(n, "/")+"/"+name)
			if err == nil && nd.kind == 'l' && *deref {
				nd, err = statFollow(p, strings.TrimSuffix(n, "/")+"/"+name)
			}
			if err != nil {
				nd = node{kind: 'f'}
			}
			blocks += nd.blocks()
			out = append(out, line(name, nd))
		}
		if *all {
			add(".")
			add("..")
		}
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".") && !*all && !*almost {
				continue
			}
			add(e.Name())
		}
		if *long {
			p.Println(fmt.Sprintf("total %d", blocks))
		}
		for _, l := range out {
			p.Println(l)
		}
	}
	return code
}

// Echo is /bin/echo and busybox echo
// (https://www.gnu.org/software/coreutils/manual/html_node/echo-invocation.html):
// leading arguments made only of the options -n, -e and -E, in any
// combination (-en, -neE), are options; -e interprets backslash escapes,
// \c ending the output.
func Echo(p *process.Proc, argv []string) int {
	args := argv[1:]
	newline, escapes := true, false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
		for _, c := range args[0][1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	s := strings.Join(args, " ")
	if escapes {
		var stop bool
		s, stop = echoEscapes(s)
		newline = newline && !stop
	}
	if newline {
		s += p.NL
	}
	p.Stdout.Write([]byte(s))
	return 0
}

// echoEscapes interprets echo -e's escapes: \\ \a \b \e \f \n \r \t \v,
// \0NNN (octal), \xHH (hex); \c ends the output (stop).
func echoEscapes(s string) (out string, stop bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'c':
			return b.String(), true
		case '0', 'x':
			base, max, digits := 8, 3, "01234567"
			if c == 'x' {
				base, max, digits = 16, 2, "0123456789abcdefABCDEF"
			}
			j := i + 1
			for j < len(s) && j-i-1 < max && strings.IndexByte(digits, s[j]) >= 0 {
				j++
			}
			if c == 'x' && j == i+1 {
				b.WriteString("\\x")
				continue
			}
			v, _ := strconv.ParseUint("0"+s[i+1:j], base, 8)
			b.WriteByte(byte(v))
			i = j - 1
		default:
			if r, ok := map[byte]byte{'\\': '\\', 'a': 7, 'b': 8, 'e': 27, 'f': 12, 'n': 10, 'r': 13, 't': 9, 'v': 11}[c]; ok {
				b.WriteByte(r)
			} else {
				b.WriteByte('\\')
				b.WriteByte(c)
			}
		}
	}
	return b.String(), false
}

// Printf is printf FORMAT [ARGUMENT]...
// (https://pubs.opengroup.org/onlinepubs/9699919799/utilities/printf.html;
// https://www.gnu.org/software/coreutils/manual/html_node/printf-invocation.html):
// the conversions d i o u x X f F e E g G c s b q %, with flags (-+ #0),
// width and precision (* from an argument); the format is reused while
// arguments remain. A numeric argument that is not a number prints a
// complaint and makes the exit status 1; 'c (a leading quote) is the
// character's code.
func Printf(p *process.Proc, argv []string) int {
	if len(argv) < 2 {
		p.Eprintln("printf: usage: printf FORMAT [ARGUMENT]...")
		return 1
	}
	format, args := argv[1], argv[2:]
	code := 0
	next := func() (string, bool) {
		if len(args) == 0 {
			return "", false
		}
		a := args[0]
		args = args[1:]
		return a, true
	}
	number := func(a string) (float64, int64, bool) {
		if len(a) > 1 && (a[0] == '\'' || a[0] == '"') {
			r, _ := utf8.DecodeRuneInString(a[1:])
			return float64(r), int64(r), true
		}
		if a == "" {
			return 0, 0, true
		}
		if n, err := strconv.ParseInt(a, 0, 64); err == nil {
			return float64(n), n, true
		}
		if f, err := strconv.ParseFloat(a, 64); err == nil {
			return f, int64(f), true
		}
		p.Eprintln("printf: invalid number '" + a + "'")
		code = 1
		return 0, 0, false
	}
	var b strings.Builder
	for {
		before := len(args)
		for i := 0; i < len(format); i++ {
			c := format[i]
			if c == '\\' && i+1 < len(format) {
				// \ddd: one to three octal digits; the others as echo -e's
				if end := i + 1; format[end] >= '0' && format[end] <= '7' {
					for end < len(format) && end-i <= 3 && format[end] >= '0' && format[end] <= '7' {
						end++
					}
					v, _ := strconv.ParseUint(format[i+1:end], 8, 16)
					b.WriteByte(byte(v))
					i = end - 1
					continue
				}
				out, stop := echoEscapes(format[i : i+2])
				b.WriteString(out)
				if stop {
					io.WriteString(p.Stdout, b.String())
					return code
				}
				i++
				continue
			}
			if c != '%' || i+1 >= len(format) {
				b.WriteByte(c)
				continue
			}
			// %[flags][width][.precision]conversion
			j := i + 1
			for j < len(format) && strings.IndexByte("-+ #0", format[j]) >= 0 {
				j++
			}
			spec := format[i:j]
			readNum := func() {
				if j < len(format) && format[j] == '*' {
					a, _ := next()
					_, n, _ := number(a)
					spec += strconv.FormatInt(n, 10)
					j++
					return
				}
				k := j
				for j < len(format) && format[j] >= '0' && format[j] <= '9' {
					j++
				}
				spec += format[k:j]
			}
			readNum()
			if j < len(format) && format[j] == '.' {
				spec += "."
				j++
				readNum()
			}
			if j >= len(format) {
				b.WriteString(format[i:])
				break
			}
			conv := format[j]
			i = j
			switch conv {
			case '%':
				b.WriteByte('%')
			case 's', 'q':
				a, _ := next()
				fmt.Fprintf(&b, spec+"s", a)
			case 'b':
				a, _ := next()
				out, stop := echoEscapes(a)
				fmt.Fprintf(&b, spec+"s", out)
				if stop {
					io.WriteString(p.Stdout, b.String())
					return code
				}
			case 'c':
				a, _ := next()
				if a != "" {
					r, _ := utf8.DecodeRuneInString(a)
					fmt.Fprintf(&b, spec+"c", r)
				}
			case 'd', 'i':
				a, _ := next()
				_, n, _ := number(a)
				fmt.Fprintf(&b, spec+"d", n)
			case 'o', 'u', 'x', 'X':
				a, _ := next()
				_, n, _ := number(a)
				verb := map[byte]string{'o': "o", 'u': "d", 'x': "x", 'X': "X"}[conv]
				fmt.Fprintf(&b, spec+verb, uint64(n))
			case 'f', 'F', 'e', 'E', 'g', 'G':
				a, _ := next()
				f, _, _ := number(a)
				if conv == 'F' {
					conv = 'f'
				}
				fmt.Fprintf(&b, spec+string(conv), f)
			default:
				p.Eprintln(fmt.Sprintf("printf: %%%c: invalid conversion specification", conv))
				io.WriteString(p.Stdout, b.String())
				return 1
			}
		}
		// The format is reused while arguments remain, but only while it
		// consumes them: a pass that takes none would repeat forever.
		if len(args) == 0 || len(args) == before {
			break
		}
	}
	io.WriteString(p.Stdout, b.String())
	return code
}

// Printenv is env / printenv.
func Printenv(p *process.Proc, argv []string) int {
	for _, e := range p.Vars.Sorted() {
		p.Println(e.Name + "=" + e.Value)
	}
	return 0
}

// Hostname prints the pod name, or the node name for HostProcess
// containers (row B10: the provider puts it in env.Hostname).
func Hostname(p *process.Proc, argv []string) int {
	p.Println(p.Env.Hostname)
	return 0
}

// Whoami is whoami.exe (row B9; upstream security_context.go expects the
// user name in the output, host_process.go:802 that a non-SYSTEM user does
// not print "nt authority").
func Whoami(p *process.Proc, argv []string) int {
	p.Println(process.WhoamiString(p.Env))
	return 0
}

// WhoamiLinux is whoami of a Linux container.
func WhoamiLinux(p *process.Proc, argv []string) int {
	u := p.Env.User
	if u == "" || u == "0" {
		u = "root"
	}
	if _, err := strconv.Atoi(u); err == nil {
		p.Eprintln("whoami: unknown uid " + u)
		return 1
	}
	p.Println(u)
	return 0
}

// ID is id.
func ID(p *process.Proc, argv []string) int {
	u := p.Env.User
	if u == "" || u == "root" || u == "0" {
		p.Println("uid=0(root) gid=0(root) groups=0(root),1(bin),2(daemon),3(sys),4(adm),6(disk),10(wheel),11(floppy),20(dialout),26(tape),27(video)")
		return 0
	}
	if n, err := strconv.Atoi(u); err == nil {
		p.Println(fmt.Sprintf("uid=%d gid=0(root) groups=0(root)", n))
		return 0
	}
	p.Println(fmt.Sprintf("uid=1000(%s) gid=1000(%s) groups=1000(%s)", u, u, u))
	return 0
}

// Uname is uname.
func Uname(p *process.Proc, argv []string) int {
	if p.Win {
		// coreutils uname.exe of the e2e images (upstream host_process.go
		// runs `uname.exe -o`).
		if len(argv) > 1 && argv[1] == "-o" {
			p.Println("MS/Windows")
			return 0
		}
		p.Println("Windows_NT")
		return 0
	}
	if len(argv) > 1 && (argv[1] == "-a") {
		p.Println("Linux " + p.Env.Hostname + " 6.8.0 #1 SMP PREEMPT_DYNAMIC x86_64 Linux")
		return 0
	}
	p.Println("Linux")
	return 0
}

// parseSleep reads `sleep` arguments: seconds with optional s/m/h/d suffix,
// fractions, and inf / infinity (forever: ok=true, forever=true).
func parseSleep(s string) (d time.Duration, forever, ok bool) {
	ls := strings.ToLower(s)
	if ls == "inf" || ls == "infinity" {
		return 0, true, true
	}
	mult := time.Second
	switch {
	case strings.HasSuffix(ls, "s"):
		ls = ls[:len(ls)-1]
	case strings.HasSuffix(ls, "m"):
		ls, mult = ls[:len(ls)-1], time.Minute
	case strings.HasSuffix(ls, "h"):
		ls, mult = ls[:len(ls)-1], time.Hour
	case strings.HasSuffix(ls, "d"):
		ls, mult = ls[:len(ls)-1], 24*time.Hour
	}
	f, err := strconv.ParseFloat(ls, 64)
	if err != nil || f < 0 || f != f {
		return 0, false, false
	}
	if f > 1e9 {
		return 0, true, true
	}
	return time.Duration(f * float64(mult)), false, true
}

// Sleep is sleep(1): `sleep 3600`, `sleep inf`.
func Sleep(p *process.Proc, argv []string) int {
	if len(argv) < 2 {
		p.Eprintln("sleep: missing operand")
		return 1
	}
	var total time.Duration
	for _, a := range argv[1:] {
		d, forever, ok := parseSleep(a)
		if !ok {
			p.Eprintln(fmt.Sprintf("sleep: invalid number '%s'", a))
			return 1
		}
		if forever {
			return p.Block()
		}
		total += d
	}
	if !p.Sleep(total) {
		return p.Killed()
	}
	return 0
}

// Timeout is timeout.exe: `timeout /t N [/nobreak]`, -1 waits forever.
func Timeout(p *process.Proc, argv []string) int {
	n, ok := 0, false
	for i := 1; i < len(argv); i++ {
		a := strings.ToLower(argv[i])
		switch {
		case a == "/t" || a == "-t":
			if i+1 < len(argv) {
				v, err := strconv.Atoi(argv[i+1])
				n, ok = v, err == nil
				i++
			}
		case a == "/nobreak" || a == "-nobreak":
		case a == "/?":
			p.Println("TIMEOUT [/T] timeout [/NOBREAK]")
			return 0
		default:
			if v, err := strconv.Atoi(a); err == nil && !ok {
				n, ok = v, true
				continue
			}
			p.Eprintln("ERROR: Invalid syntax. Default option is not allowed more than '1' time(s).")
			p.Eprintln(`Type "TIMEOUT /?" for usage.`)
			return 1
		}
	}
	if !ok || n < -1 || n > 99999 {
		p.Eprintln("ERROR: Invalid value for timeout (/T) specified. Valid range is -1 to 99999.")
		return 1
	}
	if n == -1 {
		p.Println("")
		p.Printf("Press any key to continue ...")
		return p.Block()
	}
	p.Println("")
	p.Printf("Waiting for %d seconds, press a key to continue ...", n)
	if !p.Sleep(time.Duration(n) * time.Second) {
		return p.Killed()
	}
	p.Println("0")
	return 0
}

// busyboxArgs splits a busybox tool's arguments into its single-letter
// flags (of every "-xy" argument, concatenated) and its operands; "--"
// ends the options.
func busyboxArgs(args []string) (flags string, operands []string) {
	opts := true
	for _, a := range args {
		switch {
		case opts && a == "--":
			opts = false
		case opts && strings.HasPrefix(a, "-") && len(a) > 1:
			flags += a[1:]
		default:
			operands = append(operands, a)
		}
	}
	return flags, operands
}

// Rm is busybox rm (-f, -r/-R): a directory needs -r; -f says nothing of
// what is not there.
func Rm(p *process.Proc, argv []string) int {
	flags, names := busyboxArgs(argv[1:])
	force, recursive := strings.Contains(flags, "f"), strings.ContainsAny(flags, "rR")
	if len(names) == 0 {
		if force {
			return 0
		}
		p.Eprintln("BusyBox v1.x multi-call binary.\n\nUsage: rm [-irf] FILE...")
		return 1
	}
	code := 0
	for _, n := range names {
		if _, err := p.ReadDir(n); err == nil && !recursive {
			p.Eprintln("rm: '" + n + "' is a directory")
			code = 1
			continue
		}
		err := p.Remove(n)
		switch {
		case err == nil:
		case force && errors.Is(err, fs.ErrNotExist):
		default:
			p.Eprintln("rm: can't remove '" + n + "': " + process.PosixFileError(err, true))
			code = 1
		}
	}
	return code
}

// unescapeC is s with its C escapes interpreted (printf's format).
func unescapeC(s string) string {
	out, _ := echoEscapes(s)
	return out
}

// Dpkg is Debian's dpkg as scripts ask it for the machine
// (https://man7.org/linux/man-pages/man1/dpkg.1.html, --print-architecture:
// the architecture of the packages dpkg installs; the node is x86_64, as
// uname says, so amd64). Its package database is not simulated: any other
// use is a NotSimulated trace, run as an unknown program of the image.
func Dpkg(p *process.Proc, argv []string) int {
	if len(argv) == 2 && argv[1] == "--print-architecture" {
		p.Println("amd64")
		return 0
	}
	p.NotSimulated(strings.Join(argv, " "))
	return p.UnknownProgram()
}
