package programs

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// This file is busybox sed (issue 18; POSIX sed,
// https://pubs.opengroup.org/onlinepubs/9799919799/utilities/sed.html):
// the commands chart scripts use to template configuration files: s///
// (g, p, I, N; & and \1-\9), p, d, q, =, a, i, c, y; addresses N, $,
// /RE/, ranges and !; -n, -e, -E/-r, -i. A command it does not know is
// reported as not simulated and the input passes unchanged.

// sedCmd is one command of a sed script.
type sedCmd struct {
	a1, a2  *sedAddr
	negate  bool
	name    byte
	re      *regexp.Regexp
	repl    string
	global  bool
	nth     int
	print   bool
	text    string
	from    []rune
	to      []rune
	inRange bool
}

// sedAddr is a line number, $ (line -1) or a regular expression.
type sedAddr struct {
	line int
	re   *regexp.Regexp
}

// Sed is busybox sed [-nrE] [-i[SUFFIX]] [-e SCRIPT]... [SCRIPT] [FILE]...
func Sed(p *process.Proc, argv []string) int {
	var scripts, files []string
	quiet, ere, inPlace := false, false, false
	args := argv[1:]
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			args = args[1:]
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		args = args[1:]
		switch {
		case a == "-e" || a == "--expression":
			if len(args) == 0 {
				p.Eprintln("sed: option requires an argument -- 'e'")
				return 1
			}
			scripts, args = append(scripts, args[0]), args[1:]
		case strings.HasPrefix(a, "--expression="):
			scripts = append(scripts, strings.TrimPrefix(a, "--expression="))
		case strings.HasPrefix(a, "-i") || strings.HasPrefix(a, "--in-place"):
			inPlace = true
		case a == "-n" || a == "--quiet" || a == "--silent":
			quiet = true
		case a == "-E" || a == "-r" || a == "--regexp-extended":
			ere = true
		default:
			for _, f := range a[1:] {
				switch f {
				case 'n':
					quiet = true
				case 'E', 'r':
					ere = true
				case 'i':
					inPlace = true
				case 's', 'u', 'z':
				default:
					p.Eprintln(fmt.Sprintf("sed: invalid option -- '%c'", f))
					return 1
				}
			}
		}
	}
	if len(scripts) == 0 {
		if len(args) == 0 {
			p.Eprintln("Usage: sed [-i[SFX]] [-nrE] [-f FILE]... [-e CMD]... [FILE]...")
			return 1
		}
		scripts, args = []string{args[0]}, args[1:]
	}
	files = args
	cmds, err := parseSed(strings.Join(scripts, "\n"), ere)
	if err != nil {
		if unsupported, ok := err.(sedUnsupported); ok {
			p.NotSimulated("sed: " + string(unsupported))
			cmds = nil
		} else {
			p.Eprintln("sed: " + err.Error())
			return 1
		}
	}
	if inPlace {
		if len(files) == 0 {
			p.Eprintln("sed: no file specified for -i")
			return 1
		}
		code := 0
		for _, f := range files {
			data, err := p.ReadFile(f)
			if err != nil {
				p.Eprintln("sed: can't read " + f + ": " + process.PosixFileError(err, false))
				code = 1
				continue
			}
			var out strings.Builder
			sedRun(p, cmds, string(data), quiet, &out)
			if err := p.WriteFile(f, []byte(out.String()), false); err != nil {
				p.Eprintln("sed: can't create " + f + ": " + process.PosixFileError(err, true))
				code = 4
			}
		}
		return code
	}
	_, data, code := readInputs(p, "sed", files)
	var all strings.Builder
	for _, d := range data {
		all.Write(d)
	}
	var out strings.Builder
	sedRun(p, cmds, all.String(), quiet, &out)
	p.Stdout.Write([]byte(out.String()))
	if code != 0 {
		return 2
	}
	return 0
}

// sedUnsupported is a command wink's sed does not run.
type sedUnsupported string

func (e sedUnsupported) Error() string { return "unsupported command " + string(e) }

// sedRun runs cmds over text and writes the output; it reports whether q
// ended the input.
func sedRun(p *process.Proc, cmds []*sedCmd, text string, quiet bool, out *strings.Builder) bool {
	if text == "" {
		return false
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, raw := range lines {
		if p.Step() != nil {
			return false
		}
		line, nl := strings.CutSuffix(raw, "\n")
		last := i == len(lines)-1
		deleted, quit := false, false
		var before, after []string
	cmds:
		for _, c := range cmds {
			if !c.matches(line, i+1, last) {
				continue
			}
			switch c.name {
			case 's':
				n := 0
				changed := false
				line = c.re.ReplaceAllStringFunc(line, func(m string) string {
					n++
					if (c.nth > 0 && n != c.nth) || (!c.global && c.nth == 0 && n > 1) {
						return m
					}
					changed = true
					return sedExpand(c.re, m, c.repl)
				})
				if changed && c.print {
					out.WriteString(line + "\n")
				}
			case 'y':
				line = strings.Map(func(r rune) rune {
					for k, f := range c.from {
						if f == r {
							return c.to[k]
						}
					}
					return r
				}, line)
			case 'p':
				out.WriteString(line + "\n")
			case 'd':
				deleted = true
				break cmds
			case 'q':
				quit = true
				break cmds
			case '=':
				out.WriteString(strconv.Itoa(i+1) + "\n")
			case 'a':
				after = append(after, c.text)
			case 'i':
				before = append(before, c.text)
			case 'c':
				before = append(before, c.text)
				deleted = true
				break cmds
			}
		}
		for _, t := range before {
			out.WriteString(t + "\n")
		}
		if !deleted && !quiet {
			out.WriteString(line)
			if nl || len(after) > 0 {
				out.WriteString("\n")
			}
		}
		for _, t := range after {
			out.WriteString(t + "\n")
		}
		if quit {
			return true
		}
	}
	return false
}

// matches reports whether line n (last: the input's last) is selected.
func (c *sedCmd) matches(line string, n int, last bool) bool {
	hit := func(a *sedAddr) bool {
		switch {
		case a.re != nil:
			return a.re.MatchString(line)
		case a.line == -1:
			return last
		}
		return a.line == n
	}
	var ok bool
	switch {
	case c.a1 == nil:
		ok = true
	case c.a2 == nil:
		ok = hit(c.a1)
	case c.inRange:
		ok = true
		if hit(c.a2) || (c.a2.re == nil && c.a2.line != -1 && n >= c.a2.line) {
			c.inRange = false
		}
	case hit(c.a1):
		ok = true
		c.inRange = !(c.a2.re == nil && c.a2.line != -1 && c.a2.line <= n)
	}
	return ok != c.negate
}

// sedExpand is the replacement of m: & the match, \1-\9 its groups, \n a
// newline.
func sedExpand(re *regexp.Regexp, m, repl string) string {
	sub := re.FindStringSubmatch(m)
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		switch {
		case c == '&':
			b.WriteString(m)
		case c == '\\' && i+1 < len(repl):
			i++
			d := repl[i]
			switch {
			case d >= '0' && d <= '9':
				if k := int(d - '0'); k < len(sub) {
					b.WriteString(sub[k])
				}
			case d == 'n':
				b.WriteByte('\n')
			case d == 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(d)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// parseSed parses a script: commands separated by ; or newlines.
func parseSed(src string, ere bool) ([]*sedCmd, error) {
	var cmds []*sedCmd
	i := 0
	compile := func(re string, icase bool) (*regexp.Regexp, error) {
		if !ere {
			re = breToGo(re)
		}
		if icase {
			re = "(?i)" + re
		}
		r, err := regexp.Compile(re)
		if err != nil {
			return nil, fmt.Errorf("bad regex '%s': %v", re, err)
		}
		r.Longest()
		return r, nil
	}
	// delimited reads up to the unescaped delimiter d.
	delimited := func(d byte) (string, bool) {
		var b strings.Builder
		for ; i < len(src); i++ {
			c := src[i]
			if c == '\\' && i+1 < len(src) {
				if src[i+1] == d {
					b.WriteByte(d)
				} else {
					b.WriteByte(c)
					b.WriteByte(src[i+1])
				}
				i++
				continue
			}
			if c == d {
				i++
				return b.String(), true
			}
			if c == '\n' && d != '\n' {
				return "", false
			}
			b.WriteByte(c)
		}
		return "", false
	}
	addr := func() (*sedAddr, error) {
		switch {
		case i < len(src) && src[i] == '$':
			i++
			return &sedAddr{line: -1}, nil
		case i < len(src) && src[i] >= '0' && src[i] <= '9':
			j := i
			for i < len(src) && src[i] >= '0' && src[i] <= '9' {
				i++
			}
			n, _ := strconv.Atoi(src[j:i])
			return &sedAddr{line: n}, nil
		case i < len(src) && (src[i] == '/' || src[i] == '\\'):
			d := byte('/')
			if src[i] == '\\' && i+1 < len(src) {
				i++
				d = src[i]
			}
			i++
			pat, ok := delimited(d)
			if !ok {
				return nil, fmt.Errorf("unterminated address regex")
			}
			icase := i < len(src) && src[i] == 'I'
			if icase {
				i++
			}
			re, err := compile(pat, icase)
			return &sedAddr{re: re}, err
		}
		return nil, nil
	}
	for i < len(src) {
		for i < len(src) && strings.IndexByte(" \t\n;", src[i]) >= 0 {
			i++
		}
		if i >= len(src) {
			break
		}
		if src[i] == '#' {
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		}
		c := &sedCmd{}
		var err error
		if c.a1, err = addr(); err != nil {
			return nil, err
		}
		if c.a1 != nil && i < len(src) && src[i] == ',' {
			i++
			if c.a2, err = addr(); err != nil {
				return nil, err
			}
		}
		for i < len(src) && src[i] == ' ' {
			i++
		}
		if i < len(src) && src[i] == '!' {
			c.negate = true
			i++
		}
		if i >= len(src) {
			return nil, fmt.Errorf("missing command")
		}
		c.name = src[i]
		i++
		switch c.name {
		case 's':
			if i >= len(src) {
				return nil, fmt.Errorf("unterminated `s' command")
			}
			d := src[i]
			i++
			pat, ok1 := delimited(d)
			repl, ok2 := delimited(d)
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("unterminated `s' command")
			}
			icase := false
		flags:
			for i < len(src) {
				switch f := src[i]; {
				case f == 'g':
					c.global = true
				case f == 'p':
					c.print = true
				case f == 'I' || f == 'i':
					icase = true
				case f >= '0' && f <= '9':
					c.nth = c.nth*10 + int(f-'0')
				case f == 'w' || f == 'e' || f == 'm' || f == 'M':
					return nil, sedUnsupported("s///" + string(f))
				default:
					break flags
				}
				i++
			}
			if c.re, err = compile(pat, icase); err != nil {
				return nil, err
			}
			c.repl = repl
		case 'y':
			d := src[i]
			i++
			from, ok1 := delimited(d)
			to, ok2 := delimited(d)
			c.from, c.to = []rune(sedUnescape(from)), []rune(sedUnescape(to))
			if !ok1 || !ok2 || len(c.from) != len(c.to) {
				return nil, fmt.Errorf("strings for `y' command are different lengths")
			}
		case 'p', 'd', 'q', '=':
		case 'a', 'i', 'c':
			// GNU one-liners `a text`, `a\text` and POSIX `a\` newline text
			if i < len(src) && src[i] == '\\' {
				i++
			}
			if i < len(src) && src[i] == '\n' {
				i++
			}
			for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
				i++
			}
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			c.text = sedUnescape(src[i : i+j])
			i += j
		case '}', '{':
			return nil, sedUnsupported("{}")
		default:
			return nil, sedUnsupported(string(c.name))
		}
		cmds = append(cmds, c)
	}
	return cmds, nil
}

// sedUnescape turns \n, \t and \\ of text and y strings into characters.
func sedUnescape(s string) string {
	return strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`).Replace(s)
}
