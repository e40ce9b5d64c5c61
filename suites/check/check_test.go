package check

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/harness/check"
	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/reports"
	"wink.dev/wink/suites/suite"
)

// chartsDir is harness/check/testdata/charts of the checkout this test was
// built from.
func chartsDir(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no source path")
	}
	dir := filepath.Join(filepath.Dir(file), "..", "..", "harness", "check", "testdata", "charts")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("needs the checkout's harness/check/testdata/charts: %v", err)
	}
	return dir
}

func charts(t *testing.T, names ...string) []string {
	dir := chartsDir(t)
	var out []string
	for _, n := range names {
		out = append(out, filepath.Join(dir, n))
	}
	return out
}

// offline is the base wink.yaml of the clusters check.Run brings up: no
// registry is asked (the suites never use the internet).
var offline = &v1alpha1.Cluster{Images: v1alpha1.Images{Resolve: v1alpha1.ImageResolveOffline}}

// run runs check.Run on the suite's cluster (one platform, generic).
func run(ctx context.Context, t *testing.T, cfg *envconf.Config, ns string, o check.Options) *reports.CheckReport {
	t.Helper()
	o.Kubeconfig = cfg.KubeconfigFile()
	o.Platforms = []string{"generic"}
	o.Namespace = ns
	o.Progress = testWriter{t}
	if o.Timeout == 0 {
		o.Timeout = 90 * time.Second
	}
	rep, err := check.Run(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	for p, e := range rep.PlatformErrors {
		t.Errorf("platform %s: %s", p, e)
	}
	// A given cluster is left as it was found: the releases uninstalled.
	cs := suite.Clientset(t, cfg)
	if ds, err := cs.AppsV1().DaemonSets(ns).List(ctx, metav1.ListOptions{}); err != nil || len(ds.Items) > 0 {
		t.Errorf("after wink check on a given cluster: DaemonSets left in %s: %v", ns, err)
	}
	if ds, err := cs.AppsV1().Deployments(ns).List(ctx, metav1.ListOptions{}); err != nil || len(ds.Items) > 0 {
		t.Errorf("after wink check on a given cluster: Deployments left in %s: %v", ns, err)
	}
	return rep
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

// codes are a chart's error finding codes on a platform, and its warnings'.
func codes(rep *reports.CheckReport, chart, platform string) (errs, warns []string, text string) {
	for _, w := range rep.Workloads {
		if !strings.HasSuffix(w.Chart, "/"+chart) || w.Platform != platform {
			continue
		}
		for _, f := range w.Findings {
			text += w.Kind + " " + w.Name + ": " + f.Code + ": " + f.Message + "\n"
			if f.Severity == reports.SeverityError {
				errs = append(errs, f.Code)
			} else {
				warns = append(warns, f.Code)
			}
		}
	}
	return errs, warns, text
}

// TestFindings installs one chart per finding on the suite's cluster (the
// generic profile) and checks that each gets its finding and no other.
func TestFindings(t *testing.T) {
	want := []struct {
		chart, code string
		says        []string
	}{
		{"linux-agent-tolerates-all", check.CodeLinuxOnWindows, []string{"DaemonSet linux-agent-tolerates-all-logs has no kubernetes.io/os selector", "landed on Windows node"}},
		{"windows-web-no-toleration", check.CodePending, []string{"untolerated taint", "os=windows:NoSchedule"}},
		{"windows-2025-only", check.CodePendingSelector, []string{"node.kubernetes.io/windows-build=10.0.26100"}},
		{"windows-image-ltsc2022-only", check.CodeNoImageForBuild, []string{"Windows Server 2019", "no match for platform in manifest"}},
		{"linux-crash-loop", check.CodeCrashLoop, []string{"CrashLoopBackOff"}},
		{"failing-hook", check.CodeHookFailed, []string{"failing-hook-migrate"}},
		{"hostprocess-no-hostnetwork", check.CodeRefusedAPIServer, []string{"hostNetwork must be true if pod contains any hostProcess containers"}},
		{"linux-os-on-windows-node", check.CodeRefusedKubelet, []string{"PodOSNotSupported"}},
		{"windows-linux-only-fields", "", []string{"spec.securityContext.runAsUser"}},
		{"failing-test", check.CodeHookFailed, []string{"failing-test-test"}},
		{"mixed-clean", "", nil},
	}
	f := suite.Feature("wink check judges each chart from what the cluster did", "check", "simnode", "S2", "N4", "A17", "A8", "B1", "B4", "B13", "A5").
		Assess("one chart per finding on the generic platform: each gets its finding, naming the workload and the platform, and no other error", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			var names []string
			for _, w := range want {
				names = append(names, w.chart)
			}
			rep := run(ctx, t, cfg, "check-findings", check.Options{Charts: charts(t, names...), Timeout: 2 * time.Minute})
			for _, w := range want {
				errs, warns, text := codes(rep, w.chart, "generic")
				switch {
				case w.code == "" && len(errs) > 0:
					t.Errorf("%s: error findings %v, want none:\n%s", w.chart, errs, text)
				case w.code != "" && !slices.Contains(errs, w.code):
					t.Errorf("%s: error findings %v, want %s:\n%s", w.chart, errs, w.code, text)
				}
				if w.code == "" && len(w.says) > 0 && len(warns) == 0 {
					t.Errorf("%s: no warning", w.chart)
				}
				for _, s := range w.says {
					if !strings.Contains(text, s) {
						t.Errorf("%s: the findings do not say %q:\n%s", w.chart, s, text)
					}
				}
				suite.Evidence(t, suite.EvidenceObject, "wink check "+w.chart+" on generic", text)
			}
			return ctx
		}).
		Assess("--set and --expect make the tolerate-all DaemonSet's placement a deliberate choice", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			rep := run(ctx, t, cfg, "check-set", check.Options{Charts: charts(t, "linux-agent-tolerates-all"), Set: []string{`nodeSelector.kubernetes\.io/os=linux`}})
			if errs, _, text := codes(rep, "linux-agent-tolerates-all", "generic"); len(errs) > 0 {
				t.Errorf("with --set nodeSelector kubernetes.io/os=linux: findings %v:\n%s", errs, text)
			}
			expect := filepath.Join(t.TempDir(), "expect.yaml")
			if err := os.WriteFile(expect, []byte("apiVersion: wink.dev/v1alpha1\nkind: CheckExpectations\nworkloads:\n- {kind: DaemonSet, name: linux-agent-tolerates-all-logs, allow: [linux-pod-on-windows]}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			rep = run(ctx, t, cfg, "check-expect", check.Options{Charts: charts(t, "linux-agent-tolerates-all"), Expect: expect})
			errs, warns, text := codes(rep, "linux-agent-tolerates-all", "generic")
			if len(errs) > 0 || !slices.Contains(warns, check.CodeLinuxOnWindows) {
				t.Errorf("with --expect allow linux-pod-on-windows: errors %v, warnings %v, want only warnings:\n%s", errs, warns, text)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// TestPlatformMatrix runs the clean chart and the GKE-only DaemonSet on
// every platform, each on a fresh cluster of its profile, side by side.
func TestPlatformMatrix(t *testing.T) {
	f := suite.Feature("wink check on every platform profile: taints differ, a clean chart passes everywhere", "check", "simnode", "N4", "S2", "A22").
		Assess("mixed-clean passes on generic, eks, aks, gke and openshift; windows-agent-gke-toleration fails on eks, generic and openshift and passes on gke and aks", func(ctx context.Context, t *testing.T, _ *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			bin, err := suite.Binary()
			if err != nil {
				t.Fatal(err)
			}
			home := os.Getenv("WINK_HOME")
			if home == "" {
				// Not t.TempDir(): this subtest's long name would put the
				// clusters' egress sockets past a Unix socket path's 107
				// bytes.
				if home, err = os.MkdirTemp("", "wink-check-"); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = os.RemoveAll(home) })
			}
			platforms := check.PlatformNames()
			rep, err := check.Run(ctx, check.Options{
				Charts:    charts(t, "mixed-clean", "windows-agent-gke-toleration"),
				Platforms: platforms, Home: home, Binary: bin, BaseCluster: offline,
				Timeout: 2 * time.Minute, Progress: testWriter{t},
			})
			if err != nil {
				t.Fatal(err)
			}
			for p, e := range rep.PlatformErrors {
				t.Errorf("platform %s: %s", p, e)
			}
			if !slices.Equal(rep.Platforms, platforms) {
				t.Errorf("report platforms %v, want %v", rep.Platforms, platforms)
			}
			for _, p := range platforms {
				errs, _, text := codes(rep, "mixed-clean", p)
				if len(errs) > 0 {
					t.Errorf("mixed-clean on %s: findings %v:\n%s", p, errs, text)
				}
				errs, _, text = codes(rep, "windows-agent-gke-toleration", p)
				shouldFail := p != "gke" && p != "aks" // aks taints no Windows node
				switch {
				case shouldFail && !slices.Contains(errs, check.CodeDaemonSetNoPods):
					t.Errorf("windows-agent-gke-toleration on %s: findings %v, want %s:\n%s", p, errs, check.CodeDaemonSetNoPods, text)
				case shouldFail && !strings.Contains(text, "DaemonSet windows-agent-gke-toleration"):
					t.Errorf("windows-agent-gke-toleration on %s: the finding does not name the DaemonSet:\n%s", p, text)
				case !shouldFail && len(errs) > 0:
					t.Errorf("windows-agent-gke-toleration on %s: findings %v, want none:\n%s", p, errs, text)
				}
				suite.Evidence(t, suite.EvidenceObject, "wink check on "+p, text)
			}
			if !check.Failed(rep) {
				t.Error("check.Failed is false for a report with findings")
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
