package charts

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
	testenv, cluster = suite.Setup("charts", nil)
	// The corpus's cases wait up to a minute each for their pods: run them
	// all at once unless -test.parallel says otherwise.
	suite.DefaultParallel(16)
	os.Exit(testenv.Run(m))
}
