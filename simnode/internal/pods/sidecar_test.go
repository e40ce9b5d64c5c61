package pods

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// TestSidecarWithoutHooksStartsMain: a restartable init container with no
// startup probe and no postStart hook is started, and the pod's sync
// starts the regular containers next (PLEG's ContainerStarted; upstream
// common/node/lifecycle_hook.go "Restartable Init Container Lifecycle
// Hook ... should execute prestop exec hook properly", B13).
func TestSidecarWithoutHooksStartsMain(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	always := corev1.ContainerRestartPolicyAlways
	pod := simplePod("sidecar", "ping", "-t", "localhost")
	pod.Spec.InitContainers = []corev1.Container{{Name: "side", Image: pod.Spec.Containers[0].Image, Command: []string{"ping", "-t", "localhost"},
		RestartPolicy: &always, Lifecycle: &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Exec: &corev1.ExecAction{Command: []string{"cmd", "/c", "exit 0"}}}}}}
	pod = f.addPod(pod)
	if err := f.p.CreatePod(context.Background(), pod); err != nil {
		t.Fatal(err)
	}
	f.run(startDelay + 5*time.Second)
	st := f.get("sidecar").Status
	if st.Phase != corev1.PodRunning || st.ContainerStatuses[0].State.Running == nil || st.InitContainerStatuses[0].State.Running == nil {
		t.Fatalf("phase %s, main %+v, sidecar %+v", st.Phase, st.ContainerStatuses[0].State, st.InitContainerStatuses[0].State)
	}
}
