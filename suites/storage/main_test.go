// Package storage checks volumes on Windows containers: read-only mounts,
// ConfigMaps and Secrets as files and environment (rows B11, B12).
package storage

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
	testenv, cluster = suite.Setup("storage", nil)
	os.Exit(testenv.Run(m))
}
