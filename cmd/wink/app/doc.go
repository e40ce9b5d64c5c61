// Package app is the wink command line: `wink up`, `down`, `delete`,
// `status`, `kubeconfig`, `version`, and the hidden multi-call entries the
// supervisor uses (`supervise`, `component`, `simnode`).
//
// It is the only importer of harness/controlplane, which links the
// upstream control plane; keep other logic in the harness and simnode
// packages so their tests stay quick to build.
package app
