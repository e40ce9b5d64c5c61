package pods

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/internal/logs"
)

// tickShell runs "ticker": a header, then "tick N" a second, and a file
// write (through Env.Writes) every second tick; anything else runs in the
// simulated shell.
type tickShell struct {
	mu     sync.Mutex
	writes []string
}

func (s *tickShell) Run(ctx context.Context, env *Env, argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(argv) == 0 || argv[0] != "ticker" {
		return testShell{}.Run(ctx, env, argv, stdin, stdout, stderr)
	}
	fmt.Fprintln(stdout, "header")
	for i := 1; ; i++ {
		if env.Sleep(ctx, time.Second) != nil {
			return 1
		}
		fmt.Fprintf(stdout, "tick %d\n", i)
		if i%2 == 0 && (env.Writes == nil || env.Writes.Write()) {
			s.mu.Lock()
			s.writes = append(s.writes, fmt.Sprintf("w%d", i))
			s.mu.Unlock()
		}
	}
}

func (*tickShell) Found(*Env, []string) (bool, bool)            { return true, true }
func (*tickShell) Listens([]string) []int                       { return nil }
func (*tickShell) ShutdownDelay([]string) (time.Duration, bool) { return 0, false }

// tickerImages resolves every image to one whose entrypoint is "ticker".
type tickerImages struct{}

func (tickerImages) Pull(string, ImageHost, *corev1.Pod, string) (Image, error) {
	return Image{Entrypoint: []string{"ticker"}, Known: true, Size: 1 << 20}, nil
}
func (tickerImages) Sandbox(ImageHost) error { return nil }

// newTickerFixture is a Windows node whose images run "ticker" (tickShell),
// with its logs and runtime records on disk under dir.
func newTickerFixture(t *testing.T) (f *fixture, sh *tickShell, dir string) {
	dir = t.TempDir()
	sh = &tickShell{}
	f = newFixtureWith(t, "windows", func(c *Config) {
		c.Shell = sh
		c.Images = tickerImages{}
		c.Logs = logs.NewFileStore(filepath.Join(dir, "root"), logs.Rotation{})
		c.StateDir = filepath.Join(dir, "runtime")
	})
	return f, sh, dir
}

// restart kills simnode: its processes stop where they are, the API keeps
// pod; three seconds later a new simnode (its Config changed by edit, if
// any) serves the node from the records under dir, adopts pod and runs for
// two seconds.
func (f *fixture) restart(t *testing.T, dir string, pod *corev1.Pod, edit func(*Config)) {
	t.Helper()
	f.p.mu.Lock()
	for _, rec := range f.p.pods {
		for _, c := range rec.withEphemeral() {
			c.stopped = true
			if c.cancel != nil {
				c.cancel()
			}
		}
	}
	f.p.mu.Unlock()
	cfg := f.p.cfg
	cfg.Clock = newManualClock(f.clk.Now().Add(3 * time.Second))
	cfg.Logs = logs.NewFileStore(filepath.Join(dir, "root"), logs.Rotation{})
	if edit != nil {
		edit(&cfg)
	}
	f.clk = cfg.Clock.(*manualClock)
	f.p = NewProvider(cfg)
	if err := f.indexer.Update(pod); err != nil {
		t.Fatal(err)
	}
	if err := f.p.CreatePod(context.Background(), pod); err != nil {
		t.Fatal(err)
	}
	f.run(2 * time.Second)
}

// A simnode restart is a kubelet restart for the containers: the process
// resumes where it was, on its own clock from its recorded start, with no
// line printed twice and no file write made twice; what it would have
// printed while simnode was down is in the log with the times it would have
// had; the API's containerID, startedAt and restartCount do not change.
// A new pod of an image the node has runs with the image's entrypoint,
// from the node's record, with no catalog to ask.
func TestResumeAfterRestart(t *testing.T) {
	f, sh, dir := newTickerFixture(t)
	pod := simplePod("tick")
	pod.Spec.Containers[0].Image = "example.com/ticker:1"
	f.start(pod)
	f.run(5 * time.Second)
	before := f.get("tick")
	start := before.Status.ContainerStatuses[0].State.Running

	// simnode is killed; a new one starts without the image catalog: the
	// image's metadata comes from the node's record.
	f.restart(t, dir, before, func(c *Config) { c.Images = nil })

	after := f.get("tick")
	if !reflect.DeepEqual(before.Status.ContainerStatuses, after.Status.ContainerStatuses) {
		t.Fatalf("container status changed:\n%+v\n%+v", before.Status.ContainerStatuses, after.Status.ContainerStatuses)
	}
	b, err := f.p.ContainerLogs("default", "tick", "c", false)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"header"}
	for i := 1; i <= 10; i++ {
		want = append(want, fmt.Sprintf("tick %d", i))
	}
	var got []string
	for i, l := range b.Lines() {
		got = append(got, l.Text)
		if !l.Time.Equal(start.StartedAt.Add(time.Duration(i) * time.Second)) {
			// StartedAt is the process's exact start here (manual clock
			// on whole 200ms steps, no truncation to the second needed).
			t.Errorf("line %d %q at %v, want %v", i, l.Text, l.Time, start.StartedAt.Add(time.Duration(i)*time.Second))
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("log after the restart:\n got %q\nwant %q", got, want)
	}
	if w := []string{"w2", "w4", "w6", "w8", "w10"}; !reflect.DeepEqual(sh.writes, w) {
		t.Fatalf("file writes %q, want %q", sh.writes, w)
	}

	// A new pod of the image the node has: AlreadyPresent, the recorded
	// entrypoint.
	pod2 := simplePod("tick2")
	pod2.Spec.Containers[0].Image = "example.com/ticker:1"
	f.start(pod2)
	f.run(time.Second)
	if lines := f.logLines("tick2", "c", 0); len(lines) == 0 || lines[0] != "header" {
		t.Fatalf("new pod of a present image: %q; events %+v", lines, f.eventsOf("Failed"))
	}
}

// What the disk keeps of a pod deleted while simnode was down goes at the
// next start; a live pod's stays.
func TestCollectGarbage(t *testing.T) {
	dir := t.TempDir()
	store := logs.NewFileStore(filepath.Join(dir, "root"), logs.Rotation{})
	f := newFixtureWith(t, "windows", func(c *Config) {
		c.Logs = store
		c.StateDir = filepath.Join(dir, "runtime")
	})
	for _, uid := range []string{"live", "gone"} {
		store.Open(logs.Key{Namespace: "default", Pod: "p-" + uid, PodUID: uid, Container: "c", ContainerID: "containerd://" + uid}).Append("stdout", time.Now(), "x")
		if err := saveJSON(filepath.Join(podStateDir(f.p.cfg.StateDir, uid), "containers", "c-0.json"), procState{ID: uid}); err != nil {
			t.Fatal(err)
		}
	}
	live := simplePod("p-live")
	live.UID, live.Spec.NodeName = "live", f.info.Name
	f.p.CollectGarbage([]*corev1.Pod{live})
	if got := store.PodUIDs(); !reflect.DeepEqual(got, []string{"live"}) {
		t.Fatalf("pod logs left: %v", got)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "runtime", "pods")); len(ents) != 1 || ents[0].Name() != "live" {
		t.Fatalf("runtime records left: %v", ents)
	}
	if links, _ := os.ReadDir(filepath.Join(dir, "root", "var", "log", "containers")); len(links) != 1 {
		t.Fatalf("links left: %v", links)
	}
}

// Issue 21 (B16): an ephemeral container is a container of the pod like the
// others: after a simnode restart it is adopted with its status (same
// containerID, startedAt), its process resumes where it was, exec reaches
// it, and one that had exited stays exited.
func TestEphemeralResumeAfterRestart(t *testing.T) {
	f, _, dir := newTickerFixture(t)
	pod := simplePod("tick")
	pod.Spec.Containers[0].Image = "example.com/ticker:1"
	pod = f.start(pod)
	upd := f.get("tick").DeepCopy()
	upd.Spec.EphemeralContainers = []corev1.EphemeralContainer{
		{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debugger", Image: "example.com/ticker:1"}},
		{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "once", Image: "example.com/ticker:1", Command: []string{"cmd", "/c", "exit 0"}}},
	}
	if err := f.p.UpdatePod(context.Background(), upd); err != nil {
		t.Fatal(err)
	}
	f.run(4 * time.Second)
	before := f.get("tick")
	if n := len(before.Status.EphemeralContainerStatuses); n != 2 || before.Status.EphemeralContainerStatuses[0].State.Running == nil {
		t.Fatalf("ephemeral statuses before: %+v", before.Status.EphemeralContainerStatuses)
	}

	f.restart(t, dir, before, nil)

	after := f.get("tick")
	if !reflect.DeepEqual(before.Status.EphemeralContainerStatuses, after.Status.EphemeralContainerStatuses) {
		t.Fatalf("ephemeral statuses changed:\n%+v\n%+v", before.Status.EphemeralContainerStatuses, after.Status.EphemeralContainerStatuses)
	}
	if _, running := f.p.FindContainer("default", "tick", "debugger"); !running {
		t.Fatal("the adopted ephemeral container does not run")
	}
	b, err := f.p.ContainerLogs("default", "tick", "debugger", false)
	if err != nil {
		t.Fatal(err)
	}
	lines := b.Lines()
	if len(lines) < 8 || lines[0].Text != "header" || lines[len(lines)-1].Text != fmt.Sprintf("tick %d", len(lines)-1) {
		t.Fatalf("debugger's log after the restart: %+v", lines)
	}
}
