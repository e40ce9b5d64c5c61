package resources

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	statsapi "k8s.io/kubelet/pkg/apis/stats/v1alpha1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"wink.dev/wink/suites/suite"
)

// Usage annotations of the simulated nodes (simnode/internal/resources):
// the CPU and memory a container tries to use.
const (
	cpuUsagePrefix    = "wink.dev/cpu-usage."
	memoryUsagePrefix = "wink.dev/memory-usage."
)

// metricsWait is how long metrics-server may take to have a new pod's
// metrics: it needs two scrapes for a CPU rate, and scrapes every 10 s in
// wink's clusters (harness/internal/cluster.MetricsResolution), every 15 s
// with its own manifests.
const metricsWait = 90 * time.Second

// withUsage sets the usage annotations of pod's container (empty: leave the
// image's default).
func withUsage(pod *corev1.Pod, container, cpu, memory string) *corev1.Pod {
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	if cpu != "" {
		pod.Annotations[cpuUsagePrefix+container] = cpu
	}
	if memory != "" {
		pod.Annotations[memoryUsagePrefix+container] = memory
	}
	return pod
}

// withLimits sets the first container's limits (and requests, as the API
// defaults them from limits).
func withLimits(pod *corev1.Pod, limits corev1.ResourceList) *corev1.Pod {
	pod.Spec.Containers[0].Resources.Limits = limits
	return pod
}

// summary reads a node's Summary API through the apiserver's node proxy
// (`kubectl get --raw /api/v1/nodes/<n>/proxy/stats/summary`) and returns it
// with the time the request took.
func summary(ctx context.Context, t *testing.T, cs kubernetes.Interface, node string) (*statsapi.Summary, time.Duration) {
	t.Helper()
	start := time.Now()
	data, err := cs.CoreV1().RESTClient().Get().AbsPath("/api/v1/nodes", node, "proxy", "stats", "summary").DoRaw(ctx)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("GET /api/v1/nodes/%s/proxy/stats/summary: %v (%s)", node, err, data)
	}
	var s statsapi.Summary
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("stats/summary of %s: %v", node, err)
	}
	return &s, took
}

// podStats finds a pod in a summary.
func podStats(s *statsapi.Summary, ns, name string) *statsapi.PodStats {
	for i := range s.Pods {
		if s.Pods[i].PodRef.Namespace == ns && s.Pods[i].PodRef.Name == name {
			return &s.Pods[i]
		}
	}
	return nil
}

// containerStats finds a container in a pod's stats.
func containerStats(p *statsapi.PodStats, name string) *statsapi.ContainerStats {
	if p == nil {
		return nil
	}
	for i := range p.Containers {
		if p.Containers[i].Name == name {
			return &p.Containers[i]
		}
	}
	return nil
}

// systemContainer finds a system container in a summary.
func systemContainer(s *statsapi.Summary, name string) *statsapi.ContainerStats {
	for i := range s.Node.SystemContainers {
		if s.Node.SystemContainers[i].Name == name {
			return &s.Node.SystemContainers[i]
		}
	}
	return nil
}

// metricsGet reads a path of the aggregated metrics.k8s.io API.
func metricsGet(ctx context.Context, cs kubernetes.Interface, into any, path ...string) error {
	data, err := cs.CoreV1().RESTClient().Get().AbsPath(append([]string{"/apis/metrics.k8s.io/v1beta1"}, path...)...).DoRaw(ctx)
	if err != nil {
		return fmt.Errorf("%w (%s)", err, data)
	}
	return json.Unmarshal(data, into)
}

// waitPodMetrics waits until metrics.k8s.io has the pod's metrics with
// container, as `kubectl top pod --containers` shows them.
func waitPodMetrics(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, name, container string) (*metricsv1beta1.PodMetrics, *metricsv1beta1.ContainerMetrics) {
	t.Helper()
	var pm metricsv1beta1.PodMetrics
	var last error
	err := wait.PollUntilContextTimeout(ctx, time.Second, metricsWait, true, func(ctx context.Context) (bool, error) {
		last = metricsGet(ctx, cs, &pm, "namespaces", ns, "pods", name)
		if last != nil {
			return false, nil
		}
		for _, c := range pm.Containers {
			if c.Name == container {
				return true, nil
			}
		}
		last = fmt.Errorf("pod metrics without container %s: %+v", container, pm.Containers)
		return false, nil
	})
	if err != nil {
		t.Fatalf("metrics.k8s.io has no metrics for pod %s/%s container %s within %s: %v", ns, name, container, metricsWait, last)
	}
	for i := range pm.Containers {
		if pm.Containers[i].Name == container {
			return &pm, &pm.Containers[i]
		}
	}
	return &pm, nil
}

// nodeByLabel returns the one node with label=value.
func nodeByLabel(ctx context.Context, t *testing.T, cs kubernetes.Interface, label, value string) *corev1.Node {
	t.Helper()
	list, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: label + "=" + value})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 {
		t.Fatalf("want one node with %s=%s (testdata/cluster.yaml), found %d", label, value, len(list.Items))
	}
	return &list.Items[0]
}

// condition returns a node condition (nil when the node has none).
func condition(n *corev1.Node, typ corev1.NodeConditionType) *corev1.NodeCondition {
	for i := range n.Status.Conditions {
		if n.Status.Conditions[i].Type == typ {
			return &n.Status.Conditions[i]
		}
	}
	return nil
}

// hasTaint tells whether the node has key with effect.
func hasTaint(n *corev1.Node, key string, effect corev1.TaintEffect) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == key && t.Effect == effect {
			return true
		}
	}
	return false
}

// mustQuantity parses a quantity of the test's own.
func mustQuantity(s string) resource.Quantity { return resource.MustParse(s) }

// mi formats bytes in Mi for messages.
func mi(b uint64) string { return fmt.Sprintf("%.1fMi", float64(b)/(1<<20)) }

// deref reads an optional stats value (0 when absent).
func deref(p *uint64) uint64 {
	if p == nil {
		return 0
	}
	return *p
}

// suiteWindowsPod is suite.WindowsPod on a 2022 node of the default pool
// (the pools of the eviction feature are tainted for it alone).
func suiteWindowsPod(name string, command ...string) *corev1.Pod {
	return suite.WindowsPod(name, suite.Build2022, command...)
}
