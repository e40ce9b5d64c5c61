// Package networking checks the HNS network model through exec, as the
// upstream Windows e2e tests do (rows H1–H4).
package networking

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
	testenv, cluster = suite.Setup("networking", nil)
	os.Exit(testenv.Run(m))
}
