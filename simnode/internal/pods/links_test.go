package pods

import (
	"io/fs"
	"testing"

	"wink.dev/wink/simnode/shell/process"
)

// linkFS keeps links only: enough to see a wrapper pass them through.
type linkFS struct {
	process.FS
	links map[string]string
}

func (l *linkFS) Lstat(string) (fs.FileInfo, error) { return nil, fs.ErrNotExist }
func (l *linkFS) Stat(string) (fs.FileInfo, error)  { return nil, fs.ErrNotExist }
func (l *linkFS) Readlink(p string) (string, error) {
	if t, ok := l.links[p]; ok {
		return t, nil
	}
	return "", fs.ErrInvalid
}
func (l *linkFS) Symlink(t, p string) error  { l.links[p] = t; return nil }
func (l *linkFS) Junction(t, p string) error { l.links[p] = "junction " + t; return nil }

type gate bool

func (g gate) Write() bool { return bool(g) }

// TestWrappersKeepLinks: ln -s and mklink in a pod's container reach the
// container's file system through the runtime's wrappers, and a link made
// before a simnode restart (the gate refuses the write) is not made again.
func TestWrappersKeepLinks(t *testing.T) {
	inner := &linkFS{links: map[string]string{}}
	var f process.FS = settledFS{Parts: process.Parts{FS: gatedFS{Parts: process.Parts{FS: inner}, gate: gate(true)}}, settle: func() error { return nil }}
	if err := f.(process.Symlinks).Symlink("/data", "/l"); err != nil {
		t.Fatal(err)
	}
	if err := f.(process.Junctions).Junction(`C:\data`, `C:\j`); err != nil {
		t.Fatal(err)
	}
	if got, err := f.(process.Symlinks).Readlink(`C:\j`); err != nil || got != `junction C:\data` {
		t.Errorf("Readlink %q %v", got, err)
	}
	skipped := gatedFS{Parts: process.Parts{FS: inner}, gate: gate(false)}
	if err := skipped.Symlink("/x", "/again"); err != nil || inner.links["/again"] != "" {
		t.Errorf("a refused write made a link: %v %v", err, inner.links)
	}
}
