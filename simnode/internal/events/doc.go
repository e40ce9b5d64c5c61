// Package events is the simulated kubelets' event path. Filtered wraps the
// recorder handed to virtual-kubelet so that only events a real kubelet
// emits reach the API: virtual-kubelet's own Provider* events
// (ProviderCreateSuccess, ProviderDeleteSuccess, ...) are dropped. Sink
// writes each node's events apart from the others', at the rate limit of
// its kubelet's event client (eventRecordQPS/eventBurst of the pool's
// KubeletConfiguration).
package events
