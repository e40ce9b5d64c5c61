package volumes

import (
	"io/fs"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// maxLinkHops is how many symbolic links one path resolution follows before
// it fails: Linux's MAXSYMLINKS (40); Windows gives up at 63 reparse points.
const maxLinkHops = 40

var (
	// errLoopLinux is ELOOP's text.
	errLoopLinux = &fsError{msg: "Too many levels of symbolic links", is: fs.ErrInvalid}
	// errLoopWin is ERROR_CANT_RESOLVE_FILENAME (1921).
	errLoopWin = &fsError{msg: "The name of the file cannot be resolved by the system.", is: fs.ErrInvalid}
	// errNotLinkLinux is readlink(2)'s EINVAL on a path that is no link.
	errNotLinkLinux = &fsError{msg: "Invalid argument", is: fs.ErrInvalid}
	// errNotLinkWin is ERROR_NOT_A_REPARSE_POINT (4390).
	errNotLinkWin = &fsError{msg: "The file or directory is not a reparse point.", is: fs.ErrInvalid}
)

func errLoop(win bool) error {
	if win {
		return errLoopWin
	}
	return errLoopLinux
}

// readLink returns the target of the link at parts (ok false when there is
// no link there).
func (s *store) readLink(parts []string) (string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if _, ok := s.onDisk(parts); ok {
		return "", false
	}
	e := s.walk(parts)
	if e == nil || !e.kind.isLink() {
		return "", false
	}
	return string(e.data), true
}

// parse parses path and resolves the symbolic links in it: every component
// but the last, and the last too when last. A relative target is read from
// the link's directory, an absolute one from the root; `..` folds
// lexically, as in the rest of the path.
func (c *containerFS) parse(path string, last bool) (vpath, error) {
	vp, err := parsePath(c.win, path)
	if err != nil || vp.pipe != "" {
		return vp, err
	}
	hops := 0
	for i := 0; i < len(vp.parts); i++ {
		if i == len(vp.parts)-1 && !last {
			break
		}
		prefix := vpath{drive: vp.drive, parts: vp.parts[:i+1]}
		m, rel := c.resolve(prefix)
		if m == nil || m.pipe != "" {
			continue
		}
		target, ok := m.st.readLink(join(m.base, rel))
		if !ok {
			continue
		}
		if hops++; hops > maxLinkHops {
			return vp, errLoop(c.win)
		}
		next, err := c.linkTarget(vpath{drive: vp.drive, parts: vp.parts[:i]}, target)
		if err != nil {
			return vp, err
		}
		next.parts = append(next.parts, vp.parts[i+1:]...)
		vp, i = next, -1
	}
	return vp, nil
}

// linkTarget is where a link in dir pointing at target leads.
func (c *containerFS) linkTarget(dir vpath, target string) (vpath, error) {
	if isAbs(c.win, target) {
		if c.win && (strings.HasPrefix(target, `\`) || strings.HasPrefix(target, "/")) && !strings.HasPrefix(target, `\\`) {
			// rooted on the link's own drive
			target = string(dir.drive) + ":" + target
		}
		return parsePath(c.win, target)
	}
	if c.win {
		if strings.HasPrefix(target, `\\`) {
			return parsePath(c.win, target)
		}
		target = strings.ReplaceAll(target, `\`, "/")
	}
	parts := append(append([]string(nil), dir.parts...), strings.Split(target, "/")...)
	return vpath{drive: dir.drive, parts: clean(parts)}, nil
}

// Lstat implements process.Symlinks: the entry at path itself, a link not
// followed (its Mode has fs.ModeSymlink, its Size is the target's length).
func (c *containerFS) Lstat(path string) (fs.FileInfo, error) {
	return c.stat(path, false)
}

// Stat implements process.Symlinks: the entry path leads to, links
// followed.
func (c *containerFS) Stat(path string) (fs.FileInfo, error) {
	return c.stat(path, true)
}

func (c *containerFS) stat(path string, last bool) (fs.FileInfo, error) {
	m, rel, vp, err := c.file(path, nil, last)
	if err != nil {
		return nil, err
	}
	dir := info{name: baseName(vp), kind: kindDir, mode: 0o755, mtime: c.node.clock()}
	if m == nil {
		return dir, nil // a directory only mount points make
	}
	in, ok := m.st.stat(join(m.base, rel))
	switch {
	case c.implied(vp) && (!ok || in.kind != kindDir):
		return dir, nil
	case !ok:
		return nil, fs.ErrNotExist
	}
	in.name = baseName(vp)
	return in, nil
}

func baseName(vp vpath) string {
	if len(vp.parts) == 0 {
		if vp.drive != 0 {
			return string(vp.drive) + `:\`
		}
		return "/"
	}
	return vp.parts[len(vp.parts)-1]
}

// Readlink implements process.Symlinks: the target of the link at path as
// written (EINVAL, or Windows' "not a reparse point", when path is no link).
func (c *containerFS) Readlink(path string) (string, error) {
	m, rel, _, err := c.file(path, nil, false)
	if err != nil {
		return "", err
	}
	if m != nil {
		if t, ok := m.st.readLink(join(m.base, rel)); ok {
			return t, nil
		}
		if _, ok := m.st.stat(join(m.base, rel)); !ok {
			return "", fs.ErrNotExist
		}
	}
	if c.win {
		return "", errNotLinkWin
	}
	return "", errNotLinkLinux
}

// Symlink implements process.Symlinks: a link at path to target (ln -s,
// mklink). fs.ErrExist when something is there, fs.ErrPermission on a
// read-only mount (row B11).
func (c *containerFS) Symlink(target, path string) error {
	return c.link(target, path, kindSymlink)
}

// Junction implements process.Junctions: mklink /J, whose target is an
// absolute path.
func (c *containerFS) Junction(target, path string) error {
	return c.link(target, path, kindJunction)
}

func (c *containerFS) link(target, path string, kind fileKind) error {
	m, rel, vp, err := c.file(path, errIsDir(c.win), false)
	if err != nil {
		return err
	}
	if len(rel) == 0 || c.implied(vp) {
		return fs.ErrExist
	}
	full := join(m.base, rel)
	if _, ok := m.st.stat(full); ok {
		return fs.ErrExist
	}
	if m.ro {
		return m.roErr
	}
	return m.st.link(full, target, kind)
}

// link creates a symbolic link or junction at parts, whose parent must
// exist.
func (s *store) link(parts []string, target string, kind fileKind) error {
	defer s.changed()
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.onDisk(parts); ok {
		return errReadOnly(s.win)
	}
	dir := s.walk(parts[:len(parts)-1])
	if dir == nil {
		return fs.ErrNotExist
	}
	if dir.kind != kindDir {
		return errNotDir(s.win)
	}
	name := parts[len(parts)-1]
	dir.kids[fold(s.win, name)] = &entry{name: name, kind: kind, data: []byte(target), mode: linkMode(s.win), mtime: s.now()}
	return nil
}

// evalLinks resolves the links of sub inside the volume at base (the
// kubelet's filepath.EvalSymlinks of a subPath): ok false when a link leads
// out of the volume or the links loop.
func (s *store) evalLinks(base, sub []string) ([]string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	parts := join(base, sub)
	hops := 0
	for i := len(base); i < len(parts); i++ {
		e := s.walk(parts[:i+1])
		if e == nil {
			return parts, true
		}
		if !e.kind.isLink() {
			continue
		}
		target := string(e.data)
		if hops++; hops > maxLinkHops || isAbs(s.win, target) {
			return nil, false
		}
		next := append(append([]string(nil), parts[:i]...), relParts(s.win, target)...)
		next = clean(append(next, parts[i+1:]...))
		if len(next) < len(base) || !hasPrefix(s.win, vpath{parts: next}, vpath{parts: base}) {
			return nil, false
		}
		parts, i = next, len(base)-1
	}
	return parts, true
}

var (
	_ process.Symlinks  = (*containerFS)(nil)
	_ process.Junctions = (*containerFS)(nil)
)
