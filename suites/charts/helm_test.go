package charts

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"time"

	chart "helm.sh/helm/v4/pkg/chart/v2"

	"wink.dev/wink/harness/check"
)

// releaseName is every corpus chart's release name (each in a namespace of
// its own).
const releaseName = "corpus"

// loadChart loads the chart in dir of fsys, as `helm install <dir>` would.
func loadChart(fsys fs.FS, dir string) (*chart.Chart, error) { return check.LoadChartFS(fsys, dir) }

// helmInstall runs `helm install corpus <chart> -n ns --timeout 90s`
// against the cluster of kubeconfig (harness/check's Install, the one
// `wink check` runs): Helm waits for hook Jobs (they must complete for the
// install to succeed), not for the workloads, whose state the suite checks
// itself.
func helmInstall(ctx context.Context, kubeconfig, ns string, ch *chart.Chart) error {
	_, err := check.Install(ctx, check.InstallOptions{Kubeconfig: kubeconfig, Namespace: ns, Release: releaseName, Timeout: 90 * time.Second}, ch)
	return err
}

// helmTemplate renders a chart client-side for Kubernetes v1.35.4, as
// `helm template --kube-version v1.35.4` does: the corpus's own check,
// independent of what the cluster reports.
func helmTemplate(ch *chart.Chart) (string, error) {
	manifest, hooks, err := check.Template(ch, check.InstallOptions{Namespace: "default", Release: releaseName}, "v1.35.4")
	if err != nil {
		return "", err
	}
	// Hooks are not in the release manifest; `helm template` prints them too.
	for _, h := range hooks {
		manifest += "\n---\n" + h.Manifest
	}
	return manifest, nil
}

// caseDirs are the corpus cases: the directories of testdata with a chart.
func caseDirs(fsys fs.FS) ([]string, error) {
	entries, err := fs.ReadDir(fsys, "testdata")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := fs.Stat(fsys, path.Join("testdata", e.Name(), "chart", "Chart.yaml")); err != nil {
			return nil, fmt.Errorf("testdata/%s: no chart/Chart.yaml: %w", e.Name(), err)
		}
		out = append(out, e.Name())
	}
	return out, nil
}
