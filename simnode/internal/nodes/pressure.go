package nodes

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"wink.dev/wink/simnode/rules"
)

// Node events the kubelet records when MemoryPressure or DiskPressure
// changes (setters.go MemoryPressureCondition, DiskPressureCondition;
// kubelet_node_status.go recordNodeStatusEvent: "Node <name> status is
// now: <event>").
const (
	EventNodeHasInsufficientMemory = "NodeHasInsufficientMemory"
	EventNodeHasSufficientMemory   = "NodeHasSufficientMemory"
	EventNodeHasDiskPressure       = "NodeHasDiskPressure"
	EventNodeHasNoDiskPressure     = "NodeHasNoDiskPressure"
)

// SetMemoryPressure sets node's MemoryPressure condition to the True form
// (r.MemoryPressureTrue) or the False form of the node's condition set
// (N7), moving lastTransitionTime only on a change, and returns the event
// reason to record when the status changed ("" otherwise). A condition set
// that cannot have pressure (N6) is never set to True.
func SetMemoryPressure(node *corev1.Node, r *rules.Rules, set *rules.ConditionSet, pressure bool, now time.Time) string {
	return setPressure(node, r.MemoryPressureTrue, set, pressure, now, EventNodeHasInsufficientMemory, EventNodeHasSufficientMemory)
}

// SetDiskPressure is SetMemoryPressure for DiskPressure (issue 22):
// r.DiskPressureTrue or the set's False form. Only Linux nodes call it
// with pressure (N7: Windows' DiskPressure is always False).
func SetDiskPressure(node *corev1.Node, r *rules.Rules, set *rules.ConditionSet, pressure bool, now time.Time) string {
	return setPressure(node, r.DiskPressureTrue, set, pressure, now, EventNodeHasDiskPressure, EventNodeHasNoDiskPressure)
}

func setPressure(node *corev1.Node, want corev1.NodeCondition, set *rules.ConditionSet, pressure bool, now time.Time, onEvent, offEvent string) string {
	if pressure && (set == nil || !set.PressureCanBecomeTrue) {
		return ""
	}
	typ := want.Type
	event := onEvent
	if !pressure {
		event = offEvent
		found := false
		if set != nil {
			for _, c := range set.Conditions {
				if c.Type == typ {
					want, found = c, true
				}
			}
		}
		if !found {
			return ""
		}
	}
	t := metav1.NewTime(now)
	want.LastHeartbeatTime = t
	want.LastTransitionTime = t
	for i := range node.Status.Conditions {
		c := &node.Status.Conditions[i]
		if c.Type != typ {
			continue
		}
		if c.Status == want.Status {
			want.LastTransitionTime = c.LastTransitionTime
			*c = want
			return ""
		}
		*c = want
		return event
	}
	// Not reported yet: insert before Ready, which stays last.
	conds := append([]corev1.NodeCondition{want}, node.Status.Conditions...)
	node.Status.Conditions = conds
	return event
}
