package nodes

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/virtual-kubelet/virtual-kubelet/node"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"wink.dev/wink/simnode/config"
	"wink.dev/wink/simnode/rules"
)

// TestStatusKeepsClientExtendedResources: through virtual-kubelet's node
// controller, the node's status updates keep the extended resources a
// client patched into node status and give them allocatable, as a
// kubelet's do (k8s.io/kubernetes@v1.35.4 pkg/kubelet/nodestatus/
// setters.go MachineInfo: allocatable is set for every key of the capacity
// it finds on the node). Upstream's SchedulerPreemption specs patch
// scheduling.k8s.io/foo in this way (row N5; issue 21).
func TestStatusKeepsClientExtendedResources(t *testing.T) {
	n, info, err := Build(rules.Default(), Spec{ClusterName: "c", Pool: config.Pool{Name: "p", OS: "windows"}, InternalIP: net.ParseIP("127.0.0.2"), DefaultKubeletVersion: "v1.35.0"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	client := fake.NewSimpleClientset()
	patched := make(chan struct{}, 16)
	client.PrependReactor("patch", "nodes", func(k8stesting.Action) (bool, runtime.Object, error) {
		patched <- struct{}{}
		return false, nil, nil
	})
	p := NewProvider(n)
	nc, err := node.NewNodeController(p, n, client.CoreV1().Nodes(), node.WithNodeStatusUpdateInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = nc.Run(ctx) }()
	select {
	case <-nc.Ready():
	case <-nc.Done():
		t.Fatalf("node controller: %v", nc.Err())
	}
	for len(patched) > 0 {
		<-patched
	}

	// A client advertises an extended resource in capacity alone
	// (kubernetes.io docs, "Advertise Extended Resources for a Node"):
	// the node's next status update sets its allocatable.
	const foo = corev1.ResourceName("scheduling.k8s.io/foo")
	const dongle = corev1.ResourceName("example.com/dongle")
	patchStatus := func(body string) *corev1.Node {
		t.Helper()
		if _, err := client.CoreV1().Nodes().Patch(ctx, n.Name, types.StrategicMergePatchType, []byte(body), metav1.PatchOptions{}, "status"); err != nil {
			t.Fatal(err)
		}
		<-patched
		server, err := client.CoreV1().Nodes().Get(ctx, n.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return server
	}
	awaitPush := func() *corev1.Node {
		t.Helper()
		select {
		case <-patched:
		case <-nc.Done():
			t.Fatalf("node controller: %v", nc.Err())
		}
		got, err := client.CoreV1().Nodes().Get(ctx, n.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	server := patchStatus(`{"status":{"capacity":{"example.com/dongle":"4"}}}`)
	p.Update(func(own *corev1.Node) { SyncClientAllocatable(own, server) })
	got := awaitPush()
	if c, a := got.Status.Capacity[dongle], got.Status.Allocatable[dongle]; c.String() != "4" || a.String() != "4" {
		t.Errorf("after the node's status update: capacity[%s]=%s allocatable[%s]=%s, want 4 and 4", dongle, c.String(), dongle, a.String())
	}

	// e2enode.AddExtendedResource's patch (capacity and allocatable), then
	// a status change of the node's own (MemoryPressure): both stay.
	patchStatus(`{"status":{"capacity":{"scheduling.k8s.io/foo":"10"},"allocatable":{"scheduling.k8s.io/foo":"10"}}}`)
	p.Update(func(n *corev1.Node) {
		SetMemoryPressure(n, rules.Default(), info.Conditions, true, time.Now())
	})
	got = awaitPush()
	pushed := false
	for _, c := range got.Status.Conditions {
		pushed = pushed || c.Type == corev1.NodeMemoryPressure && c.Status == corev1.ConditionTrue
	}
	if !pushed {
		t.Fatal("the node's MemoryPressure=True was not pushed")
	}
	for _, k := range []corev1.ResourceName{foo, dongle} {
		want := map[corev1.ResourceName]string{foo: "10", dongle: "4"}[k]
		if c, a := got.Status.Capacity[k], got.Status.Allocatable[k]; c.String() != want || a.String() != want {
			t.Errorf("after the node's status push: capacity[%s]=%s allocatable[%s]=%s, want %s and %s", k, c.String(), k, a.String(), want, want)
		}
	}
	if got.Status.Allocatable.Memory().Cmp(*n.Status.Allocatable.Memory()) != 0 {
		t.Errorf("allocatable memory = %s, want the node's own %s", got.Status.Allocatable.Memory(), n.Status.Allocatable.Memory())
	}
}
