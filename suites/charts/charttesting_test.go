package charts

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// tools finds ct, helm and kubectl on PATH or in the repository's
// bin/tools (make tools), or skips naming what is missing.
func tools(t *testing.T) (ct string, path string) {
	t.Helper()
	binTools, err := filepath.Abs(filepath.Join("..", "..", "bin", "tools"))
	if err != nil {
		t.Fatal(err)
	}
	path = os.Getenv("PATH") + string(os.PathListSeparator) + binTools
	var missing []string
	for _, name := range []string{"ct", "helm", "kubectl"} {
		found := false
		for _, dir := range filepath.SplitList(path) {
			if st, err := os.Stat(filepath.Join(dir, name)); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
				found = true
				if name == "ct" {
					ct = filepath.Join(dir, name)
				}
				break
			}
		}
		if !found {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		t.Skipf("%s not on PATH nor in bin/tools: `make tools` builds ct and helm into bin/tools; kubectl comes with GitHub's Ubuntu runners, else see kubernetes.io/docs/tasks/tools", strings.Join(missing, ", "))
	}
	return ct, path
}

// kubeconfig is the cluster's kubeconfig as a user gets it: `wink
// kubeconfig --name N` for a cluster wink brought up, else the one given.
func kubeconfig(ctx context.Context, t *testing.T, cfg *envconf.Config) string {
	t.Helper()
	if cluster.Name == "" || cluster.Options.Binary == "" {
		return cfg.KubeconfigFile()
	}
	cmd := exec.CommandContext(ctx, cluster.Options.Binary, "kubeconfig", "--name", cluster.Name)
	cmd.Env = append(os.Environ(), "WINK_HOME="+cluster.Options.Home)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("wink kubeconfig --name %s: %v", cluster.Name, err)
	}
	return strings.TrimSpace(string(out))
}

// chartRepo makes a git repository with the corpus case's chart in
// charts/<name>, as a chart repository lays its charts out.
func chartRepo(t *testing.T, name string) string {
	t.Helper()
	repo := t.TempDir()
	if err := os.CopyFS(filepath.Join(repo, "charts", name), os.DirFS(filepath.Join("testdata", name, "chart"))); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("git"); err == nil {
		cmd := exec.Command("git", "init", "-q", "-b", "main", repo)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git init: %v: %s", err, out)
		}
	}
	return repo
}

// TestChartTesting runs chart-testing against wink, the other way in than
// wink check: `KUBECONFIG="$(wink kubeconfig)" ct install` on the corpus's
// clean mixed chart (testdata/windows-hello). ct has no --kubeconfig flag;
// it runs helm and kubectl, which read $KUBECONFIG. It creates a namespace,
// runs `helm install --wait` once per ci/*-values.yaml file, then `helm
// test`, then deletes the release and the namespace.
func TestChartTesting(t *testing.T) {
	f := suite.Feature("ct install installs and tests a mixed chart on wink", "charts", "any", "A22", "S1", "S2").
		Assess("ct install passes: helm install --wait, helm test, clean-up", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			ct, path := tools(t)
			kc := kubeconfig(ctx, t, cfg)
			repo := chartRepo(t, "windows-hello")
			helmHome := t.TempDir()
			runCtx, cancel := context.WithTimeout(ctx, 6*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(runCtx, ct, "install", "--charts", "charts/windows-hello", "--helm-extra-args", "--timeout 180s")
			cmd.Dir = repo
			cmd.Env = append(os.Environ(), "PATH="+path, "KUBECONFIG="+kc,
				"HELM_CACHE_HOME="+filepath.Join(helmHome, "cache"), "HELM_CONFIG_HOME="+filepath.Join(helmHome, "config"), "HELM_DATA_HOME="+filepath.Join(helmHome, "data"))
			out, err := cmd.CombinedOutput()
			suite.Evidence(t, "log", "KUBECONFIG=$(wink kubeconfig) ct install --charts charts/windows-hello", string(out))
			if err != nil {
				t.Fatalf("[A22, S2] ct install: %v\n%s", err, out)
			}
			for _, want := range []string{"windows-hello => (version: \"0.1.0\"", "All charts installed successfully"} {
				if !strings.Contains(string(out), want) {
					t.Errorf("[A22, S2] ct install's output lacks %q:\n%s", want, out)
				}
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
