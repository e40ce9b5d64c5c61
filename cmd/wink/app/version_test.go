package app

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// Issue 21: the --version component-base's verflag puts on pflag's global
// set (imported with the control plane) stays off wink's help; `wink
// --version` prints wink's version; a subcommand refuses --version.
func TestVersionFlag(t *testing.T) {
	if pflag.CommandLine.Lookup("version") == nil {
		t.Fatal("verflag's --version is not on pflag.CommandLine: this test no longer shows the leak")
	}
	for _, args := range [][]string{{"--help"}, {"up", "--help"}, {"status", "--help"}} {
		var stdout, stderr bytes.Buffer
		if code := Main(args, &stdout, &stderr); code != ExitOK {
			t.Fatalf("wink %q: exit %d: %s", args, code, stderr.String())
		}
		if out := stdout.String(); strings.Contains(out, "version[=true]") || strings.Contains(out, "sets the reported version") {
			t.Fatalf("wink %q lists component-base's --version:\n%s", args, out)
		}
	}
	for _, args := range [][]string{{"--version"}, {"-v"}, {"version"}} {
		var stdout, stderr bytes.Buffer
		if code := Main(args, &stdout, &stderr); code != ExitOK || !strings.HasPrefix(stdout.String(), "wink "+Version+" (Kubernetes ") {
			t.Fatalf("wink %q: exit %d, stdout %q", args, code, stdout.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"status", "--version"}, &stdout, &stderr); code != ExitUsage {
		t.Fatalf("wink status --version: exit %d, want %d", code, ExitUsage)
	}
}
