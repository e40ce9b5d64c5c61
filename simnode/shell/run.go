package shell

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync/atomic"
	"time"
)

// Exit codes shared by the interpreters.
const (
	// ExitKilledWindows is what a Windows process stopped by the kubelet
	// (ctx done) returns.
	ExitKilledWindows = 1
	// ExitKilledLinux is what a Linux process stopped by SIGTERM returns
	// (128+15). A caller that escalated to SIGKILL reports 137 itself.
	ExitKilledLinux = 143
	// ExitCmdNotFound is cmd.exe's code for an unknown command.
	ExitCmdNotFound = 9009
	// ExitShNotFound is sh's code for an unknown command.
	ExitShNotFound = 127
	// ExitCannotExec is what an exec of a program the image does not have
	// returns (runc and hcsshim both fail the exec; kubectl reports 126).
	ExitCannotExec = 126
)

// Run runs argv (a container command or an exec) in the simulated container
// described by env and returns its exit code. See the package documentation.
func Run(ctx context.Context, env *Env, argv []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	if env == nil {
		env = &Env{}
	}
	p := newProc(ctx, env, tables{}, stdin, stdout, stderr)
	defer func() {
		// The interpreters are total functions over their input; a panic is
		// a bug, but a container must not take the node down with it.
		if !recoverPanics {
			return
		}
		if r := recover(); r != nil {
			fmt.Fprintf(p.stderr, "internal error: %v%s", r, p.nl)
			code = 255
		}
	}()
	if len(argv) == 0 {
		return 0
	}
	return p.exec(argv)
}

// recoverPanics is switched off by the fuzz test, which wants to see them.
var recoverPanics = true

// Found reports whether argv[0] names a program the simulated image of the
// given OS has (directly, as the kubelet runs a container's command).
func Found(os OS, argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	if os == Windows {
		_, ok := lookupWindows(argv[0])
		return ok || isScriptPath(argv[0])
	}
	_, ok := lookupLinux(argv[0])
	return ok
}

// proc is one running command: its environment, streams and state.
type proc struct {
	ctx    context.Context
	env    *Env
	win    bool
	vars   *vars
	dir    string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	nl     string
	// lastExit is ERRORLEVEL / $? / $LASTEXITCODE.
	lastExit int
	// programs are the programs the image has, by name: what exec, cmd,
	// PowerShell and sh run.
	programs Programs
	// depth counts nested scripts, functions and shells of this Run (a
	// script that runs itself must end, not exhaust the stack).
	depth *atomic.Int32
}

// maxDepth is how deep scripts may nest (PowerShell reports a call depth
// overflow, cmd and sh stop with an error).
const maxDepth = 100

// enter increments the nesting depth; false when it is too deep. Pair with
// leave.
func (p *proc) enter() bool { return p.depth.Add(1) <= maxDepth }

func (p *proc) leave() { p.depth.Add(-1) }

func newProc(ctx context.Context, env *Env, programs Programs, stdin io.Reader, stdout, stderr io.Writer) *proc {
	if ctx == nil {
		ctx = context.Background()
	}
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	if stdout == nil {
		stdout = io.Discard
	}
	if stderr == nil {
		stderr = io.Discard
	}
	p := &proc{ctx: ctx, env: env, win: env.OS == Windows, programs: programs, stdin: stdin, stdout: stdout, stderr: stderr, depth: &atomic.Int32{}}
	if p.win {
		p.nl = "\r\n"
		p.vars = windowsVars(env)
		p.dir = winPath(`C:\`, env.Dir)
	} else {
		p.nl = "\n"
		p.vars = linuxVars(env)
		p.dir = linuxPath("/", env.Dir)
	}
	return p
}

// sub returns a child process sharing the environment with other streams.
func (p *proc) sub(stdin io.Reader, stdout, stderr io.Writer) *proc {
	c := *p
	c.vars = p.vars.clone()
	if stdin != nil {
		c.stdin = stdin
	}
	if stdout != nil {
		c.stdout = stdout
	}
	if stderr != nil {
		c.stderr = stderr
	}
	return &c
}

// exec runs a program the way the runtime starts it: by name, no shell.
func (p *proc) exec(argv []string) int {
	if !p.enter() {
		p.eprintln("The nesting of scripts is too deep.")
		return 255
	}
	defer p.leave()
	if p.win {
		c, ok := p.programs.Lookup(Windows, argv[0])
		if !ok {
			if ps, ok := p.programs.Lookup(Windows, "powershell"); ok && isScriptPath(argv[0]) {
				return ps.run(p, append([]string{"powershell", "-File"}, argv...))
			}
			if code, ok := p.unsimulated(argv[0]); ok {
				return code // open world (openworld.go)
			}
			// hcsshim: the process cannot be created.
			fmt.Fprintf(p.stderr, "hcs::System::CreateProcess %s: The system cannot find the file specified.%s", argv[0], p.nl)
			return ExitCannotExec
		}
		return c.run(p, argv)
	}
	c, ok := p.programs.Lookup(Linux, argv[0])
	if !ok {
		if code, ok := p.unsimulated(argv[0]); ok {
			return code // open world (openworld.go)
		}
		fmt.Fprintf(p.stderr, "exec: %q: executable file not found in $PATH%s", argv[0], p.nl)
		return ExitCannotExec
	}
	return c.run(p, argv)
}

// killed is the code a process stopped because ctx is done returns.
func (p *proc) killed() int {
	if p.win {
		return ExitKilledWindows
	}
	return ExitKilledLinux
}

func (p *proc) done() bool { return p.ctx.Err() != nil }

// block waits until ctx is done: a long-running server or `sleep inf`. It
// sleeps on the environment's clock when there is one, so that a simulated
// clock sees the process idle rather than busy.
func (p *proc) block() int {
	for p.sleep(24 * time.Hour) {
	}
	return p.killed()
}

// sleep waits d on the environment's clock; false when ctx ended first.
func (p *proc) sleep(d time.Duration) bool {
	if p.done() {
		return false
	}
	if p.env.Sleep != nil {
		return p.env.Sleep(p.ctx, d) == nil && !p.done()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-p.ctx.Done():
		return false
	}
}

func (p *proc) now() time.Time {
	if p.env.Now != nil {
		return p.env.Now()
	}
	return time.Now()
}

// println writes s and the platform's line ending to stdout.
func (p *proc) println(s string) { io.WriteString(p.stdout, s+p.nl) }

// eprintln writes s and the platform's line ending to stderr.
func (p *proc) eprintln(s string) { io.WriteString(p.stderr, s+p.nl) }

// printf writes to stdout, turning "\n" into the platform's line ending.
func (p *proc) printf(format string, a ...any) {
	s := fmt.Sprintf(format, a...)
	if p.win {
		s = crlf(s)
	}
	io.WriteString(p.stdout, s)
}

// eprintf writes to stderr, turning "\n" into the platform's line ending.
func (p *proc) eprintf(format string, a ...any) {
	s := fmt.Sprintf(format, a...)
	if p.win {
		s = crlf(s)
	}
	io.WriteString(p.stderr, s)
}

func crlf(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}

// vars is an environment block; Windows names are case-insensitive but keep
// the case they were set with.
type vars struct {
	fold bool
	m    map[string]varEntry
}

type varEntry struct{ name, value string }

func newVars(fold bool) *vars { return &vars{fold: fold, m: map[string]varEntry{}} }

func (v *vars) key(name string) string {
	if v.fold {
		return strings.ToUpper(name)
	}
	return name
}

func (v *vars) get(name string) (string, bool) {
	e, ok := v.m[v.key(name)]
	return e.value, ok
}

func (v *vars) set(name, value string) {
	if e, ok := v.m[v.key(name)]; ok && v.fold {
		name = e.name
	}
	v.m[v.key(name)] = varEntry{name, value}
}

func (v *vars) unset(name string) { delete(v.m, v.key(name)) }

func (v *vars) clone() *vars {
	c := newVars(v.fold)
	for k, e := range v.m {
		c.m[k] = e
	}
	return c
}

// sorted returns the entries sorted by name (case-insensitively on Windows,
// as `set` lists them).
func (v *vars) sorted() []varEntry {
	out := make([]varEntry, 0, len(v.m))
	for _, e := range v.m {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if v.fold {
			return strings.ToUpper(out[i].name) < strings.ToUpper(out[j].name)
		}
		return out[i].name < out[j].name
	})
	return out
}

// windowsVars is the environment block of a nanoserver/servercore
// container: the image's defaults, then the pod's variables (row B12).
func windowsVars(env *Env) *vars {
	v := newVars(true)
	user := env.User
	if user == "" {
		user = "ContainerUser" // row B9: the default user of nanoserver/servercore
	}
	name, domain := userName(env)
	profile := `C:\Users\` + name
	if strings.EqualFold(name, computerName(env.Hostname)+"$") {
		profile = `C:\Windows\system32\config\systemprofile`
	}
	for _, kv := range [][2]string{
		{"ALLUSERSPROFILE", `C:\ProgramData`},
		{"APPDATA", profile + `\AppData\Roaming`},
		{"CommonProgramFiles", `C:\Program Files\Common Files`},
		{"COMPUTERNAME", computerName(env.Hostname)},
		{"ComSpec", `C:\Windows\system32\cmd.exe`},
		{"LOCALAPPDATA", profile + `\AppData\Local`},
		{"NUMBER_OF_PROCESSORS", "2"},
		{"OS", "Windows_NT"},
		{"Path", `C:\Windows\system32;C:\Windows;C:\Windows\System32\Wbem;C:\Windows\System32\WindowsPowerShell\v1.0\;` + profile + `\AppData\Local\Microsoft\WindowsApps`},
		{"PATHEXT", ".COM;.EXE;.BAT;.CMD;.VBS;.VBE;.JS;.JSE;.WSF;.WSH;.MSC"},
		{"PROCESSOR_ARCHITECTURE", "AMD64"},
		{"ProgramData", `C:\ProgramData`},
		{"ProgramFiles", `C:\Program Files`},
		{"PROMPT", "$P$G"},
		{"PUBLIC", `C:\Users\Public`},
		{"SystemDrive", "C:"},
		{"SystemRoot", `C:\Windows`},
		{"TEMP", profile + `\AppData\Local\Temp`},
		{"TMP", profile + `\AppData\Local\Temp`},
		{"USERDOMAIN", domain},
		{"USERNAME", name},
		{"USERPROFILE", profile},
		{"windir", `C:\Windows`},
	} {
		v.set(kv[0], kv[1])
	}
	for k, val := range env.Vars {
		v.set(k, val)
	}
	return v
}

func linuxVars(env *Env) *vars {
	v := newVars(false)
	v.set("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
	v.set("HOSTNAME", env.Hostname)
	v.set("HOME", "/root")
	if u := env.User; u != "" && u != "root" && u != "0" {
		v.set("HOME", "/")
	}
	for k, val := range env.Vars {
		v.set(k, val)
	}
	return v
}

// computerName is %COMPUTERNAME%: the NetBIOS name, the hostname upper-cased
// and cut to 15 characters.
func computerName(host string) string {
	if host == "" {
		host = "localhost"
	}
	c := strings.ToUpper(host)
	if len(c) > 15 {
		c = c[:15]
	}
	return c
}

// userName is %USERNAME% and %USERDOMAIN% for the container's user (row
// B9): the virtual accounts ContainerUser and ContainerAdministrator live in
// the "User Manager" domain; NT AUTHORITY\SYSTEM is the computer account.
func userName(env *Env) (name, domain string) {
	u := env.User
	if u == "" {
		u = "ContainerUser"
	}
	if i := strings.LastIndex(u, `\`); i >= 0 {
		domain, name = u[:i], u[i+1:]
		if strings.EqualFold(u, `NT AUTHORITY\SYSTEM`) {
			return computerName(env.Hostname) + "$", "WORKGROUP"
		}
		return name, domain
	}
	if isVirtualAccount(u) {
		return u, "User Manager"
	}
	return u, computerName(env.Hostname)
}

func isVirtualAccount(u string) bool {
	return strings.EqualFold(u, "ContainerUser") || strings.EqualFold(u, "ContainerAdministrator")
}

// whoamiString is what whoami.exe prints for the container's user (row B9,
// upstream test/e2e/windows/security_context.go and host_process.go:794):
// `user manager\containeruser`, `nt authority\system`, `host\user`.
func whoamiString(env *Env) string {
	u := env.User
	if u == "" {
		u = "ContainerUser"
	}
	if strings.Contains(u, `\`) {
		return strings.ToLower(u)
	}
	if isVirtualAccount(u) {
		return `user manager\` + strings.ToLower(u)
	}
	return strings.ToLower(computerName(env.Hostname) + `\` + u)
}

// capture runs f with stdout collected into a buffer.
func (p *proc) capture(f func(c *proc) int) (string, int) {
	var b bytes.Buffer
	c := p.sub(nil, &b, nil)
	code := f(c)
	return b.String(), code
}

// limitedBuffer caps memory use of captured output of endless commands.
type limitedBuffer struct {
	bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(b []byte) (int, error) {
	if l.max > 0 && l.Len()+len(b) > l.max {
		n := l.max - l.Len()
		if n > 0 {
			l.Buffer.Write(b[:n])
		}
		return len(b), nil
	}
	return l.Buffer.Write(b)
}
