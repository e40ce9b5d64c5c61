package cmd

import (
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"

	"wink.dev/wink/simnode/shell/process"
)

// dirListing is cmd's `dir` (upstream host_process.go runs
// `cmd /c dir <file>`): the volume header, one line per entry, the totals.
func dirListing(p *process.Proc, args []string) int {
	target := ""
	var sel dirSelect
	bare, deep := false, false
	for _, a := range args {
		switch la := strings.ToLower(a); {
		case la == "/b":
			bare = true
		case la == "/s":
			deep = true
		case la == "/ad" || la == "/a:d":
			sel.only = "d"
		case la == "/a-d" || la == "/a:-d":
			sel.only = "-d"
		case !strings.HasPrefix(a, "/"):
			target = a
		}
	}
	full := p.Path(target)
	if hasWild(process.BaseName(full)) {
		sel.pattern = process.BaseName(full)
		full = process.ParentDir(full)
	}
	if bare {
		return dirBare(p, full, deep, sel)
	}
	p.Println(" Volume in drive C has no label.")
	p.Println(" Volume Serial Number is 5E4A-8C1F")
	p.Println("")
	type row struct {
		name     string
		dir      bool
		size     int64
		mtime    time.Time
		link     string // a link's target: <SYMLINK>, to a directory <SYMLINKD>, of a junction <JUNCTION>
		junction bool
	}
	var rows []row
	dirOf := full
	if data, err := p.ReadFile(full); err == nil {
		i := strings.LastIndex(full, `\`)
		dirOf = full[:i]
		if len(dirOf) == 2 {
			dirOf += `\`
		}
		rows = append(rows, row{name: full[i+1:], size: int64(len(data)), mtime: p.Now()})
	} else {
		ents, err := p.ReadDir(full)
		if err != nil {
			p.Println(" Directory of " + process.ParentDir(full))
			p.Println("")
			p.Eprintln("File Not Found")
			return 1
		}
		if len(full) > 3 && sel.pattern == "" && sel.only != "-d" {
			rows = append(rows, row{name: ".", dir: true, mtime: p.Now()}, row{name: "..", dir: true, mtime: p.Now()})
		}
		for _, e := range ents {
			r := row{name: e.Name(), dir: e.IsDir(), mtime: p.Now()}
			if info, err := e.Info(); err == nil {
				r.size, r.mtime = info.Size(), info.ModTime()
			}
			if process.IsLink(e.Type()) {
				r.junction = e.Type()&fs.ModeIrregular != 0
				target := process.WinJoin(full, e.Name())
				r.link, _ = p.Readlink(target)
				_, err := p.ReadDir(target)
				r.dir, r.size = err == nil, 0
			}
			if !sel.match(e.Name(), r.dir) {
				continue
			}
			rows = append(rows, r)
		}
		sort.SliceStable(rows, func(i, j int) bool {
			if rows[i].name == "." || rows[i].name == ".." {
				return rows[j].name != "." && rows[j].name != ".." || rows[i].name == "."
			}
			if rows[j].name == "." || rows[j].name == ".." {
				return false
			}
			return strings.ToLower(rows[i].name) < strings.ToLower(rows[j].name)
		})
	}
	p.Println(" Directory of " + dirOf)
	p.Println("")
	files, dirs, bytes := 0, 0, int64(0)
	for _, r := range rows {
		stamp := r.mtime.Format("01/02/2006  03:04 PM")
		if r.link != "" {
			kind := "<SYMLINK> "
			if r.junction {
				kind, dirs = "<JUNCTION>", dirs+1
			} else if r.dir {
				kind, dirs = "<SYMLINKD>", dirs+1
			} else {
				files++
			}
			p.Println(fmt.Sprintf("%s    %s     %s [%s]", stamp, kind, r.name, r.link))
			continue
		}
		if r.dir {
			dirs++
			p.Println(fmt.Sprintf("%s    <DIR>          %s", stamp, r.name))
			continue
		}
		files++
		bytes += r.size
		p.Println(fmt.Sprintf("%s %18s %s", stamp, commas(r.size), r.name))
	}
	p.Println(fmt.Sprintf("%16d File(s) %14s bytes", files, commas(bytes)))
	p.Println(fmt.Sprintf("%16d Dir(s) %15s bytes free", dirs, commas(21474836480)))
	return 0
}

// commas formats n as 21,474,836,480.
func commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	if len(s) <= 3 {
		return s
	}
	var b strings.Builder
	pre := len(s) % 3
	if pre > 0 {
		b.WriteString(s[:pre])
	}
	for i := pre; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// dirBare is `dir /b` (names only) and `dir /s /b` (full paths of the
// whole tree), windows-commands/dir.
func dirBare(p *process.Proc, full string, deep bool, sel dirSelect) int {
	if _, err := p.ReadFile(full); err == nil {
		if deep {
			p.Println(full)
		} else {
			p.Println(process.BaseName(full))
		}
		return 0
	}
	dirs := []string{full}
	if deep {
		dirs = walkDirs(p, full)
	}
	n := 0
	for _, d := range dirs {
		ents, err := p.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if !sel.match(e.Name(), e.IsDir()) {
				continue
			}
			n++
			if deep {
				p.Println(process.WinJoin(d, e.Name()))
			} else {
				p.Println(e.Name())
			}
		}
	}
	if n == 0 {
		p.Eprintln("File Not Found")
		return 1
	}
	return 0
}

// dirSelect is which entries dir lists: a wildcard, /a:d directories,
// /a:-d files.
type dirSelect struct {
	pattern string
	only    string // "", "d", "-d"
}

func (d dirSelect) match(name string, isDir bool) bool {
	if d.only == "d" && !isDir || d.only == "-d" && isDir {
		return false
	}
	return d.pattern == "" || matchWild(d.pattern, name)
}
