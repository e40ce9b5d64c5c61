package cmd

import (
	"fmt"
	"strconv"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// This file is cmd's expansions: %VAR% when a line is read (phase 1),
// FOR's %v and !VAR! (delayed expansion) when a command runs, batch
// parameters %0..%9 %* and the ~ modifiers, and the edits %VAR:a=b% and
// %VAR:~n,m%. Spec: Microsoft Learn windows-commands/set (substitution,
// substrings, delayed expansion), /call (batch parameters and their
// modifiers), /for (variable modifiers). Row E.

// maxLine is the longest line cmd runs: "the maximum length of the string
// that you can use at the command prompt is 8191 characters" (Microsoft
// Learn, troubleshoot/windows-client/shell-experience/
// command-line-string-limitation); a longer line is "The input line is
// too long." It bounds `set x=%x%%x%` in a loop (issue 18).
const maxLine = 8191

// percent expands %VAR% in a line as it is read. In a batch file (s.bat)
// an undefined variable is empty, %% is %, %0..%9 and %* are its
// parameters; on the command line an undefined variable stays as written.
func (s *shell) percent(line string) string {
	if !strings.Contains(line, "%") {
		return line
	}
	inBatch := s.bat != nil
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if inBatch && i+1 < len(line) {
			next := line[i+1]
			switch {
			case next == '%':
				b.WriteByte('%')
				i++
				continue
			case next >= '0' && next <= '9':
				b.WriteString(s.bat.arg(int(next - '0')))
				i++
				continue
			case next == '*':
				b.WriteString(strings.Join(s.bat.all, " "))
				i++
				continue
			case next == '~':
				if mods, n, ok := argModifiers(line[i+2:]); ok {
					b.WriteString(s.modify(s.bat.modArg(n, mods), mods))
					i += 2 + len(mods)
					continue
				}
			}
		}
		j := strings.IndexByte(line[i+1:], '%')
		if j < 0 {
			if !inBatch {
				b.WriteByte('%')
			}
			continue
		}
		name := line[i+1 : i+1+j]
		if v, ok := s.varRef(name, !inBatch); ok {
			if b.Len()+len(v) > maxLine {
				// too long for cmd: the caller refuses the line
				b.WriteString(v[:maxLine+1-b.Len()])
				return b.String()
			}
			b.WriteString(v)
			i += j + 1
			continue
		}
		if inBatch {
			i += j + 1 // undefined: empty
			continue
		}
		// the command line keeps an undefined %VAR% and goes on at its
		// second percent sign
		b.WriteByte('%')
	}
	return b.String()
}

// argModifiers reads the ~ modifiers of a batch parameter: "dp0" is
// ("dp", 0).
func argModifiers(s string) (mods string, n int, ok bool) {
	j := modifierRun(s)
	if j < len(s) && s[j] >= '0' && s[j] <= '9' {
		return s[:j], int(s[j] - '0'), true
	}
	return "", 0, false
}

// modifierRun is how many bytes of s are ~ modifiers (fdpnxsatz, then
// at most one $VAR:), as batch parameters and FOR variables share them.
func modifierRun(s string) int {
	j := 0
	for j < len(s) && strings.IndexByte("fdpnxsatz", lower(s[j])) >= 0 {
		j++
	}
	if strings.HasPrefix(s[j:], "$") {
		if k := strings.IndexByte(s[j:], ':'); k > 0 {
			j += k + 1
		}
	}
	return j
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// varRef is the value of a %...% reference: a name, or a name with
// :~n,m or :a=b. strict: names with blanks or quotes are not variables
// (the command line, where `% & echo %` must stay as written).
func (s *shell) varRef(ref string, strict bool) (string, bool) {
	if ref == "" {
		return "", false
	}
	name, edit, hasEdit := strings.Cut(ref, ":")
	if strict && strings.ContainsAny(name, " \t\"") {
		return "", false
	}
	v, ok := s.lookup(name)
	if !ok {
		return "", false
	}
	if !hasEdit {
		return v, true
	}
	if strings.HasPrefix(edit, "~") {
		return substring(v, edit[1:])
	}
	from, to, isSub := strings.Cut(edit, "=")
	if !isSub || from == "" || from == "*" {
		return "", false
	}
	if strings.HasPrefix(from, "*") {
		// everything up to and including the first match is replaced
		i := indexFold(v, from[1:])
		if i < 0 {
			return v, true
		}
		return to + v[i+len(from)-1:], true
	}
	return replaceFold(v, from, to), true
}

// substring is %VAR:~n,m%: negative n counts from the end, negative m
// leaves that many off.
func substring(v, spec string) (string, bool) {
	a, bs, hasLen := strings.Cut(spec, ",")
	n, err := parseNumber(strings.TrimSpace(a))
	if err != nil {
		return "", false
	}
	L := int64(len(v))
	if n < 0 {
		n = max(L+n, 0)
	}
	n = min(n, L)
	end := L
	if hasLen {
		m, err := parseNumber(strings.TrimSpace(bs))
		if err != nil {
			return "", false
		}
		if m < 0 {
			end = L + m
		} else {
			end = n + m
		}
		end = min(max(end, n), L)
	}
	return v[n:end], true
}

func indexFold(s, sub string) int {
	return strings.Index(strings.ToLower(s), strings.ToLower(sub))
}

func replaceFold(s, from, to string) string {
	var b strings.Builder
	for {
		i := indexFold(s, from)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(to)
		s = s[i+len(from):]
	}
}

// lookup finds a variable, then cmd's dynamic ones.
func (s *shell) lookup(name string) (string, bool) {
	if v, ok := s.p.Vars.Get(name); ok {
		return v, true
	}
	switch strings.ToUpper(name) {
	case "ERRORLEVEL":
		return strconv.Itoa(s.p.LastExit), true
	case "CD":
		return s.p.Dir, true
	case "DATE":
		return s.p.Now().Format("Mon 01/02/2006"), true
	case "TIME":
		// en-US: the hour padded with a blank, hundredths of a second
		t := s.p.Now()
		return fmt.Sprintf("%2d:%02d:%02d.%02d", t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/1e7), true
	case "RANDOM":
		return strconv.Itoa(int(s.p.Now().UnixNano()/1000) % 32768), true
	case "CMDCMDLINE":
		return s.cmdline, true
	case "CMDEXTVERSION":
		return "2", true
	case "=EXITCODE":
		return fmt.Sprintf("%08X", uint32(s.p.LastExit)), true
	case "__CD__":
		return strings.TrimRight(s.p.Dir, `\`) + `\`, true
	}
	return "", false
}

// delayed expands !VAR! (setlocal EnableDelayedExpansion, cmd /v:on) when
// a command runs: an undefined variable is empty, a lone ! goes, and in a
// text with a ! every ^ escapes the next character.
func (s *shell) delayed(text string) string {
	if !s.delay || !strings.Contains(text, "!") {
		return text
	}
	var b strings.Builder
	g := guard{s: s}
	defer g.release()
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch c {
		case '^':
			if i+1 < len(text) {
				i++
				b.WriteByte(text[i])
			}
		case '!':
			j := strings.IndexByte(text[i+1:], '!')
			if j < 0 {
				i = len(text)
				break
			}
			if v, ok := s.varRef(text[i+1:i+1+j], false); ok {
				if !g.ok(b.Len() + len(v)) {
					return ""
				}
				b.WriteString(v)
			}
			i += j + 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// forVars substitutes the FOR variables in scope (%v, %~fv...) in text.
func (s *shell) forVars(text string) string {
	if len(s.fors) == 0 || !strings.Contains(text, "%") {
		return text
	}
	var b strings.Builder
	g := guard{s: s}
	defer g.release()
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !g.ok(b.Len()) {
			return ""
		}
		if c != '%' || i+1 >= len(text) {
			b.WriteByte(c)
			continue
		}
		if v, ok := s.fors[text[i+1]]; ok {
			b.WriteString(v)
			i++
			continue
		}
		if text[i+1] == '~' {
			if mods, name, n, ok := s.forModifiers(text[i+2:]); ok {
				b.WriteString(s.modify(s.fors[name], mods))
				i += 1 + n
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// forModifiers reads "dpnxI" after %~: the modifiers and the variable (a
// letter that is also a modifier ends the run when a variable of that
// name is in scope). n is how many bytes it took.
func (s *shell) forModifiers(t string) (mods string, name byte, n int, ok bool) {
	j := modifierRun(t)
	for k := j; k >= 0; k-- {
		if k < len(t) {
			if _, in := s.fors[t[k]]; in {
				return t[:k], t[k], k + 1, true
			}
		}
		if k > 0 && t[k-1] == ':' {
			break
		}
	}
	return "", 0, 0, false
}

// modify applies the ~ modifiers of a parameter or FOR variable: ~
// removes quotes; f full path, d drive, p path, n name, x extension, s
// short name (the same here), a attributes, t time, z size, $VAR: the
// first match on the directories of VAR.
func (s *shell) modify(v, mods string) string {
	v = strings.TrimSuffix(strings.TrimPrefix(v, `"`), `"`)
	if mods == "" || v == "" {
		return v
	}
	lm := strings.ToLower(mods)
	if i := strings.IndexByte(lm, '$'); i >= 0 {
		env := mods[i+1 : len(mods)-1]
		lm = lm[:i]
		found := ""
		dirs, _ := s.lookup(env)
		for _, d := range strings.Split(dirs, ";") {
			if d == "" {
				continue
			}
			cand := process.WinJoin(d, v)
			if _, err := s.p.ReadFile(cand); err == nil {
				found = s.p.Path(cand)
				break
			}
		}
		if found == "" {
			return ""
		}
		v = found
		if lm == "" {
			return v
		}
	}
	full := s.p.Path(v)
	var parts []string
	if strings.ContainsAny(lm, "atz") {
		data, ferr := s.p.ReadFile(full)
		_, derr := s.p.ReadDir(full)
		if strings.Contains(lm, "a") {
			switch {
			case derr == nil:
				parts = append(parts, "d----------")
			case ferr == nil:
				parts = append(parts, "--a--------")
			}
		}
		if strings.Contains(lm, "t") && (ferr == nil || derr == nil) {
			parts = append(parts, s.p.Now().Format("01/02/2006 03:04 PM"))
		}
		if strings.Contains(lm, "z") && ferr == nil {
			parts = append(parts, strconv.Itoa(len(data)))
		}
	}
	d, pth, name, ext := splitPath(full)
	var b strings.Builder
	all := strings.Contains(lm, "f") && !strings.ContainsAny(lm, "dpnx")
	if all {
		b.WriteString(full)
	} else {
		if strings.Contains(lm, "d") {
			b.WriteString(d)
		}
		if strings.Contains(lm, "p") {
			b.WriteString(pth)
		}
		if strings.Contains(lm, "n") {
			b.WriteString(name)
		}
		if strings.Contains(lm, "x") {
			b.WriteString(ext)
		}
	}
	if b.Len() > 0 || !strings.ContainsAny(lm, "atz") {
		parts = append(parts, b.String())
	}
	return strings.Join(parts, " ")
}

// splitPath splits C:\a\b\c.txt into C:, \a\b\, c, .txt.
func splitPath(full string) (drive, dir, name, ext string) {
	drive = full[:2]
	rest := full[2:]
	i := strings.LastIndex(rest, `\`)
	dir, file := rest[:i+1], rest[i+1:]
	if j := strings.LastIndexByte(file, '.'); j >= 0 {
		return drive, dir, file[:j], file[j:]
	}
	return drive, dir, file, ""
}

// parseNumber parses a number the way cmd does in IF, FOR /L, /F skip and
// substrings: decimal, 0x hex, 0 octal, with a sign.
func parseNumber(s string) (int64, error) {
	neg := false
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		neg = s[0] == '-'
		s = s[1:]
	}
	base := 10
	switch {
	case strings.HasPrefix(strings.ToLower(s), "0x"):
		base, s = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	n, err := strconv.ParseInt(s, base, 64)
	if err != nil {
		return 0, err
	}
	if neg {
		n = -n
	}
	return n, nil
}

// modArg is parameter n for modifiers mods: %~f0 and %~dp0 are the batch
// file's own path, in a `call :label` too.
func (b *batch) modArg(n int, mods string) string {
	if n == 0 && mods != "" {
		return b.path
	}
	return b.arg(n)
}

// guard accounts a string an expansion builds (process.Grow) once it is
// past 64 KiB: a line of many references to a large variable must not
// outgrow the process's memory (issue 18).
type guard struct {
	s    *shell
	held int64
}

func (g *guard) ok(n int) bool {
	if n <= 1<<16 || int64(n) <= g.held {
		return true
	}
	want := int64(n) * 2
	if !g.s.grow(want-g.held, g.s.p.Stderr) {
		return false
	}
	g.held = want
	return true
}

func (g *guard) release() {
	if g.held > 0 {
		g.s.p.Grow(-g.held)
	}
}
