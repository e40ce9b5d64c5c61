// Package workloads checks that containers on simulated nodes run their
// commands, exit with their codes and pull images as a Windows node would
// (issue §1–§2: rows B4, N8, B13, A22).
package workloads

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
	testenv, cluster = suite.Setup("workloads", "")
	os.Exit(testenv.Run(m))
}
