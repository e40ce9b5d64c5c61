// Package shell is the simulated shell of wink's containers: a Windows
// cmd.exe and PowerShell (rows E, B9, B11, H1–H6 of
// simnode/facts/windows-behaviors.md) and a small POSIX sh for Linux
// containers. A container's command, and every `kubectl exec`, runs here;
// what it writes becomes the container log or the exec output.
//
// # API
//
//	Run(ctx, env, argv, stdin, stdout, stderr) int
//
// runs argv as the kubelet passes it (no shell unless argv[0] is one) and
// returns the exit code. argv[0] selects the interpreter: cmd / cmd.exe,
// powershell / powershell.exe / pwsh, sh / /bin/sh / bash / ash, or a
// program run directly (ping, curl.exe, whoami, agnhost serve-hostname...).
// Which programs exist depends on env.OS.
//
//	Listens(argv) []int
//
// reports the TCP ports a container command would listen on (agnhost
// servers, the docs' win-webserver HttpListener script, nc -l), for probes
// and the network model.
//
//	Found(os, argv) bool
//
// tells whether the shell simulates argv[0]. Present(os, image, argv)
// widens it by what wink knows of the image (see Open world below); the
// kubelet turns a false Present into a StartError instead of running
// anything.
//
// # Open world
//
// env.Image says what wink knows of the image's programs (ImageOf: the
// bases of inbox.yaml, whose file sets are the tables here; any other image
// is open; a HostProcess container sees the host, open, with Windows
// Server's in-box programs). A program the shell does not simulate is "not
// recognized" / "not found" only where wink knows it is absent (a base
// image, or a PowerShell Verb-Noun that is not in-box); an in-box cmdlet or
// System32 executable of inbox.yaml succeeds silently; a tool that ends
// (kubectl, mkdir, cp...) exits 0 in an open image; anything else of an
// open image runs until stopped with no output, as does `powershell -File`
// of a script that is not in a volume wink simulates. Present(os, image,
// argv) is Found widened by that knowledge: the kubelet's StartError only
// where it is false. See process/openworld.go and process/inbox.yaml.
//
// # Effects
//
// Nothing here touches the real machine: network effects go through
// env.Net, files through env.Files, time through env.Now and env.Sleep, so
// tests run with a fake clock and finish instantly.
//
// # Output conventions
//
// Windows programs end lines with "\r\n" like the real ones; Linux programs
// with "\n". Upstream e2e tests compare trimmed output (ExecCommandInContainer
// trims), so "Access is denied." on stderr matches exactly.
//
// # Exit codes
//
// A command returns its own exit code (cmd: 9009 for an unknown command,
// PowerShell: 1 when the last statement failed, sh: 127 for not found).
// Long-running commands (sleep, ping -t, while loops, servers) return only
// when ctx is done; they then return what a killed process returns:
// ExitKilledWindows (1) on Windows, ExitKilledLinux (143, SIGTERM) on Linux
// unless a sh `trap` handler decides otherwise. Turning "stopped by the
// kubelet" into a reason (Completed, Error) is the caller's concern; a caller
// that escalated to SIGKILL after the grace period reports 137 itself.
//
// # Layout
//
// This package keeps the public API above, the program tables
// (commands.go: what each OS's images run, by name) and the open-world
// checks that need them. The rest is split by language and programs:
// process (Env, Proc, the environment block, files, network and open-world
// helpers every program shares), cmd (cmd.exe), powershell, posix (sh) and
// programs (everything else: file, network, agnhost and admin tools). A
// program runs another through process.Proc.Exec and the Programs table,
// so the interpreters and the programs do not import one another.
package shell
