package pods

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	corev1listers "k8s.io/client-go/listers/core/v1"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	"wink.dev/wink/simnode/config"
	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/internal/logs"
	"wink.dev/wink/simnode/internal/nodes"
	"wink.dev/wink/simnode/rules"
)

const (
	startDelay = 200 * time.Millisecond
	stopDelay  = 100 * time.Millisecond
)

type fixture struct {
	t        *testing.T
	clk      *manualClock
	client   *fake.Clientset
	indexer  cache.Indexer
	node     *corev1.Node
	info     *nodes.Info
	recorder *Recorder
	p        *Provider

	mu       sync.Mutex
	notified []*corev1.Pod
}

func newFixture(t *testing.T, os string, podCIDR string) *fixture {
	t.Helper()
	pool := config.Pool{Name: "p", OS: facts.OS(os)}
	node, info, err := nodes.Build(rules.Default(), nodes.Spec{ClusterName: "c", Pool: pool, InternalIP: net.ParseIP("127.10.0.2"), DefaultKubeletVersion: "v1.35.4", BootID: "1", KubeletPort: 10250}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	node.Spec.PodCIDR = podCIDR
	f := &fixture{
		t:        t,
		clk:      newManualClock(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)),
		client:   fake.NewSimpleClientset(),
		indexer:  cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		node:     node,
		info:     info,
		recorder: &Recorder{},
	}
	f.p = f.newProvider()
	return f
}

func (f *fixture) newProvider() *Provider {
	p := NewProvider(Config{
		Node: f.info, Rules: rules.Default(), Client: f.client,
		Pods:       corev1listers.NewPodLister(f.indexer),
		NodeObject: func() *corev1.Node { return f.node },
		Recorder:   f.recorder, Logs: logs.NewStore(),
		StartDelay: startDelay, StopDelay: stopDelay, Clock: f.clk, Shell: testShell{},
	})
	ctx, cancel := context.WithCancel(context.Background())
	f.t.Cleanup(cancel)
	p.NotifyPods(ctx, func(pod *corev1.Pod) {
		f.mu.Lock()
		f.notified = append(f.notified, pod)
		f.mu.Unlock()
	})
	return p
}

// addPod puts a pod into the API (fake client) and the lister.
func (f *fixture) addPod(pod *corev1.Pod) *corev1.Pod {
	f.t.Helper()
	if pod.Spec.NodeName == "" {
		pod.Spec.NodeName = f.info.Name
	}
	if pod.Namespace == "" {
		pod.Namespace = "default"
	}
	if pod.UID == "" {
		pod.UID = types.UID("uid-" + pod.Name)
	}
	if _, err := f.client.CoreV1().Pods(pod.Namespace).Create(context.Background(), pod, metav1.CreateOptions{}); err != nil {
		f.t.Fatal(err)
	}
	if err := f.indexer.Add(pod); err != nil {
		f.t.Fatal(err)
	}
	return pod
}

// startRunning puts pod into the API, creates it on the node and waits
// until its status is Running, which it returns.
func (f *fixture) startRunning(pod *corev1.Pod) *corev1.Pod {
	f.t.Helper()
	f.addPod(pod)
	_ = f.p.CreatePod(context.Background(), pod)
	f.clk.Step(startDelay)
	return f.waitFor(pod.Name, phase(corev1.PodRunning))
}

// deleteWithGrace is the apiserver's graceful delete of pod: it sets the
// deletionTimestamp and the grace period, and the node is told.
func (f *fixture) deleteWithGrace(pod *corev1.Pod, grace int64) *corev1.Pod {
	f.t.Helper()
	del := pod.DeepCopy()
	now := metav1.NewTime(f.clk.Now())
	del.DeletionTimestamp = &now
	del.DeletionGracePeriodSeconds = &grace
	if err := f.indexer.Update(del); err != nil {
		f.t.Fatal(err)
	}
	if err := f.p.DeletePod(context.Background(), del); err != nil {
		f.t.Fatal(err)
	}
	return del
}

// waitFor waits for a notification of pod name that satisfies ok.
func (f *fixture) waitFor(name string, ok func(*corev1.Pod) bool) *corev1.Pod {
	f.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		f.mu.Lock()
		for i := len(f.notified) - 1; i >= 0; i-- {
			if p := f.notified[i]; p.Name == name && ok(p) {
				f.mu.Unlock()
				return p
			}
		}
		f.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	f.t.Fatalf("no notification for %s satisfying the condition; got %d notifications", name, len(f.notified))
	return nil
}

func phase(ph corev1.PodPhase) func(*corev1.Pod) bool {
	return func(p *corev1.Pod) bool { return p.Status.Phase == ph }
}

func simplePod(name string, cmd ...string) *corev1.Pod {
	image := "mcr.microsoft.com/windows/nanoserver:ltsc2022"
	if len(cmd) > 0 && strings.EqualFold(strings.TrimSuffix(cmd[0], ".exe"), "powershell") {
		// Nano Server has no PowerShell (issue 18): Server Core has 5.1.
		image = "mcr.microsoft.com/windows/servercore:ltsc2022"
	}
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: "c", Image: image, ImagePullPolicy: corev1.PullIfNotPresent, Command: cmd,
		}}},
		Status: corev1.PodStatus{Phase: corev1.PodPending, QOSClass: corev1.PodQOSBestEffort},
	}
}

func TestLifecycle(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	pod := f.addPod(simplePod("web", "cmd", "/c", "echo hello && ping -t localhost"))
	if err := f.p.CreatePod(context.Background(), pod); err != nil {
		t.Fatal(err)
	}
	pending := f.waitFor("web", phase(corev1.PodPending))
	if w := pending.Status.ContainerStatuses[0].State.Waiting; w == nil || w.Reason != "ContainerCreating" {
		t.Fatalf("pending state %+v", pending.Status.ContainerStatuses[0].State)
	}
	if pending.Status.PodIP != "" || pending.Status.HostIP != "127.10.0.2" || pending.Status.StartTime == nil {
		t.Fatalf("pending status %+v", pending.Status)
	}
	f.clk.Step(startDelay)
	running := f.waitFor("web", phase(corev1.PodRunning))
	cs := running.Status.ContainerStatuses[0]
	if running.Status.PodIP != "10.244.1.2" || !cs.Ready || cs.State.Running == nil || !strings.HasPrefix(cs.ContainerID, "containerd://") || len(cs.ContainerID) != len("containerd://")+64 {
		t.Fatalf("running status %+v", running.Status)
	}
	if cs.RestartCount != 0 || cs.Started == nil || !*cs.Started || cs.ImageID == "" {
		t.Fatalf("container status %+v", cs)
	}
	var reasons []string
	for _, e := range f.recorder.Events {
		reasons = append(reasons, e.Reason)
	}
	if got := strings.Join(reasons, ","); got != "Pulling,Pulled,Created,Started" {
		t.Fatalf("events %s", got)
	}
	buf, err := f.p.ContainerLogs("default", "web", "c", false)
	if err != nil {
		t.Fatal(err)
	}
	// cmd's echo keeps the space before &&; ping -t then answers until
	// stopped.
	if lines := buf.Lines(); len(lines) == 0 || lines[0].Text != "hello " {
		t.Fatalf("logs %+v", lines)
	}
}

func TestWaitsForPodCIDR(t *testing.T) {
	f := newFixture(t, "linux", "")
	pod := f.addPod(simplePod("a"))
	_ = f.p.CreatePod(context.Background(), pod)
	f.clk.Step(startDelay + time.Second)
	if p, _ := f.p.GetPod(context.Background(), "default", "a"); p.Status.Phase != corev1.PodPending {
		t.Fatalf("phase %s without podCIDR", p.Status.Phase)
	}
	f.node.Spec.PodCIDR = "10.244.7.0/24"
	f.clk.Step(cidrRetry)
	if p := f.waitFor("a", phase(corev1.PodRunning)); p.Status.PodIP != "10.244.7.2" {
		t.Fatalf("podIP %s", p.Status.PodIP)
	}
}

func TestHostNetworkGetsNodeIP(t *testing.T) {
	f := newFixture(t, "windows", "")
	pod := simplePod("h")
	pod.Spec.HostNetwork = true
	f.addPod(pod)
	_ = f.p.CreatePod(context.Background(), pod)
	if p := f.waitFor("h", phase(corev1.PodPending)); p.Status.PodIP != "127.10.0.2" {
		t.Fatalf("pending podIP %q", p.Status.PodIP)
	}
	f.clk.Step(startDelay)
	if p := f.waitFor("h", phase(corev1.PodRunning)); p.Status.PodIP != "127.10.0.2" {
		t.Fatalf("podIP %q", p.Status.PodIP)
	}
	if f.p.IPAM().InUse() != 0 {
		t.Fatal("hostNetwork pod took a pod IP")
	}
}

func TestRejection(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	pod := simplePod("lin")
	pod.Spec.OS = &corev1.PodOS{Name: corev1.Linux}
	f.addPod(pod)
	_ = f.p.CreatePod(context.Background(), pod)
	p := f.waitFor("lin", phase(corev1.PodFailed))
	if p.Status.Reason != "PodOSNotSupported" || p.Status.Message != "Pod was rejected: Failed to admit pod as the OS field doesn't match node OS" {
		t.Fatalf("status %+v", p.Status)
	}
	if len(f.recorder.Events) != 1 || f.recorder.Events[0].Type != "Warning" || f.recorder.Events[0].Reason != "PodOSNotSupported" {
		t.Fatalf("events %+v", f.recorder.Events)
	}
	f.clk.Step(time.Minute)
	if got, _ := f.p.GetPod(context.Background(), "default", "lin"); got.Status.Phase != corev1.PodFailed {
		t.Fatal("rejected pod was started")
	}
}

// TestAdoptionAfterRestart: a new provider (simnode restarted) finds the
// pod Running in the API and keeps everything as it is (requirement 4).
func TestAdoptionAfterRestart(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	before := f.startRunning(simplePod("keep"))
	// The API now has the running status.
	if err := f.indexer.Update(before); err != nil {
		t.Fatal(err)
	}

	// Restart: a fresh provider over the same API state.
	f.clk.Step(time.Hour)
	f.mu.Lock()
	f.notified = nil
	f.mu.Unlock()
	p2 := f.newProvider()
	p2.Seed([]*corev1.Pod{before})
	if err := p2.CreatePod(context.Background(), before.DeepCopy()); err != nil {
		t.Fatal(err)
	}
	after, err := p2.GetPod(context.Background(), "default", "keep")
	if err != nil {
		t.Fatal(err)
	}
	b, a := before.Status, after.Status
	if a.Phase != b.Phase || !a.StartTime.Equal(b.StartTime) || a.PodIP != b.PodIP || a.HostIP != b.HostIP {
		t.Fatalf("pod status changed:\nbefore %+v\nafter  %+v", b, a)
	}
	for i := range b.ContainerStatuses {
		bc, ac := b.ContainerStatuses[i], a.ContainerStatuses[i]
		if bc.ContainerID != ac.ContainerID || bc.RestartCount != ac.RestartCount || bc.ImageID != ac.ImageID || !ac.State.Running.StartedAt.Equal(&bc.State.Running.StartedAt) || bc.Ready != ac.Ready {
			t.Fatalf("container status changed:\nbefore %+v\nafter  %+v", bc, ac)
		}
	}
	for i := range b.Conditions {
		if !b.Conditions[i].LastTransitionTime.Equal(&a.Conditions[i].LastTransitionTime) || b.Conditions[i].Status != a.Conditions[i].Status {
			t.Fatalf("condition changed: %+v -> %+v", b.Conditions[i], a.Conditions[i])
		}
	}
	time.Sleep(50 * time.Millisecond)
	f.mu.Lock()
	n := len(f.notified)
	f.mu.Unlock()
	if n != 0 {
		t.Fatalf("adoption sent %d status updates", n)
	}
	// A new pod never gets the adopted pod's IP.
	other := f.addPod(simplePod("new"))
	_ = p2.CreatePod(context.Background(), other)
	f.clk.Step(startDelay)
	if got := f.waitFor("new", phase(corev1.PodRunning)); got.Status.PodIP == b.PodIP {
		t.Fatalf("IP %s reused", got.Status.PodIP)
	}
	if len(f.recorder.Events) != 4+3 { // first pod: Pulling,Pulled,Created,Started; second: Pulled (present),Created,Started
		t.Fatalf("events %+v", f.recorder.Events)
	}
}

func TestGracefulDeletion(t *testing.T) {
	for _, tc := range []struct {
		name       string
		os         string
		ignore     bool
		grace      int64
		wantAfter  time.Duration
		wantExit   int32
		wantReason string
		wantPhase  corev1.PodPhase
		cmd        []string // run in the agnhost image
	}{
		{"exits at once", "windows", false, 30, stopDelay, 0, "Completed", corev1.PodSucceeded, nil},
		{"windows ignores SIGTERM", "windows", true, 5, 5 * time.Second, 1, "Error", corev1.PodFailed, nil},
		{"linux ignores SIGTERM", "linux", true, 3, 3 * time.Second, 137, "Error", corev1.PodFailed, nil},
		// B13: agnhost netexec --delay-shutdown N sleeps N s after SIGTERM, then
		// exits 0; the kubelet kills it when the grace period ends first
		// (e2e windows/node_shutdown.go runs it with 9999).
		{"netexec --delay-shutdown past the grace period", "windows", false, 20, 20 * time.Second, 1, "Error", corev1.PodFailed,
			[]string{"/agnhost", "netexec", "--delay-shutdown", "9999"}},
		{"netexec --delay-shutdown within it", "linux", false, 30, 5 * time.Second, 0, "Completed", corev1.PodSucceeded,
			[]string{"/agnhost", "netexec", "--delay-shutdown", "5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.os, "10.244.1.0/24")
			pod := simplePod("d", tc.cmd...)
			if tc.cmd != nil {
				pod.Spec.Containers[0].Image = "registry.k8s.io/e2e-test-images/agnhost:2.59"
			}
			if tc.ignore {
				pod.Annotations = map[string]string{IgnoreSigtermAnnotation: "true"}
			}
			f.startRunning(pod)
			del := f.deleteWithGrace(pod, tc.grace)
			if err := f.p.DeletePod(context.Background(), del); err != nil { // may be called again
				t.Fatal(err)
			}
			f.clk.Step(tc.wantAfter - time.Millisecond)
			if got, _ := f.p.GetPod(context.Background(), "default", "d"); got.Status.ContainerStatuses[0].State.Running == nil {
				t.Fatal("container stopped too early")
			}
			f.clk.Step(time.Millisecond)
			deadline := time.Now().Add(5 * time.Second)
			for {
				_, err := f.client.CoreV1().Pods("default").Get(context.Background(), "d", metav1.GetOptions{})
				if err != nil {
					break // deleted from the API
				}
				if time.Now().After(deadline) {
					t.Fatal("pod not deleted from the API")
				}
				time.Sleep(5 * time.Millisecond)
			}
			got, _ := f.p.GetPod(context.Background(), "default", "d")
			term := got.Status.ContainerStatuses[0].State.Terminated
			if term == nil || term.ExitCode != tc.wantExit || term.Reason != tc.wantReason || got.Status.Phase != tc.wantPhase {
				t.Fatalf("status %+v", got.Status)
			}
			// Like the kubelet's status manager: the terminal status, then a
			// delete with grace 0 and a UID precondition.
			var verbs []string
			for _, a := range f.client.Actions() {
				switch a := a.(type) {
				case k8stesting.UpdateAction:
					if a.GetSubresource() == "status" {
						verbs = append(verbs, "update-status")
						if p := a.GetObject().(*corev1.Pod); p.Status.Phase != tc.wantPhase {
							t.Fatalf("final status phase %s", p.Status.Phase)
						}
					}
				case k8stesting.DeleteAction:
					verbs = append(verbs, "delete")
					o := a.GetDeleteOptions()
					if o.GracePeriodSeconds == nil || *o.GracePeriodSeconds != 0 || o.Preconditions == nil || *o.Preconditions.UID != pod.UID {
						t.Fatalf("delete options %+v", o)
					}
				}
			}
			if got := strings.Join(verbs, ","); got != "update-status,delete" {
				t.Fatalf("API calls %s", got)
			}
			if last := f.recorder.Events[len(f.recorder.Events)-1]; last.Reason != "Killing" || last.Message != "Stopping container c" {
				t.Fatalf("last event %+v", last)
			}
			// Gone from the API: the next DeletePod forgets it and frees the IP.
			if err := f.indexer.Delete(del); err != nil {
				t.Fatal(err)
			}
			if err := f.p.DeletePod(context.Background(), del); err != nil {
				t.Fatal(err)
			}
			if _, err := f.p.GetPod(context.Background(), "default", "d"); err == nil {
				t.Fatal("pod still known")
			}
			if f.p.IPAM().InUse() != 0 {
				t.Fatal("IP not released")
			}
		})
	}
}

func TestReadinessGates(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	pod := simplePod("g")
	pod.Spec.ReadinessGates = []corev1.PodReadinessGate{{ConditionType: "example.com/lb"}}
	running := f.startRunning(pod)
	ready := func(p *corev1.Pod) *corev1.PodCondition {
		for i, c := range p.Status.Conditions {
			if c.Type == corev1.PodReady {
				return &p.Status.Conditions[i]
			}
		}
		return nil
	}
	if c := ready(running); c.Status != corev1.ConditionFalse || c.Reason != "ReadinessGatesNotReady" ||
		c.Message != `corresponding condition of pod readiness gate "example.com/lb" does not exist.` {
		t.Fatalf("ready %+v", c)
	}
	// A controller sets the gate's condition.
	gated := running.DeepCopy()
	gated.Status.Conditions = append(gated.Status.Conditions, corev1.PodCondition{Type: "example.com/lb", Status: corev1.ConditionTrue})
	if err := f.indexer.Update(gated); err != nil {
		t.Fatal(err)
	}
	f.p.Observe(gated)
	got := f.waitFor("g", func(p *corev1.Pod) bool { return ready(p).Status == corev1.ConditionTrue })
	if got.Status.Conditions[0].Type != "example.com/lb" {
		t.Fatalf("foreign condition not kept first: %+v", got.Status.Conditions)
	}
}
