package pods

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type refreshCounter struct {
	PodVolumes
	calls []string
}

func (r *refreshCounter) Refresh(_ context.Context, pod *corev1.Pod) error {
	r.calls = append(r.calls, pod.Name)
	return nil
}

// TestRemount checks that the periodic remount refreshes the volumes of
// running pods only (B12: ConfigMap updates reach the files).
func TestRemount(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	running, pending := &refreshCounter{}, &refreshCounter{}
	f.p.mu.Lock()
	f.p.pods["default/a"] = &record{key: "default/a", uid: "a", stage: stageRunning, volumes: running,
		pod: &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "a", UID: "a"}}}
	f.p.pods["default/b"] = &record{key: "default/b", uid: "b", stage: stagePending, volumes: pending,
		pod: &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "b", UID: "b"}}}
	f.p.mu.Unlock()
	f.p.remount(context.Background())
	if len(running.calls) != 1 || running.calls[0] != "a" || len(pending.calls) != 0 {
		t.Errorf("refreshed running %v, pending %v; want [a] and none", running.calls, pending.calls)
	}
}
