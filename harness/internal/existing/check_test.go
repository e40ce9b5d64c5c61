package existing

import (
	"context"
	"net/http"
	"net/http/httptest"
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
	apiserver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/nodes/n-3/proxy/healthz" {
			http.NotFound(w, r)
			return
		}
		if !served.Load() {
			// The apiserver's answer when nothing listens at the
			// node's address and port.
			early.Store(true)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"error trying to reach service: dial tcp 192.0.2.2:10253: connect: connection refused","reason":"ServiceUnavailable","code":503}`))
			return
		}
		_, _ = w.Write([]byte("ok"))
	}))
	defer apiserver.Close()
	client, err := kubernetes.NewForConfig(&rest.Config{Host: apiserver.URL})
	if err != nil {
		t.Fatal(err)
	}
	since := time.Now()
	node := func(heartbeat time.Time, port int32) corev1.Node {
		return corev1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: "n-3"},
			Status: corev1.NodeStatus{
				Conditions:      []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastHeartbeatTime: metav1.NewTime(heartbeat)}},
				Addresses:       []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "192.0.2.2"}},
				DaemonEndpoints: corev1.NodeDaemonEndpoints{KubeletEndpoint: corev1.DaemonEndpoint{Port: port}},
			},
		}
	}
	ctx := context.Background()
	pending := map[string]bool{"n-3": true}
	failing := map[string]time.Time{}
	// As the earlier simnode left it: Ready, posted a minute ago.
	stale := []corev1.Node{node(since.Add(-time.Minute), 10253)}
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
	if err := reach(ctx, client, []corev1.Node{node(time.Now(), 10263)}, since, pending, failing); err != nil {
		t.Fatal(err)
	}
	if pending["n-3"] {
		t.Error("the node, posted and served, was not reached")
	}
}
