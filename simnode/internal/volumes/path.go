package volumes

import (
	"io/fs"
	"strings"
)

// vpath is a parsed, lexically cleaned container path.
//
// Windows (rows B10-B12): `\` and `/` are both separators, names compare
// case-insensitively, a path without a drive letter is on C: (the kubelet's
// MakeAbsolutePath, pkg/volume/util/util.go:406, turns `/etc/x` into
// `c:/etc/x`), `\\?\C:\x` is `C:\x`, and `\\.\pipe\name` names a pipe.
// Linux: POSIX, case-sensitive, `/` only.
//
// `.` and `..` are folded before a path is matched against the mount table
// (Windows and the kubelet resolve `..` lexically), so the remainder under a
// mount never contains `..` and can never leave the mount.
type vpath struct {
	drive byte     // 'C'.. on Windows, 0 on Linux
	pipe  string   // pipe name for \\.\pipe\<name> (Windows), else ""
	parts []string // components as written (case preserved)
}

// errBadName is cmd's ERROR_INVALID_NAME text.
var errBadName = &fsError{msg: "The filename, directory name, or volume label syntax is incorrect.", is: fs.ErrInvalid}

// errNetPath: a UNC path to a server (\\server\share) does not exist in a
// simulated container.
var errNetPath = &fsError{msg: "The network path was not found.", is: fs.ErrNotExist}

func parsePath(win bool, p string) (vpath, error) {
	if win {
		return parseWin(p)
	}
	return parseLinux(p), nil
}

func parseLinux(p string) vpath {
	return vpath{parts: clean(strings.Split(p, "/"))}
}

func parseWin(p string) (vpath, error) {
	p = strings.ReplaceAll(p, "/", `\`)
	if strings.IndexByte(p, 0) >= 0 {
		return vpath{}, errBadName
	}
	if strings.HasPrefix(p, `\\?\`) || strings.HasPrefix(p, `\\.\`) {
		rest := p[4:]
		if len(rest) >= 5 && strings.EqualFold(rest[:5], `pipe\`) {
			name := rest[5:]
			if name == "" {
				return vpath{}, errBadName
			}
			return vpath{pipe: name}, nil
		}
		if len(rest) >= 2 && rest[1] == ':' && isLetter(rest[0]) {
			p = rest
		} else {
			return vpath{}, errNetPath
		}
	} else if strings.HasPrefix(p, `\\`) {
		return vpath{}, errNetPath
	}
	drive := byte('C')
	if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) {
		drive = p[0] &^ 0x20
		p = p[2:]
	}
	parts := clean(strings.Split(p, `\`))
	for _, s := range parts {
		if strings.ContainsAny(s, `<>:"|?*`) {
			return vpath{}, errBadName
		}
		for i := 0; i < len(s); i++ {
			if s[i] < 0x20 {
				return vpath{}, errBadName
			}
		}
	}
	return vpath{drive: drive, parts: parts}, nil
}

func isLetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

// clean drops empty and "." components and folds "..", never above the root.
func clean(in []string) []string {
	out := make([]string, 0, len(in))
	for _, s := range in {
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
	return out
}

// fold is the key a name is compared by.
func fold(win bool, s string) string {
	if win {
		return strings.ToLower(s)
	}
	return s
}

// hasPrefix reports whether p starts with the components of pre.
func hasPrefix(win bool, p, pre vpath) bool {
	if p.drive != pre.drive || p.pipe != "" || pre.pipe != "" || len(pre.parts) > len(p.parts) {
		return false
	}
	for i, s := range pre.parts {
		if fold(win, s) != fold(win, p.parts[i]) {
			return false
		}
	}
	return true
}

func (v vpath) String() string {
	if v.pipe != "" {
		return `\\.\pipe\` + v.pipe
	}
	if v.drive != 0 {
		return string(v.drive) + `:\` + strings.Join(v.parts, `\`)
	}
	return "/" + strings.Join(v.parts, "/")
}

// relParts splits a volume-relative path (subPath, item path) the way the
// kubelet joins it with filepath.Join on the node's OS.
func relParts(win bool, p string) []string {
	if win {
		p = strings.ReplaceAll(p, `\`, "/")
	}
	return strings.Split(p, "/")
}

// hasBacksteps is ValidatePathNoBacksteps (pkg/volume/validation/pv_validation.go:62).
func hasBacksteps(win bool, p string) bool {
	for _, s := range relParts(win, p) {
		if s == ".." {
			return true
		}
	}
	return false
}

// isAbs is utilfs.IsAbs for the node's OS (pkg/util/filesystem/util_windows.go:261).
func isAbs(win bool, p string) bool {
	if !win {
		return strings.HasPrefix(p, "/")
	}
	return strings.HasPrefix(p, `\`) || strings.HasPrefix(p, "/") || (len(p) >= 3 && p[1] == ':' && isLetter(p[0]) && (p[2] == '\\' || p[2] == '/'))
}

// fsError is an error with the exact text a tool prints that still satisfies
// errors.Is for the io/fs sentinel it stands for.
type fsError struct {
	msg string
	is  error
}

func (e *fsError) Error() string        { return e.msg }
func (e *fsError) Is(target error) bool { return target == e.is }

var (
	// ErrAccessDenied is returned for a write to a read-only mount on Windows
	// (row B11: cmd prints exactly "Access is denied.", upstream
	// test/e2e/windows/volumes.go:106). errors.Is(err, fs.ErrPermission).
	ErrAccessDenied error = &fsError{msg: "Access is denied.", is: fs.ErrPermission}
	// ErrReadOnlyFS is returned on Linux for a write to a read-only mount or,
	// with readOnlyRootFilesystem, outside the writable mounts (EROFS).
	// errors.Is(err, fs.ErrPermission).
	ErrReadOnlyFS error = &fsError{msg: "Read-only file system", is: fs.ErrPermission}
	// ErrPipeBusy is what reading or writing a named pipe through the file
	// API returns (row B12: the mount exists, it carries no file data). Its
	// text is Windows' ERROR_PIPE_BUSY message, which cmd prints as is; it
	// is neither fs.ErrNotExist nor fs.ErrPermission.
	ErrPipeBusy error = &fsError{msg: "All pipe instances are busy."}

	errIsDirWin   = &fsError{msg: "Access is denied.", is: fs.ErrPermission}
	errIsDirLinux = &fsError{msg: "Is a directory", is: fs.ErrInvalid}
	errNotDirWin  = &fsError{msg: "The directory name is invalid.", is: fs.ErrInvalid}
	errNotDirLnx  = &fsError{msg: "Not a directory", is: fs.ErrInvalid}
)

func errIsDir(win bool) error {
	if win {
		return errIsDirWin
	}
	return errIsDirLinux
}

func errNotDir(win bool) error {
	if win {
		return errNotDirWin
	}
	return errNotDirLnx
}

func errReadOnly(win bool) error {
	if win {
		return ErrAccessDenied
	}
	return ErrReadOnlyFS
}
