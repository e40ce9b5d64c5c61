package pods

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/atomicfile"
	"wink.dev/wink/simnode/internal/logs"
)

// This file is what lets containers outlive the simnode process, as a real
// node's containers outlive a kubelet restart (the package doc has the
// model): the runtime's records on disk, the process clock, and the gates
// that keep a resumed process from repeating what it already did.

// procClock is a container process's own clock. It starts at the
// instance's start time and moves only when the process sleeps: Now is the
// start plus the sleeps so far, and a sleep waits (on the provider's clock)
// until the time it ends. What a program prints and writes is therefore a
// function of its start time alone, and a process re-run from its recorded
// start reaches the same lines with the same timestamps; a sleep that ended
// in the past (a resumed process catching up) returns at once.
type procClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *procClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// procState is what the runtime keeps on disk of one container instance,
// like containerd's container metadata: the exact start of its process and
// how far its file writes got (the time of the last one on the process
// clock and how many were made at that time).
type procState struct {
	ID        string    `json:"id"`
	Start     time.Time `json:"start"`
	LastWrite time.Time `json:"lastWrite,omitempty"`
	Writes    int       `json:"writesAtLastWrite,omitempty"`
}

// podStateDir is where the runtime keeps a pod's records (and, by the same
// layout, volumes.Node keeps its emptyDirs and container layers); removed
// with the pod.
func podStateDir(stateDir, uid string) string {
	return filepath.Join(stateDir, "pods", uid)
}

func (m *machine) procPath(rec *record, c *container) string {
	if m.stateDir == "" {
		return ""
	}
	return filepath.Join(podStateDir(m.stateDir, rec.uid), "containers", fmt.Sprintf("%s-%d.json", c.name, c.restartCount))
}

func (m *machine) loadProc(rec *record, c *container) (procState, bool) {
	path := m.procPath(rec, c)
	if path == "" {
		return procState{}, false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return procState{}, false
	}
	var st procState
	if json.Unmarshal(data, &st) != nil || st.ID != c.id {
		return procState{}, false
	}
	return st, true
}

func saveJSON(path string, v any) error {
	if path == "" {
		return nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, data, 0o600)
}

// logKey names the log file of instance restart of c.
func logKey(rec *record, c *container, restart int32) logs.Key {
	return logs.Key{
		Namespace: rec.pod.Namespace, Pod: rec.pod.Name, PodUID: rec.uid,
		Container: c.name, Restart: restart, ContainerID: containerID(rec.uid, c.name, restart),
	}
}

// resumeFilter drops the lines a resumed process prints again: those
// before the last line its log already has, and as many at that time as
// the log has. The first new line ends the filter.
type resumeFilter struct {
	w    logs.Writer
	mu   sync.Mutex
	last time.Time
	skip int
	done bool
}

func (f *resumeFilter) Append(stream string, t time.Time, text string) {
	if f.pass(t, true) {
		f.w.Append(stream, t, text)
	}
}

// AppendPartial implements logs.Writer: a part of a line the log
// already has is dropped with the line, which its last record counts.
func (f *resumeFilter) AppendPartial(stream string, t time.Time, text string) {
	if f.pass(t, false) {
		f.w.AppendPartial(stream, t, text)
	}
}

// pass reports whether a record at t is new; a complete one (end) counts
// against the lines at the log's last time.
func (f *resumeFilter) pass(t time.Time, end bool) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.done {
		switch {
		case t.Before(f.last):
			return false
		case t.Equal(f.last) && f.skip > 0:
			if end {
				f.skip--
			}
			return false
		}
		f.done = true
	}
	return true
}

// writeGate records the file writes of a container process (Env.Writes)
// and, for a resumed one, skips those its earlier run made: writes up to
// the recorded last write, on the process clock. The record is saved
// before the write is made.
type writeGate struct {
	clock *procClock
	path  string

	mu   sync.Mutex
	st   procState
	last time.Time // the earlier run's last write
	skip int
	done bool
}

func newWriteGate(clock *procClock, path string, st procState, resumed bool) *writeGate {
	g := &writeGate{clock: clock, path: path, st: st, done: !resumed}
	if resumed {
		g.last, g.skip = st.LastWrite, st.Writes
		g.done = st.LastWrite.IsZero()
	}
	return g
}

// Write implements WriteGate.
func (g *writeGate) Write() bool {
	t := g.clock.now()
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.done {
		switch {
		case t.Before(g.last):
			return false
		case t.Equal(g.last) && g.skip > 0:
			g.skip--
			return false
		}
		g.done = true
	}
	if t.Equal(g.st.LastWrite) {
		g.st.Writes++
	} else {
		g.st.LastWrite, g.st.Writes = t, 1
	}
	_ = saveJSON(g.path, g.st)
	return true
}

// imagesPath is the node's record of the images it has, with what the pull
// resolved (entrypoint, cmd, env, user, ports): containerd's image store.
func (m *machine) imagesPath() string {
	if m.stateDir == "" {
		return ""
	}
	return filepath.Join(m.stateDir, "images.json")
}

func (m *machine) loadImages() {
	data, err := os.ReadFile(m.imagesPath())
	if err != nil {
		return
	}
	var saved map[string]Image
	if json.Unmarshal(data, &saved) != nil {
		return
	}
	for ref, img := range saved {
		m.images[ref] = true
		m.imageInfo[ref] = img
	}
}

// recordImage notes that the node has image ref as img resolved it.
func (m *machine) recordImage(ref string, img Image) {
	m.images[ref] = true
	m.imageInfo[ref] = img
	_ = saveJSON(m.imagesPath(), m.imageInfo)
}

// imageMeta is the metadata of c's image on this node: as its pull
// recorded it, or, for an image the node has without a record (a node
// state from before the record existed), resolved again by the lookup
// the pull uses, so that the container runs as its first pull made it.
func (m *machine) imageMeta(rec *record, c *container) Image {
	ref, _ := imageRefs(c.image)
	if img, ok := m.imageInfo[ref]; ok {
		return img
	}
	if m.rt.images == nil {
		return Image{}
	}
	img, err := m.rt.images.Pull(c.image, m.host(rec), rec.pod, c.name)
	if err != nil {
		return Image{}
	}
	if img.Size == 0 {
		img.Size = imageSize(ref, m.node.OS)
	}
	m.recordImage(ref, img)
	return img
}

// CollectGarbage removes what the node's disk keeps of pods that are gone
// from the API (deleted while simnode was not running): their logs and
// the runtime's records, as the kubelet's garbage collection removes the
// log directories and containers of pods that no longer exist. pods are
// the pods the API has on this node; call it before any pod is created.
func (p *Provider) CollectGarbage(pods []*corev1.Pod) {
	live := map[string]bool{}
	for _, pod := range pods {
		if pod.Spec.NodeName == p.cfg.Node.Name {
			live[string(pod.UID)] = true
		}
	}
	for _, uid := range p.cfg.Logs.PodUIDs() {
		if !live[uid] {
			p.cfg.Logs.DeletePod(uid)
		}
	}
	if p.cfg.StateDir == "" {
		return
	}
	ents, _ := os.ReadDir(filepath.Join(p.cfg.StateDir, "pods"))
	for _, e := range ents {
		if !live[e.Name()] {
			_ = os.RemoveAll(podStateDir(p.cfg.StateDir, e.Name()))
		}
	}
}
