package harness

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wink.dev/wink/harness/config"
)

// hostileNames are cluster names that are paths, or that no cluster can
// have: each must be refused before anything touches disk.
var hostileNames = []string{"..", "../x", "/abs", "UPPER", strings.Repeat("a", 64), "a/b", ".", "-a", "a b"}

// writeCluster makes the state directory of a stopped cluster as Up leaves
// it: cluster.yaml, state.json (state) and, when marked, the marker file.
func writeCluster(t *testing.T, home, name, state string, marked bool) string {
	t.Helper()
	cfg, err := config.Parse([]byte("apiVersion: wink.dev/v1alpha1\nkind: Cluster\nname: "+name+"\n"), "cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(home, name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := config.Write(filepath.Join(dir, configFile), cfg); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, stateFile), []byte(state), 0o600); err != nil {
		t.Fatal(err)
	}
	if marked {
		if err := writeMarker(dir, name); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// mustExist fails the test when path is gone.
func mustExist(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Lstat(path); err != nil {
		t.Errorf("%s was touched: %v", path, err)
	}
}

// TestHostileNames: every call refuses a name that is not a DNS-1123 label
// with the --name error and its fix, before it creates or removes anything:
// the clusters' home is not even made, and its siblings stay.
func TestHostileNames(t *testing.T) {
	calls := map[string]func(Options) error{
		"Up": func(o Options) error {
			_, err := Up(context.Background(), UpOptions{Options: o, Fresh: true})
			return err
		},
		"Down":           func(o Options) error { return Down(context.Background(), o) },
		"Delete":         func(o Options) error { return Delete(context.Background(), o) },
		"GetStatus":      func(o Options) error { _, err := GetStatus(o); return err },
		"KubeconfigPath": func(o Options) error { _, err := KubeconfigPath(o); return err },
		"ComponentPID":   func(o Options) error { _, err := ComponentPID(o, "simnode"); return err },
		"ClusterConfig":  func(o Options) error { _, err := ClusterConfig(o); return err },
		"HostAddress":    func(o Options) error { _, err := HostAddress(o); return err },
		"Dialer":         func(o Options) error { _, err := Dialer(o); return err },
		"Supervise":      func(o Options) error { return Supervise(context.Background(), o) },
	}
	for _, name := range hostileNames {
		for call, f := range calls {
			t.Run(call+"/"+name, func(t *testing.T) {
				base := t.TempDir()
				home := filepath.Join(base, "home")
				sibling := filepath.Join(base, "x", "keep")
				if err := os.MkdirAll(sibling, 0o700); err != nil {
					t.Fatal(err)
				}
				err := f(Options{Name: name, Home: home, Binary: "/bin/false"})
				if !IsOptionError(err) {
					t.Fatalf("%s(%q) = %v, want an OptionError", call, name, err)
				}
				want := `--name: Invalid value: "` + name + `": must be a DNS-1123 label; use at most 63 lower-case letters`
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%s(%q):\n%v\nwant it to contain %q", call, name, err, want)
				}
				if _, err := os.Stat(home); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s(%q) made %s", call, name, home)
				}
				mustExist(t, sibling)
			})
		}
	}
}

// TestUpRefusesANegativeWait: --wait is checked with the name, first.
func TestUpRefusesANegativeWait(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	_, err := Up(context.Background(), UpOptions{Options: Options{Name: "w", Home: home}, Wait: -5 * time.Second})
	if !IsOptionError(err) || !strings.Contains(err.Error(), `--wait: Invalid value: "-5s": must be a positive duration`) {
		t.Fatalf("Up(--wait -5s) = %v, want the --wait error", err)
	}
	if _, err := os.Stat(home); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Up made %s", home)
	}
}

// TestDeleteRemovesOnlyWhatWinkMade: Delete and `up --fresh` remove a
// state directory only when it holds the marker and is a directory
// directly inside the home (symbolic links resolved).
func TestDeleteRemovesOnlyWhatWinkMade(t *testing.T) {
	tests := []struct {
		name string
		// setup makes the cluster "c" under home and returns a file that
		// must survive (empty: the state directory must be gone).
		setup   func(t *testing.T, base, home string) (keep string)
		wantErr string
	}{
		{
			name: "marked",
			setup: func(t *testing.T, _, home string) string {
				writeCluster(t, home, "c", validState(t), true)
				return ""
			},
		},
		{
			name: "marked, home is a symbolic link",
			setup: func(t *testing.T, base, home string) string {
				real := filepath.Join(base, "real-home")
				writeCluster(t, real, "c", validState(t), true)
				if err := os.Remove(home); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(real, home); err != nil {
					t.Fatal(err)
				}
				return ""
			},
		},
		{
			name: "no marker",
			setup: func(t *testing.T, _, home string) string {
				dir := writeCluster(t, home, "c", validState(t), false)
				return filepath.Join(dir, configFile)
			},
			wantErr: "has no .wink-cluster marker file: wink writes and removes only the state directories it made",
		},
		{
			name: "not a cluster",
			setup: func(t *testing.T, _, home string) string {
				keep := filepath.Join(home, "c", "thesis.tex")
				if err := os.MkdirAll(filepath.Dir(keep), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(keep, []byte("years of work"), 0o600); err != nil {
					t.Fatal(err)
				}
				return keep
			},
			wantErr: "rm -rf ",
		},
		{
			name: "symbolic link to a marked directory outside home",
			setup: func(t *testing.T, base, home string) string {
				outside := writeCluster(t, filepath.Join(base, "elsewhere"), "c", validState(t), true)
				if err := os.Symlink(outside, filepath.Join(home, "c")); err != nil {
					t.Fatal(err)
				}
				return filepath.Join(outside, markerFile)
			},
			wantErr: "is a symbolic link (to ",
		},
	}
	for _, tt := range tests {
		for _, how := range []string{"Delete", "Up --fresh"} {
			t.Run(how+"/"+tt.name, func(t *testing.T) {
				base := t.TempDir()
				home := filepath.Join(base, "home")
				if err := os.MkdirAll(home, 0o700); err != nil {
					t.Fatal(err)
				}
				keep := tt.setup(t, base, home)
				o := Options{Name: "c", Home: home, Binary: "/bin/false"}
				var err error
				if how == "Delete" {
					err = Delete(context.Background(), o)
				} else {
					if tt.wantErr == "" {
						t.Skip("a fresh Up goes on to start the cluster: see TestUpSaysWhy")
					}
					_, err = Up(context.Background(), UpOptions{Options: o, Fresh: true, Wait: 10 * time.Second})
				}
				if tt.wantErr == "" {
					if err != nil {
						t.Fatal(err)
					}
					if _, err := os.Lstat(filepath.Join(home, "c")); !errors.Is(err, os.ErrNotExist) {
						t.Errorf("the state directory is still there: %v", err)
					}
					if _, err := os.Lstat(lockPath(home, "c")); !errors.Is(err, os.ErrNotExist) {
						t.Errorf("the lock file is still there: %v", err)
					}
					return
				}
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), filepath.Join(home, "c")) {
					t.Fatalf("%s = %v, want an error naming %s and containing %q", how, err, filepath.Join(home, "c"), tt.wantErr)
				}
				mustExist(t, keep)
				if _, err := os.Lstat(lockPath(home, "c")); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("a refusal left the lock file: %v", err)
				}
			})
		}
	}
}

// TestRemoveStateDirRefusesPaths: the removal itself refuses a name that is
// a path, even if one got past the name check.
func TestRemoveStateDirRefusesPaths(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	writeCluster(t, home, "c", validState(t), true)
	if err := writeMarker(base, "base"); err != nil { // even a marked parent
		t.Fatal(err)
	}
	for _, name := range []string{"..", "../home", ".", "", "c/../..", "/"} {
		if err := removeStateDir(home, name); err == nil {
			t.Errorf("removeStateDir(%q) = nil, want a refusal", name)
		}
	}
	mustExist(t, filepath.Join(home, "c", markerFile))
	mustExist(t, filepath.Join(base, markerFile))
}

// TestUpAdoptsAnUnmarkedCluster: a state directory an older wink made
// (a cluster.yaml and a valid state.json, no marker) is adopted by Up.
func TestUpAdoptsAnUnmarkedCluster(t *testing.T) {
	home := t.TempDir()
	dir := writeCluster(t, home, "old", validState(t), false)
	var progress strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := Up(ctx, UpOptions{Options: Options{Name: "old", Home: home, Binary: fakeSupervisor(t, "exit 1"), Progress: &progress}})
	if err == nil {
		t.Fatal("Up with a supervisor that exits succeeded")
	}
	if !strings.Contains(progress.String(), "Adopted "+dir) {
		t.Errorf("progress does not say the directory was adopted:\n%s", progress.String())
	}
	mustExist(t, filepath.Join(dir, markerFile))
}
