package volumes

import (
	"io/fs"
	"os"
)

// mkdir creates the directory at parts and its missing parents.
func (s *store) mkdir(parts []string) error {
	defer s.changed()
	s.mu.Lock()
	defer s.mu.Unlock()
	if real, ok := s.onDisk(parts); ok {
		return diskErr(s.win, os.MkdirAll(real, 0o755))
	}
	_, err := s.mkdirAllLocked(parts)
	return err
}

// MkdirAll implements process.Mkdirer (cmd md, mkdir -p, New-Item
// -ItemType Directory): the directory and its missing parents; a
// directory that is there (a mount point, one only mount points make) is
// no error; fs.ErrPermission (ErrAccessDenied, ErrReadOnlyFS) on a
// read-only mount (row B11).
func (c *containerFS) MkdirAll(path string) error {
	m, rel, vp, err := c.file(path, nil, true)
	if err != nil {
		return err
	}
	if m == nil || c.implied(vp) {
		return nil // a directory only mount points make
	}
	if in, ok := m.st.stat(join(m.base, rel)); ok {
		if in.kind == kindDir {
			return nil
		}
		return fs.ErrExist
	}
	if m.ro {
		return m.roErr
	}
	return m.st.mkdir(join(m.base, rel))
}
