package conformance

import (
	"fmt"
	"os"
	"testing"

	"sigs.k8s.io/e2e-framework/pkg/envconf"
)

// TestMain accepts the flags `wink test` gives every suite (e2e-framework's:
// --parallel, --dry-run, --kubeconfig, --labels, ...), as the suites built
// on suite.Setup do. In a dry run (wink test counting what will run) it
// runs nothing: its specs are upstream's, run by e2e.test.
func TestMain(m *testing.M) {
	cfg, err := envconf.NewFromFlags()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if cfg.DryRunMode() {
		os.Exit(0)
	}
	os.Exit(m.Run())
}
