package windows

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// This file is the System32 programs Windows charts' cmd scripts run
// besides cmd's internal commands: findstr.exe, find.exe, xcopy.exe and
// robocopy.exe, each as its page of Microsoft Learn's "Windows commands"
// reference describes it (learn.microsoft.com/windows-server/
// administration/windows-commands/<name>). Row E, issue 18.

// winSwitches splits Windows-style arguments into switches (lower case,
// without the slash, "c:text" kept whole) and operands.
func winSwitches(args []string) (sw []string, ops []string) {
	for _, a := range args {
		if len(a) > 1 && a[0] == '/' {
			sw = append(sw, strings.ToLower(a[1:2])+a[2:])
			continue
		}
		ops = append(ops, a)
	}
	return sw, ops
}

// winInputs reads the named files (wildcards allowed) or stdin.
func winInputs(p *process.Proc, names []string) (files []string, data [][]byte, missing []string) {
	if len(names) == 0 {
		return []string{""}, [][]byte{p.ReadStdin()}, nil
	}
	for _, n := range names {
		matches := []string{n}
		if strings.ContainsAny(n, "*?") {
			matches = wildFiles(p, n)
		}
		for _, m := range matches {
			b, err := p.ReadFile(m)
			if err != nil {
				missing = append(missing, m)
				continue
			}
			files = append(files, m)
			data = append(data, b)
		}
	}
	return files, data, missing
}

// wildFiles lists the files a wildcard matches, as the pattern names them.
func wildFiles(p *process.Proc, pattern string) []string {
	dir, base := "", pattern
	if i := strings.LastIndexAny(pattern, `\/`); i >= 0 {
		dir, base = pattern[:i+1], pattern[i+1:]
	}
	ents, err := p.ReadDir(dir)
	if dir == "" {
		ents, err = p.ReadDir(".")
	}
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() && wildMatch(base, e.Name()) {
			out = append(out, dir+e.Name())
		}
	}
	return out
}

func wildMatch(pattern, name string) bool {
	if pattern == "*.*" || pattern == "*" {
		return true
	}
	var b strings.Builder
	b.WriteString("(?i)^")
	for _, r := range pattern {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	ok, _ := regexp.MatchString(b.String(), name)
	return ok
}

// winLines splits text into lines without their line endings (CRLF or LF).
func winLines(b []byte) []string {
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// findstrRE turns a findstr regular expression (. * ^ $ [class] \< \>,
// \x escapes) into Go's.
func findstrRE(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case '<', '>':
				b.WriteString(`\b`)
			default:
				b.WriteString(regexp.QuoteMeta(s[i : i+1]))
			}
		case c == '[':
			j := strings.IndexByte(s[i:], ']')
			if j < 0 {
				b.WriteString(`\[`)
				continue
			}
			b.WriteString(s[i : i+j+1])
			i += j
		case strings.IndexByte(".*^$", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteString(regexp.QuoteMeta(s[i : i+1]))
		}
	}
	return b.String()
}

// Findstr is findstr.exe: /i /v /n /m /x /b /e /l /r /c:string /s;
// without /c: the space-separated words are alternatives, regular
// expressions unless /l. Exit 0 when a line matched, 1 when none, 2 on
// an error.
func Findstr(p *process.Proc, argv []string) int {
	sw, ops := winSwitches(argv[1:])
	var fold, invert, number, names, whole, begin, end, literal bool
	var pats []string
	for _, s := range sw {
		switch {
		case strings.HasPrefix(s, "c:"):
			pats = append(pats, s[2:])
			literal = literal || !strings.Contains(strings.Join(sw, " "), "r")
		case strings.HasPrefix(s, "g:") || strings.HasPrefix(s, "f:") || strings.HasPrefix(s, "d:") || strings.HasPrefix(s, "a:"):
			p.NotSimulated("findstr /" + s[:1])
		default:
			for _, r := range s {
				switch r {
				case 'i':
					fold = true
				case 'v':
					invert = true
				case 'n':
					number = true
				case 'm':
					names = true
				case 'x':
					whole = true
				case 'b':
					begin = true
				case 'e':
					end = true
				case 'l':
					literal = true
				case 'r':
					literal = false
				}
			}
		}
	}
	if len(pats) == 0 {
		if len(ops) == 0 {
			p.Eprintln("FINDSTR: Bad command line")
			return 2
		}
		pats = strings.Fields(ops[0])
		ops = ops[1:]
	}
	var res []*regexp.Regexp
	for _, pat := range pats {
		expr := regexp.QuoteMeta(pat)
		if !literal {
			expr = findstrRE(pat)
		}
		if whole || (begin && end) {
			expr = "^(?:" + expr + ")$"
		} else if begin {
			expr = "^(?:" + expr + ")"
		} else if end {
			expr = "(?:" + expr + ")$"
		}
		if fold {
			expr = "(?i)" + expr
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			re = regexp.MustCompile(regexp.QuoteMeta(pat))
		}
		res = append(res, re)
	}
	files, data, missing := winInputs(p, ops)
	for _, m := range missing {
		p.Eprintln("FINDSTR: Cannot open " + m)
	}
	found := false
	for i, b := range data {
		prefix := ""
		if len(files) > 1 {
			prefix = files[i] + ":"
		}
		for n, line := range winLines(b) {
			if p.Step() != nil {
				return p.Killed()
			}
			hit := false
			for _, re := range res {
				if re.MatchString(line) {
					hit = true
					break
				}
			}
			if hit == invert {
				continue
			}
			found = true
			if names {
				p.Println(files[i])
				break
			}
			num := ""
			if number {
				num = fmt.Sprintf("%d:", n+1)
			}
			p.Println(prefix + num + line)
		}
	}
	if len(missing) > 0 && !found {
		return 1
	}
	if found {
		return 0
	}
	return 1
}

// Find is find.exe: find [/v] [/c] [/n] [/i] "string" [files]. Exit 0
// when a line matched, 1 when none, 2 when a file is missing.
func Find(p *process.Proc, argv []string) int {
	sw, ops := winSwitches(argv[1:])
	var invert, count, number, fold bool
	for _, s := range sw {
		switch s {
		case "v":
			invert = true
		case "c":
			count = true
		case "n":
			number = true
		case "i":
			fold = true
		case "off", "offline":
		default:
			p.Eprintln("FIND: Invalid switch")
			return 2
		}
	}
	if len(ops) == 0 {
		p.Eprintln("FIND: Parameter format not correct")
		return 2
	}
	needle := ops[0]
	match := func(line string) bool {
		if fold {
			return strings.Contains(strings.ToLower(line), strings.ToLower(needle))
		}
		return strings.Contains(line, needle)
	}
	files, data, missing := winInputs(p, ops[1:])
	for _, m := range missing {
		p.Eprintln("File not found - " + strings.ToUpper(process.BaseName(m)))
	}
	found := false
	for i, b := range data {
		if files[i] != "" {
			p.Println("")
			if !count {
				p.Println("---------- " + strings.ToUpper(files[i]))
			}
		}
		n := 0
		for k, line := range winLines(b) {
			if match(line) == invert {
				continue
			}
			n++
			found = true
			if count {
				continue
			}
			if number {
				p.Println(fmt.Sprintf("[%d]%s", k+1, line))
			} else {
				p.Println(line)
			}
		}
		if count {
			if files[i] != "" {
				p.Println(fmt.Sprintf("---------- %s: %d", strings.ToUpper(files[i]), n))
			} else {
				p.Println(fmt.Sprint(n))
			}
		}
	}
	switch {
	case len(missing) > 0:
		return 2
	case found:
		return 0
	}
	return 1
}

// treeFiles lists the files under dir (relative paths), subdirectories
// too when deep; and the directories (relative) it walked.
func treeFiles(p *process.Proc, dir string, deep bool) (files, dirs []string) {
	queue := []string{""}
	for len(queue) > 0 && len(files)+len(dirs) < 100000 {
		if p.Step() != nil {
			break
		}
		rel := queue[0]
		queue = queue[1:]
		full := strings.TrimRight(dir, `\`)
		if rel != "" {
			full += `\` + rel
		}
		ents, err := p.ReadDir(full)
		if err != nil {
			continue
		}
		names := make([]string, 0, len(ents))
		for _, e := range ents {
			name := e.Name()
			if rel != "" {
				name = rel + `\` + name
			}
			if e.IsDir() {
				if deep {
					dirs = append(dirs, name)
					queue = append(queue, name)
				}
				continue
			}
			names = append(names, name)
		}
		sort.Strings(names)
		files = append(files, names...)
	}
	return files, dirs
}

// mkdirs creates a directory (process.Mkdirer); false when it cannot.
func mkdirs(p *process.Proc, dir string) error { return p.MkdirAll(dir) }

// Xcopy is xcopy.exe source [destination] [/s /e /i /y /q /f /h /r /k
// /c]: the files of source (a file, a wildcard or a directory) copied,
// each name printed, then "N File(s) copied". A destination that does not
// exist is a directory with /i or when several files are copied. Exit 0;
// 1 when no file was found; 4 on an initialisation error; 5 on a write
// error.
func Xcopy(p *process.Proc, argv []string) int {
	sw, ops := winSwitches(argv[1:])
	has := func(s string) bool {
		for _, x := range sw {
			if x == s || strings.HasPrefix(x, s+":") {
				return true
			}
		}
		return false
	}
	if len(ops) == 0 {
		p.Eprintln("Invalid number of parameters")
		return 4
	}
	src, dst := ops[0], "."
	if len(ops) > 1 {
		dst = ops[1]
	}
	srcFull := p.Path(src)
	var rel []string
	base := srcFull
	var dirs []string
	switch {
	case strings.ContainsAny(src, "*?"):
		base = process.ParentDir(srcFull)
		for _, f := range wildFiles(p, src) {
			rel = append(rel, process.BaseName(f))
		}
	default:
		if _, err := p.ReadDir(srcFull); err == nil {
			rel, dirs = treeFiles(p, srcFull, has("s") || has("e"))
		} else if _, err := p.ReadFile(srcFull); err == nil {
			base = process.ParentDir(srcFull)
			rel = []string{process.BaseName(srcFull)}
		} else {
			p.Eprintln("File not found - " + process.BaseName(srcFull))
			p.Println("0 File(s) copied")
			return 4
		}
	}
	dstFull := p.Path(dst)
	_, derr := p.ReadDir(dstFull)
	toDir := derr == nil || has("i") || len(rel) > 1 || strings.HasSuffix(dst, `\`)
	if derr != nil && !toDir {
		_, ferr := p.ReadFile(dstFull)
		if ferr != nil && !has("i") {
			// xcopy asks "Does X specify a file name or directory name on
			// the target (F = file, D = directory)?": the answer is read
			// from stdin
			p.Printf("Does %s specify a file name\nor directory name on the target\n(F = file, D = directory)? ", dst)
			ans := make([]byte, 1)
			n, _ := p.Stdin.Read(ans)
			if n == 1 && (ans[0] == 'd' || ans[0] == 'D') {
				toDir = true
			}
			p.Println(string(bytes.ToUpper(ans[:n])))
		}
	}
	if toDir {
		if err := mkdirs(p, dstFull); err != nil {
			p.Eprintln(process.CmdFileError(err, true))
			return 4
		}
		if has("e") {
			for _, d := range dirs {
				_ = mkdirs(p, dstFull+`\`+d)
			}
		}
	}
	copied := 0
	for _, r := range rel {
		from := process.WinJoin(base, r)
		to := dstFull
		if toDir {
			to = process.WinJoin(dstFull, r)
		}
		data, err := p.ReadFile(from)
		if err != nil {
			continue
		}
		if _, err := p.ReadFile(to); err == nil && !has("y") && !has("-y") {
			// overwriting asks "Overwrite X (Yes/No/All)?": the answer
			// comes from stdin; none is No
			p.Printf("Overwrite %s (Yes/No/All)? ", to)
			ans := make([]byte, 1)
			if n, _ := p.Stdin.Read(ans); n == 0 || (ans[0] != 'y' && ans[0] != 'Y' && ans[0] != 'a' && ans[0] != 'A') {
				p.Println("")
				continue
			}
			p.Println("")
		}
		if i := strings.LastIndex(to, `\`); i > 2 {
			_ = mkdirs(p, to[:i])
		}
		if err := p.WriteFile(to, data, false); err != nil {
			p.Eprintln(process.CmdFileError(err, true))
			return 5
		}
		if !has("q") {
			if has("f") {
				p.Println(from + " -> " + to)
			} else {
				p.Println(strings.TrimRight(src, `\`) + strings.TrimPrefix(from, strings.TrimRight(srcFull, `\`)))
			}
		}
		copied++
	}
	p.Printf("%d File(s) copied\n", copied)
	if len(rel) == 0 {
		return 1
	}
	return 0
}

// Robocopy is robocopy.exe source destination [files...] [options]:
// /s /e /mir copy subdirectories (/mir also removes what the source does
// not have), /xf /xd exclude, /njh /njs /nfl /ndl /np /ns /nc quiet the
// log; /r: /w: /mt /copy: and the like are accepted. Its exit code is a
// bit mask (windows-commands/robocopy "Exit (return) codes"): 0 nothing
// copied, 1 files copied, 2 extra files in the destination, 8 copies
// failed, 16 a fatal error (no source).
func Robocopy(p *process.Proc, argv []string) int {
	sw, ops := winSwitches(argv[1:])
	opt := map[string]bool{}
	var xf, xd []string
	for i := 0; i < len(sw); i++ {
		s := strings.ToLower(sw[i])
		name, _, _ := strings.Cut(s, ":")
		opt[name] = true
	}
	// /xf and /xd take the operands after them
	var rest []string
	mode := ""
	for _, a := range argv[1:] {
		la := strings.ToLower(a)
		switch {
		case la == "/xf" || la == "/xd":
			mode = la
		case strings.HasPrefix(a, "/"):
			mode = ""
		case mode == "/xf":
			xf = append(xf, a)
		case mode == "/xd":
			xd = append(xd, a)
		default:
			rest = append(rest, a)
		}
	}
	ops = rest
	if len(ops) < 2 {
		p.Println("")
		p.Println("-------------------------------------------------------------------------------")
		p.Println("   ROBOCOPY     ::     Robust File Copy for Windows")
		p.Println("-------------------------------------------------------------------------------")
		p.Println("")
		p.Println("ERROR : Invalid Parameter #1 : \"" + strings.Join(argv[1:], " ") + "\"")
		return 16
	}
	src, dst := p.Path(ops[0]), p.Path(ops[1])
	filters := ops[2:]
	if len(filters) == 0 {
		filters = []string{"*.*"}
	}
	header := !opt["njh"]
	if header {
		p.Println("")
		p.Println("-------------------------------------------------------------------------------")
		p.Println("   ROBOCOPY     ::     Robust File Copy for Windows")
		p.Println("-------------------------------------------------------------------------------")
		p.Println("")
		p.Println("  Source : " + strings.TrimRight(src, `\`) + `\`)
		p.Println("    Dest : " + strings.TrimRight(dst, `\`) + `\`)
		p.Println("")
		p.Println("   Files : " + strings.Join(filters, " "))
		p.Println("")
		p.Println("-------------------------------------------------------------------------------")
		p.Println("")
	}
	if _, err := p.ReadDir(src); err != nil {
		p.Println(p.Now().Format("2006/01/02 15:04:05") + " ERROR 2 (0x00000002) Accessing Source Directory " + strings.TrimRight(src, `\`) + `\`)
		p.Println("The system cannot find the file specified.")
		return 16
	}
	deep := opt["s"] || opt["e"] || opt["mir"]
	files, _ := treeFiles(p, src, deep)
	excluded := func(rel string) bool {
		name := process.BaseName(rel)
		for _, x := range xf {
			if wildMatch(x, name) {
				return true
			}
		}
		for _, d := range xd {
			for _, part := range strings.Split(rel, `\`)[:strings.Count(rel, `\`)] {
				if wildMatch(d, part) {
					return true
				}
			}
		}
		return false
	}
	code, copied, failed, skipped := 0, 0, 0, 0
	want := map[string]bool{}
	for _, rel := range files {
		name := process.BaseName(rel)
		ok := false
		for _, f := range filters {
			if wildMatch(f, name) {
				ok = true
			}
		}
		if !ok || excluded(rel) {
			continue
		}
		want[strings.ToLower(rel)] = true
		from := process.WinJoin(src, rel)
		to := process.WinJoin(dst, rel)
		data, err := p.ReadFile(from)
		if err != nil {
			failed++
			continue
		}
		if old, err := p.ReadFile(to); err == nil && bytes.Equal(old, data) {
			skipped++
			continue
		}
		if i := strings.LastIndex(to, `\`); i > 2 {
			if err := mkdirs(p, to[:i]); err != nil {
				failed++
				continue
			}
		}
		if err := p.WriteFile(to, data, false); err != nil {
			p.Println(p.Now().Format("2006/01/02 15:04:05") + " ERROR 5 (0x00000005) Copying File " + from)
			p.Println("Access is denied.")
			failed++
			continue
		}
		if !opt["nfl"] {
			p.Printf("\t    New File  \t\t%8d\t%s\n", len(data), rel)
		}
		copied++
	}
	extra := 0
	if dfiles, _ := treeFiles(p, dst, deep); len(dfiles) > 0 {
		for _, rel := range dfiles {
			if want[strings.ToLower(rel)] {
				continue
			}
			if opt["mir"] || opt["purge"] {
				_ = p.Remove(process.WinJoin(dst, rel))
				continue
			}
			extra++
		}
	}
	if copied > 0 {
		code |= 1
	}
	if extra > 0 {
		code |= 2
	}
	if failed > 0 {
		code |= 8
	}
	if !opt["njs"] {
		p.Println("")
		p.Println("-------------------------------------------------------------------------------")
		p.Println("")
		p.Println("               Total    Copied   Skipped  Mismatch    FAILED    Extras")
		p.Printf("    Files : %9d %9d %9d %9d %9d %9d\n", copied+skipped+failed, copied, skipped, 0, failed, extra)
		p.Println("")
	}
	return code
}

// More is more.com as a filter: the files or stdin copied to stdout (a
// container has no console to page on); +n starts at line n.
func More(p *process.Proc, argv []string) int {
	skip := 0
	var names []string
	for _, a := range argv[1:] {
		switch {
		case strings.HasPrefix(a, "+"):
			fmt.Sscan(a[1:], &skip)
		case strings.HasPrefix(a, "/"):
		default:
			names = append(names, a)
		}
	}
	_, data, missing := winInputs(p, names)
	for _, m := range missing {
		p.Eprintln("Cannot access file " + p.Path(m))
		return 1
	}
	for _, b := range data {
		for i, line := range winLines(b) {
			if i >= skip {
				p.Println(line)
			}
		}
	}
	return 0
}

// SortExe is sort.exe: the lines of a file or stdin sorted without regard to
// case; /r reverses, /o file writes the output there.
func SortExe(p *process.Proc, argv []string) int {
	reverse, out := false, ""
	var names []string
	for i := 1; i < len(argv); i++ {
		switch la := strings.ToLower(argv[i]); {
		case la == "/r" || la == "/reverse":
			reverse = true
		case (la == "/o" || la == "/output") && i+1 < len(argv):
			i++
			out = argv[i]
		case strings.HasPrefix(la, "/"):
		default:
			names = append(names, argv[i])
		}
	}
	_, data, missing := winInputs(p, names)
	if len(missing) > 0 {
		p.Eprintln("The system cannot find the file specified.")
		return 1
	}
	var all []string
	for _, b := range data {
		all = append(all, winLines(b)...)
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := strings.ToLower(all[i]), strings.ToLower(all[j])
		if reverse {
			return a > b
		}
		return a < b
	})
	text := ""
	for _, l := range all {
		text += l + "\r\n"
	}
	if out != "" {
		if err := p.WriteFile(out, []byte(text), false); err != nil {
			p.Eprintln(process.CmdFileError(err, true))
			return 1
		}
		return 0
	}
	io.WriteString(p.Stdout, text)
	return 0
}

// Where is where.exe [/q] pattern...: the full path of each program the
// current directory or PATH holds (with PATHEXT's extensions); the
// programs wink simulates are in C:\Windows\System32. Exit 1 and "INFO:
// Could not find files for the given pattern(s)." when one is missing.
func Where(p *process.Proc, argv []string) int {
	quiet := false
	code := 0
	for _, a := range argv[1:] {
		if strings.EqualFold(a, "/q") {
			quiet = true
			continue
		}
		if strings.HasPrefix(a, "/") {
			continue
		}
		found := ""
		if c, ok := p.Programs.Lookup(process.Windows, a); ok && !strings.ContainsAny(a, `\/`) {
			found = `C:\Windows\System32\` + c.Name + ".exe"
		} else {
			path, _ := p.Vars.Get("PATH")
			exts := []string{""}
			if !strings.Contains(process.BaseName(a), ".") {
				exts = []string{".com", ".exe", ".bat", ".cmd"}
			}
		search:
			for _, dir := range append([]string{p.Dir}, strings.Split(path, ";")...) {
				if dir == "" {
					continue
				}
				for _, ext := range exts {
					cand := process.WinJoin(dir, a+ext)
					if _, err := p.ReadFile(cand); err == nil {
						found = p.Path(cand)
						break search
					}
				}
			}
		}
		if found == "" {
			if !quiet {
				p.Eprintln("INFO: Could not find files for the given pattern(s).")
			}
			code = 1
			continue
		}
		if !quiet {
			p.Println(found)
		}
	}
	return code
}
