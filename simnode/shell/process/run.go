package process

import (
	"bytes"
	"context"
	"fmt"
	"io"
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

// Proc is one running command: its environment, streams and state.
type Proc struct {
	Ctx    context.Context
	Env    *Env
	Win    bool
	Vars   *Vars
	Dir    string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	NL     string
	// LastExit is ERRORLEVEL / $? / $LASTEXITCODE.
	LastExit int
	// Programs are the programs the image has, by name: what exec, cmd,
	// PowerShell and sh run.
	Programs Programs
	// Depth counts nested scripts, functions and shells of this Run (a
	// script that runs itself must end, not exhaust the stack).
	Depth *atomic.Int32
	// meter counts the steps and memory of this Run (limits.go).
	meter *meter
}

// maxDepth is how deep scripts may nest (PowerShell reports a call depth
// overflow, cmd and sh stop with an error).
const maxDepth = 100

// Enter increments the nesting depth; false when it is too deep. Pair with
// leave.
func (p *Proc) Enter() bool { return p.Depth.Add(1) <= maxDepth }

// Leave undoes Enter.
func (p *Proc) Leave() { p.Depth.Add(-1) }

// NewProc makes the process a command of env runs in, finding programs in
// programs (nil: it runs none); nil streams read nothing and discard.
func NewProc(ctx context.Context, env *Env, programs Programs, stdin io.Reader, stdout, stderr io.Writer) *Proc {
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
	if programs != nil && env.Image.Base != "" {
		programs = imagePrograms{programs, env.Image} // inbox.yaml bases[].absent
	}
	// The Run's own context: the kernel ends it when the process is
	// OOM-killed (limits.go).
	m := &meter{}
	ctx, m.kill = context.WithCancel(ctx)
	p := &Proc{Ctx: ctx, Env: env, Win: env.OS == Windows, Programs: programs, Stdin: stdin, Stdout: stdout, Stderr: stderr, Depth: &atomic.Int32{}, meter: m}
	if p.Win {
		p.NL = "\r\n"
		p.Vars = windowsVars(env)
		p.Dir = winPath(`C:\`, env.Dir)
	} else {
		p.NL = "\n"
		p.Vars = linuxVars(env)
		p.Dir = linuxPath("/", env.Dir)
	}
	return p
}

// End releases what the Run of p holds (its context, its memory); call it
// once the Run returned.
func (p *Proc) End() {
	p.meter.kill()
	machine.Add(-p.meter.held.Swap(0)) // what it held is the machine's again
}

// Sub returns a child process sharing the environment with other streams.
func (p *Proc) Sub(stdin io.Reader, stdout, stderr io.Writer) *Proc {
	c := *p
	c.Vars = p.Vars.clone()
	if stdin != nil {
		c.Stdin = stdin
	}
	if stdout != nil {
		c.Stdout = stdout
	}
	if stderr != nil {
		c.Stderr = stderr
	}
	return &c
}

// Exec runs a program the way the runtime starts it: by name, no shell.
func (p *Proc) Exec(argv []string) int {
	if !p.Enter() {
		p.Eprintln("The nesting of scripts is too deep.")
		return 255
	}
	defer p.Leave()
	if p.Win {
		c, ok := p.Programs.Lookup(Windows, argv[0])
		if !ok {
			if ps, ok := p.Programs.Lookup(Windows, "powershell"); ok && IsScriptPath(argv[0]) {
				return ps.Run(p, append([]string{"powershell", "-File"}, argv...))
			}
			// CreateProcess runs a batch file that is there with cmd.exe
			// /c (issue 18)
			if cmd, ok := p.Programs.Lookup(Windows, "cmd"); ok && IsBatchPath(argv[0]) {
				if _, err := p.ReadFile(argv[0]); err == nil || p.ScriptMayExist(argv[0], err) {
					return cmd.Run(p, append([]string{"cmd", "/c"}, argv...))
				}
			}
			if code, ok := p.Unsimulated(argv[0]); ok {
				return code // open world (openworld.go)
			}
			// hcsshim: the process cannot be created.
			fmt.Fprintf(p.Stderr, "hcs::System::CreateProcess %s: The system cannot find the file specified.%s", argv[0], p.NL)
			return ExitCannotExec
		}
		return c.Run(p, argv)
	}
	c, ok := p.Programs.Lookup(Linux, argv[0])
	if ok && BaseLacks(p.Env.Image.Base, argv[0]) {
		ok = false // not in this image (inbox.yaml exact bases, issue 18)
	}
	if !ok {
		if in, name, ok := p.shebang(argv[0]); ok {
			return in.Run(p, append([]string{name, argv[0]}, argv[1:]...))
		}
		if code, ok := p.Unsimulated(argv[0]); ok {
			return code // open world (openworld.go)
		}
		fmt.Fprintf(p.Stderr, "exec: %q: executable file not found in $PATH%s", argv[0], p.NL)
		return ExitCannotExec
	}
	return c.Run(p, argv)
}

// shebang is the interpreter the kernel runs a script by path with: the
// program its #! line names (#!/bin/sh, #!/usr/bin/env bash), when the
// table has it, and its name.
func (p *Proc) shebang(path string) (*Command, string, bool) {
	if !strings.Contains(path, "/") {
		return nil, "", false
	}
	data, err := p.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(data), "#!") {
		return nil, "", false
	}
	line, _, _ := strings.Cut(string(data[2:min(len(data), 256)]), "\n")
	f := strings.Fields(line)
	if len(f) > 1 && ProgramName(f[0], false) == "env" {
		f = f[1:]
	}
	if len(f) == 0 {
		return nil, "", false
	}
	c, ok := p.Programs.Lookup(Linux, f[0])
	return c, ProgramName(f[0], false), ok
}

// Killed is the code a process stopped because ctx is done returns.
func (p *Proc) Killed() int {
	if p.Win {
		return ExitKilledWindows
	}
	return ExitKilledLinux
}

// Done reports whether the process was stopped (its ctx is done).
func (p *Proc) Done() bool { return p.Ctx.Err() != nil }

// Block waits until ctx is done: a long-running server or `sleep inf`. It
// sleeps on the environment's clock when there is one, so that a simulated
// clock sees the process idle rather than busy.
func (p *Proc) Block() int {
	for p.Sleep(24 * time.Hour) {
	}
	return p.Killed()
}

// Sleep waits d on the environment's clock; false when ctx ended first.
func (p *Proc) Sleep(d time.Duration) bool {
	if p.Done() {
		return false
	}
	if p.Env.Sleep != nil {
		return p.Env.Sleep(p.Ctx, d) == nil && !p.Done()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-p.Ctx.Done():
		return false
	}
}

// Now is the time on the environment's clock.
func (p *Proc) Now() time.Time {
	if p.Env.Now != nil {
		return p.Env.Now()
	}
	return time.Now()
}

// Println writes s and the platform's line ending to stdout.
func (p *Proc) Println(s string) { io.WriteString(p.Stdout, s+p.NL) }

// Eprintln writes s and the platform's line ending to stderr.
func (p *Proc) Eprintln(s string) { io.WriteString(p.Stderr, s+p.NL) }

// Printf writes to stdout, turning "\n" into the platform's line ending.
func (p *Proc) Printf(format string, a ...any) {
	s := fmt.Sprintf(format, a...)
	if p.Win {
		s = crlf(s)
	}
	io.WriteString(p.Stdout, s)
}

// eprintf writes to stderr, turning "\n" into the platform's line ending.
func (p *Proc) eprintf(format string, a ...any) {
	s := fmt.Sprintf(format, a...)
	if p.Win {
		s = crlf(s)
	}
	io.WriteString(p.Stderr, s)
}

func crlf(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}

// capture runs f with stdout collected into a buffer (a Capture: bounded,
// and counted against the process's memory while it runs).
func (p *Proc) capture(f func(c *Proc) int) (string, int) {
	b := p.Capture()
	defer b.Release()
	c := p.Sub(nil, b, nil)
	code := f(c)
	return b.String(), code
}

// LimitedBuffer caps memory use of captured output of endless commands.
// Prefer Proc.Capture, which also counts what it holds (limits.go).
type LimitedBuffer struct {
	bytes.Buffer
	Max int
}

func (l *LimitedBuffer) Write(b []byte) (int, error) {
	if l.Max > 0 && l.Len()+len(b) > l.Max {
		n := l.Max - l.Len()
		if n > 0 {
			l.Buffer.Write(b[:n])
		}
		return len(b), nil
	}
	return l.Buffer.Write(b)
}
