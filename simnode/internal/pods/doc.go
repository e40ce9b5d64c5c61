// Package pods is the simulated container runtime and pod lifecycle of one
// node: kubelet admission (B1-B3, from the rule tables), sandbox and pod IP
// (from the node's podCIDR), container creation with the kubelet's events,
// graceful termination, and adoption of running pods after a restart. It
// implements virtual-kubelet's PodLifecycleHandler and PodNotifier.
//
// Container state lives in one place, the container records of a pod
// record (machine.go); the pod status sent to the API is always derived
// from them by buildStatus.
package pods
