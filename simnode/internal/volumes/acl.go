package volumes

import (
	"io/fs"

	"wink.dev/wink/simnode/shell/process"
)

// DACL implements process.ACLs: what icacls set on the entry path leads
// to (the zero DACL, inheriting, when nothing was set).
func (c *containerFS) DACL(path string) (process.DACL, error) {
	m, rel, vp, err := c.file(path, nil, true)
	if err != nil || m == nil {
		return process.DACL{}, err
	}
	s, parts := m.st, join(m.base, rel)
	s.mu.RLock()
	defer s.mu.RUnlock()
	if _, ok := s.onDisk(parts); ok {
		return process.DACL{}, nil
	}
	e := s.walk(parts)
	switch {
	case e == nil && c.implied(vp):
		return process.DACL{}, nil
	case e == nil:
		return process.DACL{}, fs.ErrNotExist
	case e.dacl == nil:
		return process.DACL{}, nil
	}
	return *e.dacl, nil
}

// SetDACL implements process.ACLs: fs.ErrPermission on a read-only mount
// and on what no layer holds (a directory only mount points make, a
// directory of the real disk).
func (c *containerFS) SetDACL(path string, d process.DACL) error {
	m, rel, _, err := c.file(path, errReadOnly(c.win), true)
	if err != nil {
		return err
	}
	if m.ro {
		return m.roErr
	}
	s, parts := m.st, join(m.base, rel)
	defer s.changed()
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.onDisk(parts); ok {
		return errReadOnly(c.win)
	}
	e := s.walk(parts)
	if e == nil {
		return fs.ErrNotExist
	}
	d.Explicit = append([]string(nil), d.Explicit...)
	e.dacl = &d
	return nil
}

var _ process.ACLs = (*containerFS)(nil)
