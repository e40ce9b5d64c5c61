package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTargetFlags runs `wink test` with the target flags: a bad value is a
// usage error (exit code 2) before any suite is looked for or run.
func TestTargetFlags(t *testing.T) {
	t.Setenv("WINK_SCHEDULER_NAME", "")
	t.Setenv("WINK_WEBHOOK_CONFIG", "")
	missing := filepath.Join(t.TempDir(), "vendor.yaml")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"scheduler not in embedded clusters", []string{"--scheduler-name", "vendor-scheduler"}, `--scheduler-name "vendor-scheduler": the embedded clusters`},
		{"invalid scheduler name", []string{"--kubeconfig", os.DevNull, "--scheduler-name", "no spaces"}, `"no spaces" is not a valid spec.schedulerName`},
		{"missing webhook config", []string{"--webhook-config", missing}, "--webhook-config: webhook configuration " + missing + ": no such file or directory"},
		{"flag without value", []string{"--scheduler-name"}, "flag needs an argument: --scheduler-name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(append([]string{"test", "--output", t.TempDir()}, tt.args...), &stdout, &stderr)
			if code != ExitUsage || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr.String(), ExitUsage, tt.want)
			}
			if strings.Contains(stdout.String(), "Running") {
				t.Errorf("suites ran: %s", stdout.String())
			}
		})
	}
}
