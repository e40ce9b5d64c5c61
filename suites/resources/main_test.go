// Package resources checks what Windows nodes do with the CPU and memory
// their containers use, read through the API only: no OOM killer (B5), CPU
// limits as a CPU maximum (B7), the Summary API through the node proxy
// (B14), `kubectl top` and the HPA through metrics-server (B16, A24), and
// memory-pressure eviction by kubelet version (B6, A21, N7).
//
// The cluster comes from testdata/cluster.yaml: the default pools plus a
// v1.35 and a v1.30 Windows pool for the eviction feature
// (zz_eviction_test.go), each tainted for that feature alone so that the
// pressure it causes reaches nothing else.
//
// The features run in parallel (each test calls t.Parallel): each works in
// namespaces of its own, and each spends its time waiting for the cluster's
// periods (metrics-server's scrapes, the HPA's sync, the eviction manager's
// interval), not on this machine's CPUs. Run one after the other they took
// over two minutes; together they take as long as the longest.
package resources

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
	testenv, cluster = suite.Setup("resources", suite.Config(clusterConfig, "suites/resources/testdata/cluster.yaml"))
	// All features at once: each waits for the cluster's periods rather
	// than computing.
	suite.DefaultParallel(parallelFeatures)
	os.Exit(testenv.Run(m))
}

// parallelFeatures is how many features run at once: all of them.
const parallelFeatures = 8
