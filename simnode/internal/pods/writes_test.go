package pods

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
)

// settle waits until the provider's status queue is empty and stays so.
func (f *fixture) settle() {
	f.t.Helper()
	quiet := 0
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && quiet < 3; {
		waitIdle(f.p)
		if f.p.queue.Len() == 0 {
			quiet++
		} else {
			quiet = 0
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (f *fixture) notifications(name string) []*corev1.Pod {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*corev1.Pod
	for _, p := range f.notified {
		if p.Name == name {
			out = append(out, p)
		}
	}
	return out
}

// TestOneStatusWritePerTransition counts the status writes (each
// notification is one UpdateStatus by virtual-kubelet) of a pod's start
// and of 30 s of it running: one per real transition, as the kubelet's
// status manager writes (status_manager.go updateStatusInternal skips a
// status equal to its cache): a pause pod costs 2 (Pending with
// ContainerCreating, then Running and Ready), a readiness probe (B13)
// may add one (Running, then Ready once it succeeded, when the two are
// seen apart), and probes that keep succeeding none more (before, each probe period wrote the same
// status again: 75 writes in a minute). Every kubelet version.
func TestOneStatusWritePerTransition(t *testing.T) {
	for _, tc := range []struct {
		name  string
		pod   func() *corev1.Pod
		wants int // at most; at least 2 (Pending, Running)
	}{
		{name: "pause", pod: func() *corev1.Pod { return simplePod("w") }, wants: 2},
		{name: "ping -t", pod: func() *corev1.Pod { return simplePod("w", "cmd", "/c", "ping -t localhost") }, wants: 2},
		{name: "readiness probe every second", pod: func() *corev1.Pod {
			p := simplePod("w", "cmd", "/c", "ping -t localhost")
			p.Spec.Containers[0].ReadinessProbe = &corev1.Probe{
				ProbeHandler:  corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"cmd", "/c", "exit 0"}}},
				PeriodSeconds: 1,
			}
			return p
		}, wants: 3},
		{name: "liveness and readiness probes", pod: func() *corev1.Pod {
			p := simplePod("w", "cmd", "/c", "ping -t localhost")
			p.Spec.Containers[0].ReadinessProbe = &corev1.Probe{
				ProbeHandler:  corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"cmd", "/c", "exit 0"}}},
				PeriodSeconds: 2,
			}
			p.Spec.Containers[0].LivenessProbe = &corev1.Probe{
				ProbeHandler:  corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"cmd", "/c", "exit 0"}}},
				PeriodSeconds: 1,
			}
			return p
		}, wants: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, "windows", "10.244.1.0/24")
			pod := f.addPod(tc.pod())
			if err := f.p.CreatePod(t.Context(), pod); err != nil {
				t.Fatal(err)
			}
			f.settle() // the Pending write is made before the start
			for range 30 {
				f.run(time.Second)
				f.settle()
			}
			got := f.notifications("w")
			if len(got) < 2 || len(got) > tc.wants {
				for i, p := range got {
					t.Logf("write %d: phase %s conditions %v containers %v", i, p.Status.Phase, p.Status.Conditions, p.Status.ContainerStatuses)
				}
				t.Fatalf("%d status writes in a start and 30 s running, want 2 to %d", len(got), tc.wants)
			}
			for i := 1; i < len(got); i++ {
				if apiequality.Semantic.DeepEqual(got[i-1].Status, got[i].Status) {
					t.Errorf("write %d repeats write %d's status", i, i-1)
				}
			}
			if last := got[len(got)-1]; last.Status.Phase != corev1.PodRunning || !last.Status.ContainerStatuses[0].Ready {
				t.Errorf("last write: phase %s, ready %v; want Running and Ready", last.Status.Phase, last.Status.ContainerStatuses[0].Ready)
			}
		})
	}
}
