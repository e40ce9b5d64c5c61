package volumes

import (
	"os"
)

// MkdirAll implements process.DirMaker (busybox mkdir -p, issue 18): the
// directory and its parents in the mount holding path; a mount point or a
// directory the mount table implies already is one; fs.ErrPermission
// (ErrReadOnlyFS, ErrAccessDenied) on a read-only mount (row B11).
func (c *containerFS) MkdirAll(path string) error {
	m, rel, vp, err := c.file(path, nil)
	if err != nil {
		return err
	}
	if m == nil || len(rel) == 0 || c.implied(vp) {
		return nil
	}
	if m.ro {
		return m.roErr
	}
	parts := join(m.base, rel)
	m.st.mu.RLock()
	real, disk := m.st.onDisk(parts)
	m.st.mu.RUnlock()
	if disk {
		return diskErr(c.win, os.MkdirAll(real, 0o755))
	}
	return m.st.mkdirAll(parts)
}
