// Package cmd is the simulated cmd.exe of Windows containers (rows E, B9,
// B10, B11). No Go implementation of cmd exists; this one follows
// Microsoft's "Windows commands" reference (learn.microsoft.com/
// windows-server/administration/windows-commands/...) as its spec:
//
//   - cmd.go: `cmd /c`, `/k`, `/s`, `/q`, `/v:on` and the quote rules of
//     /c; an interactive cmd reading stdin.
//   - expand.go: %VAR% when a line is read (with %VAR:a=b%, %VAR:~n,m%,
//     batch parameters %0..%9 %* and the ~ modifiers such as %~dp0), FOR
//     variables and !VAR! (delayed expansion) when a command runs; lines
//     longer than 8191 characters are refused as cmd refuses them.
//   - parse.go: quotes, ^ escapes, & && || |, ( ) groups over several
//     lines, redirections, IF and FOR.
//   - exec.go: running the tree, redirections, pipes, programs and batch
//     files: call, goto, labels, exit /b.
//   - builtins.go, files.go, ifcmd.go, forcmd.go, setarith.go, dir.go: the
//     internal commands (echo, set /a /p, setlocal, endlocal, call, goto,
//     shift, exit, type, ver, cd, pushd, popd, md, rd, del, copy, move,
//     ren, mklink, dir, if, for ...). mklink makes real links of the
//     container's file system (a hard link is a copy).
//
// Bounded by construction (issue 18): every command, loop iteration,
// goto and call is a process Step (throttled on the clock, stopped with
// the context); variables, setlocal frames and captured output are
// accounted with Grow, and past the memory limit cmd ends with "Not
// enough memory resources are available to process this command." (on
// Windows nothing is OOM-killed, row B5). Internal commands wink does not
// simulate (assoc, ftype, start without /wait...) succeed and leave a
// NotSimulated trace, never "not recognized".
//
// Other programs (findstr, find, xcopy, robocopy, curl.exe, ...) are the
// image's programs, run through process.Proc.Exec.
package cmd
