package powershell

import (
	"errors"
	"io/fs"
	"strings"
	"wink.dev/wink/simnode/shell/process"
)

func cmdletGetContent(c *psCall) {
	paths := c.paths()
	if len(paths) == 0 {
		for _, v := range c.input {
			paths = append(paths, toStr(v))
		}
	}
	for _, p := range paths {
		if providerPath(c, p, func(d psDrive, rest string) {
			if v, ok := d.content(c.s, rest); ok {
				c.out(v)
			} else {
				itemNotFound(c, rest)
			}
		}) {
			continue
		}
		full := c.s.p.Path(p)
		data, err := c.s.p.ReadFile(p)
		if err != nil {
			if _, derr := c.s.p.ReadDir(p); derr == nil {
				c.fail("Access to the path '"+full+"' is denied.", "PermissionDenied", full, "UnauthorizedAccessException", "GetContentReaderUnauthorizedAccessError")
				continue
			}
			msg, cat, reason, fq := psFileError(err, full, false)
			c.fail(msg, cat, full, reason, fq)
			continue
		}
		text := DecodeText(data)
		if c.has("Raw") {
			c.out(text)
			continue
		}
		text = strings.ReplaceAll(text, "\r\n", "\n")
		text = strings.TrimSuffix(text, "\n")
		if text == "" {
			continue
		}
		lines := strings.Split(text, "\n")
		for _, k := range []string{"TotalCount", "Head", "First"} {
			if c.set(k) {
				if n := int(toInt(c.named[k])); n >= 0 && n < len(lines) {
					lines = lines[:n]
				}
			}
		}
		for _, k := range []string{"Tail", "Last"} {
			if c.set(k) {
				if n := int(toInt(c.named[k])); n >= 0 && n < len(lines) {
					lines = lines[len(lines)-n:]
				}
			}
		}
		for _, l := range lines {
			c.out(l)
		}
	}
}

// cmdletSetContent is Set-Content and Add-Content (upstream
// host_process.go:168 `powershell -c Set-content -Path <f> -V test`).
func cmdletSetContent(c *psCall) {
	vals := enumerate(c.named["Value"])
	if !c.set("Value") {
		vals = c.input
	}
	var b strings.Builder
	for _, v := range vals {
		b.WriteString(toStr(v))
		if !c.has("NoNewline") {
			b.WriteString("\r\n")
		}
	}
	appendTo := c.cmdlet.name == "Add-Content"
	for _, p := range c.paths() {
		full := c.s.p.Path(p)
		if err := c.s.p.WriteFile(p, []byte(b.String()), appendTo); err != nil {
			msg, cat, reason, fq := psFileError(err, full, true)
			c.fail(msg, cat, full, reason, fq)
			continue
		}
		if c.has("PassThru") {
			for _, v := range vals {
				c.out(v)
			}
		}
	}
}

func cmdletOutFile(c *psCall) {
	path := c.str("FilePath")
	if c.set("LiteralPath") {
		path = c.str("LiteralPath")
	}
	vals := c.input
	if v, ok := c.named["InputObject"]; ok {
		vals = enumerate(v)
	}
	text := formatToString(vals, "\r\n")
	if c.has("NoNewline") {
		text = strings.TrimRight(text, "\r\n")
	}
	data := c.s.encodeOutFile(text)
	enc := strings.ToLower(c.str("Encoding"))
	if enc == "utf8" || enc == "ascii" || enc == "default" || enc == "oem" || enc == "utf8nobom" {
		data = []byte(text)
	}
	full := c.s.p.Path(path)
	if old, err := c.s.p.ReadFile(path); err == nil && len(old) > 0 && c.has("Append") && len(data) >= 2 && data[0] == 0xff && data[1] == 0xfe {
		data = data[2:] // one BOM per file
	}
	if err := c.s.p.WriteFile(path, data, c.has("Append")); err != nil {
		msg, cat, reason, fq := psFileError(err, full, true)
		c.fail(msg, cat, full, reason, fq)
	}
}

func cmdletTestPath(c *psCall) {
	kind := strings.ToLower(c.str("PathType"))
	for _, p := range c.paths() {
		if providerPath(c, p, func(d psDrive, rest string) {
			_, found, _ := d.item(c.s, rest)
			c.out(found)
		}) {
			continue
		}
		_, ferr := c.s.p.ReadFile(p)
		_, derr := c.s.p.ReadDir(p)
		switch kind {
		case "leaf":
			c.out(ferr == nil)
		case "container":
			c.out(derr == nil)
		default:
			c.out(ferr == nil || derr == nil)
		}
	}
}

func cmdletGetChildItem(c *psCall) {
	paths := c.paths()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	for _, p := range paths {
		if providerPath(c, p, func(d psDrive, rest string) {
			items, ok := d.children(c.s, rest)
			if !ok {
				itemNotFound(c, p)
			}
			for _, it := range items {
				c.out(it)
			}
		}) {
			continue
		}
		full := c.s.p.Path(p)
		if data, err := c.s.p.ReadFile(p); err == nil {
			if c.has("Directory") {
				continue
			}
			o := c.fileObject(process.ParentDir(full), process.BaseName(full), false, int64(len(data)), c.s.p.Now())
			if c.has("Name") {
				c.out(process.BaseName(full))
				continue
			}
			c.out(o)
			continue
		}
		ents, err := c.s.p.ReadDir(p)
		if err != nil {
			msg, cat, reason, fq := psFileError(fs.ErrNotExist, full, false)
			c.fail(msg, cat, full, reason, fq)
			continue
		}
		for _, e := range ents {
			if (c.has("File") && e.IsDir()) || (c.has("Directory") && !e.IsDir()) {
				continue
			}
			if f := c.str("Filter"); f != "" && !wildcardMatch(f, e.Name(), true) {
				continue
			}
			if c.has("Name") {
				c.out(e.Name())
				continue
			}
			size, mt := int64(0), c.s.p.Now()
			if info, err := e.Info(); err == nil {
				size, mt = info.Size(), info.ModTime()
			}
			c.out(c.fileObject(full, e.Name(), e.IsDir(), size, mt))
		}
	}
}

func cmdletGetItem(c *psCall) {
	for _, p := range c.paths() {
		if providerPath(c, p, func(d psDrive, rest string) {
			switch v, found, known := d.item(c.s, rest); {
			case found && v != nil:
				c.out(v)
			case !found && known:
				itemNotFound(c, rest)
			}
		}) {
			continue
		}
		full := c.s.p.Path(p)
		if data, err := c.s.p.ReadFile(p); err == nil {
			c.out(c.fileObject(process.ParentDir(full), process.BaseName(full), false, int64(len(data)), c.s.p.Now()))
			continue
		}
		if _, err := c.s.p.ReadDir(p); err == nil {
			c.out(c.fileObject(process.ParentDir(full), process.BaseName(full), true, 0, c.s.p.Now()))
			continue
		}
		msg, cat, reason, fq := psFileError(fs.ErrNotExist, full, false)
		c.fail(msg, cat, full, reason, fq)
	}
}

func cmdletNewItem(c *psCall) {
	kind := strings.ToLower(c.str("ItemType") + c.str("Type"))
	for _, p := range c.paths() {
		if c.set("Name") {
			p = strings.TrimRight(p, `\/`) + `\` + c.str("Name")
		}
		if providerPath(c, p, func(d psDrive, rest string) {
			if !d.set(c.s, rest, c.named["Value"]) {
				c.s.p.NotSimulated("powershell: New-Item " + p)
				return
			}
			if v, found, _ := d.item(c.s, rest); found && v != nil {
				c.out(v)
			}
		}) {
			continue
		}
		full := c.s.p.Path(p)
		if kind == "directory" {
			if _, err := c.s.p.ReadDir(p); err == nil && !c.has("Force") {
				c.fail("An item with the specified name "+full+" already exists.", "ResourceExists", full, "IOException", "DirectoryExist")
				continue
			}
			if err := mkdirAll(c.s.p, full); err != nil {
				msg, cat, reason, _ := psFileError(err, full, true)
				c.fail(msg, cat, full, reason, "CreateDirectoryUnauthorizedAccessError")
				continue
			}
			c.out(c.fileObject(process.ParentDir(full), process.BaseName(full), true, 0, c.s.p.Now()))
			continue
		}
		if _, err := c.s.p.ReadFile(p); err == nil && !c.has("Force") {
			c.fail("The file '"+full+"' already exists.", "WriteError", full, "IOException", "NewItemIOError")
			continue
		}
		data := []byte(c.str("Value"))
		if err := c.s.p.WriteFile(p, data, false); err != nil {
			msg, cat, reason, _ := psFileError(err, full, true)
			c.fail(msg, cat, full, reason, "NewItemUnauthorizedAccessError")
			continue
		}
		c.out(c.fileObject(process.ParentDir(full), process.BaseName(full), false, int64(len(data)), c.s.p.Now()))
	}
}

func cmdletCopyItem(c *psCall) {
	dst := c.str("Destination")
	for _, p := range c.paths() {
		full := c.s.p.Path(p)
		data, err := c.s.p.ReadFile(p)
		if err != nil {
			msg, cat, reason, fq := psFileError(err, full, false)
			c.fail(msg, cat, full, reason, fq)
			continue
		}
		target := dst
		if _, derr := c.s.p.ReadDir(dst); derr == nil {
			target = strings.TrimRight(dst, `\/`) + `\` + process.BaseName(full)
		}
		if err := c.s.p.WriteFile(target, data, false); err != nil {
			tf := c.s.p.Path(target)
			msg, cat, reason, _ := psFileError(err, tf, true)
			c.fail(msg, cat, tf, reason, "CopyFileInfoItemUnauthorizedAccessError")
		}
	}
}

func cmdletSetLocation(c *psCall) {
	p := c.str("Path")
	if p == "" {
		p = `C:\`
	}
	full := c.s.p.Path(p)
	if _, err := c.s.p.ReadDir(p); err != nil {
		msg, cat, reason, fq := psFileError(fs.ErrNotExist, full, false)
		c.fail(msg, cat, full, reason, fq)
		return
	}
	c.s.p.Dir = full
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
func cmdletMkdir(c *psCall) {
	c.named["ItemType"] = "Directory"
	cmdletNewItem(c)
}

// cmdletRemoveItem is Remove-Item (rm, del, rd, rmdir, erase, ri).
func cmdletRemoveItem(c *psCall) {
	for _, p := range c.paths() {
		if providerPath(c, p, func(d psDrive, rest string) {
			if !d.remove(c.s, rest) {
				itemNotFound(c, rest)
			}
		}) {
			continue
		}
		full := c.s.p.Path(p)
		_, ferr := c.s.p.ReadFile(p)
		_, derr := c.s.p.ReadDir(p)
		if ferr != nil && derr != nil && !errors.Is(ferr, fs.ErrPermission) {
			c.fail("Cannot find path '"+full+"' because it does not exist.", "ObjectNotFound", full, "ItemNotFoundException", "PathNotFound")
			continue
		}
		if err := c.s.p.Remove(p); err != nil {
			msg, cat, reason, _ := psFileError(err, full, true)
			c.fail(msg, cat, full, reason, "RemoveFileSystemItemUnAuthorizedAccess")
		}
	}
}

func init() {
	registerCmdlets(
		&psCmdlet{name: "Get-Content", aliases: []string{"gc", "cat", "type"}, help: "Gets the content of a file.", rows: "E, B11, B12", positional: []string{"Path"}, params: []string{"LiteralPath", "TotalCount", "Head", "First", "Tail", "Last", "Encoding", "Delimiter", "ReadCount"}, switches: []string{"Raw", "Wait", "Force"}, run: cmdletGetContent},
		&psCmdlet{name: "Set-Content", aliases: []string{"sc"}, help: "Writes content to a file.", rows: "E, B10, B11", positional: []string{"Path", "Value*"}, params: []string{"LiteralPath", "Encoding"}, switches: []string{"NoNewline", "Force", "PassThru"}, run: cmdletSetContent},
		&psCmdlet{name: "Add-Content", aliases: []string{"ac"}, help: "Appends content to a file.", rows: "E, B11", positional: []string{"Path", "Value*"}, params: []string{"LiteralPath", "Encoding"}, switches: []string{"NoNewline", "Force", "PassThru"}, run: cmdletSetContent},
		&psCmdlet{name: "Out-File", help: "Sends output to a file (UTF-16 in Windows PowerShell 5.1).", rows: "E, B11", positional: []string{"FilePath", "Encoding"}, params: []string{"InputObject", "LiteralPath", "Width"}, switches: []string{"Append", "NoNewline", "Force", "NoClobber"}, run: cmdletOutFile},
		&psCmdlet{name: "Test-Path", help: "Tells whether a path exists.", rows: "E, B10", positional: []string{"Path"}, params: []string{"LiteralPath", "PathType"}, switches: []string{"IsValid"}, run: cmdletTestPath},
		&psCmdlet{name: "Get-ChildItem", aliases: []string{"gci", "ls", "dir"}, help: "Lists a directory.", rows: "E, B10", positional: []string{"Path", "Filter"}, params: []string{"LiteralPath", "Include", "Exclude", "Depth"}, switches: []string{"Name", "Recurse", "File", "Directory", "Force", "Hidden"}, run: cmdletGetChildItem},
		&psCmdlet{name: "Get-Item", aliases: []string{"gi"}, help: "Gets an item.", positional: []string{"Path"}, params: []string{"LiteralPath"}, switches: []string{"Force"}, run: cmdletGetItem},
		&psCmdlet{name: "New-Item", aliases: []string{"ni"}, help: "Creates a file (directories exist implicitly).", positional: []string{"Path"}, params: []string{"ItemType", "Type", "Value", "Name"}, switches: []string{"Force"}, run: cmdletNewItem},
		&psCmdlet{name: "Copy-Item", aliases: []string{"copy", "cp", "cpi"}, help: "Copies a file.", positional: []string{"Path", "Destination"}, params: []string{"LiteralPath"}, switches: []string{"Force", "Recurse", "PassThru"}, run: cmdletCopyItem},
		&psCmdlet{name: "Set-Location", aliases: []string{"cd", "sl", "chdir"}, help: "Sets the current directory.", positional: []string{"Path"}, params: []string{"LiteralPath"}, switches: []string{"PassThru"}, run: cmdletSetLocation},
		&psCmdlet{name: "mkdir", aliases: []string{"md"}, help: "Creates a directory (New-Item -ItemType Directory).", positional: []string{"Path"}, params: []string{"Name", "Value"}, switches: []string{"Force"}, class: "Microsoft.PowerShell.Commands.NewItemCommand", run: cmdletMkdir},
		&psCmdlet{name: "Remove-Item", aliases: []string{"rm", "del", "erase", "rd", "rmdir", "ri"}, help: "Deletes files and directories.", positional: []string{"Path"}, params: []string{"LiteralPath", "Filter", "Include", "Exclude"}, switches: []string{"Recurse", "Force"}, run: cmdletRemoveItem},
	)
}
