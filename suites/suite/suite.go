package suite

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/e2e-framework/pkg/env"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
	"sigs.k8s.io/e2e-framework/pkg/features"

	"wink.dev/wink/harness"
	winkconfig "wink.dev/wink/harness/config"
	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/simnode/facts"
)

// Labels every feature carries.
const (
	// LabelRow is a row ID of the behaviour catalog (simnode/facts); a
	// feature carries one label per row it checks.
	LabelRow = "row"
	// LabelArea is the suite's area (nodes, scheduling, lifecycle, ...).
	LabelArea = "area"
	// LabelNeeds is "simnode" for features that hold only on wink's
	// simulated nodes, "any" for those that hold on any conformant cluster
	// with Windows nodes.
	LabelNeeds = "needs"
)

// Feature starts a feature of area that checks rows, each a row of the
// behaviour catalog. Its name must not contain "/": go test joins a
// subtest's name to its parent's with "/", and the reports would read the
// rest as a subtest of a feature that never ran.
func Feature(name, area, needs string, rows ...string) *features.FeatureBuilder {
	if strings.Contains(name, "/") {
		panic(fmt.Sprintf("suite.Feature(%q): a feature name must not contain \"/\" (go test's subtest separator)", name))
	}
	if err := facts.CheckCites(rows); err != nil {
		panic(fmt.Sprintf("suite.Feature(%q): %v", name, err))
	}
	b := features.New(name).WithLabel(LabelArea, area).WithLabel(LabelNeeds, needs)
	for _, r := range rows {
		b = b.WithLabel(LabelRow, r)
	}
	// The first step logs the labels for reports (see evidence.go).
	labels := LabelsLine{Feature: name, Rows: rows, Area: area, Needs: needs}
	return b.Setup(func(ctx context.Context, t *testing.T, _ *envconf.Config) context.Context {
		logLabels(t, labels)
		return ctx
	})
}

// Cluster is what a suite knows of the cluster it runs against.
type Cluster struct {
	// Name is the wink cluster name ("" when --kubeconfig was given).
	Name string
	// Options reach the wink cluster through the harness.
	Options harness.Options
	// Simulated is true when wink brought the cluster up.
	Simulated bool
}

// Setup returns the environment of one suite package. Without --kubeconfig it
// brings up a fresh embedded cluster named wink-<area> from config (nil for
// the default cluster) before the features run, and deletes it after.
func Setup(area string, config *v1alpha1.Cluster) (env.Environment, *Cluster) {
	cfg, err := envconf.NewFromFlags()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	testenv := env.NewWithConfig(cfg)
	c := &Cluster{}
	if cfg.KubeconfigFile() != "" {
		// A wink cluster given by kubeconfig (`wink test --name`): its
		// simulated nodes can be inspected through the harness.
		if name := os.Getenv(harness.ClusterEnv); name != "" {
			c.Name, c.Simulated = name, true
			c.Options = harness.Options{Name: name, Home: os.Getenv("WINK_HOME")}
		}
		return testenv, c
	}
	c.Name, c.Simulated = "wink-"+area, true
	testenv.Setup(func(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
		bin, err := Binary()
		if err != nil {
			return ctx, err
		}
		home := os.Getenv("WINK_HOME")
		if home == "" {
			if home, err = os.MkdirTemp("", "wink-suite-"); err != nil {
				return ctx, err
			}
		}
		c.Options = harness.Options{Name: c.Name, Home: home, Binary: bin, Progress: os.Stderr}
		cluster, err := offline(config)
		if err != nil {
			return ctx, err
		}
		up, err := harness.Up(ctx, harness.UpOptions{Options: c.Options, Config: cluster, Fresh: true, Wait: 2 * time.Minute, Schedulable: true})
		if err == nil {
			cfg.WithKubeconfigFile(up.Kubeconfig)
			err = waitClusterDNS(ctx, up.Kubeconfig)
		}
		return ctx, HarnessProblem(err)
	})
	testenv.Finish(func(ctx context.Context, _ *envconf.Config) (context.Context, error) {
		if os.Getenv("WINK_KEEP") != "" {
			fmt.Fprintf(os.Stderr, "WINK_KEEP is set: cluster %s left running under %s\n", c.Name, c.Options.Home)
			return ctx, nil
		}
		return ctx, harness.Delete(ctx, c.Options)
	})
	return testenv, c
}

// HarnessProblem says, on the suite's output, that err (if not nil) kept
// its cluster from coming up before the tests, and returns it: the reports
// then name a harness problem and its cause rather than failed tests. An
// environment Setup step that brings a cluster up returns its error
// through it.
func HarnessProblem(err error) error {
	if err != nil {
		first, _, _ := strings.Cut(err.Error(), "\n")
		fmt.Fprintln(os.Stderr, facts.HarnessPrefix+first)
	}
	return err
}

// offline is config (nil: the default cluster) with images.resolve:
// offline. A suite never depends on the internet: what it knows of an image
// is the catalog's (fixtures/images.yaml) and the cache's, or a registry it
// serves itself.
func offline(config *v1alpha1.Cluster) (*v1alpha1.Cluster, error) {
	if config == nil {
		var err error
		if config, err = winkconfig.Load(""); err != nil {
			return nil, err
		}
	}
	c := *config
	c.Images.Resolve = v1alpha1.ImageResolveOffline
	return &c, nil
}

// Binary finds the wink binary the cluster runs from: $WINK_BINARY (what
// `make test` sets), else a fresh `go build` of ./cmd/wink from this module,
// announced on stderr because it takes minutes when the build cache is cold.
func Binary() (string, error) {
	if bin := os.Getenv("WINK_BINARY"); bin != "" {
		return bin, nil
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "wink-bin-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "wink")
	fmt.Fprintf(os.Stderr, "WINK_BINARY is not set: building %s from %s (set WINK_BINARY or run `make test` to skip this)\n", bin, root)
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/wink")
	cmd.Dir, cmd.Stdout, cmd.Stderr = root, os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building wink: %w", err)
	}
	return bin, nil
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.Contains(string(data), "module wink.dev/wink") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("not inside the wink module: set WINK_BINARY to a wink binary")
		}
		dir = parent
	}
}

// SkipUnlessSimulated skips a feature that needs wink's own nodes when the
// suite runs against a cluster given by --kubeconfig.
func (c *Cluster) SkipUnlessSimulated(t *testing.T) {
	t.Helper()
	if !c.Simulated {
		t.Skip("needs wink's simulated nodes: the cluster was given by --kubeconfig")
	}
}

// waitClusterDNS waits until kube-dns has a ready endpoint, so that the first
// feature's lookups do not race CoreDNS's start (as on any new cluster).
func waitClusterDNS(ctx context.Context, kubeconfig string) error {
	rc, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	cs, err := kubernetes.NewForConfig(rc)
	if err != nil {
		return err
	}
	err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
		slices, err := cs.DiscoveryV1().EndpointSlices("kube-system").List(ctx, metav1.ListOptions{LabelSelector: "kubernetes.io/service-name=kube-dns"})
		if err != nil {
			return false, nil
		}
		for _, s := range slices.Items {
			for _, e := range s.Endpoints {
				if e.Conditions.Ready != nil && *e.Conditions.Ready {
					return true, nil
				}
			}
		}
		return false, nil
	})
	if err != nil {
		return fmt.Errorf("kube-dns has no ready endpoint: %w", err)
	}
	return nil
}
