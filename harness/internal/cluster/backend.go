package cluster

import (
	"context"
	"io"
	"time"

	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/harness/internal/supervisor"
)

// Backend is one way to get a control plane: embedded, kind or existing.
//
// The life of a cluster is: Prepare (in `wink up`, before the supervisor
// starts: certificates, a kind cluster), then Components (run by the
// supervisor, which restarts them when they exit), then Delete (in
// `wink delete`, after the supervisor has stopped).
type Backend interface {
	// Prepare makes what must exist before any component starts, and is
	// idempotent: a second call finds the first one's work and reuses it.
	// It returns the admin kubeconfig path of the cluster.
	Prepare(ctx context.Context, st *State, progress io.Writer) (kubeconfig string, err error)
	// Components lists the processes the supervisor runs, in start order.
	Components(st *State) ([]supervisor.Component, error)
	// Delete removes what Prepare made outside the state directory.
	Delete(ctx context.Context, st *State) error
}

// Verifier is a Backend whose clusters can be up with every node Ready
// and still not work (an apiserver that cannot reach the kubelets, say).
// `wink up` runs Verify while it waits: Verify returns nil once the
// cluster works, or an error saying what blocks it as soon as it knows.
// It judges the nodes posted since since (facts.NodeReadySince): when
// `wink up` started simnode, since then; zero when simnode ran before.
type Verifier interface {
	Verify(ctx context.Context, st *State, kubeconfig string, since time.Time) error
}

// State is a cluster's state directory and what was chosen when it was made.
type State struct {
	// Dir is the cluster's state directory: $WINK_HOME/<name>.
	Dir string
	// Config is the defaulted, validated configuration.
	Config *v1alpha1.Cluster
	// Binary is the wink executable the supervisor runs components from.
	Binary string
	// Ports and addresses chosen once, at creation, and kept in state.json.
	Ports Ports
}

// Ports are the listening ports and addresses of one cluster, chosen free at
// creation and reused on every restart so that kubeconfigs stay valid.
type Ports struct {
	APIServer         int    `json:"apiServer"`
	EtcdClient        int    `json:"etcdClient"`
	EtcdPeer          int    `json:"etcdPeer"`
	ControllerManager int    `json:"controllerManager"`
	Scheduler         int    `json:"scheduler"`
	NodeAddressBase   string `json:"nodeAddressBase"`
	// HostAddress is where the cluster's apiserver and pods reach this
	// machine, when that is not NodeAddressBase (kind: the Docker
	// network's gateway, while the nodes have addresses of their own).
	HostAddress string `json:"hostAddress,omitempty"`
	// MetricsServer is metrics-server's secure port (embedded backend;
	// chosen by Prepare when zero, so older state files keep working).
	MetricsServer int `json:"metricsServer,omitempty"`
}
