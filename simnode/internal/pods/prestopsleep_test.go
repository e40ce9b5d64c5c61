package pods

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// Issue 21 (B13): a preStop sleep hook (lifecycle.preStop.sleep) holds the
// container through its seconds, cut at the grace period; then SIGTERM
// stops it (upstream scheduling/preemption.go holds its victims with
// sleep 79 and a grace period of 80).
func TestPreStopSleep(t *testing.T) {
	for _, tc := range []struct {
		name         string
		sleep, grace int64
		stopsAfter   time.Duration
	}{
		{"within the grace period", 79, 80, 79*time.Second + stopDelay},
		{"cut at the grace period", 120, 30, 30*time.Second + stopDelay},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, "windows", "10.244.1.0/24")
			pod := simplePod("victim")
			pod.Spec.Containers[0].Image = "registry.k8s.io/pause:3.10.1" // the preemption spec's victims
			pod.Spec.Containers[0].Lifecycle = &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: tc.sleep}}}
			f.startRunning(pod)
			f.deleteWithGrace(pod, tc.grace)
			f.run(tc.stopsAfter - time.Second)
			if got, _ := f.p.GetPod(context.Background(), "default", "victim"); got.Status.ContainerStatuses[0].State.Running == nil {
				t.Fatal("stopped before its preStop sleep ended")
			}
			f.run(2 * time.Second)
			got, _ := f.p.GetPod(context.Background(), "default", "victim")
			if term := got.Status.ContainerStatuses[0].State.Terminated; term == nil || term.ExitCode != 0 {
				t.Fatalf("after the sleep %+v", got.Status.ContainerStatuses[0].State)
			}
		})
	}
}
