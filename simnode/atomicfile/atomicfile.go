// Package atomicfile writes files so that a reader, or a process killed in
// the middle, sees the old content or the new, never a part: a temporary
// file in the same directory, synced, then renamed over the path. Every
// file wink keeps state in (PKI, cluster.yaml, a simulated node's disk,
// the image cache) is written this way.
package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes data to path with exactly mode (an existing file's looser
// mode is replaced). path's directory must exist.
func Write(path string, data []byte, mode fs.FileMode) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(mode); err != nil {
		_ = tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
