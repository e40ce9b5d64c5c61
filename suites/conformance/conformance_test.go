// Package conformance runs a deterministic few-minute subset of SIG
// Windows' own e2e specs (upstream e2e.test, harness/conformance) against a
// wink cluster of the sig-windows profile: the kubelet API (/configz,
// /metrics, /stats/summary), HostProcess containers and their local
// groups. It needs a prebuilt e2e.test of the control plane's version in
// $WINK_E2E_BINARY (`wink conformance` builds one under
// $WINK_HOME/cache/e2e) and skips without it.
package conformance

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"wink.dev/wink/harness"
	"wink.dev/wink/harness/conformance"
	"wink.dev/wink/suites/suite"
)

// subset are the specs of the run, by their full text (ginkgo focus,
// anchored): each checks rows of the catalog through upstream's code.
var subset = []string{
	// N5, B5: /configz explains allocatable memory.
	`[sig-windows] [Feature:Windows] Memory Limits [Serial] [Slow] Allocatable node memory should be equal to a calculated allocatable memory value`,
	// B10, B9: net localgroup, then a container running as the group.
	`[sig-windows] [Feature:WindowsHostProcessContainers] HostProcess containers should run as localgroup accounts`,
	// B10: the kubelet's HostProcess start counters on /metrics.
	`[sig-windows] [Feature:WindowsHostProcessContainers] HostProcess containers metrics should report count of started and failed to start HostProcess containers`,
	// B14: /stats/summary of HostProcess containers.
	`[sig-windows] [Feature:WindowsHostProcessContainers] HostProcess containers container stats validation`,
}

func TestSIGWindowsSubset(t *testing.T) {
	e2e := os.Getenv("WINK_E2E_BINARY")
	if e2e == "" {
		t.Skip("WINK_E2E_BINARY is not set: give a prebuilt e2e.test of " + harness.KubernetesVersion + " (wink conformance builds one under $WINK_HOME/cache/e2e)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	bin, err := suite.Binary()
	if err != nil {
		t.Fatal(err)
	}
	profile, err := conformance.SIGWindowsProfile()
	if err != nil {
		t.Fatal(err)
	}
	opts := harness.Options{Name: "wink-conformance", Home: t.TempDir(), Binary: bin, Progress: io.Discard}
	c, err := harness.Up(ctx, harness.UpOptions{Options: opts, Config: profile, Fresh: true, Wait: 2 * time.Minute, Schedulable: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = harness.Delete(context.Background(), opts) }()

	var progress strings.Builder
	job := conformance.Job{Name: "sig-windows-subset", Nodes: 1}
	out, err := conformance.Default().Run(ctx, conformance.Options{
		Job: job, Kubeconfig: c.Kubeconfig, Binaries: conformance.Binaries{E2E: e2e},
		NumNodes: conformance.WindowsNodes(profile), ReportDir: t.TempDir(), Rerun: subset, Progress: &progress,
	})
	t.Log(progress.String())
	if err != nil {
		t.Fatal(err)
	}
	if out.Planned != len(subset) {
		t.Errorf("planned %d specs, want %d (the subset's texts no longer match e2e.test's)", out.Planned, len(subset))
	}
	for _, s := range out.Specs {
		if s.State != "passed" {
			t.Errorf("%s: %s\n%s", s.Text, s.State, s.Message)
		}
	}
}
