package nodes

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestSyncClientAllocatable: the kubelet's MachineInfo setter sets
// allocatable to capacity for the extended resources a client advertised,
// follows a change and drops one gone from capacity; the node's own
// resources are its own (issue 21, row N5).
func TestSyncClientAllocatable(t *testing.T) {
	const dongle = corev1.ResourceName("example.com/dongle")
	own := &corev1.Node{Status: corev1.NodeStatus{
		Capacity:    corev1.ResourceList{corev1.ResourceCPU: q("4"), "nvidia.com/gpu": q("1")},
		Allocatable: corev1.ResourceList{corev1.ResourceCPU: q("3500m"), "nvidia.com/gpu": q("1")},
	}}
	server := own.DeepCopy()
	// A client's status patch of capacity alone (kubernetes.io docs,
	// "Advertise Extended Resources for a Node"); it also tries cpu and gpu.
	server.Status.Capacity[dongle] = q("4")
	server.Status.Capacity[corev1.ResourceCPU] = q("64")
	server.Status.Capacity["nvidia.com/gpu"] = q("8")

	if !SyncClientAllocatable(own, server) {
		t.Fatal("not changed by a new extended resource")
	}
	if got := own.Status.Allocatable[dongle]; got.String() != "4" {
		t.Errorf("allocatable[%s] = %s, want 4", dongle, got.String())
	}
	if got := own.Status.Allocatable[corev1.ResourceCPU]; got.String() != "3500m" {
		t.Errorf("allocatable cpu = %s, want the node's own 3500m", got.String())
	}
	if got := own.Status.Allocatable["nvidia.com/gpu"]; got.String() != "1" {
		t.Errorf("allocatable gpu = %s, want the node's own 1", got.String())
	}
	if _, ok := own.Status.Capacity[dongle]; ok {
		t.Error("the client's capacity was copied into the node's own")
	}
	if SyncClientAllocatable(own, server) {
		t.Error("changed again with nothing new")
	}

	server.Status.Capacity[dongle] = q("6")
	if !SyncClientAllocatable(own, server) {
		t.Fatal("not changed by a new quantity")
	}
	if got := own.Status.Allocatable[dongle]; got.String() != "6" {
		t.Errorf("allocatable[%s] = %s, want 6", dongle, got.String())
	}

	delete(server.Status.Capacity, dongle)
	if !SyncClientAllocatable(own, server) {
		t.Fatal("not changed by a removed extended resource")
	}
	if _, ok := own.Status.Allocatable[dongle]; ok {
		t.Errorf("allocatable[%s] kept after capacity dropped it", dongle)
	}
	if len(own.Status.Allocatable) != 2 {
		t.Errorf("allocatable = %v, want the node's own two", own.Status.Allocatable)
	}
}
