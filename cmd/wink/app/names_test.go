package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostileNames: every command that names a cluster refuses a name that
// is not a DNS-1123 label with exit code 2, the flag and the fix, and
// touches nothing: `wink delete --name ..` must not remove $HOME (here a
// temporary one, with the default clusters' home ~/.wink inside it).
func TestHostileNames(t *testing.T) {
	names := []string{"..", "../x", "/abs", "UPPER", strings.Repeat("a", 64), "", "a/b", "."}
	commands := [][]string{
		{"delete"}, {"up", "--fresh"}, {"up"}, {"down"}, {"status"}, {"kubeconfig"}, {"test", "--suites", "nodes"},
	}
	for _, name := range names {
		for _, command := range commands {
			args := append(append([]string{}, command...), "--name", name)
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				home := t.TempDir()
				t.Setenv("HOME", home)
				t.Setenv("WINK_HOME", "")
				keep := filepath.Join(home, "x", "thesis.tex")
				if err := os.MkdirAll(filepath.Dir(keep), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(keep, []byte("years of work"), 0o600); err != nil {
					t.Fatal(err)
				}
				var stdout, stderr bytes.Buffer
				code := Main(args, &stdout, &stderr)
				if code != ExitUsage {
					t.Fatalf("wink %q: exit %d, want %d; stderr:\n%s", args, code, ExitUsage, stderr.String())
				}
				want := `ERROR: --name: Invalid value: "` + name + `": must be a DNS-1123 label; use at most 63 lower-case letters, digits and '-'`
				if name == "" {
					want = "ERROR: --name: Required value: give a cluster name, e.g. --name wink"
				}
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("wink %q said:\n%s\nwant:\n%s", args, stderr.String(), want)
				}
				if _, err := os.Stat(keep); err != nil {
					t.Errorf("wink %q touched %s: %v", args, keep, err)
				}
				if _, err := os.Stat(filepath.Join(home, ".wink")); err == nil {
					t.Errorf("wink %q made ~/.wink", args)
				}
			})
		}
	}
	t.Run("webhook install --cluster UPPER", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		code := Main([]string{"webhook", "install", "--cluster", "UPPER", "--home", t.TempDir()}, &stdout, &stderr)
		if code != ExitUsage || !strings.Contains(stderr.String(), `--cluster: Invalid value: "UPPER": must be a DNS-1123 label`) {
			t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
		}
	})
}

// TestUpFlags: flags are checked before anything starts.
func TestUpFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"up", "--wait", "-5s"}, `ERROR: --wait: Invalid value: "-5s": must be a positive duration (how long ` + "`wink up`" + ` waits for every node to be Ready); e.g. --wait 3m0s`},
		{[]string{"up", "--wait", "soon"}, `invalid argument "soon" for "--wait" flag`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			home := t.TempDir()
			var stdout, stderr bytes.Buffer
			code := Main(append(tt.args, "--home", filepath.Join(home, "wink")), &stdout, &stderr)
			if code != ExitUsage || !strings.Contains(stderr.String(), tt.want) {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit %d and %q", code, stderr.String(), ExitUsage, tt.want)
			}
			if _, err := os.Stat(filepath.Join(home, "wink")); err == nil {
				t.Error("wink up made the clusters' home")
			}
		})
	}
}
