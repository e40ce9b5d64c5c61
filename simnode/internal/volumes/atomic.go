package volumes

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The kubelet's AtomicWriter (pkg/volume/util/atomic_writer.go) lays out
// configMap, secret, downwardAPI and projected volumes the same way on
// Linux and Windows nodes (os.Symlink makes real symbolic links on both):
//
//	..2026_11_28_08_40_00.123456789/   the payload, files with their modes
//	..data -> ..2026_11_28_08_40_00.123456789
//	<key>  -> ..data/<key>               one link per top-level name
//
// An update writes a new timestamped directory, points `..data` at it,
// adds links for new top-level names, removes those of names gone and then
// the old directory. Nothing is written when the contents are unchanged.
const (
	dataDirName     = "..data"
	maxFileNameLen  = 255
	maxPayloadPath  = 4096
	tsDirMode       = 0o755 // newTimestampDir's chmod
	payloadDirMode  = 0o755 // os.MkdirAll(baseDir, os.ModePerm) under the kubelet's 022 umask
	symlinkModeUnix = 0o777 // lrwxrwxrwx
)

// validatePayloadPath is validatePath: relative, no `..` element, not
// starting with `..`, names up to 255 and paths up to 4096 bytes.
func validatePayloadPath(win bool, p string) error {
	if p == "" {
		return fmt.Errorf("invalid path: must not be empty: %q", p)
	}
	if isAbs(win, p) {
		return fmt.Errorf("invalid path: must be relative path: %s", p)
	}
	if len(p) > maxPayloadPath {
		return fmt.Errorf("invalid path: must be less than or equal to %d characters", maxPayloadPath)
	}
	sep := "/"
	if win {
		sep = `\`
	}
	items := strings.Split(p, sep)
	for _, it := range items {
		if it == ".." {
			return fmt.Errorf("invalid path: must not contain '..': %s", p)
		}
		if len(it) > maxFileNameLen {
			return fmt.Errorf("invalid path: filenames must be less than or equal to %d characters", maxFileNameLen)
		}
	}
	if strings.HasPrefix(items[0], "..") && len(items[0]) > 2 {
		return fmt.Errorf("invalid path: must not start with '..': %s", p)
	}
	return nil
}

// cleanPayload validates the payload and keys it by its cleaned path
// components joined with "/".
func cleanPayload(win bool, payload map[string]payloadFile) (map[string]payloadFile, error) {
	out := make(map[string]payloadFile, len(payload))
	for k, f := range payload {
		if err := validatePayloadPath(win, k); err != nil {
			return nil, err
		}
		parts := clean(relParts(win, k))
		if len(parts) == 0 {
			continue
		}
		out[strings.Join(parts, "/")] = f
	}
	return out, nil
}

// tsDirName is newTimestampDir's name: os.MkdirTemp's pattern
// "..2006_01_02_15_04_05." plus a decimal uint32. The number is derived
// from seed and the time so that a simulation is reproducible.
func tsDirName(now time.Time, seed string) string {
	h := fnv.New32a()
	h.Write([]byte(seed))
	h.Write([]byte(now.Format(time.RFC3339Nano)))
	return now.UTC().Format("..2006_01_02_15_04_05.") + strconv.FormatUint(uint64(h.Sum32()), 10)
}

// fileMode is the mode a payload file ends up with. Linux: as given. On
// Windows, os.WriteFile and os.Chmod keep only the owner-write bit, as the
// read-only attribute; Go reports such a file as 0444, any other as 0666.
func fileMode(win bool, m int32) fs.FileMode {
	if !win {
		return fs.FileMode(m).Perm()
	}
	if m&0o200 == 0 {
		return 0o444
	}
	return 0o666
}

// dirMode is a payload directory's mode: as made on Linux; Go reports
// every directory on Windows as 0777.
func dirMode(win bool, linux fs.FileMode) fs.FileMode {
	if win {
		return 0o777
	}
	return linux
}

func linkMode(win bool) fs.FileMode {
	if win {
		return 0o666
	}
	return symlinkModeUnix
}

// atomicWrite is AtomicWriter.Write on the store's root (the volume
// directory). seed names the volume (tsDirName). fsGroup is a Linux pod's
// securityContext.fsGroup being set: the plugins' setPerms
// (SetVolumeOwnership) then makes the volume group-readable.
func (s *store) atomicWrite(payload map[string]payloadFile, seed string, fsGroup bool) error {
	files, err := cleanPayload(s.win, payload)
	if err != nil {
		return err
	}
	defer s.changed()
	s.mu.Lock()
	defer s.mu.Unlock()
	root := s.root
	now := s.now()

	// (2) the current timestamped directory
	oldTs := ""
	if d := root.kids[fold(s.win, dataDirName)]; d != nil && d.kind == kindSymlink {
		oldTs = string(d.data)
	}
	var oldDir *entry
	if oldTs != "" {
		oldDir = root.kids[fold(s.win, oldTs)]
	}

	// (3) paths of the old version that the payload no longer has
	var remove []string
	write := true
	if oldDir != nil {
		newPaths := map[string]bool{}
		for p := range files {
			parts := strings.Split(p, "/")
			for i := range parts {
				newPaths[fold(s.win, strings.Join(parts[:i+1], "/"))] = true
			}
		}
		walkTree(oldDir, "", func(rel string) {
			if !newPaths[fold(s.win, rel)] {
				remove = append(remove, rel)
			}
		})
		// (4) unchanged contents: no new directory
		if !payloadDiffers(s.win, oldDir, files) && len(remove) == 0 {
			write, oldTs = false, ""
		}
	}

	if write {
		// (5)-(9) the new timestamped directory, then `..data` swapped
		name := tsDirName(now, seed)
		for i := 0; root.kids[fold(s.win, name)] != nil; i++ {
			// os.MkdirTemp tries another number when the name is taken
			name = tsDirName(now, seed+"#"+strconv.Itoa(i))
		}
		ts := newDir(name, now)
		ts.mode = dirMode(s.win, tsDirMode)
		for _, p := range sortedKeys(files) {
			f := files[p]
			parts := strings.Split(p, "/")
			dir := ts
			for _, d := range parts[:len(parts)-1] {
				k := fold(s.win, d)
				c := dir.kids[k]
				if c == nil || c.kind != kindDir {
					c = newDir(d, now)
					c.mode = dirMode(s.win, payloadDirMode)
					dir.kids[k] = c
				}
				dir = c
			}
			dir.kids[fold(s.win, parts[len(parts)-1])] = &entry{name: parts[len(parts)-1], kind: kindFile, data: f.data, mode: fileMode(s.win, f.mode), mtime: now}
		}
		root.kids[fold(s.win, name)] = ts
		if fsGroup {
			// (7) setPerms, over the whole volume directory
			groupReadable(root)
		}
		root.kids[fold(s.win, dataDirName)] = &entry{name: dataDirName, kind: kindSymlink, data: []byte(name), mode: linkMode(s.win), mtime: now}
	}

	// (10) a link for each top-level name that has none
	sep := "/"
	if s.win {
		sep = `\`
	}
	for _, p := range sortedKeys(files) {
		top, _, _ := strings.Cut(p, "/")
		k := fold(s.win, top)
		if root.kids[k] == nil {
			root.kids[k] = &entry{name: top, kind: kindSymlink, data: []byte(dataDirName + sep + top), mode: linkMode(s.win), mtime: now}
		}
	}

	// (11) the links of names gone; only top-level ones are links
	for _, rel := range remove {
		if !strings.Contains(rel, "/") {
			delete(root.kids, fold(s.win, rel))
		}
	}

	// (12) the old timestamped directory
	if oldTs != "" {
		delete(root.kids, fold(s.win, oldTs))
	}
	root.mtime = now
	return nil
}

// groupReadable is what SetVolumeOwnership's changeFilePermission
// (pkg/volume/volume_linux.go) does to a read-only volume: files get
// roMask (0440) added, directories also execMask (0110) and setgid; links
// are skipped. The group itself (fsGroup) is not shown: ls prints root.
func groupReadable(e *entry) {
	switch e.kind {
	case kindSymlink:
		return
	case kindDir:
		e.mode |= fs.ModeSetgid | 0o550
		for _, c := range e.kids {
			groupReadable(c)
		}
	default:
		e.mode |= 0o440
	}
}

// walkTree calls fn with the "/"-joined path of every entry under e.
func walkTree(e *entry, prefix string, fn func(rel string)) {
	for _, c := range e.kids {
		rel := c.name
		if prefix != "" {
			rel = prefix + "/" + c.name
		}
		fn(rel)
		if c.kind == kindDir {
			walkTree(c, rel, fn)
		}
	}
}

// payloadDiffers is shouldWritePayload: some file is absent from the old
// directory or has other contents (a mode change alone writes nothing).
func payloadDiffers(win bool, old *entry, files map[string]payloadFile) bool {
	for p, f := range files {
		e := old
		for _, part := range strings.Split(p, "/") {
			if e == nil || e.kind != kindDir {
				return true
			}
			e = e.kids[fold(win, part)]
		}
		if e == nil || e.kind != kindFile || !bytes.Equal(e.data, f.data) {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]payloadFile) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
