package programs

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

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

// Ls is busybox ls (one name a line: stdout is not a terminal).
func Ls(p *process.Proc, argv []string) int {
	long, all := false, false
	var names []string
	for _, a := range argv[1:] {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			long = long || strings.Contains(a, "l")
			all = all || strings.ContainsAny(a, "aA")
			continue
		}
		names = append(names, a)
	}
	if len(names) == 0 {
		names = []string{"."}
	}
	code := 0
	for i, n := range names {
		if _, err := p.ReadFile(n); err == nil {
			p.Println(n)
			continue
		}
		ents, err := p.ReadDir(n)
		if err != nil {
			p.Eprintln(fmt.Sprintf("ls: %s: %s", n, process.PosixFileError(err, false)))
			code = 1
			continue
		}
		if len(names) > 1 {
			if i > 0 {
				p.Println("")
			}
			p.Println(n + ":")
		}
		for _, e := range ents {
			if !all && strings.HasPrefix(e.Name(), ".") {
				continue
			}
			if !long {
				p.Println(e.Name())
				continue
			}
			mode, size, mt := "-rw-r--r--", int64(0), p.Now()
			if e.IsDir() {
				mode = "drwxr-xr-x"
			}
			if info, err := e.Info(); err == nil {
				size, mt = info.Size(), info.ModTime()
				if info.Mode().Perm() != 0 {
					mode = lsMode(info.Mode())
				}
			}
			name := e.Name()
			if e.Type()&fs.ModeSymlink != 0 {
				if t, err := p.Readlink(n + "/" + name); err == nil {
					name += " -> " + t
				}
			}
			p.Println(fmt.Sprintf("%s    1 root     root     %9d %s %s", mode, size, mt.Format("Jan _2 15:04"), name))
		}
	}
	return code
}

// lsMode is ls -l's mode column (POSIX ls, "The file mode written under
// the -l option"): the type (d, l, c, b, s, p or -) and rwx for owner,
// group and others, with s/S for setgid and t/T for the sticky bit.
func lsMode(m fs.FileMode) string {
	t := byte('-')
	switch {
	case m&fs.ModeDir != 0:
		t = 'd'
	case m&fs.ModeSymlink != 0:
		t = 'l'
	case m&fs.ModeCharDevice != 0:
		t = 'c'
	case m&fs.ModeDevice != 0:
		t = 'b'
	case m&fs.ModeSocket != 0:
		t = 's'
	case m&fs.ModeNamedPipe != 0:
		t = 'p'
	}
	b := []byte{t}
	for i := 8; i >= 0; i-- {
		c := byte('-')
		if m&(1<<uint(i)) != 0 {
			c = "xwr"[i%3]
		}
		b = append(b, c)
	}
	if m&fs.ModeSetgid != 0 {
		if b[6] == 'x' {
			b[6] = 's'
		} else {
			b[6] = 'S'
		}
	}
	if m&fs.ModeSticky != 0 {
		if b[9] == 'x' {
			b[9] = 't'
		} else {
			b[9] = 'T'
		}
	}
	return string(b)
}

// Echo is /bin/echo (and busybox echo): -n and -e.
func Echo(p *process.Proc, argv []string) int {
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
		s += p.NL
	}
	p.Stdout.Write([]byte(s))
	return 0
}

func unescapeC(s string) string {
	r := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`, `\r`, "\r", `\a`, "\a", `\0`, "\x00")
	return r.Replace(s)
}

// Printf is a small printf: %s %d %% and C escapes.
func Printf(p *process.Proc, argv []string) int {
	if len(argv) < 2 {
		p.Eprintln("printf: usage: printf FORMAT [ARGUMENT]...")
		return 1
	}
	format, args := unescapeC(argv[1]), argv[2:]
	var b strings.Builder
	for {
		before := len(args)
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
		// The format is reused while arguments remain, but only while it
		// consumes them: a pass that takes none would repeat forever.
		if len(args) == 0 || len(args) == before {
			break
		}
	}
	p.Stdout.Write([]byte(b.String()))
	return 0
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

// Date is date.
func Date(p *process.Proc, argv []string) int {
	p.Println(p.Now().UTC().Format("Mon Jan  2 15:04:05 UTC 2006"))
	return 0
}

// Touch is touch.
func Touch(p *process.Proc, argv []string) int {
	code := 0
	for _, f := range argv[1:] {
		if strings.HasPrefix(f, "-") {
			continue
		}
		data, _ := p.ReadFile(f)
		if err := p.WriteFile(f, data, false); err != nil {
			p.Eprintln(fmt.Sprintf("touch: %s: %s", f, process.PosixFileError(err, true)))
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
