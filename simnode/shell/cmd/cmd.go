package cmd

import (
	"io"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// This file is cmd.exe (row E) as Microsoft Learn's "Windows commands"
// reference describes it (windows-commands/cmd): the switches /C /K /S /Q
// /V:ON /E /D, the quote rules of /C, an interactive cmd reading stdin,
// and the state of one cmd: echo, delayed expansion, the running batch
// file, setlocal frames, the pushd stack and FOR variables.

// shell is one cmd.exe.
type shell struct {
	p       *process.Proc
	echoOn  bool
	delay   bool // delayed expansion (!VAR!): cmd /v:on, setlocal
	cmdline string
	// exited: `exit` (or a fatal error) ends cmd with code.
	exited bool
	code   int
	// bat is the batch file (or call :label) that runs; nil: the command
	// line.
	bat *batch
	// fors are the FOR variables in scope.
	fors map[byte]string
	// locals are setlocal's saved environments.
	locals []local
	// dirs is pushd's stack.
	dirs []string
	// envHeld is what the variables set by this cmd hold (process.Grow).
	envHeld int64
}

// Run is `cmd [/S] [/Q] [/D] [/V:ON] /C string`, `cmd /K string` or an
// interactive cmd reading stdin.
func Run(p *process.Proc, argv []string) int {
	line := joinWinArgs(argv[1:])
	s := &shell{p: p, echoOn: true, cmdline: `C:\Windows\system32\cmd.exe ` + line}
	strip, mode := false, ""
	rest := line
	for {
		rest = strings.TrimLeft(rest, " \t")
		if len(rest) < 2 || rest[0] != '/' {
			break
		}
		sw := strings.ToUpper(rest[1:2])
		end := 2
		for end < len(rest) && rest[end] != ' ' && rest[end] != '\t' && rest[end] != '/' && rest[end] != '"' {
			end++
		}
		if sw == "C" || sw == "K" {
			mode, rest = sw, rest[2:]
			break
		}
		switch arg := strings.ToUpper(rest[1:end]); sw {
		case "S":
			strip = true
		case "Q":
			s.echoOn = false
		case "V":
			s.delay = arg != "V:OFF"
		case "E":
			if arg == "E:OFF" {
				p.NotSimulated("cmd /e:off") // extensions stay on
			}
		case "?":
			p.Println("Starts a new instance of the Windows command interpreter")
			p.Println("")
			p.Println("CMD [/A | /U] [/Q] [/D] [/E:ON | /E:OFF] [/F:ON | /F:OFF] [/V:ON | /V:OFF]")
			p.Println("    [[/S] [/C | /K] string]")
			return 0
		}
		rest = rest[end:]
	}
	st := streams{in: p.Stdin, out: p.Stdout, err: p.Stderr}
	if mode == "" {
		return s.interactive(true, st)
	}
	// cmd /c ends with the code of the last command it ran (echo: 0),
	// which is not always ERRORLEVEL (echo leaves that as it was)
	code := s.runLine(cmdStripQuotes(strings.TrimLeft(rest, " \t"), strip, p), st)
	if mode == "K" && !s.exited {
		return s.interactive(false, st)
	}
	if s.exited {
		return s.code
	}
	return code
}

// cmdStripQuotes applies cmd's rule for the text after /C or /K
// (windows-commands/cmd, "Processing of quotation marks"): quotes are kept
// when /S is not given, there are exactly two, no special character
// (&<>()@^|) is between them, there is whitespace between them, and the
// text between them names an executable file; otherwise a leading quote
// and the last quote are removed, text after the last quote kept.
func cmdStripQuotes(s string, forceStrip bool, p *process.Proc) string {
	if !strings.HasPrefix(s, `"`) {
		return s
	}
	if !forceStrip && strings.Count(s, `"`) == 2 {
		end := strings.Index(s[1:], `"`) + 1
		inner := s[1:end]
		if !strings.ContainsAny(inner, "&<>()@^|") && strings.ContainsAny(inner, " \t") && isExecutable(p, inner) {
			return s
		}
	}
	last := strings.LastIndex(s, `"`)
	if last == 0 {
		return s[1:]
	}
	return s[1:last] + s[last+1:]
}

// isExecutable: name is an executable file (by its extension, or a file
// the container has).
func isExecutable(p *process.Proc, name string) bool {
	lower := strings.ToLower(name)
	for _, ext := range []string{".exe", ".com", ".bat", ".cmd"} {
		if strings.HasSuffix(lower, ext) {
			return true
		}
	}
	if p == nil {
		return false
	}
	_, err := p.ReadFile(name)
	return err == nil
}

// interactive reads commands from stdin, as `kubectl exec -i pod -- cmd`;
// a command that reads stdin (set /p, more) reads the lines after it.
func (s *shell) interactive(banner bool, st streams) int {
	p := s.p
	if banner {
		p.Println("Microsoft Windows [Version " + p.OSVersion() + "]")
		p.Println("(c) Microsoft Corporation. All rights reserved.")
	}
	for {
		if s.echoOn {
			p.Println("")
			io.WriteString(p.Stdout, p.Dir+">")
		}
		if p.Done() {
			return p.Killed()
		}
		line, ok := readLine(p.Stdin, maxLine+1)
		if !ok {
			return p.LastExit
		}
		if s.echoOn {
			p.Println(line)
		}
		// a group left open goes on over the next lines ("More? ")
		for len(line) <= maxLine {
			if _, _, open := parse(s.percent(line)); !open {
				break
			}
			if s.echoOn {
				io.WriteString(p.Stdout, "More? ")
			}
			next, ok := readLine(p.Stdin, maxLine+1)
			if !ok {
				break
			}
			if s.echoOn {
				p.Println(next)
			}
			line += "\n" + next
		}
		s.runLine(line, st)
		if s.exited {
			return s.code
		}
		if !s.step() {
			return s.code
		}
	}
}

// runLine expands, parses and runs one command line (not a batch file's).
func (s *shell) runLine(line string, st streams) int {
	text := s.percent(line)
	if len(text) > maxLine {
		io.WriteString(st.err, "The input line is too long.\r\n")
		s.p.LastExit = 1
		return 1
	}
	n, err, _ := parse(text)
	if err != nil {
		io.WriteString(st.err, err.msg+"\r\n")
		s.p.LastExit = err.code
		return err.code
	}
	return s.run(n, st)
}

// stopped: what runs must stop (exit, goto, goto :eof, exit /b).
func (s *shell) stopped() bool {
	return s.exited || (s.bat != nil && (s.bat.done || s.bat.jump != ""))
}

// step counts one unit of work (issue 18: bounded by construction); false
// when the process was stopped, which ends cmd.
func (s *shell) step() bool {
	if s.exited {
		return false
	}
	if err := s.p.Step(); err != nil {
		s.exited, s.code = true, s.p.Killed()
		return false
	}
	return true
}

// grow accounts delta more bytes held (process.Grow); past the process's
// memory, cmd ends: on Windows nothing is OOM-killed (row B5), the
// allocation fails. cmd's text is the system message of
// ERROR_NOT_ENOUGH_MEMORY (8); what cmd does next is our choice (issue
// 18): it ends with exit code 1, as a command that failed.
func (s *shell) grow(delta int64, errw io.Writer) bool {
	if err := s.p.Grow(delta); err != nil {
		io.WriteString(errw, "Not enough memory resources are available to process this command.\r\n")
		s.exited, s.code = true, 1
		s.p.LastExit = 1
		return false
	}
	return true
}

// escapeWinArg quotes an argument the way the container runtime does when
// it turns argv into a Windows command line (syscall.EscapeArg).
func escapeWinArg(s string) string {
	if s == "" {
		return `""`
	}
	if !strings.ContainsAny(s, " \t\"") {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	slashes := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			slashes++
		case '"':
			b.WriteString(strings.Repeat(`\`, slashes+1))
			slashes = 0
		default:
			slashes = 0
		}
		b.WriteByte(c)
	}
	b.WriteString(strings.Repeat(`\`, slashes))
	b.WriteByte('"')
	return b.String()
}

func joinWinArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = escapeWinArg(a)
	}
	return strings.Join(q, " ")
}
