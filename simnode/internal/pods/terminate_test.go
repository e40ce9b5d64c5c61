package pods

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1listers "k8s.io/client-go/listers/core/v1"
	k8stesting "k8s.io/client-go/testing"

	"wink.dev/wink/simnode/internal/logs"
	"wink.dev/wink/simnode/rules"
)

// newProviderWith is newProvider with a changed Config.
func (f *fixture) newProviderWith(change func(*Config)) *Provider {
	cfg := Config{
		Node: f.info, Rules: rules.Default(), Client: f.client,
		Pods:       corev1listers.NewPodLister(f.indexer),
		NodeObject: func() *corev1.Node { return f.node },
		Recorder:   f.recorder, Logs: logs.NewStore(),
		StartDelay: startDelay, StopDelay: stopDelay, Clock: f.clk, Shell: testShell{},
	}
	change(&cfg)
	p := NewProvider(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	f.t.Cleanup(cancel)
	p.NotifyPods(ctx, func(pod *corev1.Pod) {
		f.mu.Lock()
		f.notified = append(f.notified, pod)
		f.mu.Unlock()
	})
	return p
}

// condition returns the pod's condition of type typ.
func condition(pod *corev1.Pod, typ corev1.PodConditionType) *corev1.PodCondition {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == typ {
			return &pod.Status.Conditions[i]
		}
	}
	return nil
}

// TestTerminate checks the one way the kubelet ends a pod on its own,
// shared by eviction (B6) and graceful node shutdown (B15): the containers
// stop (no container of the pod runs afterwards), the pod gets its
// terminal status in the API, which keeps the pod (no deletion), and exec
// finds no container.
func TestTerminate(t *testing.T) {
	r := rules.Default()
	evictMsg := "The node was low on resource: memory. Threshold quantity: 500Mi, available: 100Mi. "
	shutdownMsg := "Pod was terminated in response to imminent node shutdown."
	for _, tc := range []struct {
		name        string
		os          string
		ignore      bool
		grace       int64 // the pod's terminationGracePeriodSeconds
		termination func(*corev1.Pod) Termination
		wantAfter   time.Duration
		wantExit    int32
		wantReason  string
		wantMessage string
	}{
		{"B15 windows shutdown", "windows", false, 30, func(p *corev1.Pod) Termination { return ShutDown(r, r.NodeShutdown.DefaultGroups(), p) },
			stopDelay, -1073741510, "Terminated", shutdownMsg},
		{"B15 linux shutdown", "linux", false, 30, func(p *corev1.Pod) Termination { return ShutDown(r, r.NodeShutdown.DefaultGroups(), p) },
			stopDelay, 143, "Terminated", shutdownMsg},
		{"B15 ignores the stop signal: killed after the pod's shorter grace period", "windows", true, 5, func(p *corev1.Pod) Termination { return ShutDown(r, r.NodeShutdown.DefaultGroups(), p) },
			5 * time.Second, 1, "Terminated", shutdownMsg},
		{"B15 ignores the stop signal: killed after the group's grace period", "linux", true, 60, func(p *corev1.Pod) Termination { return ShutDown(r, r.NodeShutdown.DefaultGroups(), p) },
			20 * time.Second, 137, "Terminated", shutdownMsg},
		{"B6 windows eviction", "windows", false, 30, func(*corev1.Pod) Termination { return Evicted(r, evictMsg) },
			stopDelay, -1073741510, "Evicted", evictMsg},
		{"B6 eviction of a container that ignores the stop signal: at least 2s", "windows", true, 30, func(*corev1.Pod) Termination { return Evicted(r, evictMsg) },
			2 * time.Second, 1, "Evicted", evictMsg},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.os, "10.244.1.0/24")
			pod := simplePod("victim", "ping", "-t", "localhost") // until stopped
			if tc.os == "linux" {
				pod = simplePod("victim", "ping", "localhost")
			}
			pod.Generation = 3
			pod.Spec.TerminationGracePeriodSeconds = &tc.grace
			if tc.ignore {
				pod.Annotations = map[string]string{IgnoreSigtermAnnotation: "true"}
			}
			pod = f.addPod(pod)
			_ = f.p.CreatePod(context.Background(), pod)
			f.run(startDelay)
			running := f.waitFor("victim", phase(corev1.PodRunning))
			if err := f.indexer.Update(running); err != nil {
				t.Fatal(err)
			}

			done := f.p.Terminate(running, tc.termination(running))
			f.run(tc.wantAfter - simTick)
			if got := f.get("victim"); got.Status.ContainerStatuses[0].State.Running == nil || got.Status.Phase != corev1.PodRunning {
				t.Fatalf("[%s] container stopped before %s: %+v", tc.wantReason, tc.wantAfter, got.Status)
			}
			f.run(2 * simTick)
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Terminate did not report the end of the pod")
			}

			api, err := f.client.CoreV1().Pods("default").Get(context.Background(), "victim", metav1.GetOptions{})
			if err != nil {
				t.Fatalf("the pod is gone from the API: %v", err)
			}
			st := api.Status
			if st.Phase != corev1.PodFailed || st.Reason != tc.wantReason || st.Message != tc.wantMessage {
				t.Fatalf("API status: phase %s, reason %q, message %q", st.Phase, st.Reason, st.Message)
			}
			term := st.ContainerStatuses[0].State.Terminated
			if term == nil || term.ExitCode != tc.wantExit || term.Reason != "Error" {
				t.Fatalf("container state %+v, want terminated with exit %d", st.ContainerStatuses[0].State, tc.wantExit)
			}
			dt := condition(api, corev1.DisruptionTarget)
			if dt == nil || dt.Status != corev1.ConditionTrue || dt.Reason != "TerminationByKubelet" || dt.Message != tc.wantMessage || dt.ObservedGeneration != 3 {
				t.Fatalf("DisruptionTarget %+v", dt)
			}
			if c := condition(api, corev1.PodReady); c == nil || c.Status != corev1.ConditionFalse || c.Reason != "PodFailed" {
				t.Fatalf("Ready %+v", c)
			}
			if st.Conditions[0].Type != corev1.DisruptionTarget {
				t.Fatalf("DisruptionTarget is not first (status_manager.go mergePodStatus): %+v", st.Conditions)
			}
			for _, a := range f.client.Actions() {
				if _, ok := a.(k8stesting.DeleteAction); ok {
					t.Fatal("the pod was deleted from the API")
				}
			}
			if found, running := f.p.FindContainer("default", "victim", "c"); !found || running {
				t.Fatalf("FindContainer = %v, %v; want the pod found and the container not running", found, running)
			}
			if err := f.p.Exec(context.Background(), "default", "victim", "c", []string{"whoami"}, nil, nil, nil); err == nil {
				t.Fatal("exec ran in a terminated container")
			}
			if f.p.IPAM().InUse() != 0 {
				t.Fatal("the pod IP is still allocated")
			}
			if last := f.recorder.Events[len(f.recorder.Events)-1]; last.Reason != "Killing" || last.Message != "Stopping container c" {
				t.Fatalf("last event %+v", last)
			}
			// Once terminal, a second kill returns at once.
			select {
			case err := <-f.p.Terminate(running, tc.termination(running)):
				if err != nil {
					t.Fatal(err)
				}
			default:
				t.Fatal("a second Terminate waits")
			}
		})
	}
}

// TestTerminatePending checks a kill before any container started: the pod
// fails at once with the kill's reason (B6, B15).
func TestTerminatePending(t *testing.T) {
	f := newFixture(t, "windows", "") // no podCIDR: the pod stays Pending
	pod := f.addPod(simplePod("early", "ping", "-t", "localhost"))
	_ = f.p.CreatePod(context.Background(), pod)
	f.run(startDelay)
	if got := f.get("early"); got.Status.Phase != corev1.PodPending {
		t.Fatalf("phase %s", got.Status.Phase)
	}
	if err := <-f.p.Terminate(pod, ShutDown(rules.Default(), rules.Default().NodeShutdown.DefaultGroups(), pod)); err != nil {
		t.Fatal(err)
	}
	got := f.get("early")
	if got.Status.Phase != corev1.PodFailed || got.Status.Reason != "Terminated" || condition(got, corev1.DisruptionTarget) == nil {
		t.Fatalf("[B15] status %+v", got.Status)
	}
}

// TestTerminateUnknownPod checks that a pod the node does not run is an
// error, not a hang.
func TestTerminateUnknownPod(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	err := <-f.p.Terminate(simplePod("ghost"), Evicted(rules.Default(), "m"))
	if err == nil || !strings.Contains(err.Error(), "does not run on node") {
		t.Fatalf("error %v", err)
	}
}

// TestTerminatedPhaseFromContainers checks the phase of a killed pod whose
// containers all exited 0 (kubelet >= v1.27, getPhase of the stopped
// containers): Succeeded, without the kill's reason and message but with
// its DisruptionTarget condition (B6, B15).
func TestTerminatedPhaseFromContainers(t *testing.T) {
	for _, tc := range []struct {
		kubelet    string
		exit       int32
		wantPhase  corev1.PodPhase
		wantReason string
	}{
		{"v1.35.4", 0, corev1.PodSucceeded, ""},
		{"v1.35.4", 1, corev1.PodFailed, "Terminated"},
		{"v1.26.3", 0, corev1.PodFailed, "Terminated"}, // before PR 115331 the status function's Failed stays
	} {
		t.Run(tc.kubelet, func(t *testing.T) {
			f := newFixture(t, "windows", "10.244.1.0/24")
			v, err := rules.ParseKubeletVersion(tc.kubelet)
			if err != nil {
				t.Fatal(err)
			}
			f.info.KubeletVersion = v
			pod := simplePod("p")
			rec := newRecord(pod)
			rec.stage = stageTerminating
			rec.phase = corev1.PodRunning
			rec.containers[0].state = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: tc.exit}}
			tm := ShutDown(rules.Default(), rules.Default().NodeShutdown.DefaultGroups(), pod)
			rec.ending = &tm
			f.p.m.terminated(rec, f.clk.Now())
			if rec.phase != tc.wantPhase || rec.reason != tc.wantReason || len(rec.shared) != 1 || rec.shared[0].Type != corev1.DisruptionTarget {
				t.Fatalf("[B15] phase %s, reason %q, shared %+v", rec.phase, rec.reason, rec.shared)
			}
		})
	}
}

// TestShutdownAdmission checks that a node that shuts down rejects new
// pods (B15), after the B1-B3 checks.
func TestShutdownAdmission(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	p := f.newProviderWith(func(c *Config) { c.ShuttingDown = func() bool { return true } })
	late := f.addPod(simplePod("late"))
	_ = p.CreatePod(context.Background(), late)
	got, err := p.GetPod(context.Background(), "default", "late")
	if err != nil {
		t.Fatal(err)
	}
	if got.Status.Phase != corev1.PodFailed || got.Status.Reason != "NodeShutdown" || got.Status.Message != "Pod was rejected: Pod was rejected as the node is shutting down." {
		t.Fatalf("[B15] status %+v", got.Status)
	}
	if ev := f.recorder.Events[len(f.recorder.Events)-1]; ev.Type != corev1.EventTypeWarning || ev.Reason != "NodeShutdown" || ev.Message != "Pod was rejected as the node is shutting down." {
		t.Fatalf("[B15] event %+v", ev)
	}
	linux := simplePod("linux")
	linux.Spec.OS = &corev1.PodOS{Name: corev1.Linux}
	linux = f.addPod(linux)
	_ = p.CreatePod(context.Background(), linux)
	if got, _ := p.GetPod(context.Background(), "default", "linux"); got.Status.Reason != "PodOSNotSupported" {
		t.Fatalf("[B1] reason %q, want B1's before B15's", got.Status.Reason)
	}
}

// TestRebootAdoption checks the pods a node finds after its machine
// rebooted (N3): their containers are gone, so a pod that restarts gets a
// new sandbox (SandboxChanged), its containers run again with restartCount
// + 1 and the lost instance as lastState (Unknown, 255); a pod that must
// not restart ends Failed.
func TestRebootAdoption(t *testing.T) {
	for _, tc := range []struct {
		policy    corev1.RestartPolicy
		wantPhase corev1.PodPhase
	}{
		{corev1.RestartPolicyAlways, corev1.PodRunning},
		{corev1.RestartPolicyOnFailure, corev1.PodRunning},
		{corev1.RestartPolicyNever, corev1.PodFailed},
	} {
		t.Run(string(tc.policy), func(t *testing.T) {
			f := newFixture(t, "windows", "10.244.1.0/24")
			pod := f.addPod(withPolicy(simplePod("keep", "ping", "-t", "localhost"), tc.policy))
			_ = f.p.CreatePod(context.Background(), pod)
			f.run(startDelay)
			before := f.waitFor("keep", phase(corev1.PodRunning))
			if err := f.indexer.Update(before); err != nil {
				t.Fatal(err)
			}
			f.clk.Step(time.Minute)
			events := len(f.recorder.Events)

			p2 := f.newProviderWith(func(c *Config) { c.Rebooted = true })
			f.p = p2
			p2.Seed([]*corev1.Pod{before})
			if err := p2.CreatePod(context.Background(), before.DeepCopy()); err != nil {
				t.Fatal(err)
			}
			f.run(startDelay + time.Second)
			after := f.get("keep")
			if after.Status.Phase != tc.wantPhase {
				t.Fatalf("[N3] phase %s, want %s", after.Status.Phase, tc.wantPhase)
			}
			cs := after.Status.ContainerStatuses[0]
			var reasons []string
			for _, e := range f.recorder.Events[events:] {
				reasons = append(reasons, e.Reason)
			}
			if tc.policy == corev1.RestartPolicyNever {
				if term := cs.State.Terminated; term == nil || term.ExitCode != 255 || term.Reason != "Unknown" || cs.RestartCount != 0 {
					t.Fatalf("[N3] container %+v", cs)
				}
				if len(reasons) != 0 {
					t.Fatalf("[N3] events %v, want none (no new sandbox)", reasons)
				}
				return
			}
			last := cs.LastTerminationState.Terminated
			if cs.State.Running == nil || cs.RestartCount != 1 || last == nil || last.ExitCode != 255 || last.Reason != "Unknown" || cs.ContainerID == before.Status.ContainerStatuses[0].ContainerID {
				t.Fatalf("[N3] container %+v", cs)
			}
			if after.Status.PodIP != before.Status.PodIP || !after.Status.StartTime.Equal(before.Status.StartTime) {
				t.Fatalf("[N3] podIP %s -> %s, startTime %v -> %v", before.Status.PodIP, after.Status.PodIP, before.Status.StartTime, after.Status.StartTime)
			}
			if got := strings.Join(reasons, ","); got != "SandboxChanged,Pulled,Created,Started" {
				t.Fatalf("[N3] events %s", got)
			}
			if ev := f.recorder.Events[events]; ev.Type != corev1.EventTypeNormal || ev.Message != "Pod sandbox changed, it will be killed and re-created." {
				t.Fatalf("[N3] event %+v", ev)
			}
		})
	}
}
