package harness

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// markerFile is written into a cluster's state directory when wink makes
// it (or adopts the state of an older wink). Delete and `up --fresh` remove
// only directories that hold it.
const markerFile = ".wink-cluster"

// stateDir is a cluster's state directory, checked to be a place wink may
// write into and remove: a directory (not a symbolic link) directly inside
// the clusters' home, with the home's own symbolic links resolved.
// exists says whether it is there; marked whether it holds the marker.
type stateDir struct {
	path    string
	exists  bool
	marked  bool
	hasData bool // it holds files besides the marker
}

// checkStateDir looks at home/name without changing anything. name must
// have passed checkName; the checks here hold even for a name that did not.
func checkStateDir(home, name string) (stateDir, error) {
	dir := filepath.Join(home, name)
	d := stateDir{path: dir}
	if name == "" || filepath.Base(dir) != name || filepath.Dir(dir) != filepath.Clean(home) {
		return d, errNotWink(dir, "is not a directory directly inside "+home, "give a cluster name, not a path")
	}
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return d, nil
	case err != nil:
		return d, err
	case fi.Mode()&os.ModeSymlink != 0:
		target, _ := os.Readlink(dir)
		return d, errNotWink(dir, "is a symbolic link (to "+target+")", "remove the link by hand if you mean to, or choose another --name")
	case !fi.IsDir():
		return d, errNotWink(dir, "is not a directory", "move it away or choose another --name")
	}
	realHome, err := filepath.EvalSymlinks(home)
	if err != nil {
		return d, err
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return d, err
	}
	if filepath.Dir(realDir) != realHome {
		return d, errNotWink(dir, "resolves to "+realDir+", outside "+realHome, "remove it by hand if you mean to")
	}
	d.exists = true
	if m, err := os.Lstat(filepath.Join(dir, markerFile)); err == nil && m.Mode().IsRegular() {
		d.marked = true
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return d, err
	}
	for _, e := range entries {
		if e.Name() != markerFile {
			d.hasData = true
			break
		}
	}
	return d, nil
}

// writeMarker marks dir as a state directory wink made.
func writeMarker(dir, name string) error {
	text := fmt.Sprintf("This directory is the state of the wink cluster %q.\n`wink delete --name %s` stops the cluster and removes this directory.\n", name, name)
	return os.WriteFile(filepath.Join(dir, markerFile), []byte(text), 0o600)
}

// makeStateDir makes (or adopts) the state directory of a cluster Up is
// about to create or start. adoptable says the directory holds a cluster
// that loads (an older wink made it before markers existed).
func makeStateDir(d stateDir, name string, adoptable bool, progress io.Writer) error {
	switch {
	case d.marked:
		return nil
	case !d.exists:
		if err := os.MkdirAll(filepath.Dir(d.path), 0o700); err != nil {
			return err
		}
		if err := os.Mkdir(d.path, 0o700); err != nil {
			return err
		}
	case adoptable:
		fmt.Fprintf(progress, " ✓ Adopted %s (a cluster made without the %s marker file)\n", d.path, markerFile)
	case d.hasData:
		return errNotWink(d.path, "exists and holds no wink cluster", "choose another --name, or move the directory away")
	}
	return writeMarker(d.path, name)
}

// removeStateDir removes a cluster's state directory, if wink made it.
func removeStateDir(home, name string) error {
	d, err := checkStateDir(home, name)
	if err != nil {
		return err
	}
	if !d.exists {
		return nil
	}
	if !d.marked {
		return errNotWink(d.path, "has no "+markerFile+" marker file", fmt.Sprintf(
			"it was not made by wink, or by a wink older than the marker (`wink up --name %s` adopts such a cluster); if you mean to delete it, remove it by hand: rm -rf %s", name, d.path))
	}
	return os.RemoveAll(d.path)
}

// errNotWink is the refusal to write into or remove a directory wink did
// not make.
func errNotWink(dir, why, fix string) error {
	return fmt.Errorf("%s %s: wink writes and removes only the state directories it made (%s marker file) directly inside the clusters' home; %s", dir, why, markerFile, fix)
}
