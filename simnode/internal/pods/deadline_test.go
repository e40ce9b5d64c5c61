package pods

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestActiveDeadline: a pod past activeDeadlineSeconds fails with reason
// DeadlineExceeded and the kubelet's message whatever its exit codes, its
// containers stopped, the pod kept in the API (row B13,
// pkg/kubelet/active_deadline.go, kubelet v1.35); a deadline set by an
// update of the running pod is used (upstream common/node/pods.go "should
// allow activeDeadlineSeconds to be updated").
func TestActiveDeadline(t *testing.T) {
	for _, tc := range []struct {
		name    string
		os      string
		atStart *int64 // activeDeadlineSeconds at creation
		update  *int64 // set by an update once running
		fails   bool
	}{
		{name: "windows update on a running pod", os: "windows", update: ptrInt64(5), fails: true},
		{name: "linux set at creation", os: "linux", atStart: ptrInt64(5), fails: true},
		{name: "lengthened before it passes", os: "windows", atStart: ptrInt64(5), update: ptrInt64(3600), fails: false},
		{name: "none", os: "windows", fails: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.os, "10.244.1.0/24")
			pod := simplePod("dl", "ping", "-t", "localhost") // until stopped
			if tc.os == "linux" {
				pod = simplePod("dl", "ping", "localhost")
			}
			pod.Spec.ActiveDeadlineSeconds = tc.atStart
			pod = f.addPod(pod)
			if err := f.p.CreatePod(context.Background(), pod); err != nil {
				t.Fatal(err)
			}
			f.run(startDelay)
			f.waitFor("dl", phase(corev1.PodRunning))
			if tc.update != nil {
				upd := pod.DeepCopy()
				upd.Spec.ActiveDeadlineSeconds = tc.update
				if err := f.p.UpdatePod(context.Background(), upd); err != nil {
					t.Fatal(err)
				}
			}
			f.run(5*time.Second + stopDelay + time.Second)
			api, err := f.client.CoreV1().Pods("default").Get(context.Background(), "dl", metav1.GetOptions{})
			if err != nil {
				t.Fatalf("the pod is gone from the API: %v", err)
			}
			st := f.get("dl").Status
			if !tc.fails {
				if st.Phase != corev1.PodRunning || len(f.eventsOf("DeadlineExceeded")) != 0 {
					t.Fatalf("phase %s, events %v", st.Phase, f.eventsOf("DeadlineExceeded"))
				}
				return
			}
			f.waitFor("dl", phase(corev1.PodFailed))
			st = f.get("dl").Status
			if st.Phase != corev1.PodFailed || st.Reason != "DeadlineExceeded" || st.Message != "Pod was active on the node longer than the specified deadline" {
				t.Fatalf("status: phase %s, reason %q, message %q", st.Phase, st.Reason, st.Message)
			}
			if st.ContainerStatuses[0].State.Terminated == nil {
				t.Fatalf("container still running: %+v", st.ContainerStatuses[0].State)
			}
			if condition(api, corev1.DisruptionTarget) != nil {
				t.Fatalf("no DisruptionTarget for a deadline: %+v", api.Status.Conditions)
			}
			if ev := f.eventsOf("DeadlineExceeded"); len(ev) != 1 || ev[0].Type != corev1.EventTypeNormal {
				t.Fatalf("events %+v", ev)
			}
		})
	}
}

func ptrInt64(v int64) *int64 { return &v }

// TestUpdateWritesObservedGeneration: a spec update (here
// activeDeadlineSeconds, as upstream node/pods.go "issue 500 podspec
// updates" does) is synced and the status written again with the new
// generation as observedGeneration (kubelet v1.34+ PodObservedGenerationTracking).
func TestUpdateWritesObservedGeneration(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	pod := simplePod("gen", "ping", "-t", "localhost")
	pod.Generation = 1
	pod.Spec.ActiveDeadlineSeconds = ptrInt64(5000)
	pod = f.addPod(pod)
	if err := f.p.CreatePod(context.Background(), pod); err != nil {
		t.Fatal(err)
	}
	f.run(startDelay)
	f.waitFor("gen", phase(corev1.PodRunning))
	for gen := int64(2); gen <= 5; gen++ {
		upd := pod.DeepCopy()
		upd.Generation = gen
		*upd.Spec.ActiveDeadlineSeconds = 5000 - gen
		if err := f.indexer.Update(upd); err != nil {
			t.Fatal(err)
		}
		if err := f.p.UpdatePod(context.Background(), upd); err != nil {
			t.Fatal(err)
		}
	}
	f.run(simTick)
	f.waitFor("gen", func(p *corev1.Pod) bool { return p.Status.ObservedGeneration == 5 })
}
