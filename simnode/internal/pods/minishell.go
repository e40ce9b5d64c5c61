package pods

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// MiniShell is the Shell used when none is configured (the rule golden
// tests, and until simnode/shell is wired in): a deterministic stand-in that
// understands the one-line scripts of the e2e tests and the docs' examples:
// `cmd /c ...`, `cmd /S /C "..."`, `powershell -Command ...`, `sh -c ...`
// running echo / Write-Output / Write-Host, whoami, hostname, exit N, with
// %VAR%, $env:VAR and $VAR expanded; anything that loops, sleeps or serves
// keeps running until stopped. An empty argv is the image's default process
// and keeps running too.
type MiniShell struct{}

var _ Shell = MiniShell{}

var (
	miniPercent = regexp.MustCompile(`%([A-Za-z_][A-Za-z0-9_]*)%`)
	miniPSVar   = regexp.MustCompile(`(?i)\$env:([A-Za-z_][A-Za-z0-9_]*)`)
	miniShVar   = regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?`)
	miniSplit   = regexp.MustCompile(`\s*(?:&&|\|\||[;&\n])\s*`)
)

// Run implements Shell.
func (MiniShell) Run(ctx context.Context, env *Env, argv []string, _ io.Reader, stdout, stderr io.Writer) int {
	win := env.OS == "windows"
	nl := "\n"
	if win {
		nl = "\r\n"
	}
	block := func() int {
		if env.Sleep != nil {
			_ = env.Sleep(ctx, 1<<62)
		} else {
			<-ctx.Done()
		}
		if win {
			return 1
		}
		return 143
	}
	if len(argv) == 0 {
		return block()
	}
	prog := miniProgram(argv[0])
	script, kind := "", ""
	switch prog {
	case "cmd":
		for i := 1; i < len(argv); i++ {
			if a := strings.ToLower(argv[i]); a == "/c" || a == "/k" {
				script, kind = strings.Join(argv[i+1:], " "), "cmd"
				break
			}
		}
	case "powershell", "pwsh":
		kind = "ps"
		for i := 1; i < len(argv); i++ {
			a := strings.ToLower(argv[i])
			if a == "-command" || a == "-c" {
				script = strings.Join(argv[i+1:], " ")
				break
			}
			if !strings.HasPrefix(a, "-") {
				script = strings.Join(argv[i:], " ")
				break
			}
		}
	case "sh", "bash", "ash":
		kind = "sh"
		for i := 1; i < len(argv)-1; i++ {
			if argv[i] == "-c" {
				script = argv[i+1]
			}
		}
	default:
		script, kind = strings.Join(argv, " "), "direct"
	}
	script = strings.TrimSpace(script)
	if len(script) >= 2 && script[0] == '"' && script[len(script)-1] == '"' {
		script = script[1 : len(script)-1]
	}
	lookup := func(name string) string {
		for k, v := range env.Vars {
			if k == name || (win && strings.EqualFold(k, name)) {
				return v
			}
		}
		switch strings.ToUpper(name) {
		case "USERNAME":
			if win {
				return env.User
			}
		case "COMPUTERNAME":
			if win {
				return strings.ToUpper(env.Hostname)
			}
		}
		return ""
	}
	expand := func(s string) string {
		switch kind {
		case "cmd":
			return miniPercent.ReplaceAllStringFunc(s, func(m string) string {
				if v := lookup(m[1 : len(m)-1]); v != "" {
					return v
				}
				return m
			})
		case "ps":
			return miniPSVar.ReplaceAllStringFunc(s, func(m string) string { return lookup(m[5:]) })
		case "sh":
			return miniShVar.ReplaceAllStringFunc(s, func(m string) string {
				return lookup(strings.Trim(m, "${}"))
			})
		}
		return s
	}
	code := 0
	for _, stmt := range miniSplit.Split(script, -1) {
		stmt = strings.TrimSpace(stmt)
		if stmt == "" {
			continue
		}
		words := strings.Fields(stmt)
		verb := strings.ToLower(miniProgram(words[0]))
		rest := strings.TrimSpace(stmt[len(words[0]):])
		switch verb {
		case "echo", "write-output", "write-host":
			out := expand(rest)
			if kind != "cmd" {
				out = strings.Trim(out, `"'`)
			}
			fmt.Fprint(stdout, out+nl)
			code = 0
		case "exit":
			n, _ := strconv.Atoi(strings.TrimSpace(strings.Trim(rest, "()")))
			return n
		case "whoami":
			if win {
				fmt.Fprint(stdout, "user manager\\"+strings.ToLower(env.User)+nl)
			} else {
				fmt.Fprint(stdout, env.User+nl)
			}
		case "hostname":
			fmt.Fprint(stdout, env.Hostname+nl)
		case "true", "rem", "#":
			code = 0
		case "false":
			code = 1
		case "sleep", "start-sleep", "timeout", "ping", "while", "for", "pause", "agnhost", "nginx", "tail",
			"serve-hostname", "netexec", "test-webserver":
			if verb == "sleep" || verb == "start-sleep" {
				if d, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(strings.ToLower(rest), "-seconds")), " ")); err == nil && d >= 0 {
					if env.Sleep != nil {
						if env.Sleep(ctx, time.Duration(d)*time.Second) != nil {
							return block()
						}
					}
					continue
				}
			}
			return block()
		default:
			if strings.HasPrefix(verb, "$") || strings.Contains(stmt, "HttpListener") {
				return block()
			}
			switch {
			case win && kind != "ps":
				fmt.Fprintf(stderr, "'%s' is not recognized as an internal or external command,%soperable program or batch file.%s", words[0], nl, nl)
				code = 9009
			case win:
				fmt.Fprintf(stderr, "%s : The term '%s' is not recognized as the name of a cmdlet, function, script file, or operable program.%s", words[0], words[0], nl)
				code = 1
			default:
				fmt.Fprintf(stderr, "sh: %s: not found%s", words[0], nl)
				code = 127
			}
		}
	}
	return code
}

// Found implements Shell: every program is there, and simulated.
func (MiniShell) Found(*Env, []string) (bool, bool) { return true, true }

// Listens implements Shell: agnhost's servers and the docs' HttpListener.
func (MiniShell) Listens(argv []string) []int {
	joined := strings.Join(argv, " ")
	switch {
	case strings.Contains(joined, "serve-hostname"):
		return []int{9376}
	case strings.Contains(joined, "netexec"):
		return []int{8080}
	case strings.Contains(joined, "HttpListener"):
		return []int{80}
	}
	return nil
}

func miniProgram(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if i := strings.LastIndex(p, "/"); i >= 0 {
		p = p[i+1:]
	}
	return strings.TrimSuffix(strings.ToLower(p), ".exe")
}
