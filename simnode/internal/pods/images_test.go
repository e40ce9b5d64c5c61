package pods

import (
	"errors"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// fakeImages: images containing "linux-only" have no Windows manifest;
// RuntimeClass handler "bogus" is not configured.
type fakeImages struct{}

func (fakeImages) Pull(ref string, h ImageHost, _ *corev1.Pod, _ string) (Image, error) {
	if strings.Contains(ref, "unreachable.example") {
		return Image{User: "ContainerUser", Size: 300 << 20, Fallback: "dial tcp: lookup unreachable.example: no such host"}, nil
	}
	if strings.Contains(ref, "linux-only") && h.OS == "windows" {
		return Image{}, &PullError{Reason: "ErrImagePull", Message: `rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/linux-only:latest": no match for platform in manifest: not found`}
	}
	return Image{User: "ContainerUser", Ports: []int{80}, Size: 300 << 20}, nil
}

func (fakeImages) Sandbox(h ImageHost) error {
	if h.Handler == "bogus" {
		return errors.New(`rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "bogus" is configured`)
	}
	return nil
}

// B4: a failed pull: ErrImagePull, then ImagePullBackOff with back-off
// retries, and the kubelet's events.
func TestImagePullError(t *testing.T) {
	f := newFixtureWith(t, "windows", func(c *Config) { c.Images = fakeImages{} })
	pod := simplePod("img", "cmd", "/c", "ping -t localhost")
	pod.Spec.Containers[0].Image = "linux-only"
	pod = f.addPod(pod)
	if err := f.p.CreatePod(t.Context(), pod); err != nil {
		t.Fatal(err)
	}
	f.run(startDelay)
	msg := `rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/linux-only:latest": no match for platform in manifest: not found`
	w := f.get("img").Status.ContainerStatuses[0].State.Waiting
	if w == nil || w.Reason != "ErrImagePull" || w.Message != msg {
		t.Fatalf("waiting %+v", w)
	}
	f.run(2 * time.Second)
	w = f.get("img").Status.ContainerStatuses[0].State.Waiting
	if w == nil || w.Reason != "ImagePullBackOff" || w.Message != `Back-off pulling image "linux-only": ErrImagePull: `+msg {
		t.Fatalf("waiting %+v", w)
	}
	var got []string
	for _, e := range f.recorder.Events {
		got = append(got, e.Type+" "+e.Reason+": "+e.Message)
	}
	want := []string{
		`Normal Pulling: Pulling image "linux-only"`,
		`Warning Failed: Failed to pull image "linux-only": ` + msg,
		`Warning Failed: Error: ErrImagePull`,
		`Normal BackOff: Back-off pulling image "linux-only"`,
		`Warning Failed: Error: ImagePullBackOff`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Retries: 10s after the first failure, then 20s.
	f.run(9 * time.Second)
	if n := len(f.eventsOf("Pulling")); n != 2 {
		t.Fatalf("%d pulls after 10s", n)
	}
	f.run(20 * time.Second)
	if n := len(f.eventsOf("Pulling")); n != 3 {
		t.Fatalf("%d pulls after 30s", n)
	}
	if ph := f.get("img").Status.Phase; ph != corev1.PodPending {
		t.Fatalf("phase %s", ph)
	}
}

// B4: a registry that did not answer: the catalog's image runs, and the
// pull records one ImageMetadataFallback Warning naming image and reason.
func TestImageMetadataFallbackEvent(t *testing.T) {
	f := newFixtureWith(t, "windows", func(c *Config) { c.Images = fakeImages{} })
	pod := simplePod("fb", "cmd", "/c", "ping -t localhost")
	pod.Spec.Containers[0].Image = "unreachable.example/app:1"
	f.start(pod)
	if ph := f.get("fb").Status.Phase; ph != corev1.PodRunning {
		t.Fatalf("phase %s", ph)
	}
	ev := f.eventsOf("ImageMetadataFallback")
	want := `Image "unreachable.example/app:1": its registry did not answer (dial tcp: lookup unreachable.example: no such host); using what wink's image catalog says of it`
	if len(ev) != 1 || ev[0].Type != "Warning" || ev[0].Message != want {
		t.Fatalf("events %+v, want one Warning %q", ev, want)
	}
}

// imagePullPolicy Never with the image absent.
func TestErrImageNeverPull(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	pod := simplePod("never", "cmd", "/c", "ping -t localhost")
	pod.Spec.Containers[0].ImagePullPolicy = corev1.PullNever
	f.start(pod)
	w := f.get("never").Status.ContainerStatuses[0].State.Waiting
	want := `Container image "mcr.microsoft.com/windows/nanoserver:ltsc2022" is not present with pull policy of Never`
	if w == nil || w.Reason != "ErrImageNeverPull" || w.Message != want {
		t.Fatalf("waiting %+v", w)
	}
	if ev := f.eventsOf("ErrImageNeverPull"); len(ev) != 1 || ev[0].Message != want || ev[0].Type != "Warning" {
		t.Fatalf("events %+v", ev)
	}
}

// An unknown RuntimeClass handler: FailedCreatePodSandBox, the pod stays
// Pending (ContainerCreating) and the kubelet retries.
func TestSandboxHandler(t *testing.T) {
	f := newFixtureWith(t, "windows", func(c *Config) {
		c.Images = fakeImages{}
		c.RuntimeClasses = func(name string) (string, bool) { return "bogus", name == "hyperv" }
	})
	pod := simplePod("rc", "cmd", "/c", "ping -t localhost")
	pod.Spec.RuntimeClassName = ptr.To("hyperv")
	f.start(pod)
	f.run(15 * time.Second)
	ev := f.eventsOf("FailedCreatePodSandBox")
	if len(ev) != 2 || ev[0].Message != `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "bogus" is configured` {
		t.Fatalf("events %+v", ev)
	}
	got := f.get("rc")
	if w := got.Status.ContainerStatuses[0].State.Waiting; got.Status.Phase != corev1.PodPending || w == nil || w.Reason != "ContainerCreating" {
		t.Fatalf("status %+v", got.Status)
	}
}

// B13: a failing liveness probe restarts the container with the
// kubelet's events; readiness gates Ready; httpGet succeeds on a port the
// container listens on (the image's port 80 here).
func TestProbes(t *testing.T) {
	f := newFixtureWith(t, "windows", func(c *Config) { c.Images = fakeImages{} })
	pod := simplePod("probe", "cmd", "/c", "ping -t localhost")
	pod.Spec.Containers[0].ReadinessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/", Port: intstr.FromInt32(80)}}, PeriodSeconds: 5}
	pod.Spec.Containers[0].LivenessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"cmd", "/c", "exit 1"}}}, InitialDelaySeconds: 10, PeriodSeconds: 10, FailureThreshold: 3}
	f.start(pod)
	f.run(time.Second)
	if cs := f.get("probe").Status.ContainerStatuses[0]; !cs.Ready {
		t.Fatalf("not ready %+v", cs)
	}
	f.run(31 * time.Second)
	un := f.eventsOf("Unhealthy")
	if len(un) != 3 || !strings.HasPrefix(un[0].Message, "Liveness probe failed:") {
		t.Fatalf("unhealthy %+v", un)
	}
	kill := f.eventsOf("Killing")
	if len(kill) != 1 || kill[0].Message != "Container c failed liveness probe, will be restarted" {
		t.Fatalf("killing %+v", kill)
	}
	f.run(time.Second)
	cs := f.get("probe").Status.ContainerStatuses[0]
	if cs.RestartCount != 1 || cs.State.Running == nil || cs.LastTerminationState.Terminated == nil {
		t.Fatalf("after liveness kill %+v", cs)
	}

	// tcpSocket on a port nobody listens on: not ready, with the Windows
	// kubelet's dial error.
	bad := simplePod("notready", "cmd", "/c", "ping -t localhost")
	bad.Spec.Containers[0].ReadinessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(8080)}}, PeriodSeconds: 1}
	f.start(bad)
	f.run(3 * time.Second)
	if cs := f.get("notready").Status.ContainerStatuses[0]; cs.Ready {
		t.Fatal("ready without a listener")
	}
	found := false
	for _, e := range f.eventsOf("Unhealthy") {
		found = found || e.Message == "Readiness probe failed: dial tcp 10.244.1.3:8080: connectex: No connection could be made because the target machine actively refused it."
	}
	if !found {
		t.Fatalf("events %+v", f.eventsOf("Unhealthy"))
	}
}
