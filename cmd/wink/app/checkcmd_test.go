package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckUsage runs `wink check` with bad arguments: each is a usage
// error (exit code 2) said at once, naming the fix, before any cluster
// starts.
func TestCheckUsage(t *testing.T) {
	t.Setenv("WINK_HOME", t.TempDir())
	chart := filepath.Join("..", "..", "..", "harness", "check", "testdata", "charts", "mixed-clean")
	badExpect := filepath.Join(t.TempDir(), "expect.yaml")
	if err := os.WriteFile(badExpect, []byte("apiVersion: wink.dev/v1alpha1\nkind: CheckExpectations\nworkloads:\n- {kind: Deploy, name: x}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no chart", nil, "no CHART given"},
		{"missing chart", []string{"./no-such-chart"}, "chart ./no-such-chart"},
		{"unknown platform", []string{chart, "--platform", "azure"}, `--platform "azure": unknown platform; use one of generic, eks, aks, gke, openshift`},
		{"kubeconfig and name", []string{chart, "--kubeconfig", os.DevNull, "--name", "x"}, "--kubeconfig and --name both given"},
		{"two platforms on a given cluster", []string{chart, "--kubeconfig", os.DevNull, "--platform", "eks", "--platform", "gke"}, "a given cluster is one platform"},
		{"bad expect", []string{chart, "--expect", badExpect}, badExpect + ":4: workloads[0].kind: Unsupported value"},
		{"missing values file", []string{chart, "-f", "no-such-values.yaml"}, "no-such-values.yaml"},
		{"negative timeout", []string{chart, "--timeout", "-1s"}, "--timeout -1s: must be a positive duration"},
		{"bad name", []string{chart, "--name", "Not_A_Name"}, "--name"},
		{"no such cluster", []string{chart, "--name", "nosuch"}, "create it with `wink up --name nosuch`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(append([]string{"check", "--output", t.TempDir()}, tt.args...), &stdout, &stderr)
			if code != ExitUsage || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr.String(), ExitUsage, tt.want)
			}
			if strings.Contains(stderr.String(), "bringing up") {
				t.Errorf("a cluster was started: %s", stderr.String())
			}
		})
	}
}
