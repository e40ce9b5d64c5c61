package simnode

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	certutil "k8s.io/client-go/util/cert"

	"wink.dev/wink/simnode/config"
	"wink.dev/wink/simnode/egress"
)

func testConfig(t *testing.T) *config.Config {
	return &config.Config{
		ClusterName:         "t",
		ControlPlaneVersion: "v1.35.4",
		NodeAddressBase:     "127.0.0.1",
		KubeletPort:         20250,
		StateDir:            t.TempDir(),
		PodStartDelay:       metav1.Duration{Duration: 50 * time.Millisecond},
		Pools: []config.Pool{
			{Name: "win", OS: "windows", WindowsBuild: "10.0.20348", Count: 2,
				Taints: []corev1.Taint{{Key: "os", Value: "windows", Effect: corev1.TaintEffectNoSchedule}}},
			{Name: "lin", OS: "linux", Count: 1},
		},
	}
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func eventually(t *testing.T, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !f() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestRunNodesAndPods runs the node set against a fake clientset: nodes
// register with the kubelet's labels and leases, a bound pod runs with an
// IP from the node's podCIDR, and after a restart the pod is adopted
// unchanged (requirement 4).
func TestRunNodesAndPods(t *testing.T) {
	cfg := testConfig(t)
	client := fake.NewSimpleClientset()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, mustDefaults(t, cfg), client, quiet(), quiet()) }()

	bg := context.Background()
	eventually(t, "3 nodes", func() bool {
		l, _ := client.CoreV1().Nodes().List(bg, metav1.ListOptions{})
		return len(l.Items) == 3
	})
	n, err := client.CoreV1().Nodes().Get(bg, "t-win-1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n.Labels["node.kubernetes.io/windows-build"] != "10.0.20348" || n.Labels["kubernetes.io/os"] != "windows" || n.Labels["type"] != "" || n.Labels["kubernetes.io/role"] != "" {
		t.Fatalf("labels %v", n.Labels)
	}
	if len(n.Spec.Taints) != 1 || n.Spec.Taints[0].Key != "os" {
		t.Fatalf("taints %v", n.Spec.Taints)
	}
	if n.Status.Addresses[0].Address != "127.0.0.2" || n.Status.DaemonEndpoints.KubeletEndpoint.Port == 0 {
		t.Fatalf("status %+v", n.Status)
	}
	eventually(t, "leases", func() bool {
		l, _ := client.CoordinationV1().Leases(corev1.NamespaceNodeLease).List(bg, metav1.ListOptions{})
		return len(l.Items) == 3
	})

	// Node IPAM assigns the podCIDR.
	n.Spec.PodCIDR = "10.244.5.0/24"
	if _, err := client.CoreV1().Nodes().Update(bg, n, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default", UID: types.UID("uid-p")},
		Spec: corev1.PodSpec{NodeName: "t-win-1", Containers: []corev1.Container{{
			Name: "c", Image: "mcr.microsoft.com/windows/nanoserver:ltsc2022", ImagePullPolicy: corev1.PullIfNotPresent,
			// Long-running: a container that exits would restart on its
			// own, and the restart of simnode below must be what is seen.
			Command: []string{"ping", "-t", "localhost"},
		}}},
		Status: corev1.PodStatus{Phase: corev1.PodPending},
	}
	if _, err := client.CoreV1().Pods("default").Create(bg, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	var running *corev1.Pod
	eventually(t, "pod Running", func() bool {
		p, err := client.CoreV1().Pods("default").Get(bg, "p", metav1.GetOptions{})
		if err == nil && p.Status.Phase == corev1.PodRunning {
			running = p
			return true
		}
		return false
	})
	if running.Status.PodIP != "10.244.5.2" || running.Status.HostIP != "127.0.0.2" {
		t.Fatalf("status %+v", running.Status)
	}
	eventually(t, "events", func() bool {
		l, _ := client.CoreV1().Events("default").List(bg, metav1.ListOptions{})
		return len(l.Items) >= 4
	})
	evs, _ := client.CoreV1().Events("default").List(bg, metav1.ListOptions{})
	for _, e := range evs.Items {
		if e.InvolvedObject.Kind != "Pod" {
			continue
		}
		if strings.HasPrefix(e.Reason, "Provider") {
			t.Fatalf("virtual-kubelet event reached the API: %s %s", e.Reason, e.Message)
		}
		if e.Source.Component != "kubelet" || e.Source.Host != "t-win-1" {
			t.Fatalf("event source %+v", e.Source)
		}
	}

	eventually(t, "node events", func() bool {
		l, _ := client.CoreV1().Events("default").List(bg, metav1.ListOptions{})
		for _, e := range l.Items {
			if e.InvolvedObject.Kind == "Node" && e.InvolvedObject.Name == "t-win-1" && e.Reason == "NodeReady" {
				return true
			}
		}
		return false
	})

	// Restart simnode.
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	done2 := make(chan error, 1)
	go func() { done2 <- run(ctx2, mustDefaults(t, cfg), client, quiet(), quiet()) }()
	time.Sleep(500 * time.Millisecond)
	after, err := client.CoreV1().Pods("default").Get(bg, "p", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if after.Status.Phase != corev1.PodRunning || after.Status.PodIP != running.Status.PodIP ||
		!after.Status.StartTime.Equal(running.Status.StartTime) ||
		after.Status.ContainerStatuses[0].ContainerID != running.Status.ContainerStatuses[0].ContainerID {
		t.Fatalf("restart changed the pod:\nbefore %+v\nafter  %+v", running.Status, after.Status)
	}
	n2, _ := client.CoreV1().Nodes().Get(bg, "t-win-1", metav1.GetOptions{})
	if n2.Status.NodeInfo.BootID != n.Status.NodeInfo.BootID {
		t.Fatalf("bootID changed on restart: %s -> %s", n.Status.NodeInfo.BootID, n2.Status.NodeInfo.BootID)
	}
	cancel2()
	if err := <-done2; err != nil {
		t.Fatal(err)
	}
}

func mustDefaults(t *testing.T, cfg *config.Config) *config.Config {
	t.Helper()
	c, err := withDefaults(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestEgressRoutesKubeletAPI: with an egress socket, node InternalIPs are
// simulated (10.99.0.x exists nowhere); the apiserver reaches each kubelet
// API at <InternalIP>:10250 through the proxy, and the API demands
// credentials (401).
func TestEgressRoutesKubeletAPI(t *testing.T) {
	cfg := testConfig(t)
	cfg.NodeAddressBase = "10.99.0.2"
	cfg.KubeletPort = 10250
	cfg.EgressSocket = filepath.Join(t.TempDir(), "egress.sock")
	client := fake.NewSimpleClientset()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- run(ctx, mustDefaults(t, cfg), client, quiet(), quiet()) }()
	bg := context.Background()
	eventually(t, "node", func() bool {
		_, err := client.CoreV1().Nodes().Get(bg, "t-win-1", metav1.GetOptions{})
		return err == nil
	})
	n, _ := client.CoreV1().Nodes().Get(bg, "t-win-1", metav1.GetOptions{})
	if n.Status.DaemonEndpoints.KubeletEndpoint.Port != 10250 || n.Status.Addresses[0].Address != "10.99.0.3" {
		t.Fatalf("node status %+v", n.Status)
	}
	ca, err := certutil.CertsFromFile(filepath.Join(cfg.StateDir, "pki", "serving-ca.crt"))
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca[0])
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		DialContext:     egress.Dialer(cfg.EgressSocket),
		TLSClientConfig: &tls.Config{RootCAs: roots},
	}}
	var resp *http.Response
	eventually(t, "kubelet API via egress", func() bool {
		resp, err = hc.Get("https://10.99.0.3:10250/healthz")
		return err == nil
	})
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("status %d", resp.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// Issue 19: a node the node lifecycle controller marked Ready=Unknown (its
// simnode was stopped longer than the grace period) is Ready again as soon
// as its simnode runs, as a kubelet re-asserts its status when the
// apiserver's differs (kubelet_node_status.go tryUpdateNodeStatus).
func TestNodeReadyAgainAfterUnknown(t *testing.T) {
	cfg := testConfig(t)
	cfg.KubeletPort = 20350
	cfg.Pools = cfg.Pools[1:]
	client := fake.NewSimpleClientset()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, mustDefaults(t, cfg), client, quiet(), quiet()) }()
	defer func() {
		cancel()
		<-done
	}()
	bg := context.Background()
	ready := func() corev1.ConditionStatus {
		n, err := client.CoreV1().Nodes().Get(bg, "t-lin-0", metav1.GetOptions{})
		if err != nil {
			return ""
		}
		for _, c := range n.Status.Conditions {
			if c.Type == corev1.NodeReady {
				return c.Status
			}
		}
		return ""
	}
	eventually(t, "node Ready", func() bool { return ready() == corev1.ConditionTrue })
	// What the node lifecycle controller writes (nodelifecycle's
	// tryUpdateNodeHealth): every condition Unknown.
	n, err := client.CoreV1().Nodes().Get(bg, "t-lin-0", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n.Status.Conditions {
		n.Status.Conditions[i].Status = corev1.ConditionUnknown
		n.Status.Conditions[i].Reason = "NodeStatusUnknown"
	}
	if _, err := client.CoreV1().Nodes().UpdateStatus(bg, n, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "node Ready again", func() bool { return ready() == corev1.ConditionTrue })
}
