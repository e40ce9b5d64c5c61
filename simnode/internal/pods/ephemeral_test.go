package pods

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// TestEphemeralContainer: an ephemeral container added to a running pod
// (a spec update from virtual-kubelet) is started once, reported in
// ephemeralContainerStatuses, reachable by exec and logs (row B16), left
// out of the pod's readiness, and not restarted when it exits (upstream
// common/node/ephemeral_containers.go, kubelet v1.35).
func TestEphemeralContainer(t *testing.T) {
	for _, os := range []string{"windows", "linux"} {
		t.Run(os, func(t *testing.T) {
			f := newFixture(t, os, "10.244.1.0/24")
			pod := simplePod("target", "ping", "-t", "localhost")
			if os == "linux" {
				pod = simplePod("target", "ping", "localhost")
			}
			pod = f.addPod(pod)
			if err := f.p.CreatePod(context.Background(), pod); err != nil {
				t.Fatal(err)
			}
			f.run(startDelay)
			f.waitFor("target", phase(corev1.PodRunning))

			upd := pod.DeepCopy()
			upd.Spec.EphemeralContainers = []corev1.EphemeralContainer{
				{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debugger", Image: pod.Spec.Containers[0].Image,
					Command: []string{"sh", "-c", "while true; do echo polo; sleep 2; done"}}},
				{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "once", Image: pod.Spec.Containers[0].Image,
					Command: []string{"sh", "-c", "echo done"}}},
			}
			if err := f.p.UpdatePod(context.Background(), upd); err != nil {
				t.Fatal(err)
			}
			f.run(5 * time.Second)
			if got := f.get("target"); len(got.Spec.EphemeralContainers) != 2 {
				// virtual-kubelet calls UpdatePod only when GetPod's spec
				// differs from the API's (node/pod.go createOrUpdatePod).
				t.Fatalf("GetPod's spec is not the one the node runs: %d ephemeral containers", len(got.Spec.EphemeralContainers))
			}
			st := f.get("target").Status
			if len(st.EphemeralContainerStatuses) != 2 || len(st.ContainerStatuses) != 1 {
				t.Fatalf("statuses: ephemeral %+v, regular %d", st.EphemeralContainerStatuses, len(st.ContainerStatuses))
			}
			dbg, once := st.EphemeralContainerStatuses[0], st.EphemeralContainerStatuses[1]
			if dbg.Name != "debugger" || dbg.State.Running == nil || dbg.Ready || dbg.ContainerID == "" {
				t.Fatalf("debugger status %+v", dbg)
			}
			if once.State.Terminated == nil || once.State.Terminated.ExitCode != 0 || once.RestartCount != 0 {
				t.Fatalf("once status %+v", once)
			}
			if st.Phase != corev1.PodRunning || condition(&corev1.Pod{Status: st}, corev1.PodReady).Status != corev1.ConditionTrue {
				t.Fatalf("pod phase %s, conditions %+v", st.Phase, st.Conditions)
			}
			var out bytes.Buffer
			if err := f.p.Exec(context.Background(), "default", "target", "debugger", []string{"echo", "marco"}, nil, &out, nil); err != nil || !strings.Contains(out.String(), "marco") {
				t.Fatalf("exec: %v, %q", err, out.String())
			}
			if lines := f.logLines("target", "debugger", 0); len(lines) == 0 || lines[0] != "polo" {
				t.Fatalf("logs %q", lines)
			}
			f.run(10 * time.Second)
			if st := f.get("target").Status; st.EphemeralContainerStatuses[1].State.Terminated == nil || st.EphemeralContainerStatuses[1].RestartCount != 0 {
				t.Fatalf("an ephemeral container is never restarted: %+v", st.EphemeralContainerStatuses[1])
			}
		})
	}
}
