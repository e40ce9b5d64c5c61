// Package conformance runs a deterministic few-minute subset of SIG
// Windows' own e2e specs (upstream's, through harness/conformance) against
// a wink cluster of the sig-windows profile: the kubelet API (/configz,
// /metrics, /stats/summary, websocket logs), HostProcess containers and
// their local groups, a Service, volumes (ConfigMap, emptyDir shared
// between containers) and an admission webhook served from a pod. The specs
// run from $WINK_E2E_BINARY when set (`wink test` sets it to the
// upstream.test it built beside the suites), else from the test program of
// ./upstream, built here with `go test -c`; the suite skips only without a
// Go toolchain.
package conformance

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wink.dev/wink/harness"
	"wink.dev/wink/harness/conformance"
	"wink.dev/wink/suites/conformance/upstream"
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
	// B16: the kubelet API's logs over websockets.
	`[sig-node] Pods should support retrieving logs from the container over websockets [NodeConformance] [Conformance]`,
	// H1: a Service load-balances to its endpoints.
	`[sig-network] Services should serve a basic endpoint from pods [Conformance]`,
	// B11: ConfigMap volumes; emptyDir shared by two containers of a pod.
	`[sig-storage] ConfigMap should be consumable from pods in volume [NodeConformance] [Conformance]`,
	`[sig-storage] EmptyDir volumes pod should support shared volumes between containers [Conformance]`,
	// E: agnhost webhook in a Windows pod serves the apiserver over TLS.
	`[sig-api-machinery] AdmissionWebhook [Privileged:ClusterAdmin] should be able to deny pod and configmap creation [Conformance]`,
}

// e2eBinary is $WINK_E2E_BINARY, or the test program of ./upstream built
// into a temporary directory (seconds when the Go build cache holds it).
func e2eBinary(ctx context.Context, t *testing.T) string {
	if e2e := os.Getenv("WINK_E2E_BINARY"); e2e != "" {
		return e2e
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("WINK_E2E_BINARY is not set and there is no Go toolchain to build ./upstream: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "upstream.test")
	start := time.Now()
	cmd := exec.CommandContext(ctx, "go", "test", "-c", "-tags", upstream.Tag, "-ldflags=-s -w", "-o", bin, "./upstream")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building ./upstream (go %s): %v\n%s", strings.Join(cmd.Args[1:], " "), err, out)
	}
	t.Logf("upstream e2e specs %s: %s (built in %s)", harness.KubernetesVersion, bin, time.Since(start).Round(time.Second))
	return bin
}

func TestSIGWindowsSubset(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Minute)
	defer cancel()
	e2e := e2eBinary(ctx, t)
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
