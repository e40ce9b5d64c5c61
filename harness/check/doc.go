// Package check is the engine of `wink check`: Helm charts installed, as
// `helm install` does, on clusters shaped like managed platforms (platform
// profiles: platforms.yaml), and every workload judged from what the
// cluster did, with the cluster's exact words and the fix.
//
// Run brings up one embedded cluster per platform (side by side, each
// deleted afterwards, also on failure or interrupt), or uses a cluster
// given by kubeconfig; locates each chart (a directory, a .tgz, repo/name
// from the user's Helm repositories, or an oci:// reference); installs it
// with Helm's Go SDK (kubeVersion checked against the cluster's, CRDs
// first, hooks, values files and --set); runs its `helm test` hooks; waits
// until the workloads settle or a finding is certain; and judges (judge.go,
// a pure function of the objects the cluster returned, table-tested):
//
//   - a pod Pending with the scheduler's reason, naming the taints of this
//     platform the pod does not tolerate, or the selector no node has;
//   - a DaemonSet with no pod on the Windows nodes it targets;
//   - a workload with no kubernetes.io/os selector whose pods land on
//     Windows nodes, where a Linux image fails (or would fail) to pull;
//   - an image with no manifest entry for the node's Windows build (B4);
//   - crash loops, container start errors, failed hooks and tests;
//   - pods refused by the apiserver (the controller's FailedCreate event)
//     or by the kubelet (B1-B3).
//
// Static warnings add what the cluster cannot see (static.go): Linux-only
// securityContext fields of a Windows pod without spec.os (A5), HostProcess
// without hostNetwork (A8), hostNetwork without HostProcess (H7).
//
// An --expect file (expect.go, apiVersion wink.dev/v1alpha1, kind
// CheckExpectations) declares deliberate placement so it is not a finding.
// The result is a *reports.CheckReport; reports.WriteCheck writes it.
package check
