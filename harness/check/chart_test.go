package check

import (
	"crypto/sha256"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/registry"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
	"helm.sh/helm/v4/pkg/cli"
	"helm.sh/helm/v4/pkg/getter"
	helmregistry "helm.sh/helm/v4/pkg/registry"
	repo "helm.sh/helm/v4/pkg/repo/v1"
)

// helmSettings is a Helm environment of its own under dir, as HELM_*
// variables would give it.
func helmSettings(dir string) *cli.EnvSettings {
	s := cli.New()
	s.RepositoryConfig = filepath.Join(dir, "repositories.yaml")
	s.RepositoryCache = filepath.Join(dir, "repository")
	s.RegistryConfig = filepath.Join(dir, "registry", "config.json")
	s.ContentCache = filepath.Join(dir, "content")
	return s
}

// packaged is testdata/charts/<name> as a .tgz in dir.
func packaged(t *testing.T, name, dir string) string {
	t.Helper()
	ch, err := LocateChart(filepath.Join("testdata", "charts", name), ChartOptions{Settings: helmSettings(t.TempDir())})
	if err != nil {
		t.Fatal(err)
	}
	tgz, err := chartutil.Save(ch, dir)
	if err != nil {
		t.Fatal(err)
	}
	return tgz
}

// TestLocateChart finds a chart each way `helm install` takes one: a
// directory, a .tgz, repo/name of a repository in the user's
// repositories.yaml (a local httptest repository), and oci:// (the
// in-process registry of go-containerregistry), never the internet.
func TestLocateChart(t *testing.T) {
	const name = "mixed-clean"
	tgz := packaged(t, name, t.TempDir())

	// A chart repository: index.yaml and the .tgz.
	repoDir := t.TempDir()
	data, err := os.ReadFile(tgz)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repoDir, filepath.Base(tgz)), data, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(repoDir)))
	defer srv.Close()
	ch, err := LocateChart(tgz, ChartOptions{Settings: helmSettings(t.TempDir())})
	if err != nil {
		t.Fatal(err)
	}
	idx := repo.NewIndexFile()
	if err := idx.MustAdd(ch.Metadata, filepath.Base(tgz), srv.URL, fmt.Sprintf("%x", sha256.Sum256(data))); err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(filepath.Join(repoDir, "index.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	// `helm repo add ours URL`: the entry and the cached index.
	helmHome := t.TempDir()
	settings := helmSettings(helmHome)
	entry := &repo.Entry{Name: "ours", URL: srv.URL}
	rf := repo.NewFile()
	rf.Add(entry)
	if err := rf.WriteFile(settings.RepositoryConfig, 0o644); err != nil {
		t.Fatal(err)
	}
	cr, err := repo.NewChartRepository(entry, getter.All(settings))
	if err != nil {
		t.Fatal(err)
	}
	cr.CachePath = settings.RepositoryCache
	if _, err := cr.DownloadIndexFile(); err != nil {
		t.Fatal(err)
	}

	// An OCI registry holding the chart: `helm push`.
	reg := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	defer reg.Close()
	host := strings.TrimPrefix(reg.URL, "http://")
	rc, err := helmregistry.NewClient(helmregistry.ClientOptPlainHTTP())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rc.Push(data, host+"/charts/"+name+":0.1.0"); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		ref string
		o   ChartOptions
	}{
		{filepath.Join("testdata", "charts", name), ChartOptions{}},
		{tgz, ChartOptions{}},
		{"ours/" + name, ChartOptions{}},
		{"ours/" + name, ChartOptions{Version: "0.1.0"}},
		{"oci://" + host + "/charts/" + name, ChartOptions{Version: "0.1.0", PlainHTTP: true}},
		{"oci://" + host + "/charts/" + name, ChartOptions{PlainHTTP: true}},
	}
	for _, c := range cases {
		t.Run(c.ref, func(t *testing.T) {
			c.o.Settings = settings
			got, err := LocateChart(c.ref, c.o)
			if err != nil {
				t.Fatal(err)
			}
			if got.Metadata.Name != name || len(got.Templates) == 0 {
				t.Errorf("chart %s with %d templates, want %s", got.Metadata.Name, len(got.Templates), name)
			}
		})
	}

	for _, ref := range []string{"./testdata/charts/nope", "ours/nope", "nosuchrepo/x", "oci://" + host + "/charts/nope"} {
		_, err := LocateChart(ref, ChartOptions{Settings: settings, PlainHTTP: true})
		if err == nil || !strings.Contains(err.Error(), "chart "+ref) || !IsMissingChart(err) {
			t.Errorf("LocateChart(%s) = %v, want an error naming it and the fix", ref, err)
		}
	}
}

// TestTemplateCharts renders every test chart for v1.35.4 and finds the
// workloads it is about.
func TestTemplateCharts(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join("testdata", "charts"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) < 10 {
		t.Errorf("%d test charts, want one per finding and a clean one", len(entries))
	}
	for _, e := range entries {
		t.Run(e.Name(), func(t *testing.T) {
			ch, err := LocateChart(filepath.Join("testdata", "charts", e.Name()), ChartOptions{Settings: helmSettings(t.TempDir())})
			if err != nil {
				t.Fatal(err)
			}
			manifest, hooks, err := Template(ch, InstallOptions{Namespace: "default", Release: e.Name()}, "v1.35.4")
			if err != nil {
				t.Fatal(err)
			}
			ws, err := workloadsOf(manifest, hooks, "default")
			if err != nil {
				t.Fatal(err)
			}
			if len(ws) == 0 {
				t.Error("no workload rendered")
			}
			for _, w := range ws {
				if w.Template == nil || w.Namespace != "default" || !strings.HasPrefix(w.Name, e.Name()) {
					t.Errorf("workload %+v", w.Workload)
				}
			}
		})
	}
}
