package programs

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"wink.dev/wink/simnode/shell/process"
)

// This file is the text tools of the e2e images' busybox (Linux, and
// busybox-w32 in C:\bin of the Windows builds, test/images/busybox/
// Dockerfile_windows BUSYBOX_EXES) that upstream's DNS probes use
// (dns_common.go createProbeCommand: `for i in $(seq 1 600)`, on Windows
// `grep 'NAME' C:/Windows/System32/drivers/etc/hosts`), and glibc's getent
// of the Linux images (`getent hosts NAME`). busybox-w32 ends lines with
// "\n" like busybox.

// Seq is busybox seq [-w] [-s SEP] [FIRST [INC]] LAST.
func Seq(p *process.Proc, argv []string) int {
	sep, width := "\n", false
	var nums []string
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-w":
			width = true
		case a == "-s" && i+1 < len(argv):
			i++
			sep = argv[i]
		case strings.HasPrefix(a, "-s") && len(a) > 2:
			sep = a[2:]
		default:
			nums = append(nums, a)
		}
	}
	if len(nums) == 0 || len(nums) > 3 {
		p.Eprintln("BusyBox v1.29 multi-call binary.")
		p.Eprintln("")
		p.Eprintln("Usage: seq [-w] [-s SEP] [FIRST [INC]] LAST")
		return 1
	}
	vals := make([]int64, len(nums))
	for i, n := range nums {
		v, err := strconv.ParseInt(n, 10, 64)
		if err != nil {
			p.Eprintln("seq: invalid number '" + n + "'")
			return 1
		}
		vals[i] = v
	}
	first, inc, last := int64(1), int64(1), vals[len(vals)-1]
	if len(vals) >= 2 {
		first = vals[0]
	}
	if len(vals) == 3 {
		inc = vals[1]
	}
	if inc == 0 {
		return 0
	}
	w := 0
	if width {
		w = max(len(strconv.FormatInt(first, 10)), len(strconv.FormatInt(last, 10)))
	}
	var b strings.Builder
	n := 0
	for v := first; (inc > 0 && v <= last) || (inc < 0 && v >= last); v += inc {
		if n > 0 {
			b.WriteString(sep)
		}
		fmt.Fprintf(&b, "%0*d", w, v)
		n++
		if b.Len() > 1<<16 {
			if _, err := p.Stdout.Write([]byte(b.String())); err != nil {
				return 1
			}
			b.Reset()
		}
		if p.Step() != nil { // issue 18: `seq 1 1000000000` is paced
			return p.Killed()
		}
	}
	if n > 0 {
		b.WriteString("\n")
	}
	p.Stdout.Write([]byte(b.String()))
	return 0
}

// breToGo turns a POSIX basic regular expression into Go syntax: \( \)
// \{ \} \| \+ \? are the operators, their bare forms literal; ^ is an
// anchor only first, $ only last, * literal first (POSIX 9.3.8, 9.3.3).
func breToGo(re string) string {
	var b strings.Builder
	for i := 0; i < len(re); i++ {
		c := re[i]
		switch {
		case c == '$' && i != len(re)-1 && !strings.HasPrefix(re[i+1:], `\)`),
			c == '^' && i != 0 && !strings.HasSuffix(re[:i], `\(`) && re[i-1] != '[',
			c == '*' && (i == 0 || (i == 1 && re[0] == '^')):
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\\' && i+1 < len(re) && strings.IndexByte("(){}|+?", re[i+1]) >= 0:
			b.WriteByte(re[i+1])
			i++
		case c == '\\' && i+1 < len(re):
			b.WriteByte(c)
			b.WriteByte(re[i+1])
			i++
		case strings.IndexByte("(){}|+?", c) >= 0:
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// Grep is busybox grep [-iFEvcqlnxwso] [-e PATTERN]... PATTERN [FILE]...:
// exit 0 when a line matched, 1 when none did, 2 on an error; -o prints
// each match on a line of its own
// (https://pubs.opengroup.org/onlinepubs/9699919799/utilities/grep.html,
// https://www.gnu.org/software/grep/manual/grep.html#index-_002do).
func Grep(p *process.Proc, argv []string) int {
	var patterns, files []string
	var ignoreCase, fixed, extended, invert, count, quiet, list, number, line, word, silent, only bool
	i := 1
	for ; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		if a == "-e" && i+1 < len(argv) {
			i++
			patterns = append(patterns, argv[i])
			continue
		}
		for _, f := range a[1:] {
			switch f {
			case 'i':
				ignoreCase = true
			case 'F':
				fixed = true
			case 'E':
				extended = true
			case 'v':
				invert = true
			case 'c':
				count = true
			case 'q':
				quiet = true
			case 'l':
				list = true
			case 'n':
				number = true
			case 'x':
				line = true
			case 'w':
				word = true
			case 's':
				silent = true
			case 'o':
				only = true
			case 'H', 'h', 'r', 'R':
			default:
				p.Eprintln(fmt.Sprintf("grep: invalid option -- '%c'", f))
				return 2
			}
		}
	}
	switch process.ProgramName(argv[0], p.Win) {
	case "egrep":
		extended = true
	case "fgrep":
		fixed = true
	}
	rest := argv[i:]
	if len(patterns) == 0 {
		if len(rest) == 0 {
			p.Eprintln("BusyBox v1.29 multi-call binary.")
			p.Eprintln("")
			p.Eprintln("Usage: grep [-HhnlLoqvsriwFE] [-m N] [-A/B/C N] PATTERN/-e PATTERN.../-f FILE [FILE]...")
			return 2
		}
		patterns, rest = []string{rest[0]}, rest[1:]
	}
	files = rest
	var res []*regexp.Regexp
	for _, pat := range patterns {
		src := pat
		switch {
		case fixed:
			src = regexp.QuoteMeta(pat)
		case !extended:
			src = breToGo(pat)
		}
		if word {
			src = `\b(?:` + src + `)\b`
		}
		if line {
			src = `^(?:` + src + `)$`
		}
		if ignoreCase {
			src = "(?i)" + src
		}
		re, err := regexp.Compile(src)
		if err != nil {
			p.Eprintln("grep: bad regex '" + pat + "'")
			return 2
		}
		res = append(res, re)
	}
	type input struct {
		name string
		data []byte
	}
	var inputs []input
	code := 1
	if len(files) == 0 {
		inputs = append(inputs, input{"(standard input)", p.ReadStdin()})
	}
	for _, f := range files {
		data, err := p.ReadFile(f)
		if err != nil {
			if !silent {
				p.Eprintln("grep: " + f + ": " + process.PosixFileError(err, false))
			}
			code = 2
			continue
		}
		inputs = append(inputs, input{f, data})
	}
	matchedAny := false
	for _, in := range inputs {
		n, lineNo := 0, 0
		sc := bufio.NewScanner(bytes.NewReader(in.data))
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			lineNo++
			text := sc.Text()
			hit := false
			for _, re := range res {
				if re.MatchString(strings.TrimSuffix(text, "\r")) {
					hit = true
					break
				}
			}
			if hit == invert {
				continue
			}
			n++
			matchedAny = true
			if quiet {
				return 0
			}
			if count || list {
				continue
			}
			prefix := ""
			if len(files) > 1 {
				prefix = in.name + ":"
			}
			if number {
				prefix += strconv.Itoa(lineNo) + ":"
			}
			if !only {
				p.Stdout.Write([]byte(prefix + text + "\n"))
				continue
			}
			if invert {
				continue
			}
			for _, re := range res {
				for _, m := range re.FindAllString(strings.TrimSuffix(text, "\r"), -1) {
					if m != "" {
						p.Stdout.Write([]byte(prefix + m + "\n"))
					}
				}
			}
		}
		switch {
		case count && len(files) > 1:
			p.Stdout.Write([]byte(in.name + ":" + strconv.Itoa(n) + "\n"))
		case count:
			p.Stdout.Write([]byte(strconv.Itoa(n) + "\n"))
		case list && n > 0:
			p.Stdout.Write([]byte(in.name + "\n"))
		}
	}
	if matchedAny && code != 2 {
		return 0
	}
	return code
}

// Getent is glibc's getent (https://man7.org/linux/man-pages/man1/getent.1.html)
// for the hosts database: `getent hosts NAME...` prints "ADDRESS  NAMES"
// from the hosts file, else from DNS (the container's resolver, row H2);
// and for passwd and group, the lines of /etc/passwd and /etc/group whose
// name or ID is the key. Exit 2 when a key is not found.
func Getent(p *process.Proc, argv []string) int {
	if len(argv) < 2 {
		p.Eprintln("Usage: getent [OPTION...] database [key ...]")
		return 1
	}
	if argv[1] == "passwd" || argv[1] == "group" {
		return getentFile(p, "/etc/"+argv[1], argv[2:])
	}
	if argv[1] != "hosts" && argv[1] != "ahosts" && argv[1] != "ahostsv4" {
		p.Eprintln("Unknown database: " + argv[1])
		return 1
	}
	data, _ := p.ReadFile("/etc/hosts")
	if len(argv) == 2 {
		p.Stdout.Write(data)
		return 0
	}
	code := 0
	for _, key := range argv[2:] {
		if l, ok := hostsEntry(data, key); ok {
			p.Println(l)
			continue
		}
		addrs, err := p.Resolve(key)
		if p.Done() {
			return p.Killed()
		}
		if err != nil || len(addrs) == 0 {
			code = 2
			continue
		}
		p.Println(fmt.Sprintf("%-15s %s", addrs[0], p.FQDN(key)))
	}
	return code
}

// getentFile is getent passwd and group: the lines of file (NAME:x:ID:...)
// whose name or ID is a key, or all of them.
func getentFile(p *process.Proc, file string, keys []string) int {
	data, _ := p.ReadFile(file)
	if len(keys) == 0 {
		p.Stdout.Write(data)
		return 0
	}
	code := 0
	for _, key := range keys {
		found := false
		for _, l := range strings.Split(string(data), "\n") {
			f := strings.Split(l, ":")
			if len(f) > 2 && (f[0] == key || f[2] == key) {
				p.Println(l)
				found = true
				break
			}
		}
		if !found {
			code = 2
		}
	}
	return code
}

// hostsEntry is the first hosts-file line naming key, as getent prints it:
// the address padded to 15 columns, then the names.
func hostsEntry(data []byte, key string) (string, bool) {
	for _, l := range strings.Split(string(data), "\n") {
		if i := strings.IndexByte(l, '#'); i >= 0 {
			l = l[:i]
		}
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		for _, n := range f[1:] {
			if strings.EqualFold(n, key) {
				return fmt.Sprintf("%-15s %s", f[0], strings.Join(f[1:], " ")), true
			}
		}
	}
	return "", false
}

// wc, and awk for the one-rule field printing scripts use
// (`wc -l f | awk '{print $1}'`, upstream common/node/runtime.go).

// readInputs reads the named files, or stdin when there are none; the
// name "" stands for stdin. A file that cannot be read is reported with
// the tool's name and skipped.
func readInputs(p *process.Proc, tool string, names []string) (names2 []string, data [][]byte, code int) {
	if len(names) == 0 {
		b := p.ReadStdin()
		return []string{""}, [][]byte{b}, 0
	}
	for _, n := range names {
		if n == "-" {
			b := p.ReadStdin()
			names2, data = append(names2, n), append(data, b)
			continue
		}
		b, err := p.ReadFile(n)
		if err != nil {
			p.Eprintln(fmt.Sprintf("%s: can't open '%s': %s", tool, n, process.PosixFileError(err, false)))
			code = 1
			continue
		}
		names2, data = append(names2, n), append(data, b)
	}
	return names2, data, code
}

// Wc is busybox wc (-l, -w, -c, -m; default lines, words, bytes): one
// count alone is printed unpadded, several in columns of 9 (coreutils/wc.c).
func Wc(p *process.Proc, argv []string) int {
	var kinds []byte // in output order: l, w, m, c
	var names []string
	set := map[byte]bool{}
	for _, a := range argv[1:] {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			for i := 1; i < len(a); i++ {
				if strings.IndexByte("lwcmL", a[i]) < 0 {
					p.Eprintln("wc: invalid option -- '" + a[i:i+1] + "'")
					return 1
				}
				set[a[i]] = true
			}
			continue
		}
		names = append(names, a)
	}
	for _, k := range []byte("lwmc") {
		if set[k] {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		kinds = []byte("lwc")
	}
	names, data, code := readInputs(p, "wc", names)
	totals := map[byte]int{}
	line := func(counts map[byte]int, name string) {
		var b strings.Builder
		for i, k := range kinds {
			switch {
			case len(kinds) == 1:
				fmt.Fprintf(&b, "%d", counts[k])
			case i == 0:
				fmt.Fprintf(&b, "%9d", counts[k])
			default:
				fmt.Fprintf(&b, " %9d", counts[k])
			}
		}
		if name != "" {
			b.WriteString(" " + name)
		}
		p.Println(b.String())
	}
	for i, d := range data {
		s := string(d)
		c := map[byte]int{'l': strings.Count(s, "\n"), 'w': len(strings.Fields(s)), 'c': len(d), 'm': utf8.RuneCount(d)}
		for k, v := range c {
			totals[k] += v
		}
		line(c, names[i])
	}
	if len(data) > 1 {
		line(totals, "total")
	}
	return code
}
