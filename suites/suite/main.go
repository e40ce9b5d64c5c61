package suite

import (
	"flag"
	"fmt"
	"os"
	"strconv"

	winkconfig "wink.dev/wink/harness/config"
	"wink.dev/wink/harness/config/v1alpha1"
)

// What suite packages' TestMains share besides Setup. A TestMain stays the
// suite's own, e2e-framework's way, so that what one suite does apart
// (its cluster, its parallelism, steps of its own) reads in its
// main_test.go:
//
//	//go:embed testdata/cluster.yaml
//	var clusterConfig []byte
//
//	func TestMain(m *testing.M) {
//		testenv, cluster = suite.Setup("resources", suite.Config(clusterConfig, "suites/resources/testdata/cluster.yaml"))
//		suite.DefaultParallel(8)
//		os.Exit(testenv.Run(m))
//	}

// Config is a suite's embedded wink.yaml (data, read from file, the path
// its errors name), loaded as wink loads one; a bad file ends the test
// binary at once with the error (file, line, field and fix) and status 2,
// as a bad flag does.
func Config(data []byte, file string) *v1alpha1.Cluster {
	c, err := winkconfig.Parse(data, file)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	return c
}

// DefaultParallel sets -test.parallel to n unless the command line gave
// it: its default, GOMAXPROCS, runs two features at a time on a 2-core
// machine although a suite's features mostly wait on the cluster. Call it
// after Setup, which parses the command line.
func DefaultParallel(n int) {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if given {
		return
	}
	if err := flag.Set("test.parallel", strconv.Itoa(n)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
