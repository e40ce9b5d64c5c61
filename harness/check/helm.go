package check

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"time"

	"helm.sh/helm/v4/pkg/action"
	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/chart/loader/archive"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/cli"
	"helm.sh/helm/v4/pkg/cli/values"
	"helm.sh/helm/v4/pkg/getter"
	"helm.sh/helm/v4/pkg/kube"
	"helm.sh/helm/v4/pkg/registry"
	release "helm.sh/helm/v4/pkg/release/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
)

// Helm is used through its Go SDK, helm.sh/helm/v4 (see suites/charts'
// doc.go for why v4.1.4): the same actions `helm install`, `helm test` and
// `helm uninstall` run.

// LoadChartFS loads the chart in dir of fsys, as `helm install <dir>` would.
func LoadChartFS(fsys fs.FS, dir string) (*chart.Chart, error) {
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

// ChartOptions say where charts come from.
type ChartOptions struct {
	// Version of a repo/name or oci:// chart (helm's --version); empty:
	// the newest.
	Version string
	// PlainHTTP talks to OCI registries over HTTP (helm's --plain-http).
	PlainHTTP bool
	// Settings are Helm's environment (HELM_REPOSITORY_CONFIG,
	// HELM_REPOSITORY_CACHE, HELM_REGISTRY_CONFIG, ...); nil: cli.New(),
	// read from the environment as the helm command reads it.
	Settings *cli.EnvSettings
}

// LocateChart finds and loads a chart as `helm install NAME CHART` does:
// a directory, a packaged .tgz, repo/name from the repositories Helm knows
// (repositories.yaml and the index cache), or an oci:// reference through
// Helm's registry client (credentials from its registry config).
func LocateChart(ref string, o ChartOptions) (*chart.Chart, error) {
	settings := o.Settings
	if settings == nil {
		settings = cli.New()
	}
	pathOpts := action.ChartPathOptions{Version: o.Version, PlainHTTP: o.PlainHTTP}
	in := action.NewInstall(action.NewConfiguration(action.ConfigurationSetLogger(slog.DiscardHandler)))
	in.ChartPathOptions = pathOpts
	if registry.IsOCI(ref) {
		opts := []registry.ClientOption{
			registry.ClientOptWriter(io.Discard),
			registry.ClientOptCredentialsFile(settings.RegistryConfig),
		}
		if o.PlainHTTP {
			opts = append(opts, registry.ClientOptPlainHTTP())
		}
		rc, err := registry.NewClient(opts...)
		if err != nil {
			return nil, fmt.Errorf("chart %s: registry client: %w", ref, err)
		}
		in.SetRegistryClient(rc)
	}
	path, err := in.LocateChart(ref, settings)
	if err != nil {
		return nil, fmt.Errorf("chart %s: %w; give a chart directory, a .tgz, repo/name of a repository `helm repo add` knows, or an oci:// reference", ref, err)
	}
	ch, err := loader.Load(path)
	if err != nil {
		return nil, fmt.Errorf("chart %s: %w", ref, err)
	}
	return ch, nil
}

// Values merges values files and --set values as `helm install -f F --set
// k=v` does.
func Values(files, set []string) (map[string]any, error) {
	o := values.Options{ValueFiles: files, Values: set}
	v, err := o.MergeValues(getter.All(cli.New()))
	if err != nil {
		return nil, fmt.Errorf("values: %w", err)
	}
	return v, nil
}

// InstallOptions say how to install a chart.
type InstallOptions struct {
	// Kubeconfig of the cluster.
	Kubeconfig string
	Namespace  string
	Release    string
	Values     map[string]any
	// Timeout bounds the wait for hooks (helm's --timeout).
	Timeout time.Duration
}

func (o InstallOptions) configuration() (*action.Configuration, error) {
	getter := genericclioptions.NewConfigFlags(false)
	kc, ns := o.Kubeconfig, o.Namespace
	getter.KubeConfig, getter.Namespace = &kc, &ns
	cfg := action.NewConfiguration(action.ConfigurationSetLogger(slog.DiscardHandler))
	if err := cfg.Init(getter, ns, "secret"); err != nil {
		return nil, err
	}
	return cfg, nil
}

// Install runs `helm install RELEASE CHART -n NS --timeout T`: the
// kubeVersion check against the apiserver's /version, crds/ first, hooks
// by weight with their delete policies, the release stored as a Secret.
// Helm waits for hook Jobs and Pods (they must complete), not for the
// workloads, whose state the caller judges itself.
func Install(ctx context.Context, o InstallOptions, ch *chart.Chart) (*release.Release, error) {
	cfg, err := o.configuration()
	if err != nil {
		return nil, err
	}
	in := action.NewInstall(cfg)
	in.ReleaseName, in.Namespace = o.Release, o.Namespace
	in.Timeout = o.Timeout
	in.WaitStrategy = kube.HookOnlyStrategy
	rel, err := in.RunWithContext(ctx, ch, o.Values)
	r, _ := rel.(*release.Release)
	return r, err
}

// Test runs `helm test RELEASE`: the release's test hooks, each waited
// for.
func Test(ctx context.Context, o InstallOptions) error {
	cfg, err := o.configuration()
	if err != nil {
		return err
	}
	t := action.NewReleaseTesting(cfg)
	t.Namespace, t.Timeout = o.Namespace, o.Timeout
	done := make(chan error, 1)
	go func() {
		_, shutdown, err := t.Run(o.Release)
		if shutdown != nil {
			_ = shutdown()
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Uninstall runs `helm uninstall RELEASE`.
func Uninstall(o InstallOptions) error {
	cfg, err := o.configuration()
	if err != nil {
		return err
	}
	u := action.NewUninstall(cfg)
	u.Timeout = o.Timeout
	u.WaitStrategy = kube.HookOnlyStrategy
	_, err = u.Run(o.Release)
	return err
}

// Template renders a chart client-side for kubeVersion (e.g. v1.35.4), as
// `helm template --kube-version` does, and returns the release manifest
// (CRDs included) and its hooks (tests included).
func Template(ch *chart.Chart, o InstallOptions, kubeVersion string) (manifest string, hooks []*release.Hook, err error) {
	kv, err := common.ParseKubeVersion(kubeVersion)
	if err != nil {
		return "", nil, err
	}
	in := action.NewInstall(action.NewConfiguration(action.ConfigurationSetLogger(slog.DiscardHandler)))
	in.ReleaseName, in.Namespace = o.Release, o.Namespace
	in.DryRunStrategy = action.DryRunClient
	in.Replace, in.IncludeCRDs = true, true
	in.KubeVersion = kv
	rel, err := in.Run(ch, o.Values)
	if err != nil {
		return "", nil, err
	}
	r, ok := rel.(*release.Release)
	if !ok {
		return "", nil, fmt.Errorf("helm returned a %T, not a v1 release", rel)
	}
	return r.Manifest, r.Hooks, nil
}

// IsMissingChart reports whether err says a chart could not be found or
// read (a usage error of `wink check`).
func IsMissingChart(err error) bool {
	return err != nil && (errors.Is(err, os.ErrNotExist) || strings.Contains(err.Error(), "give a chart directory"))
}
