// Package statuspatch writes a simulated kubelet's pod statuses the way the
// kubelet's status manager does: a strategic merge patch of the status
// subresource from the status the API last showed to the new one, with the
// pod's UID as precondition, and no request at all when nothing changed
// (k8s.io/kubernetes pkg/util/pod PatchPodStatus). virtual-kubelet writes
// a status with a full UpdateStatus at the informer's resourceVersion,
// which conflicts whenever the informer is behind (a scheduler's or
// controller's write, or the node's own previous one) and is then retried
// with back-off.
package statuspatch
