package volumes

import (
	"io/fs"
	"os"
)

// remove deletes the file or directory (with everything under it) at
// parts: fs.ErrNotExist when there is nothing.
func (s *store) remove(parts []string) error {
	if len(parts) == 0 {
		return fs.ErrPermission
	}
	defer s.changed()
	s.mu.Lock()
	defer s.mu.Unlock()
	if real, ok := s.onDisk(parts); ok {
		if _, err := os.Lstat(real); err != nil {
			return fs.ErrNotExist
		}
		return diskErr(s.win, os.RemoveAll(real))
	}
	dir := s.walk(parts[:len(parts)-1])
	if dir == nil || dir.kind != kindDir {
		return fs.ErrNotExist
	}
	k := fold(s.win, parts[len(parts)-1])
	if dir.kids[k] == nil {
		return fs.ErrNotExist
	}
	delete(dir.kids, k)
	dir.mtime = s.now()
	return nil
}

// Remove implements process.Remover (busybox rm, Remove-Item, del): a
// file or a directory tree of the container goes; fs.ErrPermission
// (ErrAccessDenied, ErrReadOnlyFS) on a read-only mount (row B11), and a
// mount point itself cannot be removed.
func (c *containerFS) Remove(path string) error {
	m, rel, vp, err := c.file(path, errReadOnly(c.win), false)
	if err != nil {
		return err
	}
	if len(rel) == 0 || c.implied(vp) {
		// a mount point (the kernel answers EBUSY, Windows access denied)
		return errReadOnly(c.win)
	}
	if m.ro {
		return m.roErr
	}
	return m.st.remove(join(m.base, rel))
}
