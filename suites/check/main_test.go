package check

import (
	"fmt"
	"os"
	"testing"

	"sigs.k8s.io/e2e-framework/pkg/env"

	"wink.dev/wink/harness/check"
	"wink.dev/wink/suites/suite"
)

var (
	testenv env.Environment
	cluster *suite.Cluster
)

func TestMain(m *testing.M) {
	profile, err := check.LookupProfile("generic")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	cfg, err := check.ClusterConfig(profile, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	testenv, cluster = suite.Setup("check", cfg)
	os.Exit(testenv.Run(m))
}
