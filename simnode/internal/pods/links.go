package pods

import (
	"io/fs"

	"wink.dev/wink/simnode/shell/process"
)

// The links and ACLs of a container's file system (process.Parts): gatedFS
// and settledFS pass them on, reads after settling, a new link or DACL as
// a write the gate may skip.

func (g gatedFS) Symlink(target, path string) error {
	return g.gated(func() error { return g.Parts.Symlink(target, path) })
}

func (g gatedFS) Junction(target, path string) error {
	return g.gated(func() error { return g.Parts.Junction(target, path) })
}

func (g gatedFS) SetDACL(path string, d process.DACL) error {
	return g.gated(func() error { return g.Parts.SetDACL(path, d) })
}

func (g gatedFS) gated(write func() error) error {
	if !g.gate.Write() {
		return nil
	}
	return write()
}

func (s settledFS) Lstat(path string) (fs.FileInfo, error) { return settled(s, s.Parts.Lstat, path) }
func (s settledFS) Stat(path string) (fs.FileInfo, error)  { return settled(s, s.Parts.Stat, path) }
func (s settledFS) Readlink(path string) (string, error)   { return settled(s, s.Parts.Readlink, path) }
func (s settledFS) DACL(path string) (process.DACL, error) { return settled(s, s.Parts.DACL, path) }

func (s settledFS) Symlink(target, path string) error {
	if err := s.settle(); err != nil {
		return err
	}
	return s.Parts.Symlink(target, path)
}

func (s settledFS) Junction(target, path string) error {
	if err := s.settle(); err != nil {
		return err
	}
	return s.Parts.Junction(target, path)
}

func (s settledFS) SetDACL(path string, d process.DACL) error {
	if err := s.settle(); err != nil {
		return err
	}
	return s.Parts.SetDACL(path, d)
}

func settled[T any](s settledFS, call func(string) (T, error), path string) (T, error) {
	if err := s.settle(); err != nil {
		var zero T
		return zero, err
	}
	return call(path)
}

var (
	_ process.Junctions = gatedFS{}
	_ process.ACLs      = settledFS{}
)
