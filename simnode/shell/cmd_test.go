package shell

import (
	"strings"
	"testing"
	"time"
)

// TestCmd covers cmd.exe: the /C rules, operators, redirections, %VAR%
// and the internal commands (row E).
func TestCmd(t *testing.T) {
	runCases(t, []tcase{
		{name: "unknown command (row E)", argv: []string{"cmd", "/c", "frobnicate /x"}, out: "-",
			errOut: "'frobnicate' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n", code: 9009},
		{name: "echo verbatim", argv: []string{"cmd", "/c", "echo  a   b "}, out: " a   b \r\n"},
		{name: "echo.", argv: []string{"cmd", "/c", "echo."}, out: "\r\n"},
		{name: "echo alone", argv: []string{"cmd", "/c", "echo"}, out: "ECHO is on.\r\n"},
		{name: "percent var", argv: []string{"cmd", "/c", "echo %GREETING%!"}, out: "hello world!\r\n"},
		{name: "undefined var stays", argv: []string{"cmd", "/c", "echo %NOPE%"}, out: "%NOPE%\r\n"},
		{name: "computername", argv: []string{"cmd", "/c", "echo %COMPUTERNAME%"}, out: "WIN-POD-1\r\n"},
		{name: "and", argv: []string{"cmd", "/c", "echo a && echo b"}, out: "a \r\nb\r\n"},
		{name: "and skipped", argv: []string{"cmd", "/c", "nope && echo b"}, out: "-", code: 9009},
		{name: "or", argv: []string{"cmd", "/c", "nope 2>nul || echo fallback"}, out: "fallback\r\n", errOut: "-"},
		{name: "amp", argv: []string{"cmd", "/c", "echo a& echo b"}, out: "a\r\nb\r\n"},
		{name: "caret escapes", argv: []string{"cmd", "/c", "echo a ^& b"}, out: "a & b\r\n"},
		// The runtime escapes quotes inside an argv element (\"), which cmd
		// does not unescape: the real gotcha of `kubectl exec -- cmd /c`.
		{name: "quoted operator via exec", argv: []string{"cmd", "/c", `echo "a & b"`}, out: "\\\"a & b\\\"\r\n"},
		{name: "quoted operator in a batch", argv: []string{"cmd", "/c", `C:\data\q.bat`}, setup: func(f *fixture) { f.fs.add(`C:\data\q.bat`, "@echo \"a & b\"\r\n") }, out: "\"a & b\"\r\n"},
		{name: "group", argv: []string{"cmd", "/c", "(echo a & echo b) > C:\\rw\\g.txt"}, out: "-",
			check: func(t *testing.T, f *fixture, r result) {
				if got, _ := f.fs.get(`C:\rw\g.txt`); got != "a \r\nb\r\n" {
					t.Errorf("file %q", got)
				}
			}},
		{name: "append", argv: []string{"cmd", "/c", "echo one>C:\\rw\\a.txt & echo two>>C:\\rw\\a.txt & type C:\\rw\\a.txt"}, out: "one \r\ntwo \r\n"}, // cmd keeps the space before &
		{name: "stderr to stdout", argv: []string{"cmd", "/c", "type C:\\missing.txt 2>&1"}, out: "The system cannot find the file specified.\r\n", errOut: "-", code: 1},
		{name: "redirect to missing dir", argv: []string{"cmd", "/c", "echo x > C:\\nodir\\f.txt"}, errOut: "The system cannot find the path specified.\r\n", code: 1},
		{name: "exit N", argv: []string{"cmd", "/c", "exit 3"}, code: 3},
		{name: "exit /b N stops", argv: []string{"cmd", "/c", "exit /b 4 & echo not"}, out: "-", code: 4},
		{name: "errorlevel", argv: []string{"cmd", "/c", "type C:\\missing 2>nul & if errorlevel 1 echo failed"}, out: "failed\r\n"},
		{name: "if exist", argv: []string{"cmd", "/c", `if exist C:\data\hello.txt echo yes`}, out: "yes\r\n"},
		{name: "if not equal", argv: []string{"cmd"}, stdin: `@if not "%GREETING%"=="x" echo differs` + "\r\n", outHas: []string{"\r\ndiffers\r\n"}},
		{name: "set lists", argv: []string{"cmd", "/c", "set"}, outHas: []string{"GREETING=hello world\r\n", "USERNAME=ContainerUser\r\n", "USERPROFILE=C:\\Users\\ContainerUser\r\n"}},
		{name: "set prefix", argv: []string{"cmd", "/c", "set GREE"}, out: "GREETING=hello world\r\n"},
		{name: "set undefined", argv: []string{"cmd", "/c", "set NOPE"}, errOut: "Environment variable NOPE not defined\r\n", code: 1},
		{name: "set then use next line", argv: []string{"cmd", "/c", "set X=1 & set X"}, out: "X=1 \r\n"},
		{name: "set /a", argv: []string{"cmd", "/c", "set /a (1+2)*3"}, out: "9"},
		{name: "type", argv: []string{"cmd", "/c", "type C:\\data\\hello.txt"}, out: "hello from a configmap\r\n"},
		{name: "type missing", argv: []string{"cmd", "/c", "type C:\\nope.txt"}, errOut: "The system cannot find the file specified.\r\n", code: 1},
		{name: "type dir", argv: []string{"cmd", "/c", "type C:\\data"}, errOut: "Access is denied.\r\n", code: 1},
		{name: "dir", argv: []string{"cmd", "/c", "dir C:\\data"}, outHas: []string{" Volume in drive C has no label.\r\n", " Directory of C:\\data\r\n", "<DIR>          .\r\n", "                24 hello.txt\r\n", "1 File(s)             24 bytes"}},
		{name: "dir missing", argv: []string{"cmd", "/c", "dir C:\\nope"}, errOut: "File Not Found\r\n", code: 1},
		{name: "cd", argv: []string{"cmd", "/c", "cd C:\\data & cd & type hello.txt"}, out: "C:\\data\r\nhello from a configmap\r\n"},
		{name: "copy", argv: []string{"cmd", "/c", "copy C:\\data\\hello.txt C:\\rw\\h.txt && type C:\\rw\\h.txt"}, out: "        1 file(s) copied.\r\nhello from a configmap\r\n"},
		{name: "copy to read-only", argv: []string{"cmd", "/c", "copy C:\\data\\hello.txt C:\\test-volume\\h.txt"}, errOut: "Access is denied.\r\n", out: "        0 file(s) copied.\r\n", code: 1},
		{name: "pipe", argv: []string{"cmd", "/c", "echo hi| powershell -c $input"}, out: "hi\r\n"},
		{name: "quoted exe kept", argv: []string{"cmd", "/c", `C:\Program Files\curl.exe`, "--version"}, code: 2, errHas: []string{"curl: option --version: is unknown"}},
		{name: "hostname", argv: []string{"cmd", "/c", "hostname"}, out: "win-pod-1\r\n"},
		{name: "whoami default", argv: []string{"whoami"}, out: "user manager\\containeruser\r\n"},
		{name: "whoami system", argv: []string{"whoami"}, setup: func(f *fixture) { f.env.User = `NT AUTHORITY\SYSTEM` }, out: "nt authority\\system\r\n"},
		{name: "system username", argv: []string{"cmd", "/c", "echo %USERNAME%"}, setup: func(f *fixture) { f.env.User = `NT AUTHORITY\SYSTEM`; f.env.Hostname = "win-node-1" }, out: "WIN-NODE-1$\r\n"},
		{name: "timeout", argv: []string{"timeout", "/t", "5", "/nobreak"}, out: "\r\nWaiting for 5 seconds, press a key to continue ...0\r\n",
			check: func(t *testing.T, f *fixture, r result) {
				if f.clock.slept.Seconds() != 5 {
					t.Errorf("slept %v", f.clock.slept)
				}
			}},
		{name: "interactive", argv: []string{"cmd"}, stdin: "echo hi\r\nexit 2\r\n", code: 2, outHas: []string{"Microsoft Windows [Version", "C:\\>echo hi\r\nhi\r\n"}},
		{name: "batch file", argv: []string{"cmd", "/c", "C:\\data\\run.bat world"}, setup: func(f *fixture) { f.fs.add(`C:\data\run.bat`, "@echo off\r\necho hello %1\r\nexit /b 5\r\n") }, out: "hello world\r\n", code: 5},
		{name: "help", argv: []string{"cmd", "/c", "help"}, outHas: []string{"ECHO         Displays messages"}},
		{name: "stray operator aborts the line", argv: []string{"cmd", "/c", "& echo x"}, errOut: "& was unexpected at this time.\r\n", out: "-", code: 255},
		{name: "direct echo is busybox", argv: []string{"echo", "a", "b"}, out: "a b\r\n"},
		{name: "direct cat", argv: []string{"cat", `C:\data\hello.txt`}, out: "hello from a configmap\r\n"},
	})
}

// TestCmdBounded: no cmd script runs or grows without bound (issue 18): a
// goto loop is throttled on the clock and ends with its context; a
// variable that doubles ends at the process's memory (row B5: on Windows
// the allocation fails, nothing is OOM-killed) or at cmd's 8191-character
// line.
func TestCmdBounded(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		memory       int64
		errOut       string
		code         int
	}{
		{name: "goto loop", script: "@echo off\r\n:a\r\ngoto a\r\n", code: 1},
		{name: "for /l with step 0", script: "@for /l %%i in (1,0,2) do @rem\r\n", code: 1},
		{name: "call recursion", script: "@echo off\r\n:f\r\ncall :f\r\n", code: 255, errOut: "****** B A T C H   R E C U R S I O N  exceeds STACK limits ******\r\nRecursion Count=100, Stack Usage=90 percent\r\n******       B A T C H   PROCESSING IS   A B O R T E D      ******\r\n"},
		{name: "delayed doubling", memory: 1 << 20, script: "@echo off\r\nsetlocal EnableDelayedExpansion\r\nset x=ab\r\n:a\r\nset x=!x!!x!\r\ngoto a\r\n",
			errOut: "Not enough memory resources are available to process this command.\r\n", code: 1},
		{name: "many variables", memory: 1 << 20, script: "@echo off\r\n:a\r\nset /a n+=1\r\nset v%n%=0123456789012345678901234567890123456789\r\ngoto a\r\n",
			errOut: "Not enough memory resources are available to process this command.\r\n", code: 1},
		{name: "percent doubling", script: "@echo off\r\nset x=ab\r\n:a\r\nset x=%x%%x%\r\ngoto a\r\n", errOut: "The input line is too long.\r\n", code: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(Windows)
			f.env.Limits.Memory = tc.memory
			// a minute of the process's clock: 600,000 steps at one
			// core's pace (process.StepsPerCPU)
			f.clock.limit = fakeEpoch.Add(time.Minute)
			f.fs.add(`C:\rw\loop.cmd`, tc.script)
			r := f.run(t, []string{"cmd", "/c", `C:\rw\loop.cmd`}, "")
			if r.code != tc.code || r.stderr != tc.errOut {
				t.Errorf("code %d stderr %q, want %d %q", r.code, r.stderr, tc.code, tc.errOut)
			}
			if tc.code == 1 && tc.errOut == "" && f.clock.slept == 0 {
				t.Errorf("the loop never yielded on the clock")
			}
		})
	}
}

// TestCmdNotSimulated: what cmd does not simulate succeeds and leaves a
// NotSimulated trace (issue 18), never "not recognized".
func TestCmdNotSimulated(t *testing.T) {
	f := newFixture(Windows)
	tr := &tracer{}
	f.env.Tracer = tr
	r := f.run(t, []string{"cmd", "/c", "assoc .txt=txtfile & start /b C:\\app\\server.exe & ftype & echo on"}, "")
	if r.code != 0 || r.stderr != "" {
		t.Errorf("code %d stderr %q", r.code, r.stderr)
	}
	if got := strings.Join(tr.what, ","); got != "cmd: assoc,cmd: start,cmd: ftype" {
		t.Errorf("NotSimulated %q", got)
	}
}

// TestCmdMklink: mklink as Microsoft documents it
// (https://learn.microsoft.com/windows-server/administration/windows-commands/mklink):
// a symbolic link needs SeCreateSymbolicLinkPrivilege, which ContainerUser
// lacks and ContainerAdministrator holds (row B9); a junction needs none.
// Links are real: what is read or written through them is the target's,
// and `rd` of a directory link removes the link (the page's example
// `mklink /d \MyFolder \Users\User1\Documents` then `rd \MyFolder`).
func TestCmdMklink(t *testing.T) {
	admin := func(f *fixture) { f.env.User = "ContainerAdministrator" }
	runCases(t, []tcase{
		{name: "symlink as ContainerUser", argv: []string{"cmd", "/c", `mklink C:\rw\link.txt C:\data\hello.txt`},
			errOut: "You do not have sufficient privilege to perform this operation.\r\n", code: 1},
		{name: "directory symlink as ContainerUser", argv: []string{"cmd", "/c", `mklink /D C:\rw\conf C:\data`},
			errOut: "You do not have sufficient privilege to perform this operation.\r\n", code: 1},
		{name: "symlink as ContainerAdministrator", argv: []string{"cmd", "/c", `mklink C:\rw\link.txt C:\data\hello.txt && type C:\rw\link.txt`},
			setup: admin,
			out:   "symbolic link created for C:\\rw\\link.txt <<===>> C:\\data\\hello.txt\r\nhello from a configmap\r\n"},
		{name: "a write through a file link reaches the target", argv: []string{"cmd", "/c", `mklink C:\rw\link.txt C:\data\hello.txt >nul && echo changed> C:\rw\link.txt && type C:\data\hello.txt`},
			setup: admin, out: "changed \r\n"}, // cmd keeps the space before &&
		{name: "directory symlink, relative target", argv: []string{"cmd", "/c", `mklink /d C:\rw\conf ..\data && type C:\rw\conf\hello.txt`},
			setup: admin,
			out:   "symbolic link created for C:\\rw\\conf <<===>> ..\\data\r\nhello from a configmap\r\n"},
		{name: "junction as ContainerUser writes through", argv: []string{"cmd", "/c", `mklink /J C:\rw\j C:\data && echo x> C:\rw\j\new.txt && type C:\data\new.txt`},
			out: "Junction created for C:\\rw\\j <<===>> C:\\data\r\nx \r\n"},
		{name: "junction keeps the full path of a relative target", argv: []string{"cmd", "/c", `cd /d C:\rw && mklink /j j ..\data >nul && dir C:\rw`},
			out: " Volume in drive C has no label.\r\n Volume Serial Number is 5E4A-8C1F\r\n\r\n Directory of C:\\rw\r\n\r\n" +
				"04/23/2024  10:00 AM    <DIR>          .\r\n04/23/2024  10:00 AM    <DIR>          ..\r\n" +
				"04/23/2024  10:00 AM    <JUNCTION>     j [C:\\data]\r\n" +
				"               0 File(s)              0 bytes\r\n               3 Dir(s)  21,474,836,480 bytes free\r\n"},
		{name: "rd removes the junction, not the target", argv: []string{"cmd", "/c", `mklink /J C:\rw\j C:\data >nul && rd C:\rw\j && type C:\data\hello.txt && dir /b C:\rw`},
			out: "hello from a configmap\r\n", errOut: "File Not Found\r\n", code: 1},
		{name: "hard link", argv: []string{"cmd", "/c", `mklink /h C:\rw\h.txt C:\data\hello.txt`},
			out: "Hardlink created for C:\\rw\\h.txt <<===>> C:\\data\\hello.txt\r\n"},
		{name: "link exists", argv: []string{"cmd", "/c", `mklink /j C:\data C:\rw`},
			errOut: "Cannot create a file when that file already exists.\r\n", code: 1},
		{name: "junction on a read-only volume", argv: []string{"cmd", "/c", `mklink /j C:\test-volume\j C:\rw`},
			errOut: "Access is denied.\r\n", code: 1},
	})
}

// TestCmdInteractive: commands typed into `kubectl exec -i -- cmd` read the
// lines after them (set /p), windows-commands/set.
func TestCmdInteractive(t *testing.T) {
	runCases(t, []tcase{
		{name: "set /p reads the next line", argv: []string{"cmd", "/q"}, stdin: "set /p NAME=\r\nworld\r\necho hello %NAME%\r\n",
			out: "Microsoft Windows [Version 10.0.20348.2655]\r\n(c) Microsoft Corporation. All rights reserved.\r\nhello world\r\n"},
	})
}

// TestCmdErrorlevelIdioms: the idioms scripts use to set ERRORLEVEL
// (windows-commands/call, /verify, /ver) and a group typed over several
// lines of an interactive cmd.
func TestCmdErrorlevelIdioms(t *testing.T) {
	runCases(t, []tcase{
		{name: "(call), (call ), verify other, ver", argv: []string{"cmd", "/c", "(call) & call echo %^errorlevel% & (call ) & call echo %^errorlevel% & verify other 2>nul & call echo %^errorlevel% & ver >nul & call echo %^errorlevel%"},
			out: "1 \r\n0 \r\n1 \r\n0\r\n"},
		{name: "interactive group over lines", argv: []string{"cmd", "/q"}, stdin: "(\r\necho one\r\necho two\r\n)\r\n",
			out: "Microsoft Windows [Version 10.0.20348.2655]\r\n(c) Microsoft Corporation. All rights reserved.\r\none\r\ntwo\r\n"},
	})
}

// TestBatchFileAsCommand: a container whose command is a batch file runs
// it with cmd /c; one that is not there cannot be created (hcsshim), as
// any missing program (issue 18).
func TestBatchFileAsCommand(t *testing.T) {
	runCases(t, []tcase{
		{name: "present", argv: []string{`C:\data\run.cmd`, "a b"}, setup: func(f *fixture) { f.fs.add(`C:\data\run.cmd`, "@echo [%~1]\r\n") }, out: "[a b]\r\n"},
		{name: "missing", argv: []string{`C:\data\nope.cmd`}, errOut: "hcs::System::CreateProcess C:\\data\\nope.cmd: The system cannot find the file specified.\r\n", code: 126},
	})
}

// TestCmdProgramOnDisk: a program the container's files hold (a tool in a
// volume) is there: cmd does not answer "not recognized"; wink cannot run
// it and leaves a NotSimulated trace (open world, issue 18).
func TestCmdProgramOnDisk(t *testing.T) {
	f := newFixture(Windows)
	f.env.Image = ImageOf(Windows, "mcr.microsoft.com/windows/nanoserver:ltsc2022", false)
	f.env.Completes = true
	tr := &tracer{}
	f.env.Tracer = tr
	f.fs.add(`C:\tools\agent.exe`, "MZ")
	r := f.run(t, []string{"cmd", "/c", `C:\tools\agent.exe --install && cd C:\tools && agent --version && nothere`}, "")
	if r.code != 9009 || r.stderr != "'nothere' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n" {
		t.Errorf("code %d stderr %q", r.code, r.stderr)
	}
	if got := strings.Join(tr.what, ","); got != "agent.exe,agent" {
		t.Errorf("NotSimulated %q", got)
	}
}
