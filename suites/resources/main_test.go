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
	"flag"
	"fmt"
	"os"
	"strconv"
	"testing"

	"sigs.k8s.io/e2e-framework/pkg/env"

	"wink.dev/wink/harness/config"
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
	cfg, err := config.Parse(clusterConfig, "suites/resources/testdata/cluster.yaml")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	testenv, cluster = suite.Setup("resources", cfg)
	runAllFeaturesAtOnce()
	os.Exit(testenv.Run(m))
}

// parallelFeatures is how many features run at once: all of them.
const parallelFeatures = 8

// runAllFeaturesAtOnce sets -test.parallel to parallelFeatures unless it was
// given: its default, GOMAXPROCS, would run two features at a time on a
// 2-core machine although they wait rather than compute. suite.Setup has
// parsed the command line.
func runAllFeaturesAtOnce() {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", strconv.Itoa(parallelFeatures)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
}
