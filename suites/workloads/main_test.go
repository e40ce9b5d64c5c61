// Package workloads checks that containers on simulated nodes run their
// commands, exit with their codes and pull images as a Windows node would
// (rows B4, N8, E), that every workload controller runs Windows pods only
// where their selectors and tolerations allow (A22, with S2, S3, N4 and the
// headless Service of A23), and that ResourceQuota and scheduler preemption
// work with Windows pods (A24; the HPA is in suites/resources).
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
	testenv, cluster = suite.Setup("workloads", nil)
	os.Exit(testenv.Run(m))
}
