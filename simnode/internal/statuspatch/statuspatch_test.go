package statuspatch

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	corev1listers "k8s.io/client-go/listers/core/v1"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
)

func TestPatch(t *testing.T) {
	pending := corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{
		{Type: corev1.PodReady, Status: corev1.ConditionFalse, Reason: "ContainersNotReady"}}}
	running := corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "10.244.1.2", Conditions: []corev1.PodCondition{
		{Type: corev1.PodReady, Status: corev1.ConditionTrue}}}
	for _, tc := range []struct {
		name          string
		old, new      corev1.PodStatus
		wantUnchanged bool
		want          string
	}{
		{name: "same status", old: running, new: running, wantUnchanged: true, want: `{"metadata":{"uid":"u"}}`},
		{name: "first status", new: pending, want: `{"metadata":{"uid":"u"},"status":{"conditions":[{"lastProbeTime":null,"lastTransitionTime":null,"reason":"ContainersNotReady","status":"False","type":"Ready"}],"phase":"Pending"}}`},
		// The reason the Ready condition no longer has is removed (null),
		// as the kubelet's patch removes it.
		{name: "pending to running", old: pending, new: running, want: `{"metadata":{"uid":"u"},"status":{"$setElementOrder/conditions":[{"type":"Ready"}],"conditions":[{"reason":null,"status":"True","type":"Ready"}],"phase":"Running","podIP":"10.244.1.2"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			patch, unchanged, err := Patch("u", tc.old, tc.new)
			if err != nil {
				t.Fatal(err)
			}
			if unchanged != tc.wantUnchanged || string(patch) != tc.want {
				t.Fatalf("patch %s (unchanged %v), want %s (unchanged %v)", patch, unchanged, tc.want, tc.wantUnchanged)
			}
		})
	}
}

// TestUpdateStatusPatchesOncePerChange: virtual-kubelet's UpdateStatus
// becomes one status patch per change, none for a status the API already
// shows, and never conflicts with an informer that is behind.
func TestUpdateStatusPatchesOncePerChange(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default", UID: "u"}, Status: corev1.PodStatus{Phase: corev1.PodPending}}
	client := fake.NewClientset(pod)
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	if err := indexer.Add(pod.DeepCopy()); err != nil { // the informer stays at Pending
		t.Fatal(err)
	}
	pods := New(client.CoreV1(), corev1listers.NewPodLister(indexer))
	ctx := context.Background()
	running := pod.DeepCopy()
	running.Status.Phase = corev1.PodRunning
	running.ResourceVersion = "1" // stale, as virtual-kubelet sends it
	for range 3 {
		if _, err := pods.Pods("default").UpdateStatus(ctx, running, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	var writes []string
	for _, a := range client.Actions() {
		if a.GetVerb() == "list" || a.GetVerb() == "watch" {
			continue
		}
		w := a.GetVerb() + " " + a.GetResource().Resource + "/" + a.GetSubresource()
		if p, ok := a.(k8stesting.PatchAction); ok {
			w += " " + string(p.GetPatchType())
		}
		writes = append(writes, w)
	}
	if len(writes) != 1 || writes[0] != "patch pods/status application/strategic-merge-patch+json" {
		t.Fatalf("writes %q, want one status patch", writes)
	}
	got, err := client.CoreV1().Pods("default").Get(ctx, "p", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status.Phase != corev1.PodRunning {
		t.Fatalf("phase %s, want Running", got.Status.Phase)
	}
}
