// Package resources checks what Windows nodes do with the CPU and memory
// their containers use, read through the API only: no OOM killer (B5), CPU
// limits as a CPU maximum (B7), the Summary API through the node proxy
// (B14), `kubectl top` and the HPA through metrics-server (B16, A24), and
// memory-pressure eviction by kubelet version (B6, A21, N7).
//
// The cluster comes from testdata/cluster.yaml: the default pools plus a
// v1.35 and a v1.30 Windows pool for the eviction feature, which runs last
// (zz_eviction_test.go) because it pressures a node.
package resources

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/e2e-framework/pkg/env"

	"wink.dev/wink/suites/suite"
)

var (
	testenv env.Environment
	cluster *suite.Cluster
)

func TestMain(m *testing.M) {
	config, err := filepath.Abs(filepath.Join("testdata", "cluster.yaml"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	testenv, cluster = suite.Setup("resources", config)
	os.Exit(testenv.Run(m))
}
