package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"wink.dev/wink/harness/config"
	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/harness/internal/cluster"
	"wink.dev/wink/harness/internal/embedded"
	"wink.dev/wink/harness/internal/existing"
	"wink.dev/wink/harness/internal/kindcluster"
)

// KubernetesVersion is the version of the embedded control plane.
const KubernetesVersion = embedded.Version

// EmbeddedSchedulers are the profiles (scheduler names) of the embedded
// kube-scheduler: default-scheduler, and wink-scheduler for certifying the
// scheduling suite against a scheduler of another name.
var EmbeddedSchedulers = []string{embedded.DefaultSchedulerProfile, embedded.SecondSchedulerProfile}

// ClusterEnv names the wink cluster a kubeconfig given to the suites belongs
// to (`wink test --name` sets it), so that features needing wink's simulated
// nodes run against it instead of skipping.
const ClusterEnv = "WINK_CLUSTER"

// DefaultName is the cluster name when neither --name nor the config gives one.
const DefaultName = "wink"

// Options select a cluster and say how to reach it. The zero value selects
// the default cluster under the default home.
type Options struct {
	// Name of the cluster (--name). Default: the config's name, else "wink".
	Name string
	// Home is the directory holding every cluster's state directory.
	// Default: $WINK_HOME, else ~/.wink.
	Home string
	// Binary is the wink executable the supervisor and components run
	// from. Default: the running executable.
	Binary string
	// Progress receives the human-readable progress of Up and Down.
	Progress io.Writer
}

// withDefaults checks the options (see validate) and fills in the
// defaults; every call of the package starts with it, before it touches
// disk.
func (o Options) withDefaults() (Options, error) {
	if err := o.validate(); err != nil {
		return o, err
	}
	if o.Home == "" {
		o.Home = os.Getenv("WINK_HOME")
	}
	if o.Home == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return o, fmt.Errorf("no state directory: set WINK_HOME: %w", err)
		}
		o.Home = filepath.Join(home, ".wink")
	}
	home, err := filepath.Abs(o.Home)
	if err != nil {
		return o, err
	}
	o.Home = home
	if o.Binary == "" {
		exe, err := os.Executable()
		if err != nil {
			return o, err
		}
		o.Binary = exe
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	return o, nil
}

// dir is the state directory of the named cluster.
func (o Options) dir(name string) string { return filepath.Join(o.Home, name) }

func (o Options) name() string {
	if o.Name != "" {
		return o.Name
	}
	return DefaultName
}

// File names inside a cluster's state directory.
const (
	configFile = "cluster.yaml"
	stateFile  = cluster.StateFile
	runDir     = "run"
	logDir     = "logs"
)

// loadState reads a cluster's saved configuration and ports.
func loadState(o Options, name string) (*cluster.State, error) {
	dir := o.dir(name)
	cfgPath := filepath.Join(dir, configFile)
	if _, err := os.Stat(cfgPath); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no cluster %q under %s: create it with `wink up --name %s`", name, o.Home, name)
	}
	cfg, err := config.Load(cfgPath)
	if err != nil {
		return nil, err
	}
	st := &cluster.State{Dir: dir, Config: cfg, Binary: o.Binary}
	data, err := os.ReadFile(filepath.Join(dir, stateFile))
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, stateFile)
	if err := json.Unmarshal(data, &st.Ports); err != nil {
		return nil, fmt.Errorf("%s: %w; restore it, or make the cluster again with `wink up --name %s --fresh` (its etcd data is lost)", path, err, name)
	}
	if err := validateState(path, name, cfg.Backend, st.Ports); err != nil {
		return nil, err
	}
	return st, nil
}

func saveState(st *cluster.State) error {
	data, err := json.MarshalIndent(st.Ports, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(st.Dir, stateFile), data, 0o600)
}

// backendFor returns the backend a configuration asks for.
func backendFor(cfg *v1alpha1.Cluster) (cluster.Backend, error) {
	switch cfg.Backend {
	case v1alpha1.BackendEmbedded:
		return embedded.Backend{}, nil
	case v1alpha1.BackendKind:
		return &kindcluster.Backend{}, nil
	case v1alpha1.BackendExisting:
		return &existing.Backend{}, nil
	}
	return nil, fmt.Errorf("backend %q: supported backends are embedded, kind and existing", cfg.Backend)
}
