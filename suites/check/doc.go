// Package check runs `wink check`'s engine (harness/check.Run) over charts
// of our own (harness/check/testdata/charts), one per finding plus a clean
// mixed chart, and checks that each chart gets exactly the finding it was
// written for, naming its workload and the platform (rows S2, N4, A17, A8,
// B1, B4, B13, A5):
//
//   - a Linux DaemonSet tolerating every taint fails, naming it;
//   - a Windows DaemonSet tolerating only GKE's taint key fails on eks and
//     passes on gke (platform profiles side by side, fresh clusters);
//   - a well-behaved mixed chart passes on every platform;
//   - --expect and --set turn a finding into a deliberate choice.
//
// The findings-per-chart and --expect features share one cluster of the
// generic profile that the suite brings up (or the one given by
// --kubeconfig); the matrix feature brings up one fresh cluster per
// platform, as `wink check --platform ...` does.
package check
