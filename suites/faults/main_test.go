// Package faults kills each part of a running cluster in the middle of a
// rollout, as a user's machine or CI would: etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler, simnode, the supervisor itself,
// and a `wink down` followed by `wink up`. After each fault it checks two
// things apart, so that a report says which one broke:
//
//   - the API: no pod lost, each container's ID, startedAt and
//     restartCount as before, the rollout completed;
//   - the containers themselves, as on a real node whose kubelet restarts:
//     the log lines from before are still in `kubectl logs`, nothing was
//     run again (ping's header appears once), a file a container wrote is
//     still there for `kubectl exec`, and kube-system's pods are Running
//     with the restart counts they had.
//
// The cluster comes from testdata/cluster.yaml. The faults run one after
// the other against the same workloads: each one's checks compare with a
// snapshot taken just before it.
package faults

import (
	_ "embed"
	"os"
	"testing"

	"sigs.k8s.io/e2e-framework/pkg/env"

	"wink.dev/wink/suites/suite"
)

var (
	testenv env.Environment
	cluster *suite.Cluster
)

// clusterConfig is testdata/cluster.yaml, embedded so that a prebuilt suite
// binary runs outside a checkout.
//
//go:embed testdata/cluster.yaml
var clusterConfig []byte

func TestMain(m *testing.M) {
	testenv, cluster = suite.Setup("faults", suite.Config(clusterConfig, "suites/faults/testdata/cluster.yaml"))
	os.Exit(testenv.Run(m))
}
