package volumes

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"wink.dev/wink/simnode/atomicfile"
	"wink.dev/wink/simnode/shell/process"
)

// The node's disk outlives the simnode process (SetStateDir): the host
// disk, PersistentVolumeClaim disks, each pod's emptyDirs and each
// container's writable layer are files under the node's state directory,
// written through on every change and read back when a restarted simnode
// mounts the pod again:
//
//	<dir>/host.json                               the host disk (hostPath)
//	<dir>/claims/<namespace>_<claim>.json         a claim's disk
//	<dir>/pods/<uid>/volumes/<volume>.json        an emptyDir
//	<dir>/pods/<uid>/containers/<id>/rootfs.json  a container's writable layer
//
// pods/<uid> is shared with the runtime's own records of the pod
// (simnode/internal/pods), which removes it with the pod. A container
// layer is only written once something changes it: an unchanged layer is
// the image's files, seeded again.

// diskEntry is an entry as saved.
type diskEntry struct {
	Name  string        `json:"name"`
	Kind  fileKind      `json:"kind,omitempty"`
	Data  []byte        `json:"data,omitempty"`
	Mode  fs.FileMode   `json:"mode"`
	MTime time.Time     `json:"mtime"`
	Kids  []diskEntry   `json:"kids,omitempty"`
	DACL  *process.DACL `json:"dacl,omitempty"`
}

func toDisk(e *entry) diskEntry {
	d := diskEntry{Name: e.name, Kind: e.kind, Data: e.data, Mode: e.mode, MTime: e.mtime, DACL: e.dacl}
	for _, k := range e.kids {
		d.Kids = append(d.Kids, toDisk(k))
	}
	return d
}

func fromDisk(win bool, d diskEntry) *entry {
	e := &entry{name: d.Name, kind: d.Kind, data: d.Data, mode: d.Mode, mtime: d.MTime, dacl: d.DACL}
	if d.Kind == kindDir {
		e.kids = make(map[string]*entry, len(d.Kids))
		for _, k := range d.Kids {
			e.kids[fold(win, k.Name)] = fromDisk(win, k)
		}
	}
	return e
}

// persist makes s a file at path: its tree is loaded from there when the
// file exists (reports whether it did), and every later change is saved.
func (s *store) persist(path string) bool {
	loaded := false
	if data, err := os.ReadFile(path); err == nil {
		var d diskEntry
		if json.Unmarshal(data, &d) == nil && d.Kind == kindDir {
			s.mu.Lock()
			s.root = fromDisk(s.win, d)
			s.mu.Unlock()
			loaded = true
		}
	}
	s.saveMu.Lock()
	s.file = path
	s.saveMu.Unlock()
	return loaded
}

// changed saves s when it is persistent. Called after a change, without
// s.mu held; saves are serialised, and each saves the tree as it is then,
// so the last save has every change.
func (s *store) changed() {
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	if s.file == "" {
		return
	}
	s.mu.RLock()
	data, err := json.Marshal(toDisk(s.root))
	s.mu.RUnlock()
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(s.file), 0o755) != nil {
		return
	}
	_ = atomicfile.Write(s.file, data, 0o600)
}

// SetStateDir keeps the node's disk in dir (see above): the host disk is
// read back from there at once, and emptyDirs, claims and container layers
// as pods mount them.
func (n *Node) SetStateDir(dir string) {
	n.mu.Lock()
	n.stateDir = dir
	n.mu.Unlock()
	if dir != "" {
		n.host.persist(filepath.Join(dir, "host.json"))
	}
}

// diskPath is the file of a persistent store, "" without a state directory.
func (n *Node) diskPath(parts ...string) string {
	n.mu.Lock()
	dir := n.stateDir
	n.mu.Unlock()
	if dir == "" {
		return ""
	}
	return filepath.Join(append([]string{dir}, parts...)...)
}

// layerPath is the file of a container's writable layer.
func (p *Pod) layerPath(container string) string {
	id := strings.TrimPrefix(p.ids[container], "containerd://")
	if id == "" || p.pod.UID == "" {
		return ""
	}
	return p.node.diskPath("pods", string(p.pod.UID), "containers", id, "rootfs.json")
}

// diskDir is a directory of the real disk shown inside a store at a path
// (the node's container logs, SetLogDirs).
type diskDir struct {
	at   []string // folded components inside the store
	real string
}

// SetLogDirs shows directories of the real disk on the node's host disk:
// by path on the node (C:\var\log\pods, /var/log/containers) to the
// directory that holds them (logs.Store's files), so that HostProcess
// containers and hostPath volumes see the container logs the kubelet
// keeps there. Reads and writes there reach the real directory.
func (n *Node) SetLogDirs(dirs map[string]string) {
	var list []diskDir
	for path, real := range dirs {
		vp, err := n.hostPath(path)
		if err != nil || len(vp.parts) == 0 {
			continue
		}
		_ = n.host.mkdirAll(vp.parts)
		at := make([]string, len(vp.parts))
		for i, p := range vp.parts {
			at[i] = fold(n.win, p)
		}
		list = append(list, diskDir{at: at, real: real})
	}
	n.host.mu.Lock()
	n.host.disks = list
	n.host.mu.Unlock()
}

// onDisk returns the real path of parts when they are inside one of s's
// disk directories. Caller holds s.mu (either).
func (s *store) onDisk(parts []string) (string, bool) {
	for _, d := range s.disks {
		if len(parts) < len(d.at) {
			continue
		}
		match := true
		for i, a := range d.at {
			if fold(s.win, parts[i]) != a {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		rest := parts[len(d.at):]
		for _, r := range rest {
			if r == ".." || strings.ContainsAny(r, `/\`) {
				return "", false
			}
		}
		return filepath.Join(append([]string{d.real}, rest...)...), true
	}
	return "", false
}

func diskInfo(name string, fi fs.FileInfo) info {
	in := info{name: name, kind: kindFile, size: fi.Size(), mode: fi.Mode().Perm(), mtime: fi.ModTime()}
	if fi.IsDir() {
		in.kind = kindDir
	}
	return in
}
