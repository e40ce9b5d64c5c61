// Package validation checks what the real control plane enforces on Windows
// pods: the apiserver's validation (rows A1–A13), RuntimeClass admission
// (A16) and Pod Security admission (A18, A19; these carry the area label
// "admission"), with the exact error text a
// user sees. Every feature holds on any conformant cluster (needs "any"):
// the strings come from the upstream code of v1.35.4, cited file:line.
package validation

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
	testenv, cluster = suite.Setup("validation", nil)
	os.Exit(testenv.Run(m))
}
