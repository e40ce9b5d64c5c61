package process

import (
	"strings"
)

// Command is one program of a simulated image: a row of a command table.
type Command struct {
	// Name is how the program is called (lower case, no .exe).
	Name    string
	Aliases []string
	// Help is the one-line description `help` and `/?` print.
	Help string
	// Rows are the spec rows the behaviour implements.
	Rows string
	// Run gets argv with argv[0] as called.
	Run func(p *Proc, argv []string) int
}

// Programs finds a program of a simulated image by the name it is called by
// (argv[0]: a path, any case and .exe on Windows).
type Programs interface {
	Lookup(os OS, argv0 string) (*Command, bool)
}

// ProgramName reduces a path to a program name: `C:\Windows\System32\cmd.exe`
// and `System32/CMD.EXE` are "cmd"; `/usr/bin/sh` is "sh".
func ProgramName(s string, win bool) string {
	if i := strings.LastIndexAny(s, `/\`); i >= 0 && (win || !strings.Contains(s[i:], `\`)) {
		s = s[i+1:]
	}
	if win {
		s = strings.ToLower(s)
		for _, ext := range []string{".exe", ".com"} {
			s = strings.TrimSuffix(s, ext)
		}
	}
	return s
}

// IsScriptPath is a PowerShell script run by path.
func IsScriptPath(s string) bool { return strings.HasSuffix(strings.ToLower(s), ".ps1") }

// IsBatchPath is a cmd batch file (.bat, .cmd) run by path.
func IsBatchPath(s string) bool {
	l := strings.ToLower(s)
	return strings.HasSuffix(l, ".bat") || strings.HasSuffix(l, ".cmd")
}
