package bench

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"wink.dev/wink/harness"
)

// manyNodes is BenchmarkNodes5000's node count: 5,000, or
// $WINK_BENCH_NODES for a small run.
func manyNodes(b *testing.B) int {
	b.Helper()
	return envCount(b, "WINK_BENCH_NODES", "nodes", 5000)
}

// manyNodesConfig: n Windows nodes in one simnode process, no other (a
// cluster has at most 5,000). The pod subnet
// (10.128.0.0/9 in /26 node podCIDRs, room for 131,072 nodes) and the node
// addresses from 172.18.0.2 leave room for them.
func manyNodesConfig(n int) string {
	return fmt.Sprintf(`apiVersion: wink.dev/v1alpha1
kind: Cluster
images: {resolve: offline}
networking:
  podSubnet: 10.128.0.0/9
  nodeCIDRMaskSize: 26
nodePools:
- name: win
  os: windows
  count: %d
`, n)
}

// BenchmarkNodes5000 brings up 5,000 Windows nodes served by one simnode
// process and prints the seconds until all are Ready (wink up, control
// plane included; kwok's CI bar is 5,000 nodes in 60 s), then checks that
// every node lease renews within its renew interval (10 s, a quarter of
// nodeLeaseDurationSeconds 40) and prints simnode's RSS per node.
func BenchmarkNodes5000(b *testing.B) {
	n := manyNodes(b)
	for range b.N {
		c, opts, took := upWatched(b, "bench-nodes", manyNodesConfig(n), false, 15*time.Minute, func(o harness.Options) func() {
			stop := profileUp(b, "nodes-up", o)
			return func() { stop(n, "node") }
		})
		cs := clientset(b, c.Kubeconfig)
		// Leases: every node's renewTime moves within a renew interval
		// (plus its jitter-free slack of 5 s).
		before := leaseRenewals(b, cs)
		// The steady state the lease check measures, profiled over a
		// minute (nodeStatusReportFrequency): leases every 10 s, status
		// reports, metrics-server's scrapes.
		stop := profilePhase(b, "nodes-steady", opts)
		time.Sleep(15 * time.Second)
		after := leaseRenewals(b, cs)
		if profileDir() != "" {
			time.Sleep(45 * time.Second)
		}
		stop(n, "node")
		renewed := 0
		for name, t := range after {
			if t.After(before[name]) {
				renewed++
			}
		}
		pid, err := harness.ComponentPID(opts, "simnode")
		if err != nil {
			b.Fatal(err)
		}
		kib := procStatusKiB(b, pid, "VmRSS")
		total := n
		b.ReportMetric(took.Seconds(), "s-to-ready")
		b.ReportMetric(kib/float64(total), "KiB/node")
		b.ReportMetric(float64(renewed), "leases-renewed")
		fmt.Printf("%d Windows nodes in one simnode: all Ready %.1f s after `wink up` began (kwok's CI bar: 5,000 in 60 s); %d of %d leases renewed within 15 s; simnode RSS %.0f MiB, %.0f KiB per node\n",
			n, took.Seconds(), renewed, total, kib/1024, kib/float64(total))
		if renewed < total {
			b.Errorf("%d of %d node leases renewed within 15 s (renew interval 10 s)", renewed, total)
		}
		deleteCluster(b, opts)
	}
}

// leaseRenewals maps each node lease to its renewTime.
func leaseRenewals(b *testing.B, cs kubernetes.Interface) map[string]time.Time {
	b.Helper()
	list, err := cs.CoordinationV1().Leases(corev1.NamespaceNodeLease).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		b.Fatal(err)
	}
	out := make(map[string]time.Time, len(list.Items))
	for _, l := range list.Items {
		if l.Spec.RenewTime != nil {
			out[l.Name] = l.Spec.RenewTime.Time
		}
	}
	return out
}

// deleteCluster deletes a benchmark's cluster before the next one starts
// (up's cleanup deletes it again, harmlessly).
func deleteCluster(b *testing.B, opts harness.Options) {
	b.Helper()
	if err := harness.Delete(context.Background(), opts); err != nil {
		b.Fatal(err)
	}
}
