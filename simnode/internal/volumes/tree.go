package volumes

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"wink.dev/wink/simnode/shell/process"
)

// fileKind is what an entry is; sockets and devices exist only so that
// hostPath type checks (Socket, CharDevice, BlockDevice) have something to
// find on a simulated Linux host.
type fileKind uint8

const (
	kindFile fileKind = iota
	kindDir
	kindSocket
	kindCharDev
	kindBlockDev
	// kindSymlink is a symbolic link; its data is the target as written.
	kindSymlink
	// kindJunction is a Windows directory junction (a mount point reparse
	// point): a link whose data is an absolute path.
	kindJunction
)

// isLink: the entry is followed as a link (symbolic link or junction).
func (k fileKind) isLink() bool { return k == kindSymlink || k == kindJunction }

type entry struct {
	name  string // as created (case preserved)
	kind  fileKind
	data  []byte
	mode  fs.FileMode // permission bits as the kubelet would set them (recorded; Windows ignores them)
	mtime time.Time
	kids  map[string]*entry // folded name -> child
	// dacl is what icacls set on the entry (nil: it inherits); replaced
	// whole, never changed in place.
	dacl *process.DACL
}

func newDir(name string, now time.Time) *entry {
	return &entry{name: name, kind: kindDir, mode: 0o755, mtime: now, kids: map[string]*entry{}}
}

func (e *entry) clone() *entry {
	c := *e
	c.data = append([]byte(nil), e.data...)
	if e.kids != nil {
		c.kids = make(map[string]*entry, len(e.kids))
		for k, v := range e.kids {
			c.kids[k] = v.clone()
		}
	}
	return &c
}

// store is one file tree with its own lock: the node's host disk, one
// volume, or one container's writable layer.
type store struct {
	mu   sync.RWMutex
	win  bool
	root *entry
	now  func() time.Time
	// file, when set, is where the tree is saved on every change
	// (persist.go); saveMu serialises the saves.
	saveMu sync.Mutex
	file   string
	// disks are directories of the real disk shown in the tree
	// (persist.go, SetLogDirs).
	disks []diskDir
}

func newStore(win bool, now func() time.Time) *store {
	return &store{win: win, root: newDir("", now()), now: now}
}

// walk returns the entry at parts, or nil. Caller holds the lock.
func (s *store) walk(parts []string) *entry {
	e := s.root
	for _, p := range parts {
		if e.kind != kindDir {
			return nil
		}
		e = e.kids[fold(s.win, p)]
		if e == nil {
			return nil
		}
	}
	return e
}

// mkdirAll creates the directories of parts. Caller holds the write lock.
func (s *store) mkdirAllLocked(parts []string) (*entry, error) {
	e := s.root
	for _, p := range parts {
		if e.kind != kindDir {
			return nil, errNotDir(s.win)
		}
		k := fold(s.win, p)
		c := e.kids[k]
		if c == nil {
			c = newDir(p, s.now())
			e.kids[k] = c
		}
		e = c
	}
	if e.kind != kindDir {
		return nil, errNotDir(s.win)
	}
	return e, nil
}

func (s *store) mkdirAll(parts []string) error {
	defer s.changed()
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := s.mkdirAllLocked(parts)
	return err
}

// put creates or replaces a file (any kind but dir), creating parents.
func (s *store) put(parts []string, kind fileKind, data []byte, mode fs.FileMode) error {
	if len(parts) == 0 {
		return errIsDir(s.win)
	}
	defer s.changed()
	s.mu.Lock()
	defer s.mu.Unlock()
	dir, err := s.mkdirAllLocked(parts[:len(parts)-1])
	if err != nil {
		return err
	}
	return s.setLocked(dir, parts[len(parts)-1], kind, data, mode)
}

func (s *store) setLocked(dir *entry, name string, kind fileKind, data []byte, mode fs.FileMode) error {
	k := fold(s.win, name)
	if old := dir.kids[k]; old != nil {
		if old.kind == kindDir {
			return errIsDir(s.win)
		}
		old.data = append([]byte(nil), data...)
		old.mtime = s.now()
		return nil
	}
	dir.kids[k] = &entry{name: name, kind: kind, data: append([]byte(nil), data...), mode: mode, mtime: s.now()}
	return nil
}

// writeFile writes a regular file whose parent must exist, unless
// mkParents (the parent is a directory the mount table implies).
func (s *store) writeFile(parts []string, data []byte, mkParents bool) error {
	if len(parts) == 0 {
		return errIsDir(s.win)
	}
	defer s.changed()
	s.mu.Lock()
	defer s.mu.Unlock()
	if real, ok := s.onDisk(parts); ok {
		if mkParents {
			_ = os.MkdirAll(filepath.Dir(real), 0o755)
		}
		return diskErr(s.win, os.WriteFile(real, data, 0o644))
	}
	var dir *entry
	if mkParents {
		d, err := s.mkdirAllLocked(parts[:len(parts)-1])
		if err != nil {
			return err
		}
		dir = d
	} else {
		dir = s.walk(parts[:len(parts)-1])
		if dir == nil {
			return fs.ErrNotExist
		}
		if dir.kind != kindDir {
			return errNotDir(s.win)
		}
	}
	return s.setLocked(dir, parts[len(parts)-1], kindFile, data, 0o644)
}

// stat returns a copy of the entry's metadata (no children, no data copy).
func (s *store) stat(parts []string) (info, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if real, ok := s.onDisk(parts); ok {
		fi, err := os.Stat(real)
		if err != nil {
			return info{}, false
		}
		return diskInfo(parts[len(parts)-1], fi), true
	}
	e := s.walk(parts)
	if e == nil {
		return info{}, false
	}
	return infoOf(e), true
}

func (s *store) readFile(parts []string) ([]byte, fileKind, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if real, ok := s.onDisk(parts); ok {
		fi, err := os.Stat(real)
		if err != nil {
			return nil, 0, fs.ErrNotExist
		}
		if fi.IsDir() {
			return nil, kindDir, nil
		}
		data, err := os.ReadFile(real)
		return data, kindFile, diskErr(s.win, err)
	}
	e := s.walk(parts)
	if e == nil {
		return nil, 0, fs.ErrNotExist
	}
	return append([]byte(nil), e.data...), e.kind, nil
}

// list returns the directory's entries, or ok=false if there is no
// directory there (exists reports whether anything is there).
func (s *store) list(parts []string) (ents []info, exists, isDir bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if real, ok := s.onDisk(parts); ok {
		fi, err := os.Stat(real)
		if err != nil {
			return nil, false, false
		}
		if !fi.IsDir() {
			return nil, true, false
		}
		des, _ := os.ReadDir(real)
		for _, de := range des {
			if fi, err := os.Stat(filepath.Join(real, de.Name())); err == nil {
				ents = append(ents, diskInfo(de.Name(), fi))
			}
		}
		return ents, true, true
	}
	e := s.walk(parts)
	if e == nil {
		return nil, false, false
	}
	if e.kind != kindDir {
		return nil, true, false
	}
	for _, c := range e.kids {
		ents = append(ents, infoOf(c))
	}
	return ents, true, true
}

// subtree returns a deep copy of the tree at parts (nil if absent).
func (s *store) subtree(parts []string) *entry {
	s.mu.RLock()
	defer s.mu.RUnlock()
	e := s.walk(parts)
	if e == nil {
		return nil
	}
	return e.clone()
}

// replace swaps the whole tree (atomic update of configMap, secret,
// downwardAPI and projected volumes, like the kubelet's AtomicWriter).
func (s *store) replace(root *entry) {
	defer s.changed()
	s.mu.Lock()
	s.root = root
	s.mu.Unlock()
}

// info is an immutable description of an entry: fs.DirEntry and fs.FileInfo.
type info struct {
	name  string
	kind  fileKind
	size  int64
	mode  fs.FileMode
	mtime time.Time
}

func infoOf(e *entry) info {
	return info{name: e.name, kind: e.kind, size: int64(len(e.data)), mode: e.mode, mtime: e.mtime}
}

func (i info) Name() string       { return i.name }
func (i info) IsDir() bool        { return i.kind == kindDir }
func (i info) Size() int64        { return i.size }
func (i info) ModTime() time.Time { return i.mtime }
func (i info) Sys() any           { return nil }
func (i info) Info() (fs.FileInfo, error) {
	return i, nil
}
func (i info) Type() fs.FileMode { return i.Mode().Type() }
func (i info) Mode() fs.FileMode {
	m := i.mode & (fs.ModePerm | fs.ModeSticky | fs.ModeSetgid)
	switch i.kind {
	case kindDir:
		m |= fs.ModeDir
	case kindSocket:
		m |= fs.ModeSocket
	case kindCharDev:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case kindBlockDev:
		m |= fs.ModeDevice
	case kindSymlink:
		m |= fs.ModeSymlink
	case kindJunction:
		m |= fs.ModeIrregular // as Go's os.Lstat reports a mount point
	}
	return m
}

func sortInfos(win bool, ents []info) {
	sort.Slice(ents, func(a, b int) bool {
		x, y := fold(win, ents[a].name), fold(win, ents[b].name)
		if x != y {
			return x < y
		}
		return ents[a].name < ents[b].name
	})
}

type payloadFile struct {
	data []byte
	mode int32
}

// diskErr maps an error of the real disk to what the simulated one says.
func diskErr(win bool, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return fs.ErrNotExist
	case errors.Is(err, fs.ErrPermission):
		return errReadOnly(win)
	}
	return err
}
