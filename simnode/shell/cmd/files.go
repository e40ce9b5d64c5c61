package cmd

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// This file is cmd's file commands: md, rd, del, copy, move, ren, mklink,
// and the wildcards of del, copy, FOR and IF EXIST. Each follows its
// windows-commands page; a read-only mount answers "Access is denied."
// (row B11).

// hasWild: a name with * or ?.
func hasWild(s string) bool { return strings.ContainsAny(s, "*?") }

// matchWild matches a file name against a pattern, as Windows does (any
// case; "*.*" and "*" match every name).
func matchWild(pattern, name string) bool {
	if pattern == "*.*" || pattern == "*" {
		return true
	}
	ok, _ := path.Match(strings.ToLower(pattern), strings.ToLower(name))
	return ok
}

// glob lists the entries of a directory that match the last element of
// pattern: full paths, sorted by name; dirs selects directories, else
// files.
func glob(c *process.Proc, pattern string, dirs bool) []string {
	full := c.Path(pattern)
	dir := process.ParentDir(full)
	base := process.BaseName(full)
	ents, err := c.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() == dirs && matchWild(base, e.Name()) {
			out = append(out, process.WinJoin(dir, e.Name()))
		}
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i]) < strings.ToLower(out[j]) })
	return out
}

// exists: a file or directory at name (wildcards: any match).
func exists(c *process.Proc, name string) bool {
	if hasWild(name) {
		return len(glob(c, name, false)) > 0 || len(glob(c, name, true)) > 0
	}
	if _, err := c.ReadFile(name); err == nil {
		return true
	}
	_, err := c.ReadDir(name)
	return err == nil
}

func isDir(c *process.Proc, name string) bool {
	_, err := c.ReadDir(name)
	return err == nil
}

// confirm asks "<what>, Are you sure (Y/N)? " (rd /s, del of a
// directory) and is true for an answer that starts with y.
func confirm(c *process.Proc, what string) bool {
	c.Printf("%s, Are you sure (Y/N)? ", what)
	answer, _ := readLine(c.Stdin, 16)
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(answer)), "y")
}

// fileArgs splits arguments into switches (lower case) and names.
func fileArgs(rest string) (switches map[string]bool, names []string) {
	switches = map[string]bool{}
	for _, a := range process.SplitCommandLine(rest) {
		if strings.HasPrefix(a, "/") && len(a) > 1 {
			for _, sw := range strings.Split(strings.ToLower(a[1:]), "/") {
				switches[sw] = true
			}
			continue
		}
		names = append(names, a)
	}
	return switches, names
}

// md creates each directory with its missing parents (command extensions,
// windows-commands/mkdir).
func (s *shell) md(c *process.Proc, rest string) int {
	_, names := fileArgs(rest)
	if len(names) == 0 {
		return syntaxIncorrect(c)
	}
	code := 0
	for _, n := range names {
		if exists(c, n) {
			c.Eprintln("A subdirectory or file " + n + " already exists.")
			code = 1
			continue
		}
		if err := c.MkdirAll(n); err != nil {
			if errors.Is(err, fs.ErrExist) {
				c.Eprintln("A subdirectory or file " + n + " already exists.")
			} else {
				c.Eprintln(process.CmdFileError(err, true))
			}
			code = 1
		}
	}
	return code
}

// rd removes a directory: empty, or with /s all it holds (/q: without
// asking). windows-commands/rmdir.
func (s *shell) rd(c *process.Proc, rest string) int {
	sw, names := fileArgs(rest)
	if len(names) == 0 {
		return syntaxIncorrect(c)
	}
	code := 0
	for _, n := range names {
		if _, err := c.Readlink(n); err == nil {
			// a directory link or junction goes, not what it leads to
			// (windows-commands/mklink: `rd \MyFolder`)
			if err := c.Remove(n); err != nil {
				c.Eprintln(process.CmdFileError(err, true))
				code = 5
			}
			continue
		}
		ents, err := c.ReadDir(n)
		if err != nil {
			if _, ferr := c.ReadFile(n); ferr == nil {
				c.Eprintln("The directory name is invalid.")
				code = 267
			} else {
				c.Eprintln("The system cannot find the file specified.")
				code = 2
			}
			continue
		}
		if len(ents) > 0 && !sw["s"] {
			c.Eprintln("The directory is not empty.")
			code = 145
			continue
		}
		if sw["s"] && !sw["q"] {
			if !confirm(c, n) {
				continue
			}
		}
		if c.Path(n) == strings.TrimRight(s.p.Dir, `\`) {
			c.Eprintln("The process cannot access the file because it is being used by another process.")
			code = 32
			continue
		}
		if err := c.Remove(n); err != nil {
			c.Eprintln(process.CmdFileError(err, true))
			code = 5
		}
	}
	return code
}

// del deletes files: names, wildcards, a directory's files (/q: without
// asking, /s: in subdirectories too). A name that matches nothing is
// "Could Not Find" and still ERRORLEVEL 0 (windows-commands/del).
func (s *shell) del(c *process.Proc, rest string) int {
	sw, names := fileArgs(rest)
	if len(names) == 0 {
		return syntaxIncorrect(c)
	}
	code := 0
	for _, n := range names {
		var files []string
		switch {
		case hasWild(n):
			files = glob(c, n, false)
			if sw["s"] {
				files = append(files, walkMatch(c, process.ParentDir(c.Path(n)), process.BaseName(c.Path(n)))...)
			}
		case isDir(c, n):
			if !sw["q"] {
				if !confirm(c, c.Path(n)+`\*`) {
					continue
				}
			}
			files = glob(c, strings.TrimRight(n, `\`)+`\*`, false)
		default:
			if _, err := c.ReadFile(n); err == nil {
				files = []string{c.Path(n)}
			}
		}
		if len(files) == 0 && !isDir(c, n) {
			c.Eprintln("Could Not Find " + c.Path(n))
			continue
		}
		for _, f := range files {
			if err := c.Remove(f); err != nil {
				c.Eprintln(f)
				c.Eprintln(process.CmdFileError(err, true))
				code = 1
			} else if sw["s"] && !sw["q"] {
				c.Println("Deleted file - " + f)
			}
		}
	}
	return code
}

// walkMatch lists the files under dir (not in it) that match pattern.
func walkMatch(c *process.Proc, dir, pattern string) []string {
	var out []string
	for _, d := range walkDirs(c, dir)[1:] {
		out = append(out, glob(c, d+`\`+pattern, false)...)
	}
	return out
}

// walkDirs lists dir and every directory under it, parents first, at
// most maxWalk (a bound: issue 18).
func walkDirs(c *process.Proc, dir string) []string {
	out := []string{strings.TrimRight(c.Path(dir), `\`)}
	if len(out[0]) == 2 {
		out[0] += `\`
	}
	for i := 0; i < len(out) && len(out) < maxWalk; i++ {
		if c.Step() != nil {
			break
		}
		ents, err := c.ReadDir(out[i])
		if err != nil {
			continue
		}
		var sub []string
		for _, e := range ents {
			if e.IsDir() {
				sub = append(sub, process.WinJoin(out[i], e.Name()))
			}
		}
		sort.Strings(sub)
		// depth first, as dir /s and for /r list them
		out = append(out[:i+1], append(sub, out[i+1:]...)...)
	}
	return out
}

const maxWalk = 100000

// copy is `copy [/y] [/b] source [destination]`, with wildcards and
// a+b concatenation (windows-commands/copy).
func (s *shell) copy(c *process.Proc, rest string) int {
	_, names := fileArgs(rest)
	if len(names) == 0 {
		return syntaxIncorrect(c)
	}
	dst := "."
	if len(names) > 1 {
		dst = names[1]
	}
	var srcs []string
	concat := strings.Contains(names[0], "+")
	for _, part := range strings.Split(names[0], "+") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		switch {
		case hasWild(part):
			srcs = append(srcs, glob(c, part, false)...)
		case isDir(c, part):
			srcs = append(srcs, glob(c, strings.TrimRight(part, `\`)+`\*`, false)...)
		default:
			srcs = append(srcs, part)
		}
	}
	many := len(srcs) != 1 || hasWild(names[0]) || isDir(c, names[0])
	if len(srcs) == 0 {
		c.Eprintln("The system cannot find the file specified.")
		c.Println("        0 file(s) copied.")
		return 1
	}
	target := c.Path(dst)
	toDir := isDir(c, target)
	var joined []byte
	copied := 0
	for _, src := range srcs {
		data, err := c.ReadFile(src)
		if c.IsNullDevice(src) {
			data, err = nil, nil // `copy nul file` makes an empty file
		}
		if err != nil {
			if isDir(c, src) {
				err = fs.ErrPermission
			}
			c.Eprintln(process.CmdFileError(err, false))
			c.Println("        0 file(s) copied.")
			return 1
		}
		if many {
			c.Println(c.Path(src))
		}
		if c.IsNullDevice(src) {
			src = "nul"
		}
		if concat {
			joined = append(joined, data...)
			continue
		}
		to := target
		if toDir {
			to = process.WinJoin(target, process.BaseName(c.Path(src)))
		}
		if err := c.WriteFile(to, data, false); err != nil {
			c.Eprintln(process.CmdFileError(err, true))
			c.Println("        0 file(s) copied.")
			return 1
		}
		copied++
	}
	if concat {
		to := target
		if toDir {
			to = process.WinJoin(target, process.BaseName(c.Path(srcs[0])))
		}
		if err := c.WriteFile(to, joined, false); err != nil {
			c.Eprintln(process.CmdFileError(err, true))
			c.Println("        0 file(s) copied.")
			return 1
		}
		copied = 1
	}
	c.Printf("%9d file(s) copied.\n", copied)
	return 0
}

// move is `move [/y] source destination` for a file or a directory
// (windows-commands/move).
func (s *shell) move(c *process.Proc, rest string) int {
	_, names := fileArgs(rest)
	if len(names) < 2 {
		if len(names) == 0 {
			return syntaxIncorrect(c)
		}
		names = append(names, ".")
	}
	var srcs []string
	if hasWild(names[0]) {
		srcs = glob(c, names[0], false)
	} else if exists(c, names[0]) {
		srcs = []string{c.Path(names[0])}
	}
	if len(srcs) == 0 {
		c.Eprintln("The system cannot find the file specified.")
		return 1
	}
	target := c.Path(names[1])
	toDir := isDir(c, target)
	dirs := 0
	for _, src := range srcs {
		to := target
		if toDir {
			to = process.WinJoin(target, process.BaseName(src))
		}
		if isDir(c, src) {
			if exists(c, to) {
				c.Eprintln("Access is denied.")
				c.Println("        0 dir(s) moved.")
				return 1
			}
			dirs++
		}
		if err := c.CopyTree(src, to); err != nil {
			c.Eprintln(process.CmdFileError(err, true))
			return 1
		}
		if err := c.Remove(src); err != nil {
			c.Eprintln(process.CmdFileError(err, true))
			return 1
		}
	}
	if dirs > 0 {
		c.Printf("%9d dir(s) moved.\n", dirs)
	} else {
		c.Printf("%9d file(s) moved.\n", len(srcs))
	}
	return 0
}

// ren renames a file or directory in its directory (windows-commands/ren).
func (s *shell) ren(c *process.Proc, rest string) int {
	_, names := fileArgs(rest)
	if len(names) != 2 || strings.ContainsAny(names[1], `\/:`) {
		return syntaxIncorrect(c)
	}
	src := c.Path(names[0])
	to := process.WinJoin(process.ParentDir(src), names[1])
	if !exists(c, src) || (exists(c, to) && !strings.EqualFold(to, src)) {
		c.Eprintln("A duplicate file name exists, or the file")
		c.Eprintln("cannot be found.")
		return 1
	}
	if err := c.CopyTree(src, to); err != nil {
		c.Eprintln(process.CmdFileError(err, true))
		return 1
	}
	if !strings.EqualFold(to, src) {
		if err := c.Remove(src); err != nil {
			c.Eprintln(process.CmdFileError(err, true))
			return 1
		}
	}
	return 0
}

// mklink is `mklink [/d | /h | /j] link target`
// (learn.microsoft.com/windows-server/administration/windows-commands/mklink):
// a file or (/d) directory symbolic link keeps target as written, read
// from the link's directory when relative; a junction (/j) keeps target's
// full path. Both are real links of the file system (process.Symlinks,
// process.Junctions), so reading and writing through them reaches the
// target. A symbolic link needs SeCreateSymbolicLinkPrivilege, which
// ContainerUser does not hold (row B9); a junction needs none. A hard
// link (/h) is a copy of the file: the file systems keep no shared file
// data, so a later change of either does not show in the other.
func (s *shell) mklink(c *process.Proc, rest string) int {
	sw, names := fileArgs(rest)
	if len(names) != 2 {
		c.Eprintln("The syntax of the command is incorrect.")
		c.Println("Creates a symbolic link.")
		c.Println("")
		c.Println("MKLINK [[/D] | [/H] | [/J]] Link Target")
		return 1
	}
	link, target := names[0], names[1]
	kind := "symbolic link"
	var err error
	switch {
	case sw["j"]:
		kind = "Junction"
	case sw["h"]:
		kind = "Hardlink"
	}
	switch {
	case kind == "symbolic link" && !isAdmin(c):
		// SeCreateSymbolicLinkPrivilege: ContainerAdministrator holds it,
		// ContainerUser does not (row B9); a junction needs none.
		c.Eprintln("You do not have sufficient privilege to perform this operation.")
		return 1
	case kind == "Hardlink" && !exists(c, target):
		c.Eprintln("The system cannot find the file specified.")
		return 1
	case kind == "Hardlink":
		if exists(c, link) {
			err = fs.ErrExist
		} else {
			err = c.CopyTree(target, link)
		}
	case kind == "Junction":
		err = c.Junction(c.Path(target), link)
	default:
		err = c.Symlink(target, link)
	}
	switch {
	case errors.Is(err, fs.ErrExist):
		c.Eprintln("Cannot create a file when that file already exists.")
		return 1
	case err != nil:
		c.Eprintln(process.CmdFileError(err, true))
		return 1
	}
	c.Println(kind + " created for " + link + " <<===>> " + target)
	return 0
}

// isAdmin: the container's user holds the administrators' privileges
// (ContainerAdministrator, SYSTEM, a HostProcess container's admin; row
// B9).
func isAdmin(c *process.Proc) bool {
	u := strings.ToLower(c.Env.User)
	return u == "containeradministrator" || strings.HasSuffix(u, `\system`) || strings.Contains(u, "administrator")
}
