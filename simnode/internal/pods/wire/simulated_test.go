package wire

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"wink.dev/wink/simnode/internal/pods"
	"wink.dev/wink/simnode/network"
)

// Which nodes the network model takes as simulated: pods of the others
// are real and reached through ClusterDial (row H1).
func TestSimulatedNodesH1(t *testing.T) {
	mk := func(name string, labels map[string]string) *corev1.Node {
		return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}
	}
	chart := map[string]string{SimulatedLabel: "true"}
	cases := []struct {
		id   string
		node *corev1.Node
		// by SimulatedNodes of the cluster's node names
		byNames bool
	}{
		{"H1", mk("wink-win-0", nil), true},          // this process's
		{"H1", mk("wink-win-1", nil), true},          // another shard's, or shut down
		{"H1", mk("chart-node-7", chart), true},      // a chart replica's
		{"H1", mk("kind-control-plane", nil), false}, // real
		{"H1", mk("kind-worker", map[string]string{SimulatedLabel: "false"}), false},
	}
	byNames := SimulatedNodes([]string{"wink-win-0", "wink-win-1"})
	for _, tc := range cases {
		if got := byNames(tc.node); got != tc.byNames {
			t.Errorf("%s SimulatedNodes: %s simulated = %v, want %v", tc.id, tc.node.Name, got, tc.byNames)
		}
	}
	// The caller's predicate is kept.
	set := NetworkOptions(network.Options{SimulatedNode: byNames}, func(string) *pods.Provider { return nil }).SimulatedNode
	if !set(mk("wink-win-1", nil)) {
		t.Error("NetworkOptions replaced the caller's SimulatedNode")
	}
}
