// Package pods is the simulated container runtime and pod lifecycle of one
// node: kubelet admission (B1-B3, from the rule tables), sandbox and pod IP
// (from the node's podCIDR), container creation with the kubelet's events,
// graceful termination, and adoption of running pods after a restart (or,
// after a reboot, their restart in a new sandbox: N3). Terminate is the
// kubelet's own kill of a pod, shared by eviction (B6) and graceful node
// shutdown (B15): the containers stop and the pod keeps its terminal status
// in the API. It implements virtual-kubelet's PodLifecycleHandler and
// PodNotifier.
//
// Container state lives in one place, the container records of a pod
// record (machine.go); the pod status sent to the API is always derived
// from them by buildStatus.
package pods
