package logs

import (
	"strings"
)

// StartupOutput returns the lines a container with this command and args
// plausibly prints right after it starts: for `cmd /c echo X`,
// `cmd /S /C "echo X"`, `sh -c "echo X"`, `powershell -Command Write-Output X`
// or a bare `echo X`, the line X; for anything else nothing (a long-running
// server prints what it prints; the simulated shell of a later issue runs
// real commands).
func StartupOutput(command, args []string) []string {
	argv := append(append([]string(nil), command...), args...)
	if len(argv) == 0 {
		return nil
	}
	script, ok := shellScript(argv)
	if !ok {
		if base(argv[0]) == "echo" {
			return []string{strings.Join(argv[1:], " ")}
		}
		return nil
	}
	// Only the first command of a script; stop at separators.
	for _, sep := range []string{"&&", "||", ";", "&", "|", "\n"} {
		if i := strings.Index(script, sep); i >= 0 {
			script = script[:i]
		}
	}
	script = strings.TrimSpace(script)
	lower := strings.ToLower(script)
	for _, verb := range []string{"echo ", "write-output ", "write-host "} {
		if strings.HasPrefix(lower, verb) {
			return []string{unquote(strings.TrimSpace(script[len(verb):]))}
		}
	}
	return nil
}

func base(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if i := strings.LastIndex(p, "/"); i >= 0 {
		p = p[i+1:]
	}
	return strings.TrimSuffix(strings.ToLower(p), ".exe")
}

// shellScript extracts the script of `cmd /c ...`, `sh -c ...`,
// `powershell -Command ...`.
func shellScript(argv []string) (string, bool) {
	switch base(argv[0]) {
	case "cmd":
		for i := 1; i < len(argv); i++ {
			a := strings.ToLower(argv[i])
			if a == "/s" {
				continue
			}
			if a == "/c" || a == "/k" {
				return unquote(strings.Join(argv[i+1:], " ")), true
			}
			return "", false
		}
	case "sh", "bash", "ash", "dash":
		for i := 1; i < len(argv); i++ {
			if argv[i] == "-c" && i+1 < len(argv) {
				return argv[i+1], true
			}
			if !strings.HasPrefix(argv[i], "-") {
				return "", false
			}
		}
	case "powershell", "pwsh":
		for i := 1; i < len(argv); i++ {
			a := strings.ToLower(argv[i])
			if a == "-command" || a == "-c" {
				return unquote(strings.Join(argv[i+1:], " ")), true
			}
			if !strings.HasPrefix(a, "-") {
				return unquote(strings.Join(argv[i:], " ")), true
			}
		}
	}
	return "", false
}

func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		return s[1 : len(s)-1]
	}
	return s
}
