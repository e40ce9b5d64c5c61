package kubeversion

import (
	"os"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiversion "k8s.io/apimachinery/pkg/util/version"
	clientversion "k8s.io/client-go/pkg/version"
	"k8s.io/component-base/metrics/legacyregistry"
	"k8s.io/component-base/metrics/testutil"
	baseversion "k8s.io/component-base/version"
)

func TestModule(t *testing.T) {
	tests := []struct {
		name    string
		bi      *debug.BuildInfo
		want    string
		wantErr string
	}{
		{name: "required", bi: &debug.BuildInfo{Path: "wink.dev/wink/cmd/wink", Deps: []*debug.Module{
			{Path: "k8s.io/api", Version: "v0.35.4"},
			{Path: ModulePath, Version: "v1.35.4"},
		}}, want: "v1.35.4"},
		{name: "replaced by a version", bi: &debug.BuildInfo{Deps: []*debug.Module{
			{Path: ModulePath, Version: "v1.35.0", Replace: &debug.Module{Path: ModulePath, Version: "v1.35.4"}},
		}}, want: "v1.35.4"},
		{name: "replaced by a directory", bi: &debug.BuildInfo{Deps: []*debug.Module{
			{Path: ModulePath, Version: "v1.35.4", Replace: &debug.Module{Path: "../kubernetes"}},
		}}, want: "v1.35.4"},
		{name: "not linked", bi: &debug.BuildInfo{Path: "example.com/x"}, wantErr: "k8s.io/kubernetes is not linked into example.com/x"},
		{name: "no build info", wantErr: "no build information"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Module(tt.bi)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Module() = %q, %v; want error containing %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Module() = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestFor(t *testing.T) {
	tests := []struct {
		version                                    string
		major, minor, commit, buildDate, treeState string
		wantErr                                    bool
	}{
		{version: "v1.35.4", major: "1", minor: "35", commit: "7b8c6cf0edd376b3d7c2f255142977c7f93db258", buildDate: "2026-04-15T18:01:23Z", treeState: "clean"},
		{version: "v1.36.0", major: "1", minor: "36"}, // not in Releases: no commit claimed
		{version: "v1.36.0-alpha.1", major: "1", minor: "36+"},
		{version: "1.35", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			got, err := For(tt.version)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("For(%q) = %+v, want an error", tt.version, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := []string{tt.major, tt.minor, tt.version, tt.commit, tt.buildDate, tt.treeState}
			have := []string{got.Major, got.Minor, got.GitVersion, got.GitCommit, got.BuildDate, got.GitTreeState}
			if diff := cmp.Diff(want, have); diff != "" {
				t.Errorf("For(%q) major, minor, gitVersion, gitCommit, buildDate, gitTreeState (-want +got):\n%s", tt.version, diff)
			}
		})
	}
}

// goModVersion is the k8s.io/kubernetes version wink's go.mod links (a test
// binary's build information lists no modules, so Module cannot be used here).
func goModVersion(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	var v string
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		switch {
		case len(f) >= 2 && f[0] == ModulePath && strings.HasPrefix(f[1], "v"):
			if v == "" {
				v = f[1]
			}
		case len(f) >= 4 && f[0] == ModulePath && f[1] == "=>" && strings.HasPrefix(f[len(f)-1], "v"):
			return f[len(f)-1] // a replace directive wins
		}
	}
	if v == "" {
		t.Fatalf("go.mod does not require %s", ModulePath)
	}
	return v
}

// TestReleaseKnown: the k8s.io/kubernetes that go.mod links is a release
// whose commit and build date wink knows, so /version is complete.
func TestReleaseKnown(t *testing.T) {
	v := goModVersion(t)
	if _, ok := Releases[v]; !ok {
		t.Fatalf("go.mod links %s %s, which kubeversion.Releases does not list: add its gitCommit and buildDate", ModulePath, v)
	}
}

// TestApply: after Apply, what the upstream components read (component-base
// and client-go version.Get, the effective version's /version info, the
// kubernetes_build_info metric) says the linked release, and parses as
// kubectl and Helm parse it.
func TestApply(t *testing.T) {
	info, err := For(goModVersion(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := Apply(info); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]string{
		"component-base": baseversion.Get().GitVersion,
		"client-go":      clientversion.Get().GitVersion,
	} {
		if got != info.GitVersion {
			t.Errorf("%s version.Get().GitVersion = %q, want %q", name, got, info.GitVersion)
		}
	}
	base := baseversion.Get()
	if base.Major != "1" || base.Minor != "35" || base.GitCommit != Releases["v1.35.4"].GitCommit || base.GitTreeState != "clean" {
		t.Errorf("component-base version.Get() = %+v", base)
	}
	sem, err := apiversion.ParseSemantic(base.GitVersion)
	if err != nil {
		t.Fatalf("ParseSemantic(%q): %v", base.GitVersion, err)
	}
	if sem.String() != "1.35.4" {
		t.Errorf("ParseSemantic(%q) = %s, want 1.35.4", base.GitVersion, sem)
	}
	if _, err := apiversion.ParseGeneric(base.GitVersion); err != nil {
		t.Errorf("ParseGeneric(%q): %v", base.GitVersion, err)
	}
	want := `
# HELP kubernetes_build_info [ALPHA] A metric with a constant '1' value labeled by major, minor, git version, git commit, git tree state, build date, Go version, and compiler from which Kubernetes was built, and platform on which it is running.
# TYPE kubernetes_build_info gauge
kubernetes_build_info{build_date="2026-04-15T18:01:23Z",compiler="` + base.Compiler + `",git_commit="7b8c6cf0edd376b3d7c2f255142977c7f93db258",git_tree_state="clean",git_version="v1.35.4",go_version="` + base.GoVersion + `",major="1",minor="35",platform="` + base.Platform + `"} 1
`
	if err := testutil.GatherAndCompare(legacyregistry.DefaultGatherer, strings.NewReader(want), "kubernetes_build_info"); err != nil {
		t.Error(err)
	}
}
