package shell

import (
	"context"
	"fmt"
	"io"

	"wink.dev/wink/simnode/shell/process"
)

// Run runs argv (a container command or an exec) in the simulated container
// described by env and returns its exit code. See the package documentation.
func Run(ctx context.Context, env *Env, argv []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	if env == nil {
		env = &Env{}
	}
	p := process.NewProc(ctx, env, tables{}, stdin, stdout, stderr)
	defer p.End()
	defer func() {
		// A process past its memory limit on Linux was OOM-killed
		// (process.Limits, row B5): whatever it was doing, it exits 137.
		if p.OOMKilled() {
			code = process.ExitOOMKilled
		}
	}()
	defer func() {
		// The interpreters are total functions over their input; a panic is
		// a bug, but a container must not take the node down with it.
		if !recoverPanics {
			return
		}
		if r := recover(); r != nil {
			fmt.Fprintf(p.Stderr, "internal error: %v%s", r, p.NL)
			code = 255
		}
	}()
	if len(argv) == 0 {
		return 0
	}
	return p.Exec(argv)
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
		return ok || process.IsScriptPath(argv[0]) || process.IsBatchPath(argv[0])
	}
	_, ok := lookupLinux(argv[0])
	return ok
}
