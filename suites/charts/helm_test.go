package charts

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"strings"
	"time"

	"helm.sh/helm/v4/pkg/action"
	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/chart/loader/archive"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/kube"
	release "helm.sh/helm/v4/pkg/release/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
)

// releaseName is every corpus chart's release name (each in a namespace of
// its own).
const releaseName = "corpus"

// loadChart loads the chart in dir of fsys, as `helm install <dir>` would.
func loadChart(fsys fs.FS, dir string) (*chart.Chart, error) {
	var files []*archive.BufferedFile
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		files = append(files, &archive.BufferedFile{Name: strings.TrimPrefix(p, dir+"/"), Data: data})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return loader.LoadFiles(files)
}

// helmInstall runs `helm install corpus <chart> -n ns --timeout 90s`
// against the cluster of kubeconfig: Helm waits for hook Jobs (they must
// complete for the install to succeed), not for the workloads, whose state
// the suite checks itself.
func helmInstall(ctx context.Context, kubeconfig, ns string, ch *chart.Chart) error {
	getter := genericclioptions.NewConfigFlags(false)
	getter.KubeConfig, getter.Namespace = &kubeconfig, &ns
	cfg := action.NewConfiguration(action.ConfigurationSetLogger(slog.DiscardHandler))
	if err := cfg.Init(getter, ns, "secret"); err != nil {
		return err
	}
	in := action.NewInstall(cfg)
	in.ReleaseName, in.Namespace = releaseName, ns
	in.Timeout = 90 * time.Second
	in.WaitStrategy = kube.HookOnlyStrategy
	_, err := in.RunWithContext(ctx, ch, nil)
	return err
}

// helmTemplate renders a chart client-side for Kubernetes v1.35.4, as
// `helm template --kube-version v1.35.4` does: the corpus's own check,
// independent of what the cluster reports.
func helmTemplate(ch *chart.Chart) (string, error) {
	kv, err := common.ParseKubeVersion("v1.35.4")
	if err != nil {
		return "", err
	}
	in := action.NewInstall(action.NewConfiguration(action.ConfigurationSetLogger(slog.DiscardHandler)))
	in.ReleaseName, in.Namespace = releaseName, "default"
	in.DryRunStrategy = action.DryRunClient
	in.Replace, in.IncludeCRDs = true, true
	in.KubeVersion = kv
	rel, err := in.Run(ch, nil)
	if err != nil {
		return "", err
	}
	r, ok := rel.(*release.Release)
	if !ok {
		return "", fmt.Errorf("helm returned a %T, not a v1 release", rel)
	}
	// Hooks are not in the release manifest; `helm template` prints them too.
	manifest := r.Manifest
	for _, h := range r.Hooks {
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
