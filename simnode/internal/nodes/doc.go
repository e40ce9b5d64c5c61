// Package nodes builds the Node objects of simulated kubelets from a node
// pool and the rule tables (rows N1-N7 of the behaviour catalog), keeps the
// per-node state that survives restarts (bootID), and implements
// virtual-kubelet's NodeProvider for them.
package nodes
