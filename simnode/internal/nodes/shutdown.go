package nodes

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"wink.dev/wink/simnode/rules"
)

// Node events of the Ready condition (nodestatus/setters.go
// ReadyCondition; kubelet_node_status.go recordNodeStatusEvent).
const (
	EventNodeNotReady = "NodeNotReady"
	EventNodeReady    = "NodeReady"
)

// SetShuttingDown sets node's Ready condition to the form it has while the
// node shuts down (B15: Ready False, the shutdown manager's "node is
// shutting down"), moving lastTransitionTime only on a change of status,
// and reports whether the status changed (the kubelet then records
// NodeNotReady).
func SetShuttingDown(node *corev1.Node, r *rules.Rules, now time.Time) bool {
	want := r.NodeShutdown.Ready
	t := metav1.NewTime(now)
	want.LastHeartbeatTime = t
	want.LastTransitionTime = t
	for i := range node.Status.Conditions {
		c := &node.Status.Conditions[i]
		if c.Type != corev1.NodeReady {
			continue
		}
		changed := c.Status != want.Status
		if !changed {
			want.LastTransitionTime = c.LastTransitionTime
		}
		*c = want
		return changed
	}
	// No Ready condition yet: Ready stays last (setters.go ReadyCondition).
	node.Status.Conditions = append(node.Status.Conditions, want)
	return true
}
