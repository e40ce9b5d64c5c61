// Package deploy holds what runs simnode inside any cluster (issue 19):
// the Helm chart in chart/, a StatefulSet whose replicas share the
// configured node pools (each node owned by exactly one replica,
// simnode/config.Owner), and in image/ the command that builds wink's OCI
// image without a Docker daemon (`make image`).
//
// The chart lives beside simnode rather than under harness/ (which runs
// clusters wink owns) or fixtures/ (test data): it deploys simnode, with no
// harness in between. Its tests (chart_test.go) lint and render it with the
// Helm SDK and check the invariants the chart promises: the shard
// arguments, the pod IP as the nodes' address, the volume claim as the
// state directory, RBAC equal to the harness's wink:simnode role, and a
// configuration simnode loads.
package deploy
