package harness

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"helm.sh/helm/v4/pkg/action"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/kube"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"wink.dev/wink/harness/config"
	"wink.dev/wink/simnode/facts"
)

// TestChartInKind: the in-cluster chart (simnode/deploy/chart) in a kind
// cluster (backend kind), its image (`make image`) loaded into the kind
// node, with persistence on kind's default StorageClass: three replicas
// register every node of the pool once; a replica's pod deleted, its
// StatefulSet brings it back on its volume and the nodes it served keep
// their pods' containers (the same container, not restarted). Skips
// without a Docker engine, the node image or bin/wink-image.tar.
func TestChartInKind(t *testing.T) {
	bin := winkBinary(t)
	needKind(t)
	image := os.Getenv("WINK_IMAGE_TAR")
	if image == "" {
		image = filepath.Join("..", "bin", "wink-image.tar")
	}
	if _, err := os.Stat(image); err != nil {
		t.Skipf("no image tarball (%v): run make image, or set WINK_IMAGE_TAR", err)
	}
	m, err := tarball.LoadManifest(func() (io.ReadCloser, error) { return os.Open(image) })
	if err != nil || len(m) != 1 || len(m[0].RepoTags) == 0 {
		t.Fatalf("%s: %v %v, want one tagged image", image, m, err)
	}
	repo, tag, _ := strings.Cut(m[0].RepoTags[0], ":")

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	opts := Options{Name: "chart-it", Home: shortHome(t), Binary: bin, Progress: os.Stderr}
	cfg, err := config.Parse([]byte(`apiVersion: wink.dev/v1alpha1
kind: Cluster
backend: kind
kindBackend: {nodeImage: `+kindNodeImage+`}
nodePools:
  - {name: win2022, os: windows, windowsBuild: `+facts.WindowsServer2022+`, count: 1}
`), "kind_chart_test.go")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := Delete(context.Background(), opts); err != nil {
			t.Errorf("Delete: %v", err)
		}
	})
	start := time.Now()
	up, err := Up(ctx, UpOptions{Options: opts, Config: cfg, Fresh: true, Wait: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("wink up (backend kind) took %s", time.Since(start).Round(time.Second))

	// kind load image-archive: the archive into the node's containerd.
	start = time.Now()
	load := exec.CommandContext(ctx, "docker", "exec", "-i", "wink-chart-it-control-plane",
		"ctr", "--namespace=k8s.io", "images", "import", "--all-platforms", "-")
	f, err := os.Open(image)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	load.Stdin = f
	if out, err := load.CombinedOutput(); err != nil {
		t.Fatalf("loading %s into the kind node: %v\n%s", image, err, out)
	}
	t.Logf("image loaded in %s", time.Since(start).Round(time.Second))

	const nodes, replicas = 30, 3
	ch, err := loader.Load(filepath.Join("..", "simnode", "deploy", "chart"))
	if err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	// helm install (the Helm SDK; harness/check's Install imports this
	// package).
	getter := genericclioptions.NewConfigFlags(false)
	kc, chartNS := up.Kubeconfig, "wink-system"
	getter.KubeConfig, getter.Namespace = &kc, &chartNS
	hc := action.NewConfiguration(action.ConfigurationSetLogger(slog.DiscardHandler))
	if err := hc.Init(getter, chartNS, "secret"); err != nil {
		t.Fatal(err)
	}
	in := action.NewInstall(hc)
	in.ReleaseName, in.Namespace, in.CreateNamespace, in.Timeout = "simnode", chartNS, true, 2*time.Minute
	in.WaitStrategy = kube.HookOnlyStrategy
	_, err = in.RunWithContext(ctx, ch, map[string]any{
		"image":       map[string]any{"repository": repo, "tag": tag},
		"replicas":    replicas,
		"clusterName": "chart",
		"images":      map[string]any{"resolve": "offline"},
		"nodePools": []any{map[string]any{
			"name": "win2022", "os": "windows", "windowsBuild": facts.WindowsServer2022, "count": nodes,
		}},
	})
	if err != nil {
		t.Fatalf("helm install: %v", err)
	}
	rc, err := clientcmd.BuildConfigFromFlags("", up.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cs := kubernetes.NewForConfigOrDie(rc)
	served := chartNodesReady(ctx, t, cs, nodes, replicas, nil)
	t.Logf("%d nodes Ready %s after helm install, served by %v", nodes, time.Since(start).Round(time.Second), served)

	// A Windows pod on a node of replica simnode-1; the replica's pod
	// deleted and recreated on its volume, the pod keeps its container.
	ns := namespace(ctx, t, cs, "chart-it")
	var node string
	for n, p := range served {
		if p == "simnode-1" && (node == "" || n < node) {
			node = n
		}
	}
	pod := windowsPod()
	pod.Spec.NodeSelector = map[string]string{corev1.LabelHostname: node}
	if _, err := cs.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitRunning(ctx, t, cs, ns, pod.Name)
	before, err := cs.CoreV1().Pods(ns).Get(ctx, pod.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	old, err := cs.CoreV1().Pods("wink-system").Get(ctx, "simnode-1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := cs.CoreV1().Pods("wink-system").Delete(ctx, "simnode-1", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	chartNodesReady(ctx, t, cs, nodes, replicas, func(p *corev1.Pod) bool { return p.Name != "simnode-1" || p.UID != old.UID })
	t.Logf("replica simnode-1 back, its nodes Ready, %s after its pod was deleted", time.Since(start).Round(time.Second))
	after, err := cs.CoreV1().Pods(ns).Get(ctx, pod.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, a := before.Status.ContainerStatuses, after.Status.ContainerStatuses
	if len(b) != 1 || len(a) != 1 || a[0].ContainerID != b[0].ContainerID || a[0].RestartCount != b[0].RestartCount || a[0].State.Running == nil {
		t.Errorf("the pod's container across the replica's restart: %+v, then %+v; want the same one, running", b, a)
	}
}

// chartNodesReady waits until the chart's replicas run (each one new
// enough) and its nodes (chart-win2022-*) are Ready, each at the pod IP of exactly
// one replica, and returns which replica serves each node.
func chartNodesReady(ctx context.Context, t *testing.T, cs kubernetes.Interface, nodes, replicas int, fresh func(*corev1.Pod) bool) map[string]string {
	t.Helper()
	var why string
	served := map[string]string{}
	err := wait.PollUntilContextTimeout(ctx, 2*time.Second, 4*time.Minute, true, func(ctx context.Context) (bool, error) {
		pods, err := cs.CoreV1().Pods("wink-system").List(ctx, metav1.ListOptions{LabelSelector: "app.kubernetes.io/name=wink-simnode"})
		if err != nil {
			why = err.Error()
			return false, nil
		}
		byIP := map[string]string{}
		for i := range pods.Items {
			p := &pods.Items[i]
			if p.Status.Phase != corev1.PodRunning || p.Status.PodIP == "" || (fresh != nil && !fresh(p)) {
				continue
			}
			byIP[p.Status.PodIP] = p.Name
		}
		if len(byIP) != replicas {
			why = fmt.Sprintf("%d of %d replicas run: %v", len(byIP), replicas, byIP)
			return false, nil
		}
		list, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			why = err.Error()
			return false, nil
		}
		clear(served)
		var notReady []string
		for _, n := range list.Items {
			if !strings.HasPrefix(n.Name, "chart-win2022-") {
				continue
			}
			var ip string
			for _, a := range n.Status.Addresses {
				if a.Type == corev1.NodeInternalIP {
					ip = a.Address
				}
			}
			served[n.Name] = byIP[ip]
			if !slices.ContainsFunc(n.Status.Conditions, func(c corev1.NodeCondition) bool {
				return c.Type == corev1.NodeReady && c.Status == corev1.ConditionTrue
			}) || byIP[ip] == "" {
				notReady = append(notReady, n.Name)
			}
		}
		if len(served) != nodes || len(notReady) > 0 {
			why = fmt.Sprintf("%d chart nodes, want %d; not Ready or at no replica's IP: %v", len(served), nodes, notReady)
			return false, nil
		}
		return true, nil
	})
	if err != nil {
		t.Fatalf("chart nodes: %s", why)
	}
	return served
}
