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
	mine := &pods.Provider{}
	providers := func(name string) *pods.Provider {
		if name == "wink-win-0" {
			return mine
		}
		return nil
	}
	chart := map[string]string{SimulatedLabel: "true"}
	cases := []struct {
		id   string
		node *corev1.Node
		// by the default (this process's nodes and the chart's label),
		// and by SimulatedNodes of the cluster's node names
		byDefault, byNames bool
	}{
		{"H1", mk("wink-win-0", nil), true, true},           // this process's
		{"H1", mk("wink-win-1", nil), false, true},          // another shard's, or shut down
		{"H1", mk("chart-node-7", chart), true, true},       // a chart replica's
		{"H1", mk("kind-control-plane", nil), false, false}, // real
		{"H1", mk("kind-worker", map[string]string{SimulatedLabel: "false"}), false, false},
	}
	def := NetworkOptions(network.Options{}, providers).SimulatedNode
	byNames := SimulatedNodes([]string{"wink-win-0", "wink-win-1"})
	for _, tc := range cases {
		if got := def(tc.node); got != tc.byDefault {
			t.Errorf("%s default: %s simulated = %v, want %v", tc.id, tc.node.Name, got, tc.byDefault)
		}
		if got := byNames(tc.node); got != tc.byNames {
			t.Errorf("%s SimulatedNodes: %s simulated = %v, want %v", tc.id, tc.node.Name, got, tc.byNames)
		}
	}
	// A predicate the caller gives is kept.
	set := NetworkOptions(network.Options{SimulatedNode: byNames}, providers).SimulatedNode
	if !set(mk("wink-win-1", nil)) {
		t.Error("NetworkOptions replaced the caller's SimulatedNode")
	}
}
