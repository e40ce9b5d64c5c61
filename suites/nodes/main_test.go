// Package nodes checks that simulated nodes look like the kubelets they stand
// for: labels, nodeInfo, taints, allocatable and conditions (rows N1–N7).
package nodes

import (
	"os"
	"testing"

	"sigs.k8s.io/e2e-framework/pkg/env"

	"wink.dev/wink/suites/suite"
)

var (
	testenv env.Environment
	cluster *suite.Cluster
)

func TestMain(m *testing.M) {
	testenv, cluster = suite.Setup("nodes", nil)
	os.Exit(testenv.Run(m))
}
