package existing

import (
	"context"
	"fmt"
	"slices"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/harness"
	"wink.dev/wink/harness/config/v1alpha1"
	simconfig "wink.dev/wink/simnode/config"
	"wink.dev/wink/suites/suite"
)

// shardsName is the wink cluster of TestShards.
const shardsName = "wink-shards"

// TestShards: simnode.shards on one machine (issue 19). A wink cluster of
// the existing backend joins the suite's (embedded) cluster with its nodes
// served by 3 simnode processes: every node becomes Ready; stopping one
// process (SIGSTOP) takes exactly the nodes it owns (simnode/config.Owner)
// NotReady, and they come back when it resumes; `wink up` again with 2
// shards re-partitions the same nodes, all Ready.
func TestShards(t *testing.T) {
	f := suite.Feature("simnode shards on one machine share a pool's nodes, each node served by exactly one", "existing", "simnode").
		Assess("3 shards serve 12 nodes; a stopped shard's nodes, and only they, go NotReady and come back; 2 shards take them over", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			twelve := 12
			c := *joinConfig
			c.Name = shardsName
			c.Simnode.Shards = 3
			// Tainted: no pod of the other tests lands on them.
			c.NodePools = []v1alpha1.NodePool{{
				Name: "win2022", OS: v1alpha1.OSWindows, WindowsBuild: v1alpha1.WindowsServer2022, Count: &twelve,
				Labels: map[string]string{joinedLabel: "shards"},
				Taints: []corev1.Taint{{Key: "wink.dev/shards", Effect: corev1.TaintEffectNoSchedule}},
			}}
			opts := joined
			opts.Name = shardsName
			nodes := harness.NodeNames(&v1alpha1.Cluster{Name: shardsName, NodePools: c.NodePools})
			t.Cleanup(func() {
				_ = harness.Delete(context.Background(), opts)
				_ = deleteNodes(context.Background(), joinConfig.Kubeconfig, nodes)
			})
			start := time.Now()
			if _, err := harness.Up(ctx, harness.UpOptions{Options: opts, Config: &c, Fresh: true, Wait: 2 * time.Minute}); err != nil {
				t.Fatalf("wink up with simnode.shards 3: %v", err)
			}
			t.Logf("12 nodes in 3 shards Ready in %.1fs", time.Since(start).Seconds())
			pids := shardPIDs(t, opts, 3)

			// The nodes shard 1 owns, by the rule every shard applies.
			var owned, others []string
			for _, n := range nodes {
				if simconfig.Owner(n, 3) == 1 {
					owned = append(owned, n)
				} else {
					others = append(others, n)
				}
			}
			if len(owned) == 0 {
				t.Fatalf("shard 1 owns none of %v", nodes)
			}
			if err := syscall.Kill(pids[1], syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			resumed := false
			resume := func() {
				if !resumed {
					resumed = true
					_ = syscall.Kill(pids[1], syscall.SIGCONT)
				}
			}
			t.Cleanup(resume)
			// The node lifecycle controller marks a node whose lease is not
			// renewed NotReady (Unknown) after its grace period (50 s).
			waitReady(ctx, t, cs, owned, false, 2*time.Minute)
			for _, n := range others {
				if !nodeReady(ctx, t, cs, n) {
					t.Errorf("node %s of another shard went NotReady with shard 1 stopped", n)
				}
			}
			resume()
			waitReady(ctx, t, cs, owned, true, time.Minute)

			// Re-partition: 2 shards serve the same nodes.
			if err := harness.Down(ctx, opts); err != nil {
				t.Fatal(err)
			}
			c.Simnode.Shards = 2
			if _, err := harness.Up(ctx, harness.UpOptions{Options: opts, Config: &c, Wait: 2 * time.Minute}); err != nil {
				t.Fatalf("wink up again with simnode.shards 2: %v", err)
			}
			shardPIDs(t, opts, 2)
			waitReady(ctx, t, cs, nodes, true, time.Minute)
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// shardPIDs returns the pids of the running simnode-<i> components of the
// cluster of opts, failing unless there are exactly n.
func shardPIDs(t *testing.T, opts harness.Options, n int) []int {
	t.Helper()
	st, err := harness.GetStatus(opts)
	if err != nil {
		t.Fatal(err)
	}
	pids := make([]int, n)
	found := 0
	for _, comp := range st.Components {
		for i := range n + 1 {
			if comp.Name == fmt.Sprintf("simnode-%d", i) {
				if i == n {
					t.Errorf("component %s with %d shards", comp.Name, n)
					continue
				}
				pids[i] = comp.PID
				found++
			}
		}
	}
	if found != n || slices.Contains(pids, 0) {
		t.Fatalf("simnode components %+v, want simnode-0 … simnode-%d running", st.Components, n-1)
	}
	return pids
}

func nodeReady(ctx context.Context, t *testing.T, cs kubernetes.Interface, name string) bool {
	t.Helper()
	n, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("node %s: %v", name, err)
	}
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// waitReady waits until every node of names is Ready (ready) or not.
func waitReady(ctx context.Context, t *testing.T, cs kubernetes.Interface, names []string, ready bool, limit time.Duration) {
	t.Helper()
	var pending []string
	err := wait.PollUntilContextTimeout(ctx, time.Second, limit, true, func(ctx context.Context) (bool, error) {
		pending = pending[:0]
		for _, n := range names {
			if nodeReady(ctx, t, cs, n) != ready {
				pending = append(pending, n)
			}
		}
		return len(pending) == 0, nil
	})
	if err != nil {
		t.Fatalf("nodes %v not Ready=%v after %s", pending, ready, limit)
	}
}
