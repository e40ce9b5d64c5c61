package nodes

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/version"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/harness"
	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/suites/suite"
)

// TestControlPlaneVersion: the embedded control plane reports the upstream
// release it links (v1.35.4) on /version and in kubernetes_build_info, in a
// form kubectl (version.ParseSemantic, ParseGeneric) and Helm's kubeVersion
// check read, however bin/wink was built (a plain go build leaves upstream's
// v0.0.0-master+$Format:%H$ placeholder, which neither can parse).
func TestControlPlaneVersion(t *testing.T) {
	f := suite.Feature("the control plane says its upstream release", "nodes", "simnode").
		Assess("the apiserver version is v1.35.4 and parses as kubectl parses it", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			embeddedOnly(t)
			info, err := suite.Clientset(t, cfg).Discovery().ServerVersion()
			if err != nil {
				t.Fatal(err)
			}
			suite.ObjectEvidence(t, "kube-apiserver /version", info)
			want := harness.KubernetesVersion
			if info.GitVersion != want {
				t.Errorf("gitVersion %q, want %q", info.GitVersion, want)
			}
			sem, err := version.ParseSemantic(info.GitVersion)
			if err != nil {
				t.Fatalf("version.ParseSemantic(%q) (kubectl version): %v", info.GitVersion, err)
			}
			if _, err := version.ParseGeneric(info.GitVersion); err != nil {
				t.Errorf("version.ParseGeneric(%q): %v", info.GitVersion, err)
			}
			if sem.String() != strings.TrimPrefix(want, "v") {
				t.Errorf("ParseSemantic(%q) = %s", info.GitVersion, sem)
			}
			if info.Major != "1" || info.Minor != "35" {
				t.Errorf("major/minor %q/%q, want 1/35", info.Major, info.Minor)
			}
			if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(info.GitCommit) {
				t.Errorf("gitCommit %q, want the release's 40-hex commit", info.GitCommit)
			}
			if _, err := time.Parse(time.RFC3339, info.BuildDate); err != nil || info.BuildDate == "1970-01-01T00:00:00Z" {
				t.Errorf("buildDate %q, want the release's (RFC 3339): %v", info.BuildDate, err)
			}
			if info.GitTreeState != "clean" {
				t.Errorf("gitTreeState %q, want clean", info.GitTreeState)
			}
			return ctx
		}).
		Assess("kubernetes_build_info of the apiserver says it too", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			embeddedOnly(t)
			body, err := suite.Clientset(t, cfg).CoreV1().RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var line string
			for _, l := range strings.Split(string(body), "\n") {
				if strings.HasPrefix(l, "kubernetes_build_info{") {
					line = l
				}
			}
			suite.Evidence(t, suite.EvidenceObject, "kube-apiserver kubernetes_build_info", line)
			if !strings.Contains(line, `git_version="`+harness.KubernetesVersion+`"`) || !strings.Contains(line, `minor="35"`) {
				t.Errorf("kubernetes_build_info: %q, want git_version=%q", line, harness.KubernetesVersion)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// embeddedOnly skips unless wink's embedded control plane runs the cluster
// (kind and existing clusters report their own version).
func embeddedOnly(t *testing.T) {
	t.Helper()
	cluster.SkipUnlessSimulated(t)
	wc, err := harness.ClusterConfig(cluster.Options)
	if err != nil {
		t.Fatal(err)
	}
	if wc.Backend != "" && wc.Backend != v1alpha1.BackendEmbedded {
		t.Skipf("the %s backend's control plane is not wink's", wc.Backend)
	}
}
