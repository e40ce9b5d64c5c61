package nodes

import (
	"net"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/config"
	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/rules"
)

// TestSetShuttingDown checks the Ready condition of a node that shuts down
// (B15): False, KubeletNotReady, "node is shutting down", still last, its
// lastTransitionTime moved once.
func TestSetShuttingDown(t *testing.T) {
	r := rules.Default()
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	node, _, err := Build(r, Spec{ClusterName: "c", Pool: config.Pool{Name: "w", OS: "windows"}, InternalIP: net.ParseIP("10.0.0.2"), DefaultKubeletVersion: "v1.35.4", BootID: "1"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if !facts.NodeReady(node) {
		t.Fatal("a new node is not Ready")
	}
	t1 := t0.Add(time.Minute)
	if !SetShuttingDown(node, r, t1) {
		t.Fatal("[B15] Ready did not change")
	}
	last := node.Status.Conditions[len(node.Status.Conditions)-1]
	if last.Type != corev1.NodeReady || last.Status != corev1.ConditionFalse || last.Reason != "KubeletNotReady" || last.Message != "node is shutting down" || !last.LastTransitionTime.Time.Equal(t1) {
		t.Fatalf("[B15] Ready %+v", last)
	}
	if facts.NodeReady(node) {
		t.Fatal("Ready() true")
	}
	if SetShuttingDown(node, r, t1.Add(time.Second)) {
		t.Fatal("[B15] a second call changed Ready")
	}
	if last := node.Status.Conditions[len(node.Status.Conditions)-1]; !last.LastTransitionTime.Time.Equal(t1) {
		t.Fatalf("[B15] lastTransitionTime moved to %v", last.LastTransitionTime)
	}
}
