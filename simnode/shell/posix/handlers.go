package posix

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"runtime"
	"strconv"
	"strings"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"

	"wink.dev/wink/simnode/shell/process"
)

// This file plugs simnode's world into interp (issue 18): every handler
// reaches the container (process.Proc: Env.Files, the program table, the
// clock), never the real machine: interp's defaults (os.Open, os.Stat,
// access(2), exec) are all replaced.

// internal is the first word of a command the call handler rewrote for the
// exec handler: "\x00fail" code message [stdout] prints message (on
// stderr, or stdout) and exits code.
const internal = "\x00fail"

// maxFrames bounds the Go stack a shell may use through nested functions,
// eval and . (about a hundred levels, as the old shell allowed).
const maxFrames = 6000

// call runs before every simple command, builtins and functions included:
// it accounts the memory the shell holds, bounds nesting, and gives the
// commands interp would run against the real machine, or unlike busybox
// ash, simnode's meaning.
func (s *shell) call(ctx context.Context, args []string) ([]string, error) {
	hc := interp.HandlerCtx(ctx)
	if err := s.account(hc); err != nil {
		return nil, err
	}
	if deep() {
		s.errorf(hc.Stderr, "%s: recursion too deep", args[0])
		return nil, s.end(errDepth)
	}
	switch args[0] {
	case "cd":
		dir := ""
		if len(args) > 1 {
			dir = args[1]
		} else {
			dir = hc.Env.Get("HOME").String()
		}
		if dir == "-" || dir == "" {
			break
		}
		if _, err := s.p.ReadDir(s.resolve(hc.Dir, dir)); err != nil {
			return []string{internal, "2", "sh: cd: can't cd to " + dir + ": " + process.PosixFileError(err, false)}, nil
		}
	case "pwd":
		return []string{"pwd"}, nil // -P would resolve links of the real machine
	case "read":
		var out []string
		for _, a := range args {
			if a != "-s" {
				out = append(out, a) // -s would put the real terminal in raw mode
			}
		}
		return out, nil
	case "eval":
		if len(args) > 1 {
			return []string{"eval", instrumentText(strings.Join(args[1:], " "))}, nil
		}
	case ".", "source":
		// interp would look the script up on the real machine's PATH: it
		// gets a path no machine has (sourcePrefix), which open serves.
		if len(args) > 1 {
			full := s.resolve(hc.Dir, args[1])
			data, err := s.p.ReadFile(full)
			if err != nil {
				return []string{internal, "2", "sh: .: can't open '" + args[1] + "': " + process.PosixFileError(err, false)}, nil
			}
			s.mu.Lock()
			s.sources[sourcePrefix+full] = instrumentText(string(data))
			s.mu.Unlock()
			args = append([]string{args[0], sourcePrefix + full}, args[2:]...)
		}
	case "command", "type":
		// interp would search the real machine's PATH
		if args[0] == "type" || (len(args) > 2 && (args[1] == "-v" || args[1] == "-V")) {
			return s.lookup(args), nil
		}
	case "trap":
		return s.trap(args), nil
	case localOutside:
		return []string{internal, "2", "sh: local: not in a function"}, nil
	case "return", "exit":
		if len(args) == 1 {
			// interp's return without a status returns 0; ash's, $?
			args = append(args, strconv.Itoa(hc.LastExitStatus))
		}
	case "ulimit", "umask":
		return []string{":"}, nil
	case "printf":
		// interp's printf lacks precisions (%.2f, %05.1f): the printf
		// program runs it, but for bash's -v VAR, which sets a variable
		if len(args) > 1 && args[1] != "-v" && !s.p.Win {
			return append([]string{"/usr/bin/printf"}, args[1:]...), nil
		}
	case "set":
		return setOptions(args), nil
	}
	if specialBuiltins[args[0]] {
		// POSIX 2.9.1: special built-ins are found before functions
		return append([]string{"builtin"}, args...), nil
	}
	return args, nil
}

// setOptions is set's arguments without bash's -E (errtrace) and -T
// (functrace), which interp does not have: they only pass ERR and DEBUG
// traps on to functions, which the shell runs without them.
func setOptions(args []string) []string {
	out := []string{args[0]}
	for i, a := range args[1:] {
		if a == "--" || a == "-o" || a == "+o" || len(a) < 2 || a[0] != '-' && a[0] != '+' {
			return append(out, args[1+i:]...)
		}
		if a = strings.NewReplacer("E", "", "T", "").Replace(a); len(a) > 1 {
			out = append(out, a)
		}
	}
	return out
}

// sourcePrefix is where `.` finds the script it reads.
const sourcePrefix = "/dev/.wink-source"

// lookup is command -v, command -V and type: how each name would run.
func (s *shell) lookup(args []string) []string {
	verbose := args[0] == "type" || args[1] == "-V"
	names := args[1:]
	if args[0] == "command" {
		names = args[2:]
	}
	var out []string
	code := "0"
	for _, n := range names {
		switch {
		case interp.IsBuiltin(n):
			if verbose {
				out = append(out, n+" is a shell builtin")
			} else {
				out = append(out, n)
			}
		case s.has(n):
			path := n
			if !strings.Contains(n, "/") {
				path = "/bin/" + n
			}
			if verbose {
				out = append(out, n+" is "+path)
			} else {
				out = append(out, path)
			}
		default:
			code = "1"
			if verbose {
				out = append(out, n+": not found")
			}
		}
	}
	return []string{internal, code, strings.Join(out, "\n"), "stdout"}
}

// has reports whether the image has program name.
func (s *shell) has(name string) bool {
	os := process.Linux
	if s.p.Win {
		os = process.Windows
	}
	if process.BaseLacks(s.p.Env.Image.Base, name) {
		return false
	}
	if _, ok := s.p.Programs.Lookup(os, name); ok {
		return true
	}
	return process.BaseHas(s.p.Env.Image.Base, name) || s.p.Env.Image.Open
}

// specialBuiltins are found before functions (POSIX 2.9.1 command search),
// those interp would otherwise give to a function of the same name.
var specialBuiltins = map[string]bool{
	"exit": true, "export": true, "readonly": true, "set": true, "shift": true, "times": true, "trap": true, "unset": true,
}

// deep reports whether the goroutine's stack is past maxFrames.
func deep() bool {
	var pc [1]uintptr
	return runtime.Callers(maxFrames, pc[:]) > 0
}

// account sums what the shell's variables (and a command substitution's
// captured output) hold and grows the process to it: past its memory
// limit the process is OOM-killed (errOOM, 137).
func (s *shell) account(hc interp.HandlerContext) error {
	var n int64
	hc.Env.Each(func(name string, vr expand.Variable) bool {
		n += int64(len(name) + len(vr.Str))
		for _, v := range vr.List {
			n += int64(len(v))
		}
		for k, v := range vr.Map {
			n += int64(len(k) + len(v))
		}
		return true
	})
	s.mu.Lock()
	s.vars = n
	s.mu.Unlock()
	if b, ok := hc.Stdout.(*strings.Builder); ok {
		n += int64(b.Len())
	}
	return s.grow(n)
}

// grow grows the process to hold n bytes, if it holds fewer (the most it
// held is what it keeps).
func (s *shell) grow(n int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n <= s.held {
		return nil
	}
	if err := s.p.Grow(n - s.held); err != nil {
		if s.ended == nil {
			s.ended = errOOM
		}
		return errOOM
	}
	s.held = n
	return nil
}

// captureWriter is a command substitution's output as a program writes
// it: the shell holds it, so it grows the process (issue 18).
type captureWriter struct {
	s *shell
	b *strings.Builder
}

func (w captureWriter) Write(p []byte) (int, error) {
	w.s.mu.Lock()
	vars := w.s.vars
	w.s.mu.Unlock()
	if err := w.s.grow(vars + int64(w.b.Len()+len(p))); err != nil {
		return 0, err
	}
	return w.b.Write(p)
}

// trap keeps the handlers of signals interp does not know (all but EXIT
// and ERR) for the shell: TERM runs when the kubelet stops the container.
func (s *shell) trap(args []string) []string {
	if len(args) < 3 {
		return args
	}
	h := args[1]
	keep := []string{"trap", instrumentText(h)}
	if h == "-" {
		keep[1] = "-"
	}
	for _, sig := range args[2:] {
		name := strings.TrimPrefix(strings.ToUpper(sig), "SIG")
		if n, err := strconv.Atoi(name); err == nil {
			name = map[int]string{0: "EXIT", 1: "HUP", 2: "INT", 3: "QUIT", 9: "KILL", 15: "TERM"}[n]
		}
		switch name {
		case "EXIT", "ERR":
			keep = append(keep, name)
		case "":
		default:
			s.mu.Lock()
			if h == "-" {
				delete(s.traps, name)
			} else {
				s.traps[name] = h
			}
			s.mu.Unlock()
		}
	}
	if len(keep) == 2 {
		return []string{":"}
	}
	return keep
}

// exec runs a command that is neither a builtin nor a function: a program
// of the image (process.Proc.Exec's table), a script by path, or the open
// world's answer.
func (s *shell) exec(ctx context.Context, args []string) error {
	hc := interp.HandlerCtx(ctx)
	c := s.proc(hc)
	var code int
	if args[0] == procSubstCmd {
		return s.keepSubst(c)
	}
	if args[0] == internal {
		w := c.Stderr
		if len(args) > 3 && args[3] == "stdout" {
			w = c.Stdout
		}
		if args[2] != "" {
			io.WriteString(w, args[2]+"\n")
		}
		code, _ = strconv.Atoi(args[1])
	} else {
		s.mu.Lock()
		used := s.used[hc.Pos]
		s.mu.Unlock()
		code = s.command(c, args, hc.Pos.Line(), used)
	}
	if code == 0 {
		return nil
	}
	if code > 255 {
		code = 255
	}
	return interp.ExitStatus(uint8(code))
}

// proc is the process a command of the shell runs in: the shell's
// directory, exported variables and streams.
func (s *shell) proc(hc interp.HandlerContext) *process.Proc {
	c := s.p.Sub(hc.Stdin, hc.Stdout, hc.Stderr)
	if b, ok := hc.Stdout.(*strings.Builder); ok {
		c.Stdout = captureWriter{s, b}
	}
	s.mu.Lock()
	c.Ctx = s.base
	s.mu.Unlock()
	c.Dir = hc.Dir
	if c.Win {
		c.Dir = c.Path(winDir(hc.Dir))
	}
	c.LastExit = hc.LastExitStatus
	for _, e := range c.Vars.Sorted() {
		c.Vars.Unset(e.Name)
	}
	hc.Env.Each(func(name string, vr expand.Variable) bool {
		if vr.IsSet() && vr.Exported && vr.Kind == expand.String {
			c.Vars.Set(name, vr.Str)
		} else {
			c.Vars.Unset(name)
		}
		return true
	})
	return c
}

// command runs words (a program by name or path) as ash does; used: the
// script uses its result (used.go), which a program wink does not simulate
// cannot give, so the shell reports it as not judged.
func (s *shell) command(p *process.Proc, words []string, line uint, used bool) int {
	os := process.Linux
	if p.Win {
		os = process.Windows // busybox-w32 sh runs the programs of C:\bin, C:\dig, System32
	}
	name := words[0]
	p = s.withSubsts(p, words)
	if _, ok := p.Programs.Lookup(os, name); ok && !process.BaseLacks(p.Env.Image.Base, name) {
		if !strings.Contains(name, "/") || strings.HasPrefix(name, "/") || strings.HasPrefix(name, "./") {
			return p.Exec(words)
		}
	}
	if strings.Contains(name, "/") {
		if data, err := p.ReadFile(name); err == nil && strings.HasPrefix(string(data), "#!") {
			if !p.Enter() {
				p.Leave()
				p.Eprintln("sh: " + name + ": recursion too deep")
				return 2
			}
			defer p.Leave()
			return Run(p, append([]string{"sh", name}, words[1:]...))
		}
	}
	if code, ok := p.Unsimulated(name); ok {
		if used {
			p.NotSimulated(fmt.Sprintf("the result of %s at line %d", process.ProgramName(name, p.Win), line))
		}
		return code // open world (openworld.go)
	}
	p.Eprintln(s.notFound(name, line))
	return process.ExitShNotFound
}

// notFound is the shell's message for a command it cannot find, at line
// of the script: busybox ash's, dash's (Debian's sh) or bash's wording.
func (s *shell) notFound(name string, line uint) string {
	at := fmt.Sprintf("line %d: ", line)
	switch s.flavor {
	case "dash":
		at = fmt.Sprintf("%d: ", line)
	case "bash":
		return s.name + ": " + at + name + ": command not found"
	}
	if s.file == "" && s.flavor == "ash" {
		at = ""
	}
	return s.name + ": " + at + name + ": not found"
}

// resolve is path name as the container sees it, against the shell's
// directory dir.
func (s *shell) resolve(dir, name string) string {
	if s.p.Win {
		return s.p.Path(winDir(name))
	}
	if !strings.HasPrefix(name, "/") {
		name = dir + "/" + name
	}
	return path.Clean(name)
}

// winDir undoes interp's joining of a Windows path to a directory
// (`C:\/C:\data`): the last drive-rooted path in name.
func winDir(name string) string {
	for i := len(name) - 2; i > 0; i-- {
		if name[i] == ':' && process.IsLetter(name[i-1]) && (i+1 == len(name) || name[i+1] == '\\' || name[i+1] == '/') {
			return name[i-1:]
		}
	}
	return name
}

// open is every file interp opens: redirections, `.`, $(<file), and the
// loop checkpoints (stepPath).
func (s *shell) open(ctx context.Context, name string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
	hc := interp.HandlerCtx(ctx)
	if strings.HasSuffix(name, stepPath) {
		if err := s.account(hc); err != nil {
			return nil, err
		}
		return nopFile{strings.NewReader("")}, nil
	}
	if data, ok := s.subst(name); ok {
		return nopFile{bytes.NewReader(data)}, nil
	}
	switch name {
	case "/dev/null":
		return nopFile{strings.NewReader("")}, nil
	case "/dev/stdout":
		return writeFile{hc.Stdout}, nil
	case "/dev/stderr":
		return writeFile{hc.Stderr}, nil
	}
	if src, ok := strings.CutPrefix(name, sourcePrefix); ok && flag&(os.O_WRONLY|os.O_RDWR) == 0 {
		s.mu.Lock()
		text, ok := s.sources[name]
		delete(s.sources, name)
		s.mu.Unlock()
		if !ok {
			return nil, fileError("sh: .: can't open", src, fs.ErrNotExist)
		}
		return nopFile{strings.NewReader(text)}, nil
	}
	full := s.resolve(hc.Dir, name)
	shown := strings.TrimPrefix(name, hc.Dir+"/")
	if flag&(os.O_WRONLY|os.O_RDWR) == 0 {
		data, err := s.p.ReadFile(full)
		if err != nil {
			return nil, fileError("sh: can't open", shown, err)
		}
		return nopFile{bytes.NewReader(data)}, nil
	}
	c := s.p.Sub(nil, nil, nil)
	w, err := c.OpenRedirect(full, flag&os.O_APPEND != 0)
	if err != nil {
		return nil, fileError("sh: can't create", shown, err)
	}
	return writeFile{w}, nil
}

// nopFile is a file read from memory.
type nopFile struct{ io.Reader }

func (nopFile) Write(b []byte) (int, error) { return len(b), nil }
func (nopFile) Close() error                { return nil }

// writeFile is a file written through to the container's file system.
type writeFile struct{ io.Writer }

func (writeFile) Read([]byte) (int, error) { return 0, io.EOF }
func (writeFile) Close() error             { return nil }

// stat is test's -e, -f, -d, -s, cd's check and the glob's: a file the
// container's file system can read, or a directory it can list; without
// follow (test -L, -h) a symbolic link is itself.
func (s *shell) stat(ctx context.Context, name string, follow bool) (fs.FileInfo, error) {
	full := s.resolve(interp.HandlerCtx(ctx).Dir, name)
	if l, ok := s.p.Env.Files.(process.Symlinks); ok && !follow {
		if in, err := l.Lstat(full); err == nil && in.Mode()&fs.ModeSymlink != 0 {
			return in, nil
		}
	}
	base := process.BaseName(full)
	if full == "/dev/null" {
		return fileInfo{name: "null", mode: fs.ModeDevice | fs.ModeCharDevice | 0o666}, nil
	}
	if data, ok := s.subst(full); ok {
		return fileInfo{name: base, size: int64(len(data)), mode: fs.ModeNamedPipe | 0o600}, nil
	}
	if data, err := s.p.ReadFile(full); err == nil {
		mode := fs.FileMode(0o644)
		if bytes.HasPrefix(data, []byte("#!")) {
			mode = 0o755
		}
		return fileInfo{name: base, size: int64(len(data)), mode: mode}, nil
	}
	if _, err := s.p.ReadDir(full); err == nil {
		return fileInfo{name: base, mode: fs.ModeDir | 0o755}, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, &os.PathError{Op: "stat", Path: name, Err: err}
	}
	return nil, &os.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

// readDir lists a directory for globs.
func (s *shell) readDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	return s.p.ReadDir(s.resolve(interp.HandlerCtx(ctx).Dir, name))
}

// access is test's -r, -w, -x and cd's: the container's user is root, who
// may read and write what exists and run what has a mode to run.
func (s *shell) access(ctx context.Context, name string, mode interp.AccessMode) error {
	info, err := s.stat(ctx, name, true)
	if err != nil {
		return err
	}
	if mode&interp.AccessExec != 0 && info.Mode()&0o111 == 0 {
		return fs.ErrPermission
	}
	return nil
}

// fileInfo is a file of the container for stat.
type fileInfo struct {
	name string
	size int64
	mode fs.FileMode
}

func (i fileInfo) Name() string       { return i.name }
func (i fileInfo) Size() int64        { return i.size }
func (i fileInfo) Mode() fs.FileMode  { return i.mode }
func (i fileInfo) ModTime() time.Time { return time.Time{} }
func (i fileInfo) IsDir() bool        { return i.mode.IsDir() }
func (i fileInfo) Sys() any           { return nil }
