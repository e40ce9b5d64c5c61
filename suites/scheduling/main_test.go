// Package scheduling checks where pods land on a mixed cluster and what the
// kubelet does with pods that reach the wrong node: rows S1–S3, A17, B1–B3.
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
	testenv, cluster = suite.Setup("scheduling", "")
	os.Exit(testenv.Run(m))
}
