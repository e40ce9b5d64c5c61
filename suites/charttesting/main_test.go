package charttesting

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
	testenv, cluster = suite.Setup("charttesting", nil)
	os.Exit(testenv.Run(m))
}
