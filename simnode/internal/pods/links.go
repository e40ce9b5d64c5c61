package pods

import (
	"io/fs"

	"wink.dev/wink/simnode/shell/process"
)

// The links and ACLs of a container's file system (process.Symlinks,
// process.Junctions, process.ACLs) that programs ask for by type: gatedFS
// and settledFS pass them through, reads after settling, a new link or
// DACL as a write the gate may skip.

func linksOf(f process.FS) (process.Symlinks, error) {
	l, ok := f.(process.Symlinks)
	if !ok {
		return nil, process.ErrNoLinks
	}
	return l, nil
}

func (g gatedFS) Lstat(path string) (fs.FileInfo, error)   { return lstat(g.FS, path) }
func (g gatedFS) Stat(path string) (fs.FileInfo, error)    { return stat(g.FS, path) }
func (g gatedFS) Readlink(path string) (string, error)     { return readlink(g.FS, path) }
func (s settledFS) Lstat(path string) (fs.FileInfo, error) { return settled(s, lstat, path) }
func (s settledFS) Stat(path string) (fs.FileInfo, error)  { return settled(s, stat, path) }
func (s settledFS) Readlink(path string) (string, error)   { return settled(s, readlink, path) }

func (g gatedFS) Symlink(target, path string) error {
	if !g.gate.Write() {
		return nil
	}
	return symlink(g.FS, target, path)
}

func (g gatedFS) Junction(target, path string) error {
	if !g.gate.Write() {
		return nil
	}
	return junction(g.FS, target, path)
}

func (s settledFS) Symlink(target, path string) error {
	if err := s.settle(); err != nil {
		return err
	}
	return symlink(s.FS, target, path)
}

func (s settledFS) Junction(target, path string) error {
	if err := s.settle(); err != nil {
		return err
	}
	return junction(s.FS, target, path)
}

func settled[T any](s settledFS, read func(process.FS, string) (T, error), path string) (T, error) {
	if err := s.settle(); err != nil {
		var zero T
		return zero, err
	}
	return read(s.FS, path)
}

func lstat(f process.FS, path string) (fs.FileInfo, error) {
	l, err := linksOf(f)
	if err != nil {
		return nil, err
	}
	return l.Lstat(path)
}

func stat(f process.FS, path string) (fs.FileInfo, error) {
	l, err := linksOf(f)
	if err != nil {
		return nil, err
	}
	return l.Stat(path)
}

func readlink(f process.FS, path string) (string, error) {
	l, err := linksOf(f)
	if err != nil {
		return "", err
	}
	return l.Readlink(path)
}

func symlink(f process.FS, target, path string) error {
	l, err := linksOf(f)
	if err != nil {
		return err
	}
	return l.Symlink(target, path)
}

func junction(f process.FS, target, path string) error {
	j, ok := f.(process.Junctions)
	if !ok {
		return process.ErrNoLinks
	}
	return j.Junction(target, path)
}

func (g gatedFS) DACL(path string) (process.DACL, error)   { return dacl(g.FS, path) }
func (s settledFS) DACL(path string) (process.DACL, error) { return settled(s, dacl, path) }

func (g gatedFS) SetDACL(path string, d process.DACL) error {
	if !g.gate.Write() {
		return nil
	}
	return setDACL(g.FS, path, d)
}

func (s settledFS) SetDACL(path string, d process.DACL) error {
	if err := s.settle(); err != nil {
		return err
	}
	return setDACL(s.FS, path, d)
}

// dacl is an FS's DACL of path; one without ACLs has every path inherit.
func dacl(f process.FS, path string) (process.DACL, error) {
	a, ok := f.(process.ACLs)
	if !ok {
		return process.DACL{}, nil
	}
	return a.DACL(path)
}

func setDACL(f process.FS, path string, d process.DACL) error {
	a, ok := f.(process.ACLs)
	if !ok {
		return fs.ErrPermission
	}
	return a.SetDACL(path, d)
}

var (
	_ process.Symlinks  = gatedFS{}
	_ process.Junctions = settledFS{}
	_ process.ACLs      = settledFS{}
)
