// Package lifecycle checks the life of pods on simulated nodes: Running with
// their node's addresses, logs through the apiserver, a kubelet API that
// authenticates and authorises like the kubelet's, and a simnode restart that
// loses nothing.
package lifecycle

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
	testenv, cluster = suite.Setup("lifecycle", nil)
	os.Exit(testenv.Run(m))
}
