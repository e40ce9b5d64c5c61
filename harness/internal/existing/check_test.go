package existing

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// TestReachWaitsForTheNodesServer: `wink up` again (simnode.shards
// re-partitioned, or simnode restarted) finds every node still Ready, as
// the simnode that served it last posted it, at the address and port of
// that simnode's kubelet API, which is gone. Verify asks a node's kubelet
// API only once the simnode of this `wink up` has posted the node (its
// Ready heartbeat is at or after since): however long that simnode takes
// to boot its nodes, the node is not unreachable meanwhile, it is not
// served yet; and once posted, it is reached.
func TestReachWaitsForTheNodesServer(t *testing.T) {
	var served, early atomic.Bool
	client := nodeProxy(t, &served, &early)
	since := time.Now()
	ctx := context.Background()
	pending := map[string]bool{"n-3": true}
	failing := map[string]time.Time{}
	// As the earlier simnode left it: Ready, posted a minute ago.
	stale := []corev1.Node{readyNode(since.Add(-time.Minute), 10253)}
	if err := reach(ctx, client, stale, since, pending, failing); err != nil {
		t.Fatal(err)
	}
	// verifyGrace later the new simnode still boots its nodes (a busy
	// machine): the node has not been posted again.
	for n, first := range failing {
		failing[n] = first.Add(-verifyGrace)
	}
	if err := reach(ctx, client, stale, since, pending, failing); err != nil {
		t.Fatalf("a node not yet served by the new simnode is judged unreachable: %v", err)
	}
	if early.Load() {
		t.Error("the node's kubelet API was asked before the new simnode posted the node")
	}
	// The new simnode posts the node, with its own kubelet port, and
	// serves it.
	served.Store(true)
	if err := reach(ctx, client, []corev1.Node{readyNode(time.Now(), 10263)}, since, pending, failing); err != nil {
		t.Fatal(err)
	}
	if pending["n-3"] {
		t.Error("the node, posted and served, was not reached")
	}
}

// TestReachSaysUnreachable: a node the simnode of this `wink up` has
// posted, whose kubelet API the apiserver does not reach, is said once it
// has failed for verifyGrace.
func TestReachSaysUnreachable(t *testing.T) {
	var served, asked atomic.Bool
	client := nodeProxy(t, &served, &asked)
	since := time.Now()
	ctx := context.Background()
	pending := map[string]bool{"n-3": true}
	failing := map[string]time.Time{}
	posted := []corev1.Node{readyNode(time.Now(), 10253)}
	if err := reach(ctx, client, posted, since, pending, failing); err != nil {
		t.Fatal(err)
	}
	for n, first := range failing {
		failing[n] = first.Add(-verifyGrace)
	}
	err := reach(ctx, client, posted, since, pending, failing)
	if err == nil || !strings.Contains(err.Error(), "cannot reach the kubelet API of node n-3 at 192.0.2.2:10253") {
		t.Errorf("a posted node unreachable for verifyGrace: %v, want it said", err)
	}
}

// readyNode is node n-3, Ready with heartbeat, its kubelet API at 192.0.2.2 on
// port.
func readyNode(heartbeat time.Time, port int32) corev1.Node {
	return corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: "n-3"},
		Status: corev1.NodeStatus{
			Conditions:      []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastHeartbeatTime: metav1.NewTime(heartbeat)}},
			Addresses:       []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "192.0.2.2"}},
			DaemonEndpoints: corev1.NodeDaemonEndpoints{KubeletEndpoint: corev1.DaemonEndpoint{Port: port}},
		},
	}
}

// nodeProxy is a client of an apiserver stand-in whose node proxy reaches
// n-3's kubelet API once served is set, and answers as the apiserver does
// when nothing listens at the node's address before; asked records a
// request then.
func nodeProxy(t *testing.T, served, asked *atomic.Bool) kubernetes.Interface {
	t.Helper()
	apiserver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/nodes/n-3/proxy/healthz" {
			http.NotFound(w, r)
			return
		}
		if !served.Load() {
			asked.Store(true)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"error trying to reach service: dial tcp 192.0.2.2:10253: connect: connection refused","reason":"ServiceUnavailable","code":503}`))
			return
		}
		_, _ = w.Write([]byte("ok"))
	}))
	t.Cleanup(apiserver.Close)
	client, err := kubernetes.NewForConfig(&rest.Config{Host: apiserver.URL})
	if err != nil {
		t.Fatal(err)
	}
	return client
}
