package shell

import (
	"context"
	"io"
	"path"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// Start is how a container's process is started (process.Start).
type Start = process.Start

// RunProcess runs argv as a container's command started as s: the one
// run-or-block rule of the runtime (open world, row E, all kubelet
// versions). An empty argv is the image's own default process, which wink
// does not know (an image without catalog or registry metadata): it ends
// at once with 0 when run to completion, and otherwise runs until stopped.
// So does the image's own server program when the shell does not simulate
// it and it is no tool that ends, or when it is a Windows image's own
// startup script (imageScript): it serves until the container stops and
// then exits as a stopped process does. Everything else runs in the
// simulated shell.
func RunProcess(ctx context.Context, env *Env, s Start, argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if s.Completes && len(argv) == 0 {
		return 0 // the image's own program, run to completion
	}
	if !s.Exec && !s.Completes && (len(argv) == 0 || s.Server != "" && argv[0] == s.Server && (!Found(env.OS, argv) && !Tool(env.OS, argv[0]) || imageScript(env.OS, s, argv))) {
		return process.RunUnsimulated(ctx, env, argv)
	}
	return Run(ctx, env, argv, stdin, stdout, stderr)
}

// Lookup says whether argv[0] is present in a container of image ref on os
// as far as wink knows (the open world of Present), and whether the shell
// simulates it (Found).
func Lookup(os OS, ref string, hostProcess bool, argv []string) (found, simulated bool) {
	return Present(os, ImageOf(os, ref, hostProcess), argv), Found(os, argv)
}

// imageScript reports whether argv is a Windows image's own startup
// script run by busybox-w32 sh: the image's ENTRYPOINT and CMD, such as
// the e2e nginx and httpd images' `/bin/sh -c " cd /usr/share/nginx &&
// ./nginx.exe"` (test/images/nginx/Dockerfile_windows). It starts the
// image's server over files wink does not know (open world, row E): the
// process runs until stopped, as the image's server does, instead of the
// shell failing on a directory or program of the image.
func imageScript(os OS, s Start, argv []string) bool {
	if !os.IsWindows() || !s.ImageCommand || len(argv) == 0 {
		return false
	}
	name := strings.ToLower(path.Base(strings.ReplaceAll(argv[0], `\`, "/")))
	switch strings.TrimSuffix(name, ".exe") {
	case "sh", "ash", "bash":
		return true
	}
	return false
}
