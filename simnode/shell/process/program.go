package process

import (
	"strings"
)

// command is one program of a simulated image: a row of a command table.
type Command struct {
	// name is how the program is called (lower case, no .exe).
	Name    string
	Aliases []string
	// help is the one-line description `help` and `/?` print.
	Help string
	// rows are the spec rows the behaviour implements.
	Rows string
	// run gets argv with argv[0] as called.
	Run func(p *Proc, argv []string) int
}

// Programs finds a program of a simulated image by the name it is called by
// (argv[0]: a path, any case and .exe on Windows).
type Programs interface {
	Lookup(os OS, argv0 string) (*Command, bool)
}

// programName reduces a path to a program name: `C:\Windows\System32\cmd.exe`
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

// isScriptPath is a PowerShell script run by path.
func IsScriptPath(s string) bool { return strings.HasSuffix(strings.ToLower(s), ".ps1") }
