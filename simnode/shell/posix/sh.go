package posix

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"wink.dev/wink/simnode/shell/process"
)

// This file is the Linux sh (busybox ash, bash, dash) of Linux containers
// and the e2e images' `sh -c` (upstream test/e2e/windows/hybrid_network.go:131
// `/bin/sh -c "nc -vz <ip> <port> -w <s>"`), row E and issue 18: the
// language is mvdan.cc/sh/v3's (syntax and interp); simnode's world comes
// in through its handlers (handlers.go): programs run by Proc.Exec from the
// image's table, files are Env.Files, the clock is Env's.

// shell is one sh process.
type shell struct {
	p    *process.Proc
	name string // $0
	// file is the script file run ("" for -c and stdin); flavor the shell
	// whose messages it gives: ash (busybox), dash (Debian's sh) or bash.
	file, flavor string

	mu sync.Mutex
	// traps are the handlers of the signals interp does not know (TERM,
	// INT, HUP, ...): the kubelet's SIGTERM runs traps["TERM"].
	traps map[string]string
	// held is the most the shell's variables and captured output held,
	// as accounted with p.Grow; vars what its variables held when last
	// counted.
	held, vars int64
	// sources are the instrumented texts of the scripts `.` is about to
	// read (path → text), so that their loops are bounded too.
	sources map[string]string
	// base is the context of the Run in progress (the script's, or the
	// TERM trap's); the programs it runs stop with it.
	base context.Context
	// substs are the outputs of the process substitutions <(list) by the
	// path they are read from (/dev/fd/63 down), the last maxSubsts of
	// them (procsubst.go).
	substs    map[string][]byte
	nextSubst int
	// used are the commands whose result the script uses (used.go), by
	// position in the texts the shell parsed (the script, trap handlers);
	// those of a script read by `.` are not among them.
	used map[syntax.Pos]bool
	// closers are closed when the shell ends.
	closers []io.Closer
	// ended is why the shell must stop at once (errOOM, errDepth): every
	// statement then ends it, in a trap handler too.
	ended error
}

// end stops the shell with err and returns err.
func (s *shell) end(err error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended == nil {
		s.ended = err
	}
	return s.ended
}

// Run is `sh -c script [name args...]`, `sh script.sh args...`, or sh
// reading its script from stdin.
func Run(p *process.Proc, argv []string) int {
	s := &shell{p: p, name: "sh", flavor: flavor(p, argv[0]), traps: map[string]string{}, sources: map[string]string{}}
	if s.flavor == "bash" {
		s.name = "bash"
	}
	var mu sync.Mutex
	p.Stdout = lockedWriter{mu: &mu, w: p.Stdout, win: p.Win}
	p.Stderr = lockedWriter{mu: &mu, w: p.Stderr, win: p.Win, s: s}
	defer func() {
		p.Grow(-s.held - s.substHeld())
		for _, c := range s.closers {
			c.Close()
		}
	}()

	var opts []string
	args := argv[1:]
	script, haveScript := "", false
	for len(args) > 0 && len(args[0]) > 1 && (args[0][0] == '-' || args[0][0] == '+') {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		if a == "-o" || a == "+o" {
			if len(args) > 0 {
				opts = append(opts, a, args[0])
				args = args[1:]
			}
			continue
		}
		for _, c := range a[1:] {
			switch {
			case c == 'c' && a[0] == '-':
				haveScript = true
			case strings.ContainsRune("aefnuvx", c):
				opts = append(opts, string(a[0])+string(c))
			}
		}
		if haveScript {
			break
		}
	}
	if haveScript {
		if len(args) == 0 {
			p.Eprintln("sh: -c requires an argument")
			return 2
		}
		script, args = args[0], args[1:]
		if len(args) > 0 {
			s.name, args = args[0], args[1:]
		}
	} else if len(args) > 0 {
		data, err := p.ReadFile(args[0])
		if err != nil {
			if s.flavor == "bash" {
				p.Eprintln("bash: " + args[0] + ": " + process.PosixFileError(err, false))
				return 127
			}
			p.Eprintln("sh: can't open '" + args[0] + "': " + process.PosixFileError(err, false))
			return 2
		}
		script, s.name, s.file, args = string(data), args[0], args[0], args[1:]
	} else {
		b, _ := io.ReadAll(io.LimitReader(bufio.NewReader(p.Stdin), maxScript))
		script = string(b)
	}

	file, ok := s.parse(script, s.name, true)
	if !ok {
		return 2
	}
	r, err := s.runner(append(append(opts, "--"), args...))
	if err != nil {
		p.Eprintln("sh: " + err.Error())
		return 2
	}
	// Background jobs end with the shell (its container, or its exec).
	ctx, cancel := context.WithCancel(p.Ctx)
	defer cancel()
	run := p.Sub(nil, nil, nil).ShareVars(p)
	run.Ctx = ctx
	s.mu.Lock()
	s.base = ctx
	s.mu.Unlock()
	err = r.Run(s.meter(run), file)
	if p.Done() {
		return s.onKill(r)
	}
	return s.code(err)
}

// flavor is which shell argv0 is in the container's image: bash, dash
// (sh of Debian and Ubuntu) or busybox ash (sh, ash elsewhere).
func flavor(p *process.Proc, argv0 string) string {
	switch name := process.ProgramName(argv0, p.Win); {
	case name == "bash" && !p.Win:
		return "bash"
	case name == "dash", name == "sh" && p.Env.Image.Base == "debian":
		return "dash"
	}
	return "ash"
}

// maxScript bounds a script read from stdin.
const maxScript = 1 << 20

// parse parses script (parseScript) for running it; top: the script
// itself, where return outside a function ends it as exit does (ash,
// dash). What ash would not parse prints its syntax error: 2.
func (s *shell) parse(script, name string, top bool) (*syntax.File, bool) {
	f, what, err := parseScript(script, name)
	if err != nil {
		s.p.Eprintln("sh: syntax error: " + syntaxMessage(err))
		return nil, false
	}
	switch what {
	case "":
	case "function body":
		s.p.Eprintln("sh: syntax error: a function body is a compound command")
		return nil, false
	default:
		s.p.NotSimulated("sh: " + what)
		s.p.Eprintln("sh: syntax error: unexpected \"(\"")
		return nil, false
	}
	used := usedCalls(f)
	s.mu.Lock()
	if s.used == nil {
		s.used = used
	} else {
		for pos := range used {
			s.used[pos] = true
		}
	}
	s.mu.Unlock()
	instrument(f, top)
	return f, true
}

// syntaxMessage is ash's wording of a parse error where it differs.
func syntaxMessage(err error) string {
	var pe syntax.ParseError
	msg := err.Error()
	if errors.As(err, &pe) {
		msg = pe.Text
	}
	switch {
	case strings.Contains(msg, "without closing quote"), strings.Contains(msg, "not closed"):
		return "unterminated quoted string"
	}
	return msg
}

// runner is the interpreter with simnode's handlers.
func (s *shell) runner(params []string) (*interp.Runner, error) {
	p := s.p
	r, err := interp.New(
		interp.Env(s.environ()),
		interp.StdIO(s.stdin(), p.Stdout, p.Stderr),
		interp.Params(params...),
		interp.CallHandler(s.call),
		interp.ExecHandlers(func(interp.ExecHandlerFunc) interp.ExecHandlerFunc { return s.exec }),
		interp.OpenHandler(s.open),
		interp.StatHandler(s.stat),
		interp.ReadDirHandler2(s.readDir),
		interp.AccessHandler(s.access),
	)
	if err != nil {
		return nil, err
	}
	// Set directly: interp.Dir would stat the real machine's directory.
	r.Dir = p.Dir
	return r, nil
}

// stdin is the shell's standard input as interp wants it (an *os.File):
// none for an empty one, else an OS pipe fed from p.Stdin, closed when
// the shell ends (Run's closers).
func (s *shell) stdin() io.Reader {
	switch r := s.p.Stdin.(type) {
	case nil:
		return nil
	case *strings.Reader:
		if r.Len() == 0 {
			return nil
		}
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil
	}
	s.closers = append(s.closers, pr)
	go func() {
		io.Copy(pw, s.p.Stdin)
		pw.Close()
	}()
	return pr
}

// environ is the process's environment block, exported, with the shell's
// own UID, EUID and GID (which interp would take from the real machine).
func (s *shell) environ() expand.Environ {
	var pairs []string
	for _, e := range s.p.Vars.Sorted() {
		pairs = append(pairs, e.Name+"="+e.Value)
	}
	return shellEnviron{expand.ListEnviron(pairs...), s.p.Env.User}
}

// shellEnviron adds the bash variables UID, EUID and GID (not exported) of
// the container's user.
type shellEnviron struct {
	expand.Environ
	user string
}

func (e shellEnviron) Get(name string) expand.Variable {
	switch name {
	case "UID", "EUID", "GID":
		uid, gid := "0", "0"
		if e.user != "" && e.user != "root" {
			uid = e.user
		}
		v := uid
		if name == "GID" {
			v = gid
		}
		return expand.Variable{Set: true, Kind: expand.String, ReadOnly: true, Str: v}
	}
	return e.Environ.Get(name)
}

// meter is p's context, counting a step of p each time the interpreter
// asks whether to stop: every statement, command and loop iteration.
func (s *shell) meter(p *process.Proc) context.Context {
	return &meterCtx{Context: p.Ctx, p: p, s: s}
}

type meterCtx struct {
	context.Context
	p *process.Proc
	s *shell
}

// Err implements context.Context: a step of the process (process.Proc.Step),
// which throttles it and ends it once it was stopped.
func (m *meterCtx) Err() error {
	if err := m.Context.Err(); err != nil {
		return err
	}
	m.s.mu.Lock()
	ended := m.s.ended
	m.s.mu.Unlock()
	if ended != nil {
		return ended
	}
	if err := m.p.Step(); err != nil {
		if err := m.Context.Err(); err != nil {
			return err
		}
		return err
	}
	return nil
}

// errOOM ends the shell as the kernel's OOM killer does (137).
var errOOM = errors.New("out of memory")

// errDepth ends the shell whose functions, eval or . nest too deep.
var errDepth = errors.New("recursion too deep")

// code is the shell's exit status from Run's error.
func (s *shell) code(err error) int {
	s.mu.Lock()
	if s.ended != nil {
		err = s.ended
	}
	s.mu.Unlock()
	var es interp.ExitStatus
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errOOM), errors.Is(err, process.ErrOutOfMemory):
		return 137
	case errors.Is(err, errDepth):
		return 2
	case errors.As(err, &es):
		return int(es)
	case errors.Is(err, process.ErrStopped), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return process.ExitKilledLinux
	}
	s.p.Eprintln("sh: " + err.Error())
	return 2
}

// onKill runs the TERM trap when the process is stopped (the kubelet's
// SIGTERM); without one the process dies of the signal: 143.
func (s *shell) onKill(r *interp.Runner) int {
	s.mu.Lock()
	h, ok := s.traps["TERM"]
	delete(s.traps, "TERM")
	s.mu.Unlock()
	if !ok {
		return process.ExitKilledLinux
	}
	if h == "" {
		// ignored: the kubelet escalates to SIGKILL after the grace period
		return 137
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(s.p.Ctx), time.Second)
	defer cancel()
	f, ok := s.parse(h, s.name, false)
	if !ok {
		return 2
	}
	hp := s.p.Sub(nil, nil, nil)
	hp.Ctx = ctx
	s.mu.Lock()
	s.base = ctx
	s.mu.Unlock()
	return s.code(r.Run(s.meter(hp), f))
}

// lockedWriter serialises the writes of background jobs and the shell;
// on Windows (busybox-w32) lines end in CRLF.
type lockedWriter struct {
	mu  *sync.Mutex
	w   io.Writer
	win bool
	// s: stderr of shell s, where interp's report of why the shell was
	// stopped (a killed command substitution) is not written: a process
	// the kubelet or the OOM killer ends prints nothing.
	s *shell
}

func (l lockedWriter) Write(b []byte) (int, error) {
	if l.s != nil && l.s.stopped(string(b)) {
		return len(b), nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.win && len(b) > 0 {
		s := strings.ReplaceAll(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n", "\r\n")
		if _, err := io.WriteString(l.w, s); err != nil {
			return 0, err
		}
		return len(b), nil
	}
	return l.w.Write(b)
}

// stopped reports whether msg is interp's report of why the shell was
// stopped.
func (s *shell) stopped(msg string) bool {
	s.mu.Lock()
	ended, base := s.ended, s.base
	s.mu.Unlock()
	if base == nil {
		base = s.p.Ctx
	}
	if ended == nil && base.Err() == nil {
		return false
	}
	for _, err := range []error{ended, base.Err(), context.Canceled, context.DeadlineExceeded, process.ErrStopped} {
		if err != nil && msg == err.Error()+"\n" {
			return true
		}
	}
	return false
}

// fileError is an error interp prints as it is: "sh: can't create x: ...".
func fileError(op, name string, err error) error {
	return &os.PathError{Op: op, Path: name, Err: errors.New(process.PosixFileError(err, strings.Contains(op, "create")))}
}

// errorf prints an error of the shell.
func (s *shell) errorf(w io.Writer, format string, a ...any) {
	fmt.Fprintf(w, "sh: "+format+"\n", a...)
}
