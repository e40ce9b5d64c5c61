// Package simnode is wink's simulated kubelet: one process serves every
// node of every node pool of a cluster, each node a virtual-kubelet
// NodeController and PodController over one shared pod informer, with a
// TLS kubelet API per node authenticated and authorised like the kubelet's.
//
// The public API is small: Run serves the nodes of a simnode/config.Config
// (the YAML the harness writes, config.Load) until its context is done. A node's machine
// is switched off and on through the API with the node annotation
// ShutdownAnnotation (power.go): graceful node shutdown (B15) and reboots
// with the next bootID (N3). Each node has a disk under
// <stateDir>/nodes/<node>: its container logs in the kubelet's layout
// (root/var/log/pods, root/var/log/containers) and the runtime's records,
// emptyDirs and container layers (runtime/), so that its containers outlive
// a restart of simnode as a real node's outlive a kubelet restart
// (simnode/internal/pods has the model). Behaviour lives in
// the rule tables of simnode/rules; the implementation in simnode/internal.
package simnode
