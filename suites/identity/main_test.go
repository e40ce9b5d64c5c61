// Package identity checks who a Windows container runs as: runAsUserName,
// the non-root policy, HostProcess pods (rows B8–B10).
package identity

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
	testenv, cluster = suite.Setup("identity", nil)
	os.Exit(testenv.Run(m))
}
