package powershell

import (
	"context"
	"io"
	"path"
	"strings"
	"sync/atomic"
	"wink.dev/wink/simnode/shell/powershell/engine"

	"wink.dev/wink/simnode/shell/process"
)

// This file is Start-Process (Microsoft.PowerShell.Management): a program
// started as a process of its own, waited for with -Wait, returned as a
// System.Diagnostics.Process with -PassThru.
// https://learn.microsoft.com/powershell/module/microsoft.powershell.management/start-process?view=powershell-5.1

func init() {
	engine.RegisterCmdlets(&engine.Cmdlet{Name: "Start-Process", Aliases: []string{"saps", "start"}, Help: "Starts a process.",
		Positional: []string{"FilePath", "ArgumentList*"},
		Params:     []string{"WorkingDirectory", "RedirectStandardOutput", "RedirectStandardError", "RedirectStandardInput", "Verb", "WindowStyle", "Credential"},
		Switches:   []string{"Wait", "PassThru", "NoNewWindow", "UseNewEnvironment", "LoadUserProfile"},
		Run:        cmdletStartProcess})
}

// startedProcessSize is what a started process holds of the container's
// memory while it runs, so that a loop of Start-Process meets the
// container's limit as processes would.
const startedProcessSize = 1 << 20

// lastPID numbers the processes Start-Process starts.
var lastPID atomic.Int64

func cmdletStartProcess(c *engine.Call) {
	file := c.Str("FilePath")
	if !mayStart(c.S, file) {
		c.Fail("This command cannot be run due to the error: The system cannot find the file specified.",
			"InvalidOperation", "", "InvalidOperationException", "InvalidOperationException")
		return
	}
	argv := []string{file}
	var line []string
	for _, a := range engine.Enumerate(c.Named["ArgumentList"]) {
		line = append(line, engine.ToStr(a))
	}
	// the arguments are one command line, which the program splits
	argv = append(argv, process.SplitCommandLine(strings.Join(line, " "))...)

	// The program's output: the console with -NoNewWindow, a file with
	// -RedirectStandardOutput, else a window of its own that the
	// container's log does not show.
	stdout, stderr := io.Writer(io.Discard), io.Writer(io.Discard)
	if c.Has("NoNewWindow") {
		stdout, stderr = c.S.P.Stdout, c.S.Errw
	}
	var closers []io.Closer
	for param, w := range map[string]*io.Writer{"RedirectStandardOutput": &stdout, "RedirectStandardError": &stderr} {
		if name := c.Str(param); name != "" {
			f, err := c.S.P.OpenRedirect(name, false)
			if err != nil {
				c.Fail("This command cannot be run due to the error: "+err.Error(), "InvalidOperation", "", "InvalidOperationException", "InvalidOperationException")
				return
			}
			*w = f
			if cl, ok := f.(io.Closer); ok {
				closers = append(closers, cl)
			}
		}
	}
	var stdin io.Reader = strings.NewReader("")
	if name := c.Str("RedirectStandardInput"); name != "" {
		data, err := c.S.P.ReadFile(name)
		if err != nil {
			c.Fail("This command cannot be run because the input file '"+name+"' does not exist.", "InvalidOperation", "", "InvalidOperationException", "InvalidOperationException")
			return
		}
		stdin = strings.NewReader(string(data))
	}
	child := c.S.P.Sub(stdin, stdout, stderr)
	ctx, cancel := context.WithCancel(c.S.P.Ctx)
	child.Ctx = ctx
	if dir := c.Str("WorkingDirectory"); dir != "" {
		child.Dir = c.S.P.Path(dir)
	}
	c.S.Grow(startedProcessSize)
	pr := &startedProcess{id: lastPID.Add(4) + 4000, name: strings.TrimSuffix(path.Base(strings.ReplaceAll(file, `\`, "/")), ".exe"), done: make(chan struct{}), cancel: cancel}
	// the process ends with the container's main process, this shell
	c.S.AtExit = append(c.S.AtExit, func() {
		pr.cancel()
		<-pr.done
	})
	run := func() {
		defer close(pr.done)
		defer c.S.P.Grow(-startedProcessSize)
		pr.code = child.Exec(argv)
		for _, cl := range closers {
			cl.Close()
		}
	}
	if c.Has("Wait") {
		run()
	} else {
		go run()
	}
	if c.Has("PassThru") {
		c.Out(pr.object())
	}
}

// mayStart reports whether Start-Process finds the program: one wink
// simulates, a file the container has, or one an open image may have.
func mayStart(s *engine.Shell, file string) bool {
	if file == "" {
		return false
	}
	if _, ok := s.P.Programs.Lookup(process.Windows, file); ok {
		return true
	}
	if _, err := s.P.ReadFile(file); err == nil || s.P.ScriptMayExist(file, err) {
		return true
	}
	return s.P.Env.Image.InBox && process.InBoxExecutable(file)
}

// startedProcess is a process Start-Process started.
type startedProcess struct {
	id     int64
	name   string
	cancel context.CancelFunc
	done   chan struct{}
	code   int // set before done is closed
}

// object is the System.Diagnostics.Process -PassThru returns: Id,
// ProcessName, HasExited and ExitCode as of now, WaitForExit() and Kill().
func (pr *startedProcess) object() *engine.Object {
	o := &engine.Object{TypeName: "System.Diagnostics.Process", Str: "System.Diagnostics.Process (" + pr.name + ")"}
	refresh := func() {
		exited, code := false, any(nil)
		select {
		case <-pr.done:
			exited, code = true, int64(pr.code)
		default:
		}
		o.Props = []engine.Prop{{Name: "Id", Val: pr.id}, {Name: "ProcessName", Val: pr.name}, {Name: "HasExited", Val: exited}, {Name: "ExitCode", Val: code}}
	}
	refresh()
	o.Methods = map[string]func(args []any) any{
		"waitforexit": func(args []any) any {
			<-pr.done
			refresh()
			return nil
		},
		"refresh": func([]any) any { refresh(); return nil },
	}
	return o
}
