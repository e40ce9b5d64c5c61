package harness

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"wink.dev/wink/harness/config"
	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/harness/internal/cluster"
	"wink.dev/wink/harness/internal/embedded"
)

// TestHostAddress: where a cluster's apiserver reaches this machine, by
// backend, read from the state a cluster keeps.
func TestHostAddress(t *testing.T) {
	tests := []struct {
		name, config, state string
		want, wantErr       string
	}{
		{name: "embedded", config: "name: e\n", state: `{"apiServer":6443,"etcdClient":2379,"etcdPeer":2380,"controllerManager":10257,"scheduler":10259,"nodeAddressBase":"172.18.0.2"}`, want: "127.0.0.1"},
		{name: "kind", config: "name: k\nbackend: kind\n", state: `{"nodeAddressBase":"172.19.0.1"}`, want: "172.19.0.1"},
		{name: "existing", config: "name: x\nbackend: existing\nkubeconfig: /k\n", state: `{"nodeAddressBase":"10.0.0.5"}`, want: "10.0.0.5"},
		{name: "kind before Prepare", config: "name: p\nbackend: kind\n", state: `{}`, wantErr: "no node address"},
		{name: "no such cluster", wantErr: "wink up --name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			name := "absent"
			if tt.config != "" {
				cfg, err := config.Parse([]byte("apiVersion: wink.dev/v1alpha1\nkind: Cluster\n"+tt.config), "cluster.yaml")
				if err != nil {
					t.Fatal(err)
				}
				name = cfg.Name
				dir := filepath.Join(home, name)
				if err := os.MkdirAll(dir, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := config.Write(filepath.Join(dir, configFile), cfg); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, stateFile), []byte(tt.state), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			got, err := HostAddress(Options{Name: name, Home: home})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("HostAddress: %q, %v; want an error containing %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("HostAddress: %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// Issue 21: Up ticks the nodes only once every node is Ready; before that
// it shows the count without a tick.
func TestNodesProgress(t *testing.T) {
	for _, tc := range []struct {
		ready, total int
		want         string
	}{
		{0, 4, " … Nodes Ready 0/4 (1.5s)\n"},
		{3, 4, " … Nodes Ready 3/4 (1.5s)\n"},
		{4, 4, " ✓ Nodes Ready 4/4 (1.5s)\n"},
	} {
		if got := nodesProgress("Ready", tc.ready, tc.total, 1500*time.Millisecond); got != tc.want {
			t.Errorf("%d/%d: %q, want %q", tc.ready, tc.total, got, tc.want)
		}
	}
}

// TestReadyNodesPostedSince: `wink up` again (simnode.shards changed, or
// after `wink down`) finds the nodes Ready as the simnode that served them
// left them; Up counts a node once the simnode it started has posted it,
// and, when the supervisor ran before, every Ready node.
func TestReadyNodesPostedSince(t *testing.T) {
	sup := &startedSupervisor{started: time.Now()}
	node := func(name string, heartbeat time.Time) corev1.Node {
		return corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}, Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{
			{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastHeartbeatTime: metav1.NewTime(heartbeat)},
		}}}
	}
	items := []corev1.Node{node("n-0", sup.started.Add(2*time.Second)), node("n-1", sup.started.Add(-time.Minute))}
	want := []string{"n-0", "n-1"}
	if got := readyNodes(items, want, false, sup.since()); got != 1 {
		t.Errorf("with the supervisor Up started: %d Ready, want 1 (n-1 is as the earlier simnode left it)", got)
	}
	var running *startedSupervisor // the supervisor ran before Up
	if got := readyNodes(items, want, false, running.since()); got != 2 {
		t.Errorf("with the supervisor running before: %d Ready, want 2", got)
	}
}

// TestEgressServes: Up of an embedded cluster waits for simnode's egress
// proxy, which a cluster of no node of its own would otherwise not (the
// apiserver reaches the nodes a backend existing adds through it); other
// backends have none.
func TestEgressServes(t *testing.T) {
	dir, err := os.MkdirTemp("", "wink-egress-") // short: a Unix socket path
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	embeddedState := &cluster.State{Dir: dir, Config: &v1alpha1.Cluster{Backend: v1alpha1.BackendEmbedded}}
	if egressServes(embeddedState) {
		t.Error("embedded, no egress socket: serves, want not")
	}
	if !egressServes(&cluster.State{Dir: dir, Config: &v1alpha1.Cluster{Backend: v1alpha1.BackendExisting}}) {
		t.Error("existing: does not serve, want nothing to wait for")
	}
	sock := embedded.EgressSocket(dir)
	if err := os.MkdirAll(filepath.Dir(sock), 0o700); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if !egressServes(embeddedState) {
		t.Error("embedded, egress socket listening: does not serve")
	}
}
