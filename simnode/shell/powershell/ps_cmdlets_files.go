package powershell

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"wink.dev/wink/simnode/shell/process"
)

// psFileError is the message, category, exception and error id of a file
// error (row B11: "Access to the path '...' is denied.").
func psFileError(err error, full string, write bool) (msg, category, reason, fqid string) {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return "Access to the path '" + full + "' is denied.", "PermissionDenied", "UnauthorizedAccessException", "System.UnauthorizedAccessException"
	case errors.Is(err, fs.ErrNotExist) && write:
		return "Could not find a part of the path '" + full + "'.", "ObjectNotFound", "DirectoryNotFoundException", "GetContentWriterDirectoryNotFoundError"
	case errors.Is(err, fs.ErrNotExist):
		return "Cannot find path '" + full + "' because it does not exist.", "ObjectNotFound", "ItemNotFoundException", "PathNotFound"
	}
	return err.Error(), "NotSpecified", "IOException", "System.IO.IOException"
}

func (c *psCall) paths() []string {
	v := c.named["Path"]
	if lp, ok := c.named["LiteralPath"]; ok {
		v = lp
	}
	var out []string
	for _, x := range enumerate(v) {
		out = append(out, toStr(x))
	}
	return out
}

func cmdletGetContent(c *psCall) {
	paths := c.paths()
	if len(paths) == 0 {
		for _, v := range c.input {
			paths = append(paths, toStr(v))
		}
	}
	for _, p := range paths {
		if ev, ok := cutFold(p, "env:"); ok {
			v, found := c.s.p.Vars.Get(strings.TrimLeft(ev, `\`))
			if found {
				c.out(v)
				continue
			}
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
		if ev, ok := cutFold(p, "env:"); ok {
			_, found := c.s.p.Vars.Get(strings.TrimLeft(ev, `\`))
			c.out(found)
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

var childItemCols = []psCol{{name: "Mode", width: 13}, {name: "LastWriteTime", width: 21, right: true}, {name: "Length", width: 15, right: true}, {name: "Name"}}

func (c *psCall) fileObject(dir, name string, isDir bool, size int64, mt time.Time) *psObject {
	mode, length := "-a----", strconv.FormatInt(size, 10)
	if isDir {
		mode, length = "d-----", ""
	}
	return &psObject{
		typeName: map[bool]string{true: "System.IO.DirectoryInfo", false: "System.IO.FileInfo"}[isDir],
		view:     "table", cols: childItemCols, group: "    Directory: " + dir, str: name,
		props: []psProp{{"Mode", mode}, {"LastWriteTime", fmt.Sprintf("%10s  %8s", mt.Format("1/2/2006"), mt.Format("3:04 PM"))}, {"Length", length}, {"Name", name},
			{"FullName", process.WinJoin(dir, name)}},
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

func cmdletGetChildItem(c *psCall) {
	paths := c.paths()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	for _, p := range paths {
		if strings.EqualFold(strings.TrimRight(p, `\/`), "env:") {
			for _, e := range c.s.p.Vars.Sorted() {
				c.out(&psObject{typeName: "System.Collections.DictionaryEntry", view: "table", str: e.Name,
					cols: []psCol{{name: "Name", width: 31}, {name: "Value"}}, props: []psProp{{"Name", e.Name}, {"Value", e.Value}}})
			}
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
			isDir, link := e.IsDir(), e.Type()&fs.ModeSymlink != 0
			if link {
				// .NET sees a link to a directory as a directory
				_, err := c.s.p.ReadDir(process.WinJoin(full, e.Name()))
				isDir = err == nil
			}
			if (c.has("File") && isDir) || (c.has("Directory") && !isDir) {
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
			o := c.fileObject(full, e.Name(), isDir, size, mt)
			if info, err := e.Info(); err == nil {
				if !link {
					size = info.Size()
				}
				o = c.fileObject(full, e.Name(), isDir, size, info.ModTime())
				o.props[0].val = childMode(isDir, link, info.Mode())
			}
			c.out(o)
		}
	}
}

func cmdletGetItem(c *psCall) {
	for _, p := range c.paths() {
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
		&psCmdlet{name: "mkdir", aliases: []string{"md"}, help: "Creates a directory (New-Item -ItemType Directory).", positional: []string{"Path"}, params: []string{"Name", "Value"}, switches: []string{"Force"}, class: "Microsoft.PowerShell.Commands.NewItemCommand", run: cmdletMkdir},
		&psCmdlet{name: "Remove-Item", aliases: []string{"rm", "del", "erase", "rd", "rmdir", "ri"}, help: "Deletes files and directories.", positional: []string{"Path"}, params: []string{"LiteralPath", "Filter", "Include", "Exclude"}, switches: []string{"Recurse", "Force"}, run: cmdletRemoveItem},
	)
}
