package process

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"strings"
)

// fileWriter writes through to a file on every Write, so the file grows as
// a long-running command writes.
type fileWriter struct {
	p    *Proc
	name string
	data []byte
}

func (f *fileWriter) Write(b []byte) (int, error) {
	if len(f.data)+len(b) > MaxFile {
		return 0, ErrNoSpace // the simulated disk is full (issue 18)
	}
	f.data = append(f.data, b...)
	if err := f.p.WriteFile(f.name, f.data, false); err != nil {
		return 0, err
	}
	return len(b), nil
}

// OpenRedirect prepares an output file the way cmd opens it before running
// the command: > truncates, >> keeps. A read-only mount fails here with
// "Access is denied." (row B11).
func (p *Proc) OpenRedirect(name string, appendTo bool) (io.Writer, error) {
	if p.IsNullDevice(name) {
		return io.Discard, nil
	}
	var existing []byte
	if appendTo {
		existing, _ = p.ReadFile(name)
	}
	if err := p.WriteFile(name, existing, false); err != nil {
		return nil, err
	}
	return &fileWriter{p: p, name: name, data: existing}, nil
}

// BaseName is the last element of a Windows or Linux path.
func BaseName(full string) string {
	if i := strings.LastIndexAny(full, `\/`); i >= 0 {
		return full[i+1:]
	}
	return full
}

// WinJoin is name in the Windows directory dir (one backslash between).
func WinJoin(dir, name string) string {
	return strings.TrimRight(dir, `\`) + `\` + name
}

// winPath resolves p against dir the way Windows does: forward slashes are
// backslashes, `\x` is on drive C:, drive letters are upper case, `.` and
// `..` are folded. UNC paths (`\\server\share\...`) stay as they are.
func winPath(dir, p string) string {
	p = strings.ReplaceAll(p, "/", `\`)
	if strings.HasPrefix(p, `\\`) {
		return p
	}
	switch {
	case p == "":
		p = dir
	case len(p) >= 2 && p[1] == ':' && IsLetter(p[0]):
		p = strings.ToUpper(p[:1]) + ":" + `\` + strings.TrimLeft(p[2:], `\`)
	case strings.HasPrefix(p, `\`):
		p = "C:" + p
	default:
		p = WinJoin(dir, p)
	}
	if len(p) < 2 || p[1] != ':' {
		p = `C:\` + p
	}
	return WinClean(p)
}

// WinClean folds the empty, `.` and `..` elements of the absolute Windows
// path p (`X:\...`), never above its drive's root.
func WinClean(p string) string {
	var out []string
	for _, s := range strings.Split(p[3:], `\`) {
		switch s {
		case "", ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, s)
		}
	}
	return p[:3] + strings.Join(out, `\`)
}

// IsLetter reports whether c is an ASCII letter.
func IsLetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

func linuxPath(dir, p string) string {
	if p == "" {
		return dir
	}
	if !strings.HasPrefix(p, "/") {
		p = dir + "/" + p
	}
	return path.Clean(p)
}

// Path resolves s against the working directory, as the container sees it.
func (p *Proc) Path(s string) string {
	if p.Win {
		return winPath(p.Dir, s)
	}
	return linuxPath(p.Dir, s)
}

// ReadFile reads a file of the container (Env.Files).
func (p *Proc) ReadFile(name string) ([]byte, error) {
	if p.Env.Files == nil {
		return nil, fs.ErrNotExist
	}
	return p.Env.Files.ReadFile(p.Path(name))
}

// ReadDir lists a directory of the container (Env.Files).
func (p *Proc) ReadDir(name string) ([]fs.DirEntry, error) {
	if p.Env.Files == nil {
		return nil, fs.ErrNotExist
	}
	return p.Env.Files.ReadDir(p.Path(name))
}

// Readlink returns the target of the link at name (fs.ErrInvalid when it
// is no link, fs.ErrNotExist when nothing is there).
func (p *Proc) Readlink(name string) (string, error) {
	if l, ok := p.Env.Files.(Symlinks); ok {
		return l.Readlink(p.Path(name))
	}
	if _, err := p.ReadFile(name); err == nil {
		return "", fs.ErrInvalid
	}
	if _, err := p.ReadDir(name); err == nil {
		return "", fs.ErrInvalid
	}
	return "", fs.ErrNotExist
}

// WriteFile writes or appends. Writing to a read-only mount returns
// fs.ErrPermission (row B11); a file larger than MaxFile, ErrNoSpace.
func (p *Proc) WriteFile(name string, data []byte, appendTo bool) error {
	if p.Env.Files == nil {
		return fs.ErrPermission
	}
	full := p.Path(name)
	if appendTo {
		if old, err := p.Env.Files.ReadFile(full); err == nil {
			if len(old)+len(data) > MaxFile {
				return ErrNoSpace
			}
			data = append(append([]byte{}, old...), data...)
		}
	}
	if len(data) > MaxFile {
		return ErrNoSpace
	}
	return p.Env.Files.WriteFile(full, data)
}

// MaxFile is the largest file a simulated process writes (issue 18: the
// volumes wink simulates keep their files in simnode's memory): past it
// the simulated disk is full.
const MaxFile = MaxWrite

// ErrNoSpace is a write past MaxFile: the disk is full (ENOSPC on Linux,
// ERROR_DISK_FULL on Windows).
var ErrNoSpace = errors.New("No space left on device")

// Remove deletes a file or directory tree of the container (Env.Files);
// a file system that cannot delete answers fs.ErrPermission.
func (p *Proc) Remove(name string) error {
	r, ok := p.Env.Files.(Remover)
	if !ok {
		return fs.ErrPermission
	}
	return r.Remove(p.Path(name))
}

// MkdirAll creates a directory of the container and its parents (Env.Files);
// a file system that cannot create directories answers fs.ErrPermission.
func (p *Proc) MkdirAll(name string) error {
	m, ok := p.Env.Files.(Mkdirer)
	if !ok {
		return fs.ErrPermission
	}
	return m.MkdirAll(p.Path(name))
}

// CopyTree copies a file, or a directory with all it holds, from one path
// of the container to another (cp -r, mv, copy, move, xcopy, mklink's
// copy): a Step per entry, so that a large tree is paced and ends with
// the process (ErrStopped).
func (p *Proc) CopyTree(from, to string) error {
	if data, err := p.ReadFile(from); err == nil {
		return p.WriteFile(to, data, false)
	}
	ents, err := p.ReadDir(from)
	if err != nil {
		return err
	}
	if err := p.MkdirAll(to); err != nil {
		return err
	}
	join := func(dir, name string) string { return dir + "/" + name }
	if p.Win {
		join = WinJoin
	}
	for _, e := range ents {
		if p.Step() != nil {
			return ErrStopped
		}
		if err := p.CopyTree(join(from, e.Name()), join(to, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// IsNullDevice is NUL on Windows, /dev/null on Linux.
func (p *Proc) IsNullDevice(name string) bool {
	if p.Win {
		return strings.EqualFold(name, "nul") || strings.EqualFold(name, "$null")
	}
	return name == "/dev/null"
}

// CmdFileError is cmd.exe's message for a file error: row B11, upstream
// test/e2e/windows/volumes.go:106 expects exactly "Access is denied.".
func CmdFileError(err error, write bool) string {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return "Access is denied."
	case errors.Is(err, fs.ErrNotExist) && write:
		return "The system cannot find the path specified."
	case errors.Is(err, fs.ErrNotExist):
		return "The system cannot find the file specified."
	case errors.Is(err, ErrNoSpace):
		return "There is not enough space on the disk."
	default:
		return err.Error()
	}
}

// PosixFileError is the errno text Linux tools print.
func PosixFileError(err error, write bool) string {
	switch {
	case errors.Is(err, fs.ErrPermission) && write:
		return "Read-only file system"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	default:
		return err.Error()
	}
}

// ParentDir is the directory a Windows or Linux path is in.
func ParentDir(full string) string {
	i := strings.LastIndex(full, `\`)
	if i <= 2 {
		return full[:3]
	}
	return full[:i]
}

// ErrNoLinks is Symlink on a file system that keeps no symbolic links.
var ErrNoLinks = errors.New("symbolic links not simulated on this file system")

// Symlink makes link a symbolic link to target (Symlinks), or ErrNoLinks.
func (p *Proc) Symlink(target, link string) error {
	l, ok := p.Env.Files.(Symlinks)
	if !ok {
		return ErrNoLinks
	}
	return l.Symlink(target, p.Path(link))
}

// Junction makes link a directory junction to the absolute path target
// (Junctions), or ErrNoLinks.
func (p *Proc) Junction(target, link string) error {
	j, ok := p.Env.Files.(Junctions)
	if !ok {
		return ErrNoLinks
	}
	return j.Junction(target, p.Path(link))
}

// IsLink reports whether a Lstat mode is a symbolic link or a junction.
func IsLink(m fs.FileMode) bool { return m&(fs.ModeSymlink|fs.ModeIrregular) != 0 }
