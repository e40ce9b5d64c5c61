package pods

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// withImage is pod name's current spec with its container's image changed,
// as a pod update delivers it.
func (f *fixture) withImage(name, image string) *corev1.Pod {
	f.t.Helper()
	upd := f.get(name).DeepCopy()
	upd.Spec.Containers[0].Image = image
	if err := f.p.UpdatePod(context.Background(), upd); err != nil {
		f.t.Fatal(err)
	}
	return upd
}

// Issue 21 (B13): a pod update that changes a running container's image:
// the kubelet kills it ("Container c definition changed, will be
// restarted"), pulls the new image and starts it again, the restart count
// going on (kuberuntime_manager.go computePodActions, containerChanged).
func TestImageChangeRestartsContainer(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	f.start(simplePod("web", "cmd", "/c", "ping -t localhost"))
	if cs := f.get("web").Status.ContainerStatuses[0]; cs.State.Running == nil || cs.RestartCount != 0 {
		t.Fatalf("before the update %+v", cs)
	}
	const newImage = "mcr.microsoft.com/windows/servercore:ltsc2022"
	f.withImage("web", newImage)
	// The stop, pull and start take simulated seconds; the margin leaves
	// room for a loaded machine, where a step's goroutines may still be
	// busy when waitIdle gives up on them.
	f.run(startDelay + 30*time.Second)
	kill := f.eventsOf("Killing")
	if len(kill) != 1 || kill[0].Message != "Container c definition changed, will be restarted" || kill[0].Type != "Normal" {
		t.Fatalf("Killing events %+v", kill)
	}
	var pulled bool
	for _, e := range append(f.eventsOf("Pulling"), f.eventsOf("Pulled")...) {
		pulled = pulled || e.Message != "" && strings.Contains(e.Message, newImage)
	}
	if !pulled {
		t.Fatalf("no pull of %s: %+v", newImage, f.recorder.Events)
	}
	cs := f.get("web").Status.ContainerStatuses[0]
	if cs.State.Running == nil || cs.RestartCount != 1 || cs.LastTerminationState.Terminated == nil || !strings.Contains(cs.Image, "servercore") {
		t.Fatalf("after the update %+v", cs)
	}
}

// Issue 21 (B13): the back-off is keyed by the image (kuberuntime
// helpers.go GetBackoffKey), so an image update resets it: a container in
// a long crash-loop back-off starts again at once with the new image, and
// its next back-off is the initial 10s (upstream common/node/pods.go
// "should have their auto-restart back-off timer reset on image update").
// The restart is whatever the policy, even Never (the definition changed).
func TestImageChangeResetsBackOff(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	f.start(simplePod("crash", "cmd", "/c", "exit 1"))
	f.run(35 * time.Second) // restarts at 0, 10s, 30s: a 40s back-off now
	cs := f.get("crash").Status.ContainerStatuses[0]
	if cs.State.Waiting == nil || cs.State.Waiting.Message[:len("back-off 40s")] != "back-off 40s" {
		t.Fatalf("before the update %+v", cs)
	}
	before := cs.RestartCount
	f.withImage("crash", "mcr.microsoft.com/windows/servercore:ltsc2022")
	f.run(startDelay)
	cs = f.get("crash").Status.ContainerStatuses[0]
	if cs.RestartCount != before+1 || !strings.Contains(cs.Image, "servercore") {
		t.Fatalf("not restarted at once with the new image: %+v", cs)
	}
	f.run(2 * time.Second)
	cs = f.get("crash").Status.ContainerStatuses[0]
	if cs.State.Waiting == nil || cs.State.Waiting.Message[:len("back-off 10s")] != "back-off 10s" {
		t.Fatalf("back-off not reset: %+v", cs)
	}

	// restartPolicy Never: a running container whose image changes is
	// restarted all the same.
	f.start(withPolicy(simplePod("never", "cmd", "/c", "ping -t localhost"), corev1.RestartPolicyNever))
	f.withImage("never", "mcr.microsoft.com/windows/servercore:ltsc2022")
	f.run(startDelay + 5*time.Second)
	pod := f.get("never")
	if cs := pod.Status.ContainerStatuses[0]; pod.Status.Phase != corev1.PodRunning || cs.State.Running == nil || cs.RestartCount != 1 {
		t.Fatalf("Never pod after the update: %s %+v", pod.Status.Phase, cs)
	}
}
