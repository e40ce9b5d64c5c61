// Package scheduling checks where pods land on a mixed cluster and what the
// kubelet does with pods that reach the wrong node: rows S1–S5, A16, A17,
// N4, N5 (pods fit allocatable), B1–B3. Every pod and workload it creates
// names the scheduler under test, $WINK_SCHEDULER_NAME (`wink test
// --scheduler-name`), default default-scheduler, so that a vendor can
// certify another scheduler with it.
package scheduling

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
	testenv, cluster = suite.Setup("scheduling", nil)
	suite.TargetScheduler(testenv)
	os.Exit(testenv.Run(m))
}
