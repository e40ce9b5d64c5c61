package shell

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

// winPath resolves p against dir the way Windows does: forward slashes are
// backslashes, `\x` is on drive C:, drive letters are upper case, `.` and
// `..` are folded. UNC paths (`\\server\share\...`) stay as they are.
func winPath(dir, p string) string {
	p = strings.ReplaceAll(p, "/", `\`)
	if strings.HasPrefix(p, `\\`) {
		return p
	}
	switch {
	case p == "":
		p = dir
	case len(p) >= 2 && p[1] == ':' && isLetter(p[0]):
		p = strings.ToUpper(p[:1]) + ":" + `\` + strings.TrimLeft(p[2:], `\`)
	case strings.HasPrefix(p, `\`):
		p = "C:" + p
	default:
		p = strings.TrimRight(dir, `\`) + `\` + p
	}
	if len(p) < 2 || p[1] != ':' {
		p = `C:\` + p
	}
	parts := strings.Split(p[3:], `\`)
	var out []string
	for _, s := range parts {
		switch s {
		case "", ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, s)
		}
	}
	return p[:3] + strings.Join(out, `\`)
}

func isLetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

func linuxPath(dir, p string) string {
	if p == "" {
		return dir
	}
	if !strings.HasPrefix(p, "/") {
		p = dir + "/" + p
	}
	return path.Clean(p)
}

func (p *proc) path(s string) string {
	if p.win {
		return winPath(p.dir, s)
	}
	return linuxPath(p.dir, s)
}

func (p *proc) readFile(name string) ([]byte, error) {
	if p.env.Files == nil {
		return nil, fs.ErrNotExist
	}
	return p.env.Files.ReadFile(p.path(name))
}

func (p *proc) readDir(name string) ([]fs.DirEntry, error) {
	if p.env.Files == nil {
		return nil, fs.ErrNotExist
	}
	return p.env.Files.ReadDir(p.path(name))
}

// writeFile writes or appends. Writing to a read-only mount returns
// fs.ErrPermission (row B11).
func (p *proc) writeFile(name string, data []byte, appendTo bool) error {
	if p.env.Files == nil {
		return fs.ErrPermission
	}
	full := p.path(name)
	if appendTo {
		if old, err := p.env.Files.ReadFile(full); err == nil {
			data = append(append([]byte{}, old...), data...)
		}
	}
	return p.env.Files.WriteFile(full, data)
}

// isNullDevice is NUL on Windows, /dev/null on Linux.
func (p *proc) isNullDevice(name string) bool {
	if p.win {
		return strings.EqualFold(name, "nul") || strings.EqualFold(name, "$null")
	}
	return name == "/dev/null"
}

// cmdFileError is cmd.exe's message for a file error: row B11, upstream
// test/e2e/windows/volumes.go:106 expects exactly "Access is denied.".
func cmdFileError(err error, write bool) string {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return "Access is denied."
	case errors.Is(err, fs.ErrNotExist) && write:
		return "The system cannot find the path specified."
	case errors.Is(err, fs.ErrNotExist):
		return "The system cannot find the file specified."
	default:
		return err.Error()
	}
}

// posixFileError is the errno text Linux tools print.
func posixFileError(err error, write bool) string {
	switch {
	case errors.Is(err, fs.ErrPermission) && write:
		return "Read-only file system"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	default:
		return err.Error()
	}
}

// progCat is busybox cat.
func progCat(p *proc, argv []string) int {
	files := argv[1:]
	if len(files) == 0 {
		b := make([]byte, 4096)
		for {
			n, err := p.stdin.Read(b)
			p.stdout.Write(b[:n])
			if err != nil {
				return 0
			}
		}
	}
	code := 0
	for _, f := range files {
		if strings.HasPrefix(f, "-") && f != "-" {
			continue
		}
		data, err := p.readFile(f)
		if err != nil {
			p.eprintln(fmt.Sprintf("cat: can't open '%s': %s", f, posixFileError(err, false)))
			code = 1
			continue
		}
		p.stdout.Write(data)
	}
	return code
}

// progLs is busybox ls (one name a line: stdout is not a terminal).
func progLs(p *proc, argv []string) int {
	long, all := false, false
	var names []string
	for _, a := range argv[1:] {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			long = long || strings.Contains(a, "l")
			all = all || strings.Contains(a, "a")
			continue
		}
		names = append(names, a)
	}
	if len(names) == 0 {
		names = []string{"."}
	}
	code := 0
	for i, n := range names {
		if _, err := p.readFile(n); err == nil {
			p.println(n)
			continue
		}
		ents, err := p.readDir(n)
		if err != nil {
			p.eprintln(fmt.Sprintf("ls: %s: %s", n, posixFileError(err, false)))
			code = 1
			continue
		}
		if len(names) > 1 {
			if i > 0 {
				p.println("")
			}
			p.println(n + ":")
		}
		for _, e := range ents {
			if !all && strings.HasPrefix(e.Name(), ".") {
				continue
			}
			if !long {
				p.println(e.Name())
				continue
			}
			mode, size, mt := "-rw-r--r--", int64(0), p.now()
			if info, err := e.Info(); err == nil {
				size, mt = info.Size(), info.ModTime()
			}
			if e.IsDir() {
				mode = "drwxr-xr-x"
			}
			p.println(fmt.Sprintf("%s    1 root     root     %9d %s %s", mode, size, mt.Format("Jan _2 15:04"), e.Name()))
		}
	}
	return code
}

// progEcho is /bin/echo (and busybox echo): -n and -e.
func progEcho(p *proc, argv []string) int {
	args := argv[1:]
	newline, escapes := true, false
	for len(args) > 0 && (args[0] == "-n" || args[0] == "-e" || args[0] == "-ne" || args[0] == "-en" || args[0] == "-E") {
		newline = newline && !strings.Contains(args[0], "n")
		escapes = strings.Contains(args[0], "e")
		args = args[1:]
	}
	s := strings.Join(args, " ")
	if escapes {
		s = unescapeC(s)
	}
	if newline {
		s += p.nl
	}
	p.stdout.Write([]byte(s))
	return 0
}

func unescapeC(s string) string {
	r := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`, `\r`, "\r", `\a`, "\a", `\0`, "\x00")
	return r.Replace(s)
}

// progPrintf is a small printf: %s %d %% and C escapes.
func progPrintf(p *proc, argv []string) int {
	if len(argv) < 2 {
		p.eprintln("printf: usage: printf FORMAT [ARGUMENT]...")
		return 1
	}
	format, args := unescapeC(argv[1]), argv[2:]
	var b strings.Builder
	for {
		for i := 0; i < len(format); i++ {
			c := format[i]
			if c != '%' || i+1 >= len(format) {
				b.WriteByte(c)
				continue
			}
			i++
			switch format[i] {
			case '%':
				b.WriteByte('%')
			case 's', 'd', 'q':
				if len(args) > 0 {
					b.WriteString(args[0])
					args = args[1:]
				} else if format[i] == 'd' {
					b.WriteByte('0')
				}
			default:
				b.WriteByte('%')
				b.WriteByte(format[i])
			}
		}
		if len(args) == 0 || !strings.Contains(format, "%") {
			break
		}
	}
	p.stdout.Write([]byte(b.String()))
	return 0
}

func progEnv(p *proc, argv []string) int {
	for _, e := range p.vars.sorted() {
		p.println(e.name + "=" + e.value)
	}
	return 0
}

// progHostname prints the pod name, or the node name for HostProcess
// containers (row B10: the provider puts it in env.Hostname).
func progHostname(p *proc, argv []string) int {
	p.println(p.env.Hostname)
	return 0
}

// progWhoami is whoami.exe (row B9; upstream security_context.go expects the
// user name in the output, host_process.go:802 that a non-SYSTEM user does
// not print "nt authority").
func progWhoami(p *proc, argv []string) int {
	p.println(whoamiString(p.env))
	return 0
}

func progWhoamiLinux(p *proc, argv []string) int {
	u := p.env.User
	if u == "" || u == "0" {
		u = "root"
	}
	if _, err := strconv.Atoi(u); err == nil {
		p.eprintln("whoami: unknown uid " + u)
		return 1
	}
	p.println(u)
	return 0
}

func progID(p *proc, argv []string) int {
	u := p.env.User
	if u == "" || u == "root" || u == "0" {
		p.println("uid=0(root) gid=0(root) groups=0(root),1(bin),2(daemon),3(sys),4(adm),6(disk),10(wheel),11(floppy),20(dialout),26(tape),27(video)")
		return 0
	}
	if n, err := strconv.Atoi(u); err == nil {
		p.println(fmt.Sprintf("uid=%d gid=0(root) groups=0(root)", n))
		return 0
	}
	p.println(fmt.Sprintf("uid=1000(%s) gid=1000(%s) groups=1000(%s)", u, u, u))
	return 0
}

func progUname(p *proc, argv []string) int {
	if p.win {
		// coreutils uname.exe of the e2e images (upstream host_process.go
		// runs `uname.exe -o`).
		if len(argv) > 1 && argv[1] == "-o" {
			p.println("MS/Windows")
			return 0
		}
		p.println("Windows_NT")
		return 0
	}
	if len(argv) > 1 && (argv[1] == "-a") {
		p.println("Linux " + p.env.Hostname + " 6.8.0 #1 SMP PREEMPT_DYNAMIC x86_64 Linux")
		return 0
	}
	p.println("Linux")
	return 0
}

func progDate(p *proc, argv []string) int {
	p.println(p.now().UTC().Format("Mon Jan  2 15:04:05 UTC 2006"))
	return 0
}

func progTouch(p *proc, argv []string) int {
	code := 0
	for _, f := range argv[1:] {
		if strings.HasPrefix(f, "-") {
			continue
		}
		data, _ := p.readFile(f)
		if err := p.writeFile(f, data, false); err != nil {
			p.eprintln(fmt.Sprintf("touch: %s: %s", f, posixFileError(err, true)))
			code = 1
		}
	}
	return code
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

// progSleep is sleep(1): `sleep 3600`, `sleep inf`.
func progSleep(p *proc, argv []string) int {
	if len(argv) < 2 {
		p.eprintln("sleep: missing operand")
		return 1
	}
	var total time.Duration
	for _, a := range argv[1:] {
		d, forever, ok := parseSleep(a)
		if !ok {
			p.eprintln(fmt.Sprintf("sleep: invalid number '%s'", a))
			return 1
		}
		if forever {
			return p.block()
		}
		total += d
	}
	if !p.sleep(total) {
		return p.killed()
	}
	return 0
}

// progTimeout is timeout.exe: `timeout /t N [/nobreak]`, -1 waits forever.
func progTimeout(p *proc, argv []string) int {
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
			p.println("TIMEOUT [/T] timeout [/NOBREAK]")
			return 0
		default:
			if v, err := strconv.Atoi(a); err == nil && !ok {
				n, ok = v, true
				continue
			}
			p.eprintln("ERROR: Invalid syntax. Default option is not allowed more than '1' time(s).")
			p.eprintln(`Type "TIMEOUT /?" for usage.`)
			return 1
		}
	}
	if !ok || n < -1 || n > 99999 {
		p.eprintln("ERROR: Invalid value for timeout (/T) specified. Valid range is -1 to 99999.")
		return 1
	}
	if n == -1 {
		p.println("")
		p.printf("Press any key to continue ...")
		return p.block()
	}
	p.println("")
	p.printf("Waiting for %d seconds, press a key to continue ...", n)
	if !p.sleep(time.Duration(n) * time.Second) {
		return p.killed()
	}
	p.println("0")
	return 0
}

// dirListing is cmd's `dir` (upstream host_process.go runs
// `cmd /c dir <file>`): the volume header, one line per entry, the totals.
func dirListing(p *proc, args []string) int {
	target := ""
	for _, a := range args {
		if !strings.HasPrefix(a, "/") {
			target = a
		}
	}
	full := p.path(target)
	p.println(" Volume in drive C has no label.")
	p.println(" Volume Serial Number is 5E4A-8C1F")
	p.println("")
	type row struct {
		name  string
		dir   bool
		size  int64
		mtime time.Time
	}
	var rows []row
	dirOf := full
	if data, err := p.readFile(full); err == nil {
		i := strings.LastIndex(full, `\`)
		dirOf = full[:i]
		if len(dirOf) == 2 {
			dirOf += `\`
		}
		rows = append(rows, row{name: full[i+1:], size: int64(len(data)), mtime: p.now()})
	} else {
		ents, err := p.readDir(full)
		if err != nil {
			p.println(" Directory of " + parentDir(full))
			p.println("")
			p.eprintln("File Not Found")
			return 1
		}
		if len(full) > 3 {
			rows = append(rows, row{name: ".", dir: true, mtime: p.now()}, row{name: "..", dir: true, mtime: p.now()})
		}
		for _, e := range ents {
			r := row{name: e.Name(), dir: e.IsDir(), mtime: p.now()}
			if info, err := e.Info(); err == nil {
				r.size, r.mtime = info.Size(), info.ModTime()
			}
			rows = append(rows, r)
		}
		sort.SliceStable(rows, func(i, j int) bool {
			if rows[i].name == "." || rows[i].name == ".." {
				return rows[j].name != "." && rows[j].name != ".." || rows[i].name == "."
			}
			if rows[j].name == "." || rows[j].name == ".." {
				return false
			}
			return strings.ToLower(rows[i].name) < strings.ToLower(rows[j].name)
		})
	}
	p.println(" Directory of " + dirOf)
	p.println("")
	files, dirs, bytes := 0, 0, int64(0)
	for _, r := range rows {
		stamp := r.mtime.Format("01/02/2006  03:04 PM")
		if r.dir {
			dirs++
			p.println(fmt.Sprintf("%s    <DIR>          %s", stamp, r.name))
			continue
		}
		files++
		bytes += r.size
		p.println(fmt.Sprintf("%s %18s %s", stamp, commas(r.size), r.name))
	}
	p.println(fmt.Sprintf("%16d File(s) %14s bytes", files, commas(bytes)))
	p.println(fmt.Sprintf("%16d Dir(s) %15s bytes free", dirs, commas(21474836480)))
	return 0
}

func parentDir(full string) string {
	i := strings.LastIndex(full, `\`)
	if i <= 2 {
		return full[:3]
	}
	return full[:i]
}

// commas formats n as 21,474,836,480.
func commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	if len(s) <= 3 {
		return s
	}
	var b strings.Builder
	pre := len(s) % 3
	if pre > 0 {
		b.WriteString(s[:pre])
	}
	for i := pre; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}
