package process

import "io/fs"

// Parts passes on the optional parts of the FS it holds (Symlinks,
// Junctions, ACLs), which a type that only embeds an FS hides: a wrapper
// of a container's file system embeds Parts and overrides what it
// changes. A part the FS lacks fails: ErrNoLinks, fs.ErrPermission; an
// FS without ACLs has every path inherit.
type Parts struct{ FS }

func (p Parts) links() (Symlinks, error) {
	if l, ok := p.FS.(Symlinks); ok {
		return l, nil
	}
	return nil, ErrNoLinks
}

// Lstat implements Symlinks.
func (p Parts) Lstat(path string) (fs.FileInfo, error) {
	l, err := p.links()
	if err != nil {
		return nil, err
	}
	return l.Lstat(path)
}

// Stat implements Symlinks.
func (p Parts) Stat(path string) (fs.FileInfo, error) {
	l, err := p.links()
	if err != nil {
		return nil, err
	}
	return l.Stat(path)
}

// Readlink implements Symlinks.
func (p Parts) Readlink(path string) (string, error) {
	l, err := p.links()
	if err != nil {
		return "", err
	}
	return l.Readlink(path)
}

// Symlink implements Symlinks.
func (p Parts) Symlink(target, path string) error {
	l, err := p.links()
	if err != nil {
		return err
	}
	return l.Symlink(target, path)
}

// Junction implements Junctions.
func (p Parts) Junction(target, path string) error {
	if j, ok := p.FS.(Junctions); ok {
		return j.Junction(target, path)
	}
	return ErrNoLinks
}

// DACL implements ACLs.
func (p Parts) DACL(path string) (DACL, error) {
	if a, ok := p.FS.(ACLs); ok {
		return a.DACL(path)
	}
	return DACL{}, nil
}

// SetDACL implements ACLs.
func (p Parts) SetDACL(path string, d DACL) error {
	if a, ok := p.FS.(ACLs); ok {
		return a.SetDACL(path, d)
	}
	return fs.ErrPermission
}

var (
	_ Symlinks  = Parts{}
	_ Junctions = Parts{}
	_ ACLs      = Parts{}
)
