package powershell

import (
	"context"
	"io"
	"path"
	"strings"
	"sync/atomic"

	"wink.dev/wink/simnode/shell/process"
)

// This file is Start-Process (Microsoft.PowerShell.Management): a program
// started as a process of its own, waited for with -Wait, returned as a
// System.Diagnostics.Process with -PassThru.
// https://learn.microsoft.com/powershell/module/microsoft.powershell.management/start-process?view=powershell-5.1

func init() {
	registerCmdlets(&psCmdlet{name: "Start-Process", aliases: []string{"saps", "start"}, help: "Starts a process.",
		positional: []string{"FilePath", "ArgumentList*"},
		params:     []string{"WorkingDirectory", "RedirectStandardOutput", "RedirectStandardError", "RedirectStandardInput", "Verb", "WindowStyle", "Credential"},
		switches:   []string{"Wait", "PassThru", "NoNewWindow", "UseNewEnvironment", "LoadUserProfile"},
		run:        cmdletStartProcess})
}

// startedProcessSize is what a started process holds of the container's
// memory while it runs, so that a loop of Start-Process meets the
// container's limit as processes would.
const startedProcessSize = 1 << 20

// lastPID numbers the processes Start-Process starts.
var lastPID atomic.Int64

func cmdletStartProcess(c *psCall) {
	file := c.str("FilePath")
	if !mayStart(c.s, file) {
		c.fail("This command cannot be run due to the error: The system cannot find the file specified.",
			"InvalidOperation", "", "InvalidOperationException", "InvalidOperationException")
		return
	}
	argv := []string{file}
	var line []string
	for _, a := range enumerate(c.named["ArgumentList"]) {
		line = append(line, toStr(a))
	}
	// the arguments are one command line, which the program splits
	argv = append(argv, process.SplitCommandLine(strings.Join(line, " "))...)

	// The program's output: the console with -NoNewWindow, a file with
	// -RedirectStandardOutput, else a window of its own that the
	// container's log does not show.
	stdout, stderr := io.Writer(io.Discard), io.Writer(io.Discard)
	if c.has("NoNewWindow") {
		stdout, stderr = c.s.p.Stdout, c.s.errw
	}
	var closers []io.Closer
	for param, w := range map[string]*io.Writer{"RedirectStandardOutput": &stdout, "RedirectStandardError": &stderr} {
		if name := c.str(param); name != "" {
			f, err := c.s.p.OpenRedirect(name, false)
			if err != nil {
				c.fail("This command cannot be run due to the error: "+err.Error(), "InvalidOperation", "", "InvalidOperationException", "InvalidOperationException")
				return
			}
			*w = f
			if cl, ok := f.(io.Closer); ok {
				closers = append(closers, cl)
			}
		}
	}
	var stdin io.Reader = strings.NewReader("")
	if name := c.str("RedirectStandardInput"); name != "" {
		data, err := c.s.p.ReadFile(name)
		if err != nil {
			c.fail("This command cannot be run because the input file '"+name+"' does not exist.", "InvalidOperation", "", "InvalidOperationException", "InvalidOperationException")
			return
		}
		stdin = strings.NewReader(string(data))
	}
	child := c.s.p.Sub(stdin, stdout, stderr)
	ctx, cancel := context.WithCancel(c.s.p.Ctx)
	child.Ctx = ctx
	if dir := c.str("WorkingDirectory"); dir != "" {
		child.Dir = c.s.p.Path(dir)
	}
	c.s.grow(startedProcessSize)
	pr := &startedProcess{id: lastPID.Add(4) + 4000, name: strings.TrimSuffix(path.Base(strings.ReplaceAll(file, `\`, "/")), ".exe"), done: make(chan struct{}), cancel: cancel}
	// the process ends with the container's main process, this shell
	c.s.atExit = append(c.s.atExit, func() {
		pr.cancel()
		<-pr.done
	})
	run := func() {
		defer close(pr.done)
		defer c.s.p.Grow(-startedProcessSize)
		pr.code = child.Exec(argv)
		for _, cl := range closers {
			cl.Close()
		}
	}
	if c.has("Wait") {
		run()
	} else {
		go run()
	}
	if c.has("PassThru") {
		c.out(pr.object())
	}
}

// mayStart reports whether Start-Process finds the program: one wink
// simulates, a file the container has, or one an open image may have.
func mayStart(s *psShell, file string) bool {
	if file == "" {
		return false
	}
	if _, ok := s.p.Programs.Lookup(process.Windows, file); ok {
		return true
	}
	if _, err := s.p.ReadFile(file); err == nil || s.p.ScriptMayExist(file, err) {
		return true
	}
	return s.p.Env.Image.InBox && process.InBoxExecutable(file)
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
func (pr *startedProcess) object() *psObject {
	o := &psObject{typeName: "System.Diagnostics.Process", str: "System.Diagnostics.Process (" + pr.name + ")"}
	refresh := func() {
		exited, code := false, any(nil)
		select {
		case <-pr.done:
			exited, code = true, int64(pr.code)
		default:
		}
		o.props = []psProp{{"Id", pr.id}, {"ProcessName", pr.name}, {"HasExited", exited}, {"ExitCode", code}}
	}
	refresh()
	o.methods = map[string]func(args []any) any{
		"waitforexit": func(args []any) any {
			<-pr.done
			refresh()
			return nil
		},
		"refresh": func([]any) any { refresh(); return nil },
	}
	return o
}
