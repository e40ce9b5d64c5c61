package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"wink.dev/wink/suites/suite"
)

// kwokVersion is the kwok release the benchmarks compare with; `make kwok`
// installs it.
const kwokVersion = "v0.8.0"

// kwokTools are the programs of kwokctl's binary runtime, as `make kwok`
// puts them in bin/tools: kwok itself, and the control plane built from
// wink's pinned k8s.io/kubernetes and etcd modules (the same code wink
// links).
var kwokTools = []string{"kwokctl", "kwok", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "etcd", "kubectl"}

// toolsDir is bin/tools next to the wink binary, or $WINK_TOOLS.
func toolsDir(b *testing.B) string {
	b.Helper()
	if d := os.Getenv("WINK_TOOLS"); d != "" {
		return d
	}
	bin, err := suite.Binary()
	if err != nil {
		b.Fatal(err)
	}
	return filepath.Join(filepath.Dir(bin), "tools")
}

// kwokCluster is a cluster kwokctl runs with its binary runtime.
type kwokCluster struct {
	name, tools, workdir, kubeconfig string
}

// kwokUp creates a kwok cluster with QPS limits off (kwokctl's
// --disable-qps-limits: unlimited apiserver inflight requests, API Priority
// and Fairness off, scheduler and controller manager clients at 5000 QPS)
// and node leases of leaseSeconds (--heartbeat-factor, kwokctl's scale of
// its 40 s lease, renewed every quarter of it, and of the node monitor's
// grace; kwokctl's default factor 5 is a 200 s lease, a fifth of a
// kubelet's lease writes), or skips the benchmark, saying why, when `make
// kwok` has not been run.
func kwokUp(b *testing.B, name string, leaseSeconds int) *kwokCluster {
	b.Helper()
	tools := toolsDir(b)
	for _, t := range kwokTools {
		if _, err := os.Stat(filepath.Join(tools, t)); err != nil {
			b.Skipf("kwok %s is not installed (%s missing): run `make kwok` (go install sigs.k8s.io/kwok/cmd/{kwok,kwokctl}@%s and the control plane built from our k8s.io/kubernetes into bin/tools), or set WINK_TOOLS", kwokVersion, filepath.Join(tools, t), kwokVersion)
		}
	}
	k := &kwokCluster{name: name, tools: tools, workdir: b.TempDir()}
	k.kubeconfig = filepath.Join(k.workdir, "kubeconfig")
	tool := func(t string) string { return filepath.Join(tools, t) }
	args := []string{"create", "cluster", "--name", name, "--runtime", "binary",
		"--kube-apiserver-binary", tool("kube-apiserver"),
		"--kube-controller-manager-binary", tool("kube-controller-manager"),
		"--kube-scheduler-binary", tool("kube-scheduler"),
		"--kwok-controller-binary", tool("kwok"),
		"--etcd-binary", tool("etcd"),
		"--disable-qps-limits",
		"--heartbeat-factor=" + strconv.FormatFloat(float64(leaseSeconds)/40, 'f', -1, 64),
		"--kubeconfig", k.kubeconfig,
		"--wait", "2m", "--quiet-pull",
	}
	b.Cleanup(func() {
		_, _ = k.run(context.Background(), "delete", "cluster", "--name", name, "--kubeconfig", k.kubeconfig)
	})
	if out, err := k.run(context.Background(), args...); err != nil {
		b.Fatalf("kwokctl create cluster: %v\n%s", err, out)
	}
	return k
}

func (k *kwokCluster) run(ctx context.Context, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(k.tools, "kwokctl"), args...)
	cmd.Env = append(os.Environ(),
		"KWOK_WORKDIR="+k.workdir,
		"KWOK_KUBE_VERSION="+kubeVersion,
		"KWOK_KUBECTL_BINARY="+filepath.Join(k.tools, "kubectl"),
		"PATH="+k.tools+string(os.PathListSeparator)+os.Getenv("PATH"),
	)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// kubeVersion is the control plane both sides run.
const kubeVersion = "v1.35.4"

// kwokNodes creates n fake Windows Server 2022 nodes (kwok's
// kwok.x-k8s.io/node=fake annotation; kwok's controller makes them Ready and
// renews their leases), shaped as wink's pool of the same benchmark, and
// waits until they are Ready.
func kwokNodes(b *testing.B, cs kubernetes.Interface, n int) {
	b.Helper()
	ctx := context.Background()
	for i := range n {
		node := &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{
				Name:        fmt.Sprintf("kwok-win-%d", i),
				Annotations: map[string]string{"kwok.x-k8s.io/node": "fake"},
				Labels: map[string]string{
					"kubernetes.io/os": "windows", "kubernetes.io/arch": "amd64",
					"node.kubernetes.io/windows-build": "10.0.20348", "type": "kwok",
				},
			},
			Spec: corev1.NodeSpec{Taints: []corev1.Taint{{Key: "os", Value: "windows", Effect: corev1.TaintEffectNoSchedule}}},
			Status: corev1.NodeStatus{
				Capacity:    benchCapacity(),
				Allocatable: benchCapacity(),
				NodeInfo:    corev1.NodeSystemInfo{OperatingSystem: "windows", Architecture: "amd64", KubeletVersion: kubeVersion},
			},
		}
		if _, err := cs.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	if _, ready := waitNodesReady(b, cs, n, time.Now(), 2*time.Minute); ready < n {
		b.Fatalf("kwok: %d of %d nodes Ready after 2 minutes", ready, n)
	}
}

// benchCapacity is a node of the deployment benchmarks: room for the
// replicas over 50 nodes.
func benchCapacity() corev1.ResourceList {
	return corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse("64"),
		corev1.ResourceMemory: resource.MustParse("256Gi"),
		corev1.ResourcePods:   resource.MustParse("110"),
	}
}
