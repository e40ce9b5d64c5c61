package kubeversion

import (
	"fmt"
	"runtime/debug"
	"strings"
	_ "unsafe" // go:linkname into component-base/version and client-go/pkg/version

	apiversion "k8s.io/apimachinery/pkg/util/version"
	apimachineryversion "k8s.io/apimachinery/pkg/version"
	_ "k8s.io/client-go/pkg/version" // its variables are set below
	"k8s.io/component-base/metrics"
	_ "k8s.io/component-base/metrics/prometheus/version" // kubernetes_build_info, refreshed by Apply
	baseversion "k8s.io/component-base/version"
)

// ModulePath is the module whose version the control plane reports.
const ModulePath = "k8s.io/kubernetes"

// Release is what upstream's build of a release stamps into its binaries
// besides the version itself.
type Release struct {
	GitCommit string // the release tag's commit
	BuildDate string // RFC 3339, UTC
}

// Releases holds the upstream releases wink has linked, keyed by version.
// Source: the /version of the official release binaries (e.g. `kubectl
// version -o json` against a kubeadm cluster of that release); the build
// date is the tag's commit time, which the Go module proxy's .info for
// k8s.io/kubernetes@<version> also gives (to the second before). When go.mod
// moves k8s.io/kubernetes, TestReleaseKnown fails until the new release is
// added here.
var Releases = map[string]Release{
	"v1.35.4": {GitCommit: "7b8c6cf0edd376b3d7c2f255142977c7f93db258", BuildDate: "2026-04-15T18:01:23Z"},
}

// Module returns the version of ModulePath in bi: the version go.mod
// requires (a replace directive's version when it is replaced by a module
// version, as the k8s.io staging modules are).
func Module(bi *debug.BuildInfo) (string, error) {
	if bi == nil {
		return "", fmt.Errorf("no build information in this binary: cannot tell the %s version", ModulePath)
	}
	for _, d := range bi.Deps {
		if d.Path != ModulePath {
			continue
		}
		v := d.Version
		if d.Replace != nil && d.Replace.Version != "" {
			v = d.Replace.Version
		}
		return v, nil
	}
	return "", fmt.Errorf("%s is not linked into %s: cannot tell its version", ModulePath, bi.Path)
}

// For returns the version information a build of version reports: what the
// official release binaries report on /version (Go version, compiler and
// platform are this binary's).
func For(version string) (apimachineryversion.Info, error) {
	v, err := apiversion.ParseSemantic(version)
	if err != nil {
		return apimachineryversion.Info{}, fmt.Errorf("%s version %q: %w", ModulePath, version, err)
	}
	info := baseversion.Get()
	info.Major = fmt.Sprint(v.Major())
	info.Minor = fmt.Sprint(v.Minor())
	info.GitVersion = version
	info.GitCommit, info.BuildDate, info.GitTreeState = "", "", ""
	if r, ok := Releases[version]; ok {
		info.GitCommit, info.BuildDate, info.GitTreeState = r.GitCommit, r.BuildDate, "clean"
	}
	if v.PreRelease() != "" || v.BuildMetadata() != "" {
		// Upstream marks a minor of a pre-release build with "+" (gitMinor "35+").
		info.Minor += "+"
	}
	return info, nil
}

// Get returns the version information of this binary's control plane, from
// its build information.
func Get() (apimachineryversion.Info, error) {
	bi, _ := debug.ReadBuildInfo()
	v, err := Module(bi)
	if err != nil {
		return apimachineryversion.Info{}, err
	}
	return For(v)
}

// Apply writes info into the variables upstream's build sets with -ldflags
// (k8s.io/component-base/version, k8s.io/client-go/pkg/version) and
// refreshes the kubernetes_build_info metric registered at init. Call it
// before a component's command is built, from one goroutine.
func Apply(info apimachineryversion.Info) error {
	if !strings.HasPrefix(info.GitVersion, "v") {
		return fmt.Errorf("gitVersion %q: want v<major>.<minor>.<patch>", info.GitVersion)
	}
	baseMajor, baseMinor, baseGitVersion = info.Major, info.Minor, info.GitVersion
	baseGitCommit, baseGitTreeState, baseBuildDate = info.GitCommit, info.GitTreeState, info.BuildDate
	// Get() reads gitVersion through its dynamic copy, stored at init; with
	// gitVersion now equal, SetDynamicVersion accepts it as a no-op change.
	if err := baseversion.SetDynamicVersion(info.GitVersion); err != nil {
		return fmt.Errorf("setting the control plane's version: %w", err)
	}
	clientMajor, clientMinor, clientGitVersion = info.Major, info.Minor, info.GitVersion
	clientGitCommit, clientGitTreeState, clientBuildDate = info.GitCommit, info.GitTreeState, info.BuildDate
	if buildInfo != nil {
		got := baseversion.Get()
		buildInfo.Reset()
		buildInfo.WithLabelValues(got.Major, got.Minor, got.GitVersion, got.GitCommit, got.GitTreeState, got.BuildDate, got.GoVersion, got.Compiler, got.Platform).Set(1)
	}
	return nil
}

// The variables upstream sets with -ldflags -X.
var (
	//go:linkname baseMajor k8s.io/component-base/version.gitMajor
	baseMajor string
	//go:linkname baseMinor k8s.io/component-base/version.gitMinor
	baseMinor string
	//go:linkname baseGitVersion k8s.io/component-base/version.gitVersion
	baseGitVersion string
	//go:linkname baseGitCommit k8s.io/component-base/version.gitCommit
	baseGitCommit string
	//go:linkname baseGitTreeState k8s.io/component-base/version.gitTreeState
	baseGitTreeState string
	//go:linkname baseBuildDate k8s.io/component-base/version.buildDate
	baseBuildDate string

	//go:linkname clientMajor k8s.io/client-go/pkg/version.gitMajor
	clientMajor string
	//go:linkname clientMinor k8s.io/client-go/pkg/version.gitMinor
	clientMinor string
	//go:linkname clientGitVersion k8s.io/client-go/pkg/version.gitVersion
	clientGitVersion string
	//go:linkname clientGitCommit k8s.io/client-go/pkg/version.gitCommit
	clientGitCommit string
	//go:linkname clientGitTreeState k8s.io/client-go/pkg/version.gitTreeState
	clientGitTreeState string
	//go:linkname clientBuildDate k8s.io/client-go/pkg/version.buildDate
	clientBuildDate string

	// The kubernetes_build_info gauge, set from the variables at init.
	//go:linkname buildInfo k8s.io/component-base/metrics/prometheus/version.buildInfo
	buildInfo *metrics.GaugeVec
)
