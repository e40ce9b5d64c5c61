package pods

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/internal/logs"
)

// run advances the fake clock by d in small steps, letting the commands
// of the containers run in between.
func (f *fixture) run(d time.Duration) {
	for t := time.Duration(0); t < d; t += simTick {
		waitIdle(f.p)
		f.clk.Step(simTick)
	}
	waitIdle(f.p)
}

// get is the pod's current simulated status.
func (f *fixture) get(name string) *corev1.Pod {
	f.t.Helper()
	pod, err := f.p.GetPod(context.Background(), "default", name)
	if err != nil {
		f.t.Fatal(err)
	}
	return pod
}

func (f *fixture) start(pod *corev1.Pod) *corev1.Pod {
	f.t.Helper()
	pod = f.addPod(pod)
	if err := f.p.CreatePod(context.Background(), pod); err != nil {
		f.t.Fatal(err)
	}
	f.run(startDelay)
	return pod
}

func (f *fixture) eventsOf(reason string) []Event {
	var out []Event
	for _, e := range f.recorder.Events {
		if e.Reason == reason {
			out = append(out, e)
		}
	}
	return out
}

func (f *fixture) logLines(name, container string, restart int32) []string {
	f.t.Helper()
	pod := f.get(name)
	b, err := f.p.Logs().Get(logs.Key{PodUID: string(pod.UID), Container: container, Restart: restart})
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, l := range b.Lines() {
		out = append(out, l.Text)
	}
	return out
}

func withPolicy(pod *corev1.Pod, p corev1.RestartPolicy) *corev1.Pod {
	pod.Spec.RestartPolicy = p
	return pod
}

// A Job whose container runs `cmd /c exit 3` fails with exit code 3.
func TestJobExitCode(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	f.start(withPolicy(simplePod("job", "cmd", "/c", "exit 3"), corev1.RestartPolicyNever))
	pod := f.get("job")
	if pod.Status.Phase != corev1.PodFailed {
		t.Fatalf("phase %s", pod.Status.Phase)
	}
	term := pod.Status.ContainerStatuses[0].State.Terminated
	if term == nil || term.ExitCode != 3 || term.Reason != "Error" || term.ContainerID == "" || term.StartedAt.IsZero() || term.FinishedAt.IsZero() {
		t.Fatalf("terminated %+v", pod.Status.ContainerStatuses[0].State)
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady && (c.Status != corev1.ConditionFalse || c.Reason != "PodFailed") {
			t.Fatalf("ready condition %+v", c)
		}
	}
}

// B9: `cmd /S /C "echo %username%"` prints the default user and succeeds.
func TestEchoUsername(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	f.start(withPolicy(simplePod("who", "cmd", "/S", "/C", "echo %username%"), corev1.RestartPolicyNever))
	pod := f.get("who")
	if pod.Status.Phase != corev1.PodSucceeded {
		t.Fatalf("phase %s %+v", pod.Status.Phase, pod.Status.ContainerStatuses)
	}
	if term := pod.Status.ContainerStatuses[0].State.Terminated; term == nil || term.ExitCode != 0 || term.Reason != "Completed" {
		t.Fatalf("state %+v", pod.Status.ContainerStatuses[0].State)
	}
	if got := f.logLines("who", "c", 0); len(got) != 1 || got[0] != "ContainerUser" {
		t.Fatalf("log %q", got)
	}
}

// Long-running commands keep running.
func TestLongRunning(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	f.start(simplePod("srv", "powershell", "-Command", "while ($true) { Start-Sleep 1 }"))
	f.run(time.Minute)
	pod := f.get("srv")
	cs := pod.Status.ContainerStatuses[0]
	if pod.Status.Phase != corev1.PodRunning || cs.State.Running == nil || !cs.Ready || cs.RestartCount != 0 {
		t.Fatalf("status %+v", pod.Status)
	}
}

// B13: the kubelet's crash-loop back-off: the first restart at once, then
// 10s, 20s, 40s ... after each exit, with CrashLoopBackOff and BackOff.
func TestCrashLoopBackOff(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	f.start(simplePod("crash", "cmd", "/c", "exit 1"))
	pod := f.get("crash")
	cs := pod.Status.ContainerStatuses[0]
	// Started at t0, exited, restarted at once (restart 1), exited again:
	// now in a 10s back-off.
	if cs.RestartCount != 1 || cs.State.Waiting == nil || cs.State.Waiting.Reason != "CrashLoopBackOff" {
		t.Fatalf("status %+v", cs)
	}
	want := "back-off 10s restarting failed container=c pod=crash_default(uid-crash)"
	if cs.State.Waiting.Message != want {
		t.Fatalf("waiting message %q, want %q", cs.State.Waiting.Message, want)
	}
	if lt := cs.LastTerminationState.Terminated; lt == nil || lt.ExitCode != 1 || lt.Reason != "Error" {
		t.Fatalf("lastState %+v", cs.LastTerminationState)
	}
	if pod.Status.Phase != corev1.PodRunning {
		t.Fatalf("phase %s", pod.Status.Phase)
	}
	bo := f.eventsOf("BackOff")
	if len(bo) != 1 || bo[0].Type != "Warning" || bo[0].Message != "Back-off restarting failed container c in pod crash_default(uid-crash)" {
		t.Fatalf("BackOff events %+v", bo)
	}
	for _, step := range []struct {
		wait    time.Duration
		restart int32
		backoff string
	}{
		{9 * time.Second, 1, "10s"},
		{time.Second + simTick, 2, "20s"},
		{19 * time.Second, 2, "20s"},
		{time.Second + simTick, 3, "40s"},
		{40 * time.Second, 4, "1m20s"},
		{80 * time.Second, 5, "2m40s"},
		{160 * time.Second, 6, "5m0s"},
		{300 * time.Second, 7, "5m0s"},
	} {
		f.run(step.wait)
		cs := f.get("crash").Status.ContainerStatuses[0]
		if cs.RestartCount != step.restart || cs.State.Waiting == nil || !strings.HasPrefix(cs.State.Waiting.Message, "back-off "+step.backoff+" ") {
			t.Fatalf("after %s: restarts %d state %+v; want %d and back-off %s", step.wait, cs.RestartCount, cs.State, step.restart, step.backoff)
		}
	}
}

// restartPolicy OnFailure: a failure restarts, a success completes.
func TestOnFailure(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	f.start(withPolicy(simplePod("ok", "cmd", "/c", "exit 0"), corev1.RestartPolicyOnFailure))
	if ph := f.get("ok").Status.Phase; ph != corev1.PodSucceeded {
		t.Fatalf("phase %s", ph)
	}
	f.start(withPolicy(simplePod("bad", "cmd", "/c", "exit 2"), corev1.RestartPolicyOnFailure))
	pod := f.get("bad")
	if pod.Status.Phase != corev1.PodRunning || pod.Status.ContainerStatuses[0].RestartCount != 1 {
		t.Fatalf("status %+v", pod.Status)
	}
}

// Init containers run in order, to completion, before the app containers.
func TestInitContainers(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	pod := simplePod("init", "cmd", "/c", "echo app && ping -t localhost")
	pod.Spec.InitContainers = []corev1.Container{
		{Name: "i1", Image: "mcr.microsoft.com/windows/nanoserver:ltsc2022", Command: []string{"cmd", "/c", "echo one"}},
		{Name: "i2", Image: "mcr.microsoft.com/windows/nanoserver:ltsc2022", Command: []string{"cmd", "/c", "echo two"}},
	}
	f.start(pod)
	got := f.get("init")
	if got.Status.Phase != corev1.PodRunning {
		t.Fatalf("phase %s", got.Status.Phase)
	}
	for _, s := range got.Status.InitContainerStatuses {
		if s.State.Terminated == nil || s.State.Terminated.Reason != "Completed" || !s.Ready {
			t.Fatalf("init status %+v", s)
		}
	}
	var order []string
	for _, e := range f.eventsOf("Started") {
		order = append(order, e.FieldPath)
	}
	if strings.Join(order, ",") != "spec.initContainers{i1},spec.initContainers{i2},spec.containers{c}" {
		t.Fatalf("start order %v", order)
	}
	if l := f.logLines("init", "i2", 0); len(l) != 1 || l[0] != "two" {
		t.Fatalf("i2 log %q", l)
	}
}

// A failing init container with restartPolicy Never fails the pod; the app
// container never starts (Init:Error).
func TestInitContainerFailureNever(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	pod := withPolicy(simplePod("initfail", "cmd", "/c", "echo app"), corev1.RestartPolicyNever)
	pod.Spec.InitContainers = []corev1.Container{{Name: "i1", Image: "mcr.microsoft.com/windows/nanoserver:ltsc2022", Command: []string{"cmd", "/c", "exit 5"}}}
	f.start(pod)
	got := f.get("initfail")
	if got.Status.Phase != corev1.PodFailed {
		t.Fatalf("phase %s", got.Status.Phase)
	}
	if t5 := got.Status.InitContainerStatuses[0].State.Terminated; t5 == nil || t5.ExitCode != 5 {
		t.Fatalf("init %+v", got.Status.InitContainerStatuses[0])
	}
	if w := got.Status.ContainerStatuses[0].State.Waiting; w == nil || w.Reason != "PodInitializing" {
		t.Fatalf("app %+v", got.Status.ContainerStatuses[0])
	}
}

// With Always, a failing init container crash-loops (Init:CrashLoopBackOff).
func TestInitContainerCrashLoop(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	pod := simplePod("initloop", "cmd", "/c", "echo app")
	pod.Spec.InitContainers = []corev1.Container{{Name: "i1", Image: "mcr.microsoft.com/windows/nanoserver:ltsc2022", Command: []string{"cmd", "/c", "exit 1"}}}
	f.start(pod)
	got := f.get("initloop")
	if got.Status.Phase != corev1.PodPending {
		t.Fatalf("phase %s", got.Status.Phase)
	}
	if w := got.Status.InitContainerStatuses[0].State.Waiting; w == nil || w.Reason != "CrashLoopBackOff" {
		t.Fatalf("init %+v", got.Status.InitContainerStatuses[0])
	}
}

// B13: a restartable init container (sidecar) without a startup probe is
// started when it runs; the next init container and then the app start
// right after it, with no probe or other timer of the sidecar to wake the
// pod's sync (a pod of a sidecar and an init container stayed Init:1/2).
func TestSidecarWithoutProbesThenInitAndApp(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	always := corev1.ContainerRestartPolicyAlways
	pod := simplePod("sc", "cmd", "/c", "echo app && ping -t localhost")
	pod.Spec.InitContainers = []corev1.Container{
		{Name: "side", Image: "mcr.microsoft.com/windows/nanoserver:ltsc2022", Command: []string{"ping", "-t", "localhost"}, RestartPolicy: &always},
		{Name: "i1", Image: "mcr.microsoft.com/windows/nanoserver:ltsc2022", Command: []string{"cmd", "/c", "echo one"}},
	}
	f.start(pod)
	f.run(3 * startDelay)
	got := f.get("sc")
	if got.Status.Phase != corev1.PodRunning || len(got.Status.ContainerStatuses) != 1 || got.Status.ContainerStatuses[0].State.Running == nil {
		t.Fatalf("phase %s, app %+v, init %+v", got.Status.Phase, got.Status.ContainerStatuses, got.Status.InitContainerStatuses)
	}
	var order []string
	for _, e := range f.eventsOf("Started") {
		order = append(order, e.FieldPath)
	}
	if strings.Join(order, ",") != "spec.initContainers{side},spec.initContainers{i1},spec.containers{c}" {
		t.Fatalf("start order %v", order)
	}
}
