package powershell

import (
	"errors"
	"io/fs"
	"sort"
	"strings"
	"wink.dev/wink/simnode/shell/powershell/engine"
	"wink.dev/wink/simnode/shell/process"
)

func cmdletGetContent(c *engine.Call) {
	paths := c.Paths()
	if len(paths) == 0 {
		for _, v := range c.Input {
			paths = append(paths, engine.ToStr(v))
		}
	}
	for _, p := range paths {
		if providerPath(c, p, func(d psDrive, rest string) {
			if v, ok := d.content(c.S, rest); ok {
				c.Out(v)
			} else {
				itemNotFound(c, rest)
			}
		}) {
			continue
		}
		full := c.S.P.Path(p)
		data, err := c.S.P.ReadFile(p)
		if err != nil {
			if _, derr := c.S.P.ReadDir(p); derr == nil {
				c.Fail("Access to the path '"+full+"' is denied.", "PermissionDenied", full, "UnauthorizedAccessException", "GetContentReaderUnauthorizedAccessError")
				continue
			}
			msg, cat, reason, fq := engine.FileError(err, full, false)
			c.Fail(msg, cat, full, reason, fq)
			continue
		}
		text := engine.DecodeText(data)
		if c.Has("Raw") {
			c.Out(text)
			continue
		}
		text = strings.ReplaceAll(text, "\r\n", "\n")
		text = strings.TrimSuffix(text, "\n")
		if text == "" {
			continue
		}
		lines := strings.Split(text, "\n")
		for _, k := range []string{"TotalCount", "Head", "First"} {
			if c.Set(k) {
				if n := int(engine.ToInt(c.Named[k])); n >= 0 && n < len(lines) {
					lines = lines[:n]
				}
			}
		}
		for _, k := range []string{"Tail", "Last"} {
			if c.Set(k) {
				if n := int(engine.ToInt(c.Named[k])); n >= 0 && n < len(lines) {
					lines = lines[len(lines)-n:]
				}
			}
		}
		for _, l := range lines {
			c.Out(l)
		}
	}
}

// cmdletSetContent is Set-Content and Add-Content (upstream
// host_process.go:168 `powershell -c Set-content -Path <f> -V test`).
func cmdletSetContent(c *engine.Call) {
	vals := engine.Enumerate(c.Named["Value"])
	if !c.Set("Value") {
		vals = c.Input
	}
	var b strings.Builder
	for _, v := range vals {
		b.WriteString(engine.ToStr(v))
		if !c.Has("NoNewline") {
			b.WriteString("\r\n")
		}
	}
	appendTo := c.Cmdlet.Name == "Add-Content"
	for _, p := range c.Paths() {
		full := c.S.P.Path(p)
		if err := c.S.P.WriteFile(p, []byte(b.String()), appendTo); err != nil {
			msg, cat, reason, fq := engine.FileError(err, full, true)
			c.Fail(msg, cat, full, reason, fq)
			continue
		}
		if c.Has("PassThru") {
			for _, v := range vals {
				c.Out(v)
			}
		}
	}
}

func cmdletOutFile(c *engine.Call) {
	path := c.Str("FilePath")
	if c.Set("LiteralPath") {
		path = c.Str("LiteralPath")
	}
	vals := c.Input
	if v, ok := c.Named["InputObject"]; ok {
		vals = engine.Enumerate(v)
	}
	text := engine.FormatToString(vals, "\r\n")
	if c.Has("NoNewline") {
		text = strings.TrimRight(text, "\r\n")
	}
	data := c.S.EncodeOutFile(text)
	enc := strings.ToLower(c.Str("Encoding"))
	if enc == "utf8" || enc == "ascii" || enc == "default" || enc == "oem" || enc == "utf8nobom" {
		data = []byte(text)
	}
	full := c.S.P.Path(path)
	if old, err := c.S.P.ReadFile(path); err == nil && len(old) > 0 && c.Has("Append") && len(data) >= 2 && data[0] == 0xff && data[1] == 0xfe {
		data = data[2:] // one BOM per file
	}
	if err := c.S.P.WriteFile(path, data, c.Has("Append")); err != nil {
		msg, cat, reason, fq := engine.FileError(err, full, true)
		c.Fail(msg, cat, full, reason, fq)
	}
}

func cmdletTestPath(c *engine.Call) {
	kind := strings.ToLower(c.Str("PathType"))
	for _, p := range c.Paths() {
		if providerPath(c, p, func(d psDrive, rest string) {
			_, found, _ := d.item(c.S, rest)
			c.Out(found)
		}) {
			continue
		}
		_, ferr := c.S.P.ReadFile(p)
		_, derr := c.S.P.ReadDir(p)
		switch kind {
		case "leaf":
			c.Out(ferr == nil)
		case "container":
			c.Out(derr == nil)
		default:
			c.Out(ferr == nil || derr == nil)
		}
	}
}

// childMode is the Mode column: the d, a, r, h, s and l (link) flags of
// the item's attributes (Get-ChildItem,
// https://learn.microsoft.com/powershell/module/microsoft.powershell.management/get-childitem).
// A file without the owner-write bit has the read-only attribute; files
// have the archive attribute; a link is a reparse point.
func childMode(isDir, link bool, m fs.FileMode) string {
	b := []byte("------")
	if isDir {
		b[0] = 'd'
	} else {
		b[1] = 'a'
		if m.Perm() != 0 && m&0o200 == 0 {
			b[2] = 'r'
		}
	}
	if link {
		b[2], b[5] = '-', 'l'
	}
	return string(b)
}

func cmdletGetChildItem(c *engine.Call) {
	paths := c.Paths()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	for _, p := range paths {
		if providerPath(c, p, func(d psDrive, rest string) {
			items, ok := d.children(c.S, rest)
			if !ok {
				itemNotFound(c, p)
			}
			for _, it := range items {
				c.Out(it)
			}
		}) {
			continue
		}
		full := c.S.P.Path(p)
		if data, err := c.S.P.ReadFile(p); err == nil {
			if c.Has("Directory") {
				continue
			}
			o := c.FileObject(process.ParentDir(full), process.BaseName(full), false, int64(len(data)), c.S.P.Now())
			if c.Has("Name") {
				c.Out(process.BaseName(full))
				continue
			}
			c.Out(o)
			continue
		}
		l := listing{c: c, depth: -1}
		if c.Has("Recurse") {
			l.depth = 1 << 20
		}
		if c.Set("Depth") {
			l.depth = int(engine.ToInt(c.Named["Depth"]))
		}
		if base := process.BaseName(full); strings.ContainsAny(base, "*?") {
			// C:\Test\*.txt: the directory's items that match, at every
			// level under -Recurse (the cmdlet's Example 3)
			l.pattern, full = base, process.ParentDir(full)
		}
		if _, err := c.S.P.ReadDir(full); err != nil {
			msg, cat, reason, fq := engine.FileError(fs.ErrNotExist, full, false)
			c.Fail(msg, cat, full, reason, fq)
			continue
		}
		if c.Set("Include") && l.depth < 0 && l.pattern == "" {
			continue // -Include without the directory's contents (Example 4)
		}
		l.list(full, "", 0)
	}
}

// listing is Get-ChildItem of a directory
// (https://learn.microsoft.com/powershell/module/microsoft.powershell.management/get-childitem?view=powershell-5.1):
// a directory's items, then with -Recurse (or -Depth N, N levels below)
// each subdirectory's the same way; -File, -Directory, -Filter, -Include,
// -Exclude and a wildcard in the path choose what is written, not where
// it recurses; -Name writes the path relative to the listed directory.
type listing struct {
	c       *engine.Call
	depth   int // levels below the directory to list; -1 none
	pattern string
}

func (l listing) list(full, rel string, level int) {
	c := l.c
	ents, err := c.S.P.ReadDir(full)
	if err != nil || c.S.P.Step() != nil {
		return
	}
	// the FileSystem provider enumerates the directories, then the files,
	// each in the file system's order (NTFS: by name, case-insensitive)
	sort.SliceStable(ents, func(i, j int) bool {
		if di, dj := ents[i].IsDir(), ents[j].IsDir(); di != dj {
			return di
		}
		return strings.ToLower(ents[i].Name()) < strings.ToLower(ents[j].Name())
	})
	var subdirs []string
	var out []any
	for _, e := range ents {
		isDir, link := e.IsDir(), process.IsLink(e.Type())
		if link {
			// .NET sees a link to a directory as a directory
			_, err := c.S.P.ReadDir(process.WinJoin(full, e.Name()))
			isDir = err == nil
		}
		if isDir && !link && level < l.depth {
			subdirs = append(subdirs, e.Name())
		}
		if !l.match(e.Name(), isDir) {
			continue
		}
		if c.Has("Name") {
			out = append(out, relJoin(rel, e.Name()))
			continue
		}
		o := c.FileObject(full, e.Name(), isDir, 0, c.S.P.Now())
		if info, err := e.Info(); err == nil {
			size := info.Size()
			if link {
				size = 0
			}
			o = c.FileObject(full, e.Name(), isDir, size, info.ModTime())
			o.Props[0].Val = childMode(isDir, link, info.Mode())
		}
		out = append(out, o)
	}
	// a wildcard path's matches come from the subdirectories first (the
	// page's Example 3: C:\Test\Logs\Adirectory, ..., C:\Test\Logs,
	// C:\Test)
	if l.pattern == "" {
		l.write(out)
	}
	for _, d := range subdirs {
		l.list(process.WinJoin(full, d), relJoin(rel, d), level+1)
	}
	if l.pattern != "" {
		l.write(out)
	}
}

func (l listing) write(items []any) {
	for _, it := range items {
		l.c.Out(it)
	}
}

// match: the item is one the parameters ask for.
func (l listing) match(name string, isDir bool) bool {
	c := l.c
	if (c.Has("File") && isDir) || (c.Has("Directory") && !isDir) {
		return false
	}
	for _, f := range []string{c.Str("Filter"), l.pattern} {
		if f != "" && !engine.WildcardMatch(f, name, true) {
			return false
		}
	}
	matchAny := func(param string) bool {
		for _, w := range engine.Enumerate(c.Named[param]) {
			if engine.WildcardMatch(engine.ToStr(w), name, true) {
				return true
			}
		}
		return false
	}
	if c.Set("Include") && !matchAny("Include") {
		return false
	}
	return !c.Set("Exclude") || !matchAny("Exclude")
}

func relJoin(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + `\` + name
}

func cmdletGetItem(c *engine.Call) {
	for _, p := range c.Paths() {
		if providerPath(c, p, func(d psDrive, rest string) {
			switch v, found, known := d.item(c.S, rest); {
			case found && v != nil:
				c.Out(v)
			case !found && known:
				itemNotFound(c, rest)
			}
		}) {
			continue
		}
		full := c.S.P.Path(p)
		if data, err := c.S.P.ReadFile(p); err == nil {
			c.Out(c.FileObject(process.ParentDir(full), process.BaseName(full), false, int64(len(data)), c.S.P.Now()))
			continue
		}
		if _, err := c.S.P.ReadDir(p); err == nil {
			c.Out(c.FileObject(process.ParentDir(full), process.BaseName(full), true, 0, c.S.P.Now()))
			continue
		}
		msg, cat, reason, fq := engine.FileError(fs.ErrNotExist, full, false)
		c.Fail(msg, cat, full, reason, fq)
	}
}

func cmdletNewItem(c *engine.Call) {
	kind := strings.ToLower(c.Str("ItemType") + c.Str("Type"))
	for _, p := range c.Paths() {
		if c.Set("Name") {
			p = strings.TrimRight(p, `\/`) + `\` + c.Str("Name")
		}
		if providerPath(c, p, func(d psDrive, rest string) {
			if !d.set(c.S, rest, c.Named["Value"]) {
				c.S.P.NotSimulated("powershell: New-Item " + p)
				return
			}
			if v, found, _ := d.item(c.S, rest); found && v != nil {
				c.Out(v)
			}
		}) {
			continue
		}
		full := c.S.P.Path(p)
		if kind == "symboliclink" || kind == "junction" || kind == "hardlink" {
			newLink(c, kind, full)
			continue
		}
		if kind == "directory" {
			if _, err := c.S.P.ReadDir(p); err == nil && !c.Has("Force") {
				c.Fail("An item with the specified name "+full+" already exists.", "ResourceExists", full, "IOException", "DirectoryExist")
				continue
			}
			if err := mkdirAll(c.S.P, full); err != nil {
				msg, cat, reason, _ := engine.FileError(err, full, true)
				c.Fail(msg, cat, full, reason, "CreateDirectoryUnauthorizedAccessError")
				continue
			}
			c.Out(c.FileObject(process.ParentDir(full), process.BaseName(full), true, 0, c.S.P.Now()))
			continue
		}
		if _, err := c.S.P.ReadFile(p); err == nil && !c.Has("Force") {
			c.Fail("The file '"+full+"' already exists.", "WriteError", full, "IOException", "NewItemIOError")
			continue
		}
		data := []byte(c.Str("Value"))
		if c.Has("Force") {
			// "-Force lets you create a file ... even when the directories
			// in the path do not exist" (New-Item's Example 3)
			_ = mkdirAll(c.S.P, process.ParentDir(full))
		}
		if err := c.S.P.WriteFile(p, data, false); err != nil {
			msg, cat, reason, _ := engine.FileError(err, full, true)
			c.Fail(msg, cat, full, reason, "NewItemUnauthorizedAccessError")
			continue
		}
		c.Out(c.FileObject(process.ParentDir(full), process.BaseName(full), false, int64(len(data)), c.S.P.Now()))
	}
}

// newLink is New-Item -ItemType SymbolicLink, Junction or HardLink with
// -Value (alias -Target), Windows PowerShell 5.0's links
// (https://learn.microsoft.com/powershell/module/microsoft.powershell.management/new-item?view=powershell-5.1):
// the target must exist and is kept as its full path; a symbolic link
// needs SeCreateSymbolicLinkPrivilege, which ContainerUser lacks (row B9),
// a junction needs none. A hard link is a copy, as cmd's mklink /h.
func newLink(c *engine.Call, kind, full string) {
	p := c.S.P
	target := c.Str("Value")
	if target == "" {
		target = c.Str("Target")
	}
	tfull := p.Path(target)
	_, ferr := p.ReadFile(tfull)
	_, derr := p.ReadDir(tfull)
	if ferr != nil && derr != nil {
		c.Fail("Cannot find path '"+tfull+"' because it does not exist.", "ObjectNotFound", tfull, "ItemNotFoundException", "PathNotFound")
		return
	}
	if _, err := p.Readlink(full); err == nil || exists(p, full) {
		c.Fail("An item with the specified name "+full+" already exists.", "ResourceExists", full, "IOException", "SymLinkExists")
		return
	}
	var err error
	switch kind {
	case "symboliclink":
		if !process.IsAdministrator(p.Env) {
			c.Fail("Administrator privilege required for this operation.", "PermissionDenied", full, "UnauthorizedAccessException", "NewItemSymbolicLinkElevationRequired")
			return
		}
		err = p.Symlink(tfull, full)
	case "junction":
		err = p.Junction(tfull, full)
	default:
		err = p.CopyTree(tfull, full)
	}
	if err != nil {
		msg, cat, reason, _ := engine.FileError(err, full, true)
		c.Fail(msg, cat, full, reason, "NewItemIOError")
		return
	}
	o := c.FileObject(process.ParentDir(full), process.BaseName(full), derr == nil, 0, p.Now())
	if kind != "hardlink" {
		o.Props[0].Val = childMode(derr == nil, true, 0o666)
	}
	c.Out(o)
}

func exists(p *process.Proc, full string) bool {
	_, ferr := p.ReadFile(full)
	_, derr := p.ReadDir(full)
	return ferr == nil || derr == nil
}

func cmdletCopyItem(c *engine.Call) {
	dst := c.Str("Destination")
	for _, p := range c.Paths() {
		full := c.S.P.Path(p)
		data, err := c.S.P.ReadFile(p)
		if err != nil {
			msg, cat, reason, fq := engine.FileError(err, full, false)
			c.Fail(msg, cat, full, reason, fq)
			continue
		}
		target := dst
		if _, derr := c.S.P.ReadDir(dst); derr == nil {
			target = strings.TrimRight(dst, `\/`) + `\` + process.BaseName(full)
		}
		if err := c.S.P.WriteFile(target, data, false); err != nil {
			tf := c.S.P.Path(target)
			msg, cat, reason, _ := engine.FileError(err, tf, true)
			c.Fail(msg, cat, tf, reason, "CopyFileInfoItemUnauthorizedAccessError")
		}
	}
}

func cmdletSetLocation(c *engine.Call) {
	p := c.Str("Path")
	if p == "" {
		p = `C:\`
	}
	full := c.S.P.Path(p)
	if _, err := c.S.P.ReadDir(p); err != nil {
		msg, cat, reason, fq := engine.FileError(fs.ErrNotExist, full, false)
		c.Fail(msg, cat, full, reason, fq)
		return
	}
	c.S.P.Dir = full
}

// cmdletPushLocation is Push-Location: the current directory goes on the
// stack, then Set-Location.
func cmdletPushLocation(c *engine.Call) {
	before := c.S.P.Dir
	cmdletSetLocation(c)
	if c.S.P.Dir != before || c.Str("Path") == "" {
		c.S.Locations = append(c.S.Locations, before)
	}
}

// cmdletPopLocation is Pop-Location: back to the directory last pushed.
func cmdletPopLocation(c *engine.Call) {
	if n := len(c.S.Locations); n > 0 {
		c.S.P.Dir = c.S.Locations[n-1]
		c.S.Locations = c.S.Locations[:n-1]
	}
}

// cmdletResolvePath is Resolve-Path: the full path of each item that
// exists (a PathInfo, shown as its Path).
func cmdletResolvePath(c *engine.Call) {
	for _, p := range c.Paths() {
		full := c.S.P.Path(p)
		_, ferr := c.S.P.ReadFile(p)
		_, derr := c.S.P.ReadDir(p)
		if ferr != nil && derr != nil {
			c.Fail("Cannot find path '"+full+"' because it does not exist.", "ObjectNotFound", full, "ItemNotFoundException", "PathNotFound")
			continue
		}
		c.Out(&engine.Object{TypeName: "System.Management.Automation.PathInfo", View: "table", Str: full,
			Cols: []engine.Col{{Name: "Path"}}, Props: []engine.Prop{{Name: "Path", Val: full}}})
	}
}

// cmdletTeeObject is Tee-Object: the input passes on and is written to a
// file (-FilePath, -Append) or a variable (-Variable) too.
func cmdletTeeObject(c *engine.Call) {
	for _, v := range c.Input {
		c.Out(v)
	}
	if name := c.Str("Variable"); name != "" {
		c.S.SetVar(name, engine.Collapse(c.Input))
		return
	}
	file := c.Str("FilePath")
	if file == "" {
		file = c.Str("LiteralPath")
	}
	if file == "" {
		return
	}
	// Windows PowerShell 5.1 writes the file as Out-File does: UTF-16
	data := c.S.EncodeOutFile(engine.FormatToString(c.Input, "\r\n"))
	if old, err := c.S.P.ReadFile(file); err == nil && len(old) > 0 && c.Has("Append") && len(data) >= 2 && data[0] == 0xff && data[1] == 0xfe {
		data = data[2:] // one BOM per file
	}
	if err := c.S.P.WriteFile(file, data, c.Has("Append")); err != nil {
		full := c.S.P.Path(file)
		msg, cat, reason, fq := engine.FileError(err, full, true)
		c.Fail(msg, cat, full, reason, fq)
	}
}

// mkdirAll creates a directory with its parents where the container's file
// system can (process.Mkdirer); one that cannot keeps directories implicit.
func mkdirAll(p *process.Proc, full string) error {
	if m, ok := p.Env.Files.(interface{ MkdirAll(string) error }); ok {
		return m.MkdirAll(full)
	}
	return nil
}

// cmdletMkdir is the mkdir / md function: New-Item -ItemType Directory.
func cmdletMkdir(c *engine.Call) {
	c.Named["ItemType"] = "Directory"
	cmdletNewItem(c)
}

// cmdletRemoveItem is Remove-Item (rm, del, rd, rmdir, erase, ri).
func cmdletRemoveItem(c *engine.Call) {
	for _, p := range c.Paths() {
		if providerPath(c, p, func(d psDrive, rest string) {
			if !d.remove(c.S, rest) {
				itemNotFound(c, rest)
			}
		}) {
			continue
		}
		full := c.S.P.Path(p)
		_, ferr := c.S.P.ReadFile(p)
		_, derr := c.S.P.ReadDir(p)
		if ferr != nil && derr != nil && !errors.Is(ferr, fs.ErrPermission) {
			c.Fail("Cannot find path '"+full+"' because it does not exist.", "ObjectNotFound", full, "ItemNotFoundException", "PathNotFound")
			continue
		}
		if err := c.S.P.Remove(p); err != nil {
			msg, cat, reason, _ := engine.FileError(err, full, true)
			c.Fail(msg, cat, full, reason, "RemoveFileSystemItemUnAuthorizedAccess")
		}
	}
}

func init() {
	engine.RegisterCmdlets(
		&engine.Cmdlet{Name: "Push-Location", Aliases: []string{"pushd"}, Help: "Saves the current directory on a stack and sets another.", Positional: []string{"Path"}, Params: []string{"LiteralPath", "StackName"}, Switches: []string{"PassThru"}, Run: cmdletPushLocation},
		&engine.Cmdlet{Name: "Pop-Location", Aliases: []string{"popd"}, Help: "Returns to the directory last pushed.", Params: []string{"StackName"}, Switches: []string{"PassThru"}, Run: cmdletPopLocation},
		&engine.Cmdlet{Name: "Resolve-Path", Aliases: []string{"rvpa"}, Help: "Resolves a path to the full path of what is there.", Positional: []string{"Path"}, Params: []string{"LiteralPath"}, Switches: []string{"Relative"}, Run: cmdletResolvePath},
		&engine.Cmdlet{Name: "Tee-Object", Aliases: []string{"tee"}, Help: "Passes input on and saves it in a file or a variable.", Positional: []string{"FilePath"}, Params: []string{"LiteralPath", "Variable", "InputObject", "Encoding"}, Switches: []string{"Append"}, Run: cmdletTeeObject},
		&engine.Cmdlet{Name: "Get-Content", Aliases: []string{"gc", "cat", "type"}, Help: "Gets the content of a file.", Rows: "E, B11, B12", Positional: []string{"Path"}, Params: []string{"LiteralPath", "TotalCount", "Head", "First", "Tail", "Last", "Encoding", "Delimiter", "ReadCount"}, Switches: []string{"Raw", "Wait", "Force"}, Run: cmdletGetContent},
		&engine.Cmdlet{Name: "Set-Content", Aliases: []string{"sc"}, Help: "Writes content to a file.", Rows: "E, B10, B11", Positional: []string{"Path", "Value*"}, Params: []string{"LiteralPath", "Encoding"}, Switches: []string{"NoNewline", "Force", "PassThru"}, Run: cmdletSetContent},
		&engine.Cmdlet{Name: "Add-Content", Aliases: []string{"ac"}, Help: "Appends content to a file.", Rows: "E, B11", Positional: []string{"Path", "Value*"}, Params: []string{"LiteralPath", "Encoding"}, Switches: []string{"NoNewline", "Force", "PassThru"}, Run: cmdletSetContent},
		&engine.Cmdlet{Name: "Out-File", Help: "Sends output to a file (UTF-16 in Windows PowerShell 5.1).", Rows: "E, B11", Positional: []string{"FilePath", "Encoding"}, Params: []string{"InputObject", "LiteralPath", "Width"}, Switches: []string{"Append", "NoNewline", "Force", "NoClobber"}, Run: cmdletOutFile},
		&engine.Cmdlet{Name: "Test-Path", Help: "Tells whether a path exists.", Rows: "E, B10", Positional: []string{"Path"}, Params: []string{"LiteralPath", "PathType"}, Switches: []string{"IsValid"}, Run: cmdletTestPath},
		&engine.Cmdlet{Name: "Get-ChildItem", Aliases: []string{"gci", "ls", "dir"}, Help: "Lists a directory.", Rows: "E, B10", Positional: []string{"Path", "Filter"}, Params: []string{"LiteralPath", "Include", "Exclude", "Depth"}, Switches: []string{"Name", "Recurse", "File", "Directory", "Force", "Hidden"}, Run: cmdletGetChildItem},
		&engine.Cmdlet{Name: "Get-Item", Aliases: []string{"gi"}, Help: "Gets an item.", Positional: []string{"Path"}, Params: []string{"LiteralPath"}, Switches: []string{"Force"}, Run: cmdletGetItem},
		&engine.Cmdlet{Name: "New-Item", Aliases: []string{"ni"}, Help: "Creates a file (directories exist implicitly).", Positional: []string{"Path"}, Params: []string{"ItemType", "Type", "Value", "Target", "Name"}, Switches: []string{"Force"}, Run: cmdletNewItem},
		&engine.Cmdlet{Name: "Copy-Item", Aliases: []string{"copy", "cp", "cpi"}, Help: "Copies a file.", Positional: []string{"Path", "Destination"}, Params: []string{"LiteralPath"}, Switches: []string{"Force", "Recurse", "PassThru"}, Run: cmdletCopyItem},
		&engine.Cmdlet{Name: "Set-Location", Aliases: []string{"cd", "sl", "chdir"}, Help: "Sets the current directory.", Positional: []string{"Path"}, Params: []string{"LiteralPath"}, Switches: []string{"PassThru"}, Run: cmdletSetLocation},
		&engine.Cmdlet{Name: "mkdir", Aliases: []string{"md"}, Help: "Creates a directory (New-Item -ItemType Directory).", Positional: []string{"Path"}, Params: []string{"Name", "Value"}, Switches: []string{"Force"}, Class: "Microsoft.PowerShell.Commands.NewItemCommand", Run: cmdletMkdir},
		&engine.Cmdlet{Name: "Remove-Item", Aliases: []string{"rm", "del", "erase", "rd", "rmdir", "ri"}, Help: "Deletes files and directories.", Positional: []string{"Path"}, Params: []string{"LiteralPath", "Filter", "Include", "Exclude"}, Switches: []string{"Recurse", "Force"}, Run: cmdletRemoveItem},
	)
}
