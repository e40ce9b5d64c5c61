// Package simnode is wink's simulated kubelet: one process serves every
// node of every node pool of a cluster, each node a virtual-kubelet
// NodeController and PodController over one shared pod informer, with a
// TLS kubelet API per node authenticated and authorised like the kubelet's.
//
// The public API is small: Run serves the nodes of a simnode/config.Config
// (the YAML the harness writes, config.Load) until its context is done. A node's machine
// is switched off and on through the API with the node annotation
// ShutdownAnnotation (power.go): graceful node shutdown (B15) and reboots
// with the next bootID (N3). Behaviour lives in
// the rule tables of simnode/rules; the implementation in simnode/internal.
package simnode
