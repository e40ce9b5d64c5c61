package cmd

import (
	"io"
	"strconv"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// forRun is FOR (windows-commands/for): a set of strings and wildcards,
// /d directories, /r a directory tree, /l a count, /f the lines of files,
// a string or a command's output, split by "eol= skip= delims= tokens=
// usebackq". Every iteration is a step (issue 18).
func (s *shell) forRun(n *forNode, st streams) int {
	set := s.delayed(s.forVars(n.set))
	c := s.proc(st)
	saved := s.fors
	defer func() { s.fors = saved }()
	code := 0
	each := func(vals map[byte]string) bool {
		if !s.step() {
			return false
		}
		m := make(map[byte]string, len(saved)+len(vals))
		for k, v := range saved {
			m[k] = v
		}
		for k, v := range vals {
			m[k] = v
		}
		s.fors = m
		code = s.run(n.body, st)
		return !s.stopped()
	}
	one := func(v string) bool { return each(map[byte]string{n.varName: v}) }
	switch n.mode {
	case 'l':
		f := strings.FieldsFunc(set, func(r rune) bool { return strings.ContainsRune(" \t,;=", r) })
		var num [3]int64
		num[1] = 1
		for i := 0; i < 3 && i < len(f); i++ {
			num[i], _ = parseNumber(f[i])
		}
		start, step, end := num[0], num[1], num[2]
		for i := start; (step >= 0 && i <= end) || (step < 0 && i >= end); i += step {
			if !one(strconv.FormatInt(i, 10)) {
				break
			}
		}
	case 'f':
		return s.forF(n, set, st, each)
	case 'r':
		root := n.root
		if root == "" {
			root = s.p.Dir
		}
		for _, dir := range walkDirs(c, root) {
			for _, item := range setItems(set) {
				if !s.forItem(c, item, dir, n.dirs, one) {
					return code
				}
			}
		}
	default:
		for _, item := range setItems(set) {
			if !s.forItem(c, item, "", n.dirs, one) {
				return code
			}
		}
	}
	return code
}

// forItem runs the body for one item of a set: the matches of a wildcard
// (directories with /d), or the item itself; in dir for /r.
func (s *shell) forItem(c *process.Proc, item, dir string, dirs bool, one func(string) bool) bool {
	if dir != "" {
		if !hasWild(item) && !dirs {
			return one(process.WinJoin(dir, strings.Trim(item, `"`)))
		}
		item = process.WinJoin(dir, item)
	}
	if !hasWild(item) {
		return one(item)
	}
	quoted := strings.HasPrefix(item, `"`)
	pattern := strings.Trim(item, `"`)
	// the matches keep the pattern's directory as written
	prefix := ""
	if i := strings.LastIndexAny(pattern, `\/`); i >= 0 {
		prefix = pattern[:i+1]
	}
	for _, m := range glob(c, pattern, dirs) {
		if !s.forMatch(m, prefix, quoted, dir != "", one) {
			return false
		}
	}
	return true
}

func (s *shell) forMatch(full, prefix string, quoted, abs bool, one func(string) bool) bool {
	v := prefix + process.BaseName(full)
	if abs {
		v = full
	}
	if quoted {
		v = `"` + v + `"`
	}
	return one(v)
}

// setItems splits a FOR set at blanks, commas, semicolons and = outside
// quotes.
func setItems(set string) []string { return splitBatchArgs(set) }

// forOptions are FOR /F's options.
type forOptions struct {
	eol      byte
	skip     int
	delims   string
	tokens   []int // 1-based, ascending
	star     bool  // the rest of the line after the last token
	backq    bool
	badToken bool
}

var optionWords = []string{"eol=", "skip=", "delims=", "tokens=", "usebackq"}

func parseForOptions(s string) (forOptions, bool) {
	o := forOptions{eol: ';', delims: " \t", tokens: []int{1}}
	for s = strings.TrimLeft(s, " \t"); s != ""; s = strings.TrimLeft(s, " \t") {
		ls := strings.ToLower(s)
		kw := ""
		for _, w := range optionWords {
			if strings.HasPrefix(ls, w) {
				kw = w
			}
		}
		if kw == "" {
			return o, false
		}
		s = s[len(kw):]
		// a value ends at the blank before the next option (delims= may
		// hold blanks at the end of the options)
		end := len(s)
		for _, w := range optionWords {
			if i := strings.Index(strings.ToLower(s), " "+w); i >= 0 && i < end {
				end = i
			}
		}
		val := s[:end]
		s = s[end:]
		switch kw {
		case "usebackq":
			o.backq = true
		case "eol=":
			o.eol = 0
			if val != "" {
				o.eol = val[0]
			}
		case "skip=":
			n, err := parseNumber(strings.TrimSpace(val))
			if err != nil || n < 0 {
				return o, false
			}
			o.skip = int(n)
		case "delims=":
			o.delims = val
		case "tokens=":
			o.tokens, o.star = nil, false
			val = strings.TrimSpace(val)
			if strings.HasSuffix(val, "*") {
				o.star, val = true, strings.TrimSuffix(val, "*")
			}
			for _, part := range strings.Split(strings.TrimSuffix(val, ","), ",") {
				if part == "" {
					continue
				}
				a, b, isRange := strings.Cut(part, "-")
				x, err := strconv.Atoi(a)
				y := x
				if isRange {
					y, err = strconv.Atoi(b)
				}
				if err != nil || x < 1 || y > 31 || y < x {
					return o, false
				}
				for t := x; t <= y; t++ {
					o.tokens = append(o.tokens, t)
				}
			}
		}
	}
	return o, true
}

// forF is FOR /F.
func (s *shell) forF(n *forNode, set string, st streams, each func(map[byte]string) bool) int {
	c := s.proc(st)
	opts, ok := parseForOptions(n.options)
	if !ok {
		c.Eprintln(strings.TrimSpace(n.options) + `" was unexpected at this time.`)
		return 255
	}
	src := strings.TrimSpace(set)
	cmdQ, strQ := byte('\''), byte('"')
	if opts.backq {
		cmdQ, strQ = '`', '\''
	}
	var text string
	switch {
	case len(src) >= 2 && src[0] == cmdQ && src[len(src)-1] == cmdQ:
		text = s.forCommand(src[1:len(src)-1], st)
		if s.exited {
			return s.code
		}
	case len(src) >= 2 && src[0] == strQ && src[len(src)-1] == strQ:
		text = src[1 : len(src)-1]
	default:
		var b strings.Builder
		for _, f := range splitBatchArgs(src) {
			f = strings.Trim(f, `"`)
			data, err := c.ReadFile(f)
			if err != nil {
				c.Eprintln("The system cannot find the file " + f + ".")
				return 1
			}
			b.Write(data)
			if len(data) > 0 && data[len(data)-1] != '\n' {
				b.WriteByte('\n')
			}
		}
		text = b.String()
	}
	skip := opts.skip
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		vals := splitTokens(line, opts, n.varName)
		if vals == nil {
			continue
		}
		if !each(vals) {
			break
		}
	}
	return 0
}

// splitTokens is one line's FOR /F variables: nil when the line is
// skipped (an eol line, no token).
func splitTokens(line string, o forOptions, first byte) map[byte]string {
	isDelim := func(c byte) bool { return strings.IndexByte(o.delims, c) >= 0 }
	i := 0
	for i < len(line) && isDelim(line[i]) {
		i++
	}
	if i < len(line) && o.eol != 0 && line[i] == o.eol {
		return nil
	}
	type span struct{ from, to int }
	var toks []span
	for i < len(line) && len(toks) < 32 {
		j := i
		for j < len(line) && !isDelim(line[j]) {
			j++
		}
		toks = append(toks, span{i, j})
		for j < len(line) && isDelim(line[j]) {
			j++
		}
		i = j
	}
	vals := map[byte]string{}
	v := first
	last := 0
	for _, t := range o.tokens {
		if t <= len(toks) {
			vals[v] = line[toks[t-1].from:toks[t-1].to]
		}
		last = t
		v++
	}
	if o.star {
		if last < len(toks) {
			vals[v] = line[toks[last].from:]
		}
	}
	if len(vals) == 0 {
		return nil
	}
	return vals
}

// forCommand runs FOR /F's ('command') in a cmd of its own (cmd /c) and
// returns its output, bounded.
func (s *shell) forCommand(text string, st streams) string {
	buf := &process.LimitedBuffer{Max: pipeMax}
	sub := &shell{p: s.p.Sub(strings.NewReader(""), buf, st.err), echoOn: true, cmdline: s.cmdline}
	sub.runLine(text, streams{in: strings.NewReader(""), out: buf, err: st.err})
	if sub.exited && s.p.Done() {
		s.exited, s.code = true, s.p.Killed()
	}
	if !s.grow(int64(buf.Len()), st.err) {
		return ""
	}
	s.p.Grow(-int64(buf.Len()))
	return buf.String()
}

var _ io.Writer
