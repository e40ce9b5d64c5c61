package cmd

import (
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// This file is the table of cmd's internal commands and the simple ones;
// each follows its page of Microsoft Learn's "Windows commands" reference
// (learn.microsoft.com/windows-server/administration/windows-commands/
// <name>). Row E unless a row is named.

// builtin is an internal command of cmd.exe. It gets the text after its
// name (cmd's internal commands parse their own arguments: `echo a  b `
// prints "a  b " verbatim).
type builtin struct {
	name    string
	aliases []string
	help    string
	rows    string
	// keep: the command leaves ERRORLEVEL as it is when it succeeds
	// (echo, rem, goto... never clear it).
	keep bool
	// cmdOnly: it clears ERRORLEVEL on success in a .cmd file and on the
	// command line, not in a .bat file (set, path, prompt, assoc, ftype,
	// dpath: the difference between .cmd and .bat files).
	cmdOnly bool
	run     func(s *shell, c *process.Proc, rest string) int
}

// builtins is the table of cmd's internal commands (filled in init to
// break the initialisation cycle through `help`).
var builtins []*builtin

var builtinIndex = map[string]*builtin{}

func init() {
	builtins = []*builtin{
		{name: "echo", help: "Displays messages, or turns command-echoing on or off.", rows: "E, B11", keep: true, run: (*shell).echo},
		{name: "set", help: "Displays, sets, or removes Windows environment variables.", rows: "E, B12", cmdOnly: true, run: (*shell).set},
		{name: "setlocal", help: "Begins localization of environment changes in a batch file.", keep: true, run: (*shell).setlocal},
		{name: "endlocal", help: "Ends localization of environment changes in a batch file.", keep: true, run: (*shell).endlocal},
		{name: "call", help: "Calls one batch program from another.", run: (*shell).call},
		{name: "goto", help: "Directs the Windows command interpreter to a labeled line in a batch program.", keep: true, run: (*shell).gotoCmd},
		{name: "shift", help: "Shifts the position of replaceable parameters in batch files.", keep: true, run: (*shell).shift},
		{name: "exit", help: "Quits the CMD.EXE program (command interpreter).", run: (*shell).exit},
		{name: "type", help: "Displays the contents of a text file.", rows: "E, B11 (volumes.go:148)", run: (*shell).typeCmd},
		{name: "dir", help: "Displays a list of files and subdirectories in a directory.", rows: "E, B10", run: func(s *shell, c *process.Proc, rest string) int { return dirListing(c, process.SplitCommandLine(rest)) }},
		{name: "ver", help: "Displays the Windows version.", rows: "N3", run: (*shell).ver}, // `ver >nul` clears ERRORLEVEL
		{name: "cd", aliases: []string{"chdir"}, help: "Displays the name of or changes the current directory.", run: (*shell).cd},
		{name: "pushd", help: "Saves the current directory then changes it.", run: (*shell).pushd},
		{name: "popd", help: "Restores the previous value of the current directory saved by PUSHD.", run: (*shell).popd},
		{name: "md", aliases: []string{"mkdir"}, help: "Creates a directory.", rows: "E, B11", run: (*shell).md},
		{name: "rd", aliases: []string{"rmdir"}, help: "Removes a directory.", rows: "E, B11", keep: true, run: (*shell).rd},
		{name: "del", aliases: []string{"erase"}, help: "Deletes one or more files.", rows: "E, B11", run: (*shell).del},
		{name: "copy", help: "Copies one or more files to another location.", rows: "B10 (host_process.go:701), B11", run: (*shell).copy},
		{name: "move", help: "Moves one or more files from one directory to another directory.", rows: "E, B11", run: (*shell).move},
		{name: "ren", aliases: []string{"rename"}, help: "Renames a file or files.", rows: "E, B11", run: (*shell).ren},
		{name: "mklink", help: "Creates Symbolic Links and Hard Links", rows: "E, B9", run: (*shell).mklink},
		{name: "rem", help: "Records comments (remarks) in batch files or CONFIG.SYS.", keep: true, run: func(*shell, *process.Proc, string) int { return 0 }},
		{name: "cls", help: "Clears the screen.", keep: true, run: func(*shell, *process.Proc, string) int { return 0 }},
		{name: "title", help: "Sets the window title for a CMD.EXE session.", keep: true, run: func(*shell, *process.Proc, string) int { return 0 }},
		{name: "color", help: "Sets the default console foreground and background colors.", keep: true, run: func(*shell, *process.Proc, string) int { return 0 }},
		{name: "break", help: "Sets or clears extended CTRL+C checking.", keep: true, run: func(*shell, *process.Proc, string) int { return 0 }},
		{name: "verify", help: "Tells Windows whether to verify that your files are written correctly to a disk.", keep: true, run: (*shell).verify},
		{name: "pause", help: "Suspends processing of a batch file and displays a message.", keep: true, run: (*shell).pause},
		{name: "path", help: "Displays or sets a search path for executable files.", cmdOnly: true, run: (*shell).path},
		{name: "prompt", help: "Changes the Windows command prompt.", cmdOnly: true, run: func(s *shell, c *process.Proc, rest string) int {
			return s.setVar(c, "PROMPT", strings.TrimSpace(rest))
		}},
		{name: "vol", help: "Displays a disk volume label and serial number.", run: (*shell).vol},
		{name: "start", help: "Starts a separate window to run a specified program or command.", run: (*shell).start},
		{name: "help", help: "Provides Help information for Windows commands.", run: (*shell).help},
	}
	for _, b := range builtins {
		builtinIndex[b.name] = b
		for _, a := range b.aliases {
			builtinIndex[a] = b
		}
	}
	// internal commands wink does not simulate: they succeed and leave a
	// NotSimulated trace (issue 18), never "not recognized".
	for _, name := range []string{"assoc", "ftype", "date", "time", "dpath", "keys"} {
		name := name
		builtinIndex[name] = &builtin{name: name, help: "Internal command of cmd.exe (not simulated).", cmdOnly: name != "date" && name != "time" && name != "keys", run: func(s *shell, c *process.Proc, rest string) int {
			c.NotSimulated("cmd: " + name)
			return 0
		}}
	}
}

// echo is `echo [message]`, `echo on|off`, `echo.` (windows-commands/echo).
func (s *shell) echo(c *process.Proc, rest string) int {
	if rest == "" {
		s.echoState(c)
		return 0
	}
	delim, msg := rest[0], rest[1:]
	if delim == ' ' || delim == '\t' || delim == ',' || delim == ';' || delim == '=' {
		switch t := strings.TrimSpace(rest); strings.ToLower(t) {
		case "":
			s.echoState(c)
			return 0
		case "on":
			s.echoOn = true
			return 0
		case "off":
			s.echoOn = false
			return 0
		}
	}
	io.WriteString(c.Stdout, msg+"\r\n")
	return 0
}

func (s *shell) echoState(c *process.Proc) {
	if s.echoOn {
		c.Println("ECHO is on.")
	} else {
		c.Println("ECHO is off.")
	}
}

// setVar sets (value "": removes) a variable, accounting its memory.
func (s *shell) setVar(c *process.Proc, name, value string) int {
	old, had := c.Vars.Get(name)
	delta := int64(len(value) - len(old))
	if !had {
		delta += int64(len(name))
	}
	if value == "" {
		delta = -int64(len(old))
		if had {
			delta -= int64(len(name))
		}
	}
	if !s.grow(delta, c.Stderr) {
		return 1
	}
	s.envHeld += delta
	if value == "" {
		c.Vars.Unset(name)
		if !had {
			return 1
		}
		return 0
	}
	c.Vars.Set(name, value)
	return 0
}

// set is windows-commands/set: list, prefix list, name=value, "name=value",
// /a expression, /p name=prompt.
func (s *shell) set(c *process.Proc, rest string) int {
	t := strings.TrimLeft(rest, " \t")
	lt := strings.ToLower(t)
	switch {
	case strings.TrimSpace(t) == "":
		for _, e := range c.Vars.Sorted() {
			c.Println(e.Name + "=" + e.Value)
		}
		return 0
	case strings.HasPrefix(lt, "/a"):
		return s.setA(c, t[2:])
	case strings.HasPrefix(lt, "/p"):
		return s.setP(c, strings.TrimLeft(t[2:], " \t"))
	}
	if strings.HasPrefix(t, `"`) {
		if j := strings.LastIndexByte(t, '"'); j > 0 {
			t = t[1:j]
		} else {
			t = t[1:]
		}
	}
	i := strings.IndexByte(t, '=')
	switch {
	case i == 0:
		return syntaxIncorrect(c)
	case i > 0:
		return s.setVar(c, t[:i], t[i+1:])
	}
	t = strings.TrimRight(t, " \t")
	found := false
	for _, e := range c.Vars.Sorted() {
		if strings.HasPrefix(strings.ToUpper(e.Name), strings.ToUpper(t)) {
			c.Println(e.Name + "=" + e.Value)
			found = true
		}
	}
	if !found {
		c.Eprintln("Environment variable " + t + " not defined")
		return 1
	}
	return 0
}

// setP is `set /p name=prompt`: the prompt, then a line of stdin; at the
// end of stdin the variable is unchanged and ERRORLEVEL is 1.
func (s *shell) setP(c *process.Proc, t string) int {
	if strings.HasPrefix(t, `"`) {
		if j := strings.LastIndexByte(t, '"'); j > 0 {
			t = t[1:j]
		}
	}
	name, prompt, ok := strings.Cut(t, "=")
	if !ok {
		return syntaxIncorrect(c)
	}
	if len(prompt) >= 2 && prompt[0] == '"' && prompt[len(prompt)-1] == '"' {
		prompt = prompt[1 : len(prompt)-1]
	}
	// `<nul set /p =text` and `echo|set /p=text` print text without a
	// line end: the idiom has no variable name
	io.WriteString(c.Stdout, prompt)
	line, ok := readLine(c.Stdin, maxLine)
	if !ok || line == "" || name == "" {
		return 1
	}
	return s.setVar(c, name, line)
}

// syntaxIncorrect is an internal command's answer to arguments it cannot
// use: errSyntax's message and ERRORLEVEL.
func syntaxIncorrect(c *process.Proc) int {
	c.Eprintln(errSyntax.msg)
	return errSyntax.code
}

// readLine reads one line byte by byte (what follows stays for the next
// reader), at most max bytes.
func readLine(r io.Reader, max int) (string, bool) {
	var b []byte
	one := make([]byte, 1)
	got := false
	for len(b) < max {
		n, err := r.Read(one)
		if n == 1 {
			got = true
			if one[0] == '\n' {
				break
			}
			b = append(b, one[0])
			continue
		}
		if err != nil {
			break
		}
	}
	return strings.TrimSuffix(string(b), "\r"), got
}

// local is an environment setlocal saved.
type local struct {
	vars  *process.Vars
	dir   string
	delay bool
	size  int64
}

// setlocal saves the environment, the directory and the delayed expansion
// state; EnableDelayedExpansion / DisableDelayedExpansion switch !VAR!.
// Outside a batch file it has no effect (windows-commands/setlocal).
func (s *shell) setlocal(c *process.Proc, rest string) int {
	code := 0
	delay := s.delay
	for _, a := range strings.Fields(rest) {
		switch strings.ToLower(a) {
		case "enabledelayedexpansion":
			delay = true
		case "disabledelayedexpansion":
			delay = false
		case "enableextensions":
		case "disableextensions":
			c.NotSimulated("cmd: setlocal DisableExtensions") // extensions stay on
		default:
			code = 1
		}
	}
	if s.bat == nil {
		return code
	}
	if len(s.locals)-s.bat.localBase >= 32 {
		c.Eprintln("Maximum setlocal recursion level reached.")
		return 1
	}
	l := local{vars: c.Vars.Snapshot(), dir: s.p.Dir, delay: s.delay}
	l.size = l.vars.Size()
	if !s.grow(l.size, c.Stderr) {
		return 1
	}
	s.locals = append(s.locals, l)
	s.delay = delay
	return code
}

// endlocal restores what the last setlocal of this batch file saved.
func (s *shell) endlocal(c *process.Proc, rest string) int {
	if s.bat != nil && len(s.locals) > s.bat.localBase {
		s.popLocal()
	}
	return 0
}

func (s *shell) popLocal() {
	l := s.locals[len(s.locals)-1]
	s.locals = s.locals[:len(s.locals)-1]
	s.p.Vars.Restore(l.vars)
	s.p.Grow(-l.size)
	s.p.Dir, s.delay = l.dir, l.delay
}

// call is windows-commands/call: `call :label args`, `call file.cmd args`
// or `call command`, whose %VAR% are expanded once more.
func (s *shell) call(c *process.Proc, rest string) int {
	// call expands %VAR% once more (`call echo %%X%%`)
	if rest == "" {
		return 1 // `(call)`: the idiom that sets ERRORLEVEL 1
	}
	t := s.percent(strings.TrimLeft(rest, " \t"))
	st := streams{in: c.Stdin, out: c.Stdout, err: c.Stderr}
	if strings.HasPrefix(t, ":") {
		label, args := splitName(t[1:])
		return s.callLabel(label, args, st)
	}
	if strings.TrimSpace(t) == "" {
		return 0
	}
	name, args := splitName(t)
	if b, ok := builtinIndex[strings.ToLower(name)]; ok {
		return b.run(s, c, args)
	}
	if strings.EqualFold(name, "if") || strings.EqualFold(name, "for") {
		c.Eprintln("'" + name + "' is not recognized as an internal or external command,")
		c.Eprintln("operable program or batch file.")
		return process.ExitCmdNotFound
	}
	return s.external(name, args, st, true)
}

// gotoCmd is `goto label` and `goto :eof`.
func (s *shell) gotoCmd(c *process.Proc, rest string) int {
	label, _ := splitName(strings.TrimLeft(rest, " \t:"))
	label = strings.TrimLeft(label, ":")
	if s.bat == nil {
		return 0 // the command line has no labels: cmd ignores it
	}
	if label == "" {
		c.Eprintln("No batch label specified to GOTO command.")
		s.abortBatches(1)
		return 1
	}
	if strings.EqualFold(label, "eof") {
		s.bat.done = true
		return 0
	}
	s.bat.jump = label
	return 0
}

// shift is `shift [/n]`.
func (s *shell) shift(c *process.Proc, rest string) int {
	if s.bat == nil {
		return 0
	}
	from := 0
	if t := strings.TrimSpace(rest); strings.HasPrefix(t, "/") {
		n, err := strconv.Atoi(t[1:])
		if err != nil || n < 0 || n > 8 {
			c.Eprintln("Invalid parameter to SHIFT command")
			return 1
		}
		from = n
	}
	if from < len(s.bat.argv) {
		s.bat.argv = append(s.bat.argv[:from], s.bat.argv[from+1:]...)
	}
	return 0
}

// exit is `exit [/b] [code]`: /b ends the batch file (or call), exit ends
// cmd; on the command line both end cmd.
func (s *shell) exit(c *process.Proc, rest string) int {
	f := strings.Fields(rest)
	b := false
	if len(f) > 0 && strings.EqualFold(f[0], "/b") {
		b, f = true, f[1:]
	}
	code := s.p.LastExit
	if len(f) > 0 {
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			n = 0
		}
		code = int(int32(n))
	}
	s.p.LastExit = code
	if b && s.bat != nil {
		s.bat.done = true
		return code
	}
	s.exited, s.code = true, code
	return code
}

// typeCmd is `type file` (upstream volumes.go:148 reads a read-only volume
// with `cmd /c type <file>`).
func (s *shell) typeCmd(c *process.Proc, rest string) int {
	files := process.SplitCommandLine(rest)
	if len(files) == 0 {
		return syntaxIncorrect(c)
	}
	code := 0
	for _, f := range files {
		if c.IsNullDevice(f) {
			continue // `type nul > file` makes an empty file
		}
		data, err := c.ReadFile(f)
		if err != nil {
			if _, derr := c.ReadDir(f); derr == nil {
				err = fs.ErrPermission
			}
			c.Eprintln(process.CmdFileError(err, false))
			if len(files) > 1 {
				c.Eprintln("Error occurred while processing: " + f + ".")
			}
			code = 1
			continue
		}
		if len(files) > 1 {
			c.Eprintln("")
			c.Eprintln(f)
			c.Eprintln("")
			c.Eprintln("")
		}
		c.Stdout.Write(data)
	}
	return code
}

// ver prints the image's Windows version (row N3).
func (s *shell) ver(c *process.Proc, _ string) int {
	c.Println("")
	c.Println("Microsoft Windows [Version " + c.OSVersion() + "]")
	return 0
}

// cd is `cd [/d] [path]`.
func (s *shell) cd(c *process.Proc, rest string) int {
	t := strings.TrimSpace(rest)
	if strings.HasPrefix(strings.ToLower(t), "/d") {
		t = strings.TrimSpace(t[2:])
	}
	t = strings.Trim(t, `"`)
	if t == "" {
		c.Println(s.p.Dir)
		return 0
	}
	full := c.Path(t)
	if _, err := c.ReadDir(full); err != nil {
		if _, ferr := c.ReadFile(full); ferr == nil {
			c.Eprintln("The directory name is invalid.")
		} else {
			c.Eprintln("The system cannot find the path specified.")
		}
		return 1
	}
	s.p.Dir = full
	return 0
}

// pushd saves the directory and changes to path (windows-commands/pushd).
func (s *shell) pushd(c *process.Proc, rest string) int {
	t := strings.Trim(strings.TrimSpace(rest), `"`)
	if t == "" {
		for i := len(s.dirs) - 1; i >= 0; i-- {
			c.Println(s.dirs[i])
		}
		return 0
	}
	if strings.HasPrefix(t, `\\`) {
		c.NotSimulated("cmd: pushd of a network path")
		return 0
	}
	full := c.Path(t)
	if _, err := c.ReadDir(full); err != nil {
		c.Eprintln("The system cannot find the path specified.")
		return 1
	}
	if !s.grow(int64(len(s.p.Dir)), c.Stderr) {
		return 1
	}
	s.dirs = append(s.dirs, s.p.Dir)
	s.p.Dir = full
	return 0
}

// popd returns to the directory pushd saved.
func (s *shell) popd(c *process.Proc, _ string) int {
	if len(s.dirs) == 0 {
		return 0
	}
	s.p.Dir = s.dirs[len(s.dirs)-1]
	s.dirs = s.dirs[:len(s.dirs)-1]
	return 0
}

// verify is `verify [on|off]`; any other argument is an error, the idiom
// `verify other 2>nul` that sets ERRORLEVEL 1.
func (s *shell) verify(c *process.Proc, rest string) int {
	switch t := strings.ToLower(strings.TrimSpace(rest)); t {
	case "":
		c.Println("VERIFY is off.")
	case "on", "off":
	default:
		c.Eprintln("Must specify ON or OFF.")
		return 1
	}
	return 0
}

// pause prints its message and reads a key (a line of stdin).
func (s *shell) pause(c *process.Proc, _ string) int {
	io.WriteString(c.Stdout, "Press any key to continue . . . ")
	readLine(c.Stdin, 1)
	c.Println("")
	return 0
}

// path prints or sets PATH.
func (s *shell) path(c *process.Proc, rest string) int {
	t := strings.TrimSpace(rest)
	if t == "" {
		v, ok := c.Vars.Get("PATH")
		if !ok {
			c.Println("PATH=(null)")
			return 0
		}
		c.Println("PATH=" + v)
		return 0
	}
	t = strings.TrimPrefix(t, "=")
	if t == ";" {
		t = ""
	}
	return s.setVar(c, "PATH", t)
}

func (s *shell) vol(c *process.Proc, _ string) int {
	c.Println(" Volume in drive C has no label.")
	c.Println(" Volume Serial Number is 5E4A-8C1F")
	return 0
}

// start runs a command in a new window (windows-commands/start): `start
// /wait` and `start /b /wait` run it to its end; otherwise it would run
// beside cmd, which wink does not simulate (a NotSimulated trace), and
// cmd goes on.
func (s *shell) start(c *process.Proc, rest string) int {
	t := strings.TrimLeft(rest, " \t")
	wait := false
	if strings.HasPrefix(t, `"`) { // the window title
		if j := strings.IndexByte(t[1:], '"'); j >= 0 {
			t = strings.TrimLeft(t[j+2:], " \t")
		}
	}
	for strings.HasPrefix(t, "/") {
		sw, r := splitName(t)
		if strings.EqualFold(sw, "/wait") {
			wait = true
		}
		t = strings.TrimLeft(r, " \t")
	}
	if !wait || t == "" {
		c.NotSimulated("cmd: start")
		return 0
	}
	name, args := splitName(t)
	return s.external(name, args, streams{in: c.Stdin, out: c.Stdout, err: c.Stderr}, true)
}

func (s *shell) help(c *process.Proc, _ string) int {
	c.Println("For more information on a specific command, type HELP command-name")
	names := make([]string, 0, len(builtins))
	byName := map[string]string{}
	for _, b := range builtins {
		names = append(names, strings.ToUpper(b.name))
		byName[strings.ToUpper(b.name)] = b.help
	}
	sort.Strings(names)
	for _, n := range names {
		c.Println(fmt.Sprintf("%-13s%s", n, byName[n]))
	}
	return 0
}
