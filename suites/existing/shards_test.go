package existing

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
	"sigs.k8s.io/yaml"

	"wink.dev/wink/harness"
	"wink.dev/wink/harness/config/v1alpha1"
	simconfig "wink.dev/wink/simnode/config"
	"wink.dev/wink/suites/suite"
)

// shardsName is the wink cluster of TestShards.
const shardsName = "wink-shards"

// ownedBy splits nodes into those shard (of shards) owns, by the rule
// every shard applies (simnode/config.Owner), and the others; the test
// fails where the shard owns none.
func ownedBy(t *testing.T, nodes []string, shard, shards int) (owned, others []string) {
	t.Helper()
	for _, n := range nodes {
		if simconfig.Owner(n, shards) == shard {
			owned = append(owned, n)
		} else {
			others = append(others, n)
		}
	}
	if len(owned) == 0 {
		t.Fatalf("shard %d of %d owns none of %v", shard, shards, nodes)
	}
	return owned, others
}

// TestShards: simnode.shards on one machine (issue 19). A wink cluster of
// the existing backend joins the suite's (embedded) cluster with its nodes
// served by 3 simnode processes: every node becomes Ready; stopping one
// process (SIGSTOP) takes exactly the nodes it owns (simnode/config.Owner)
// NotReady, and they come back when it resumes; `wink up` again with 2
// shards re-partitions the same nodes, all Ready.
func TestShards(t *testing.T) {
	t.Parallel() // see main_test.go
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
			opts, nodes := joining(t, shardsName, c.NodePools)
			start := time.Now()
			if _, err := harness.Up(ctx, harness.UpOptions{Options: opts, Config: &c, Fresh: true, Wait: 2 * time.Minute}); err != nil {
				t.Fatalf("wink up with simnode.shards 3: %v", err)
			}
			t.Logf("12 nodes in 3 shards Ready in %.1fs", time.Since(start).Seconds())
			pids := shardPIDs(t, opts, 3)

			// The nodes shard 1 owns, by the rule every shard applies.
			owned, others := ownedBy(t, nodes, 1, 3)
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

// readyNodes returns the Ready condition's status of every node.
func readyNodes(ctx context.Context, cs kubernetes.Interface) (map[string]corev1.ConditionStatus, error) {
	list, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	out := make(map[string]corev1.ConditionStatus, len(list.Items))
	for _, n := range list.Items {
		out[n.Name] = corev1.ConditionUnknown
		for _, c := range n.Status.Conditions {
			if c.Type == corev1.NodeReady {
				out[n.Name] = c.Status
			}
		}
	}
	return out, nil
}

func nodeReady(ctx context.Context, t *testing.T, cs kubernetes.Interface, name string) bool {
	t.Helper()
	ready, err := readyNodes(ctx, cs)
	if err != nil {
		t.Fatal(err)
	}
	return ready[name] == corev1.ConditionTrue
}

// waitReady waits until every node of names is Ready (ready) or not
// (NotReady, Unknown or absent).
func waitReady(ctx context.Context, t *testing.T, cs kubernetes.Interface, names []string, ready bool, limit time.Duration) {
	t.Helper()
	var (
		pending []string
		status  map[string]corev1.ConditionStatus
	)
	start := time.Now()
	err := wait.PollUntilContextTimeout(ctx, 2*time.Second, limit, true, func(ctx context.Context) (bool, error) {
		var err error
		if status, err = readyNodes(ctx, cs); err != nil {
			return false, nil
		}
		pending = pending[:0]
		for _, n := range names {
			if (status[n] == corev1.ConditionTrue) != ready {
				pending = append(pending, n)
			}
		}
		return len(pending) == 0, nil
	})
	if err != nil {
		t.Fatalf("nodes %v not Ready=%v after %s (Ready conditions: %v)", pending, ready, limit, status)
	}
	t.Logf("nodes %v Ready=%v after %.1fs", names, ready, time.Since(start).Seconds())
}

// TestStatefulSetShards: the in-cluster chart's re-partitioning (issue 19),
// run from this machine against the suite's cluster: 4 `wink simnode
// --statefulset` processes stand for ordinals 0-3 of a StatefulSet of 3
// replicas (as the chart runs them, with the pod IP 127.0.0.1); ordinal 3
// serves nothing until `kubectl scale --replicas 4`, after which it owns
// exactly the nodes simnode/config.Owner gives shard 3 of 4: stopped, those
// nodes go NotReady, the others stay Ready.
func TestStatefulSetShards(t *testing.T) {
	t.Parallel() // see main_test.go
	f := suite.Feature("simnode replicas follow their StatefulSet's replicas and re-partition the nodes when it scales", "existing", "simnode").
		Assess("scaling from 3 to 4 replicas hands the new replica its nodes", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "simnode-sts")
			const stsName = "simnode"
			replicas := int32(3)
			sts := &appsv1.StatefulSet{
				ObjectMeta: metav1.ObjectMeta{Name: stsName},
				Spec: appsv1.StatefulSetSpec{
					Replicas:    &replicas,
					ServiceName: stsName,
					Selector:    &metav1.LabelSelector{MatchLabels: map[string]string{"app": stsName}},
					Template: corev1.PodTemplateSpec{
						ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": stsName}},
						Spec: corev1.PodSpec{
							// Its pods are the processes below: none runs here.
							NodeSelector: map[string]string{"wink.dev/nowhere": "true"},
							Containers:   []corev1.Container{{Name: "simnode", Image: "wink.dev/wink:dev"}},
						},
					},
				},
			}
			if _, err := cs.AppsV1().StatefulSets(ns).Create(ctx, sts, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			bin, err := suite.Binary()
			if err != nil {
				t.Fatal(err)
			}
			const clusterName = "wink-sts"
			simCfg := &simconfig.Config{
				ClusterName: clusterName,
				Kubeconfig:  cfg.KubeconfigFile(),
				Pools: []simconfig.Pool{{
					Name: "win2022", OS: "windows", WindowsBuild: suite.Build2022, Count: 9,
					Labels: map[string]string{joinedLabel: "sts"},
					Taints: []corev1.Taint{{Key: "wink.dev/shards", Effect: corev1.TaintEffectNoSchedule}},
				}},
				KubeletPort:     21250,
				CSRServingCerts: true,
				ImageResolve:    "offline",
			}
			nodes := simCfg.NodeNames()
			t.Cleanup(func() { _ = deleteNodes(context.Background(), joinConfig.Kubeconfig, nodes) })
			dir := t.TempDir()
			var procs []*exec.Cmd
			var logs []*prefixWriter
			for i := range 4 {
				// Each replica has a volume claim of its own.
				c := *simCfg
				c.StateDir = filepath.Join(dir, fmt.Sprint(i))
				data, err := yaml.Marshal(&c)
				if err != nil {
					t.Fatal(err)
				}
				path := filepath.Join(dir, fmt.Sprintf("simnode-%d.yaml", i))
				if err := os.WriteFile(path, data, 0o600); err != nil {
					t.Fatal(err)
				}
				cmd := exec.Command(bin, "simnode", "--config", path, "--node-address", "127.0.0.1", "--statefulset", ns+"/"+stsName, "--shard-index", fmt.Sprint(i))
				w := &prefixWriter{t: t, prefix: fmt.Sprintf("ordinal %d: ", i)}
				logs = append(logs, w)
				cmd.Stderr = w
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				procs = append(procs, cmd)
				t.Cleanup(func() {
					_ = cmd.Process.Signal(syscall.SIGCONT)
					_ = cmd.Process.Signal(syscall.SIGTERM)
					_ = cmd.Wait()
				})
			}
			waitReady(ctx, t, cs, nodes, true, 2*time.Minute)

			scale, err := cs.AppsV1().StatefulSets(ns).GetScale(ctx, stsName, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			scale.Spec.Replicas = 4
			if _, err := cs.AppsV1().StatefulSets(ns).UpdateScale(ctx, stsName, scale, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
			owned, others := ownedBy(t, nodes, 3, 4)
			// Every replica reads the new count (simnode.StatefulSetPoll)
			// and serves its new shard: all nodes Ready again.
			if err := wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(context.Context) (bool, error) {
				for _, w := range logs {
					if !w.saw("count=4") {
						return false, nil
					}
				}
				return true, nil
			}); err != nil {
				t.Fatal("not every replica re-partitioned within a minute of the scaling")
			}
			waitReady(ctx, t, cs, nodes, true, time.Minute)
			if err := procs[3].Process.Signal(syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			waitReady(ctx, t, cs, owned, false, 2*time.Minute)
			for _, n := range others {
				if !nodeReady(ctx, t, cs, n) {
					t.Errorf("node %s, not shard 3's, went NotReady with ordinal 3 stopped", n)
				}
			}
			_ = procs[3].Process.Signal(syscall.SIGCONT)
			waitReady(ctx, t, cs, owned, true, time.Minute)
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// prefixWriter logs a process's stderr lines through t.
type prefixWriter struct {
	t      *testing.T
	prefix string
	mu     sync.Mutex
	buf    []byte
	lines  []string
}

// saw reports whether a line logged so far contains s.
func (w *prefixWriter) saw(s string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.ContainsFunc(w.lines, func(l string) bool { return strings.Contains(l, s) })
}

func (w *prefixWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		if line := string(w.buf[:i]); strings.Contains(line, "shard") || strings.Contains(line, "level=ERROR") {
			w.t.Log(w.prefix + line)
			w.lines = append(w.lines, line)
		}
		w.buf = w.buf[i+1:]
	}
	return len(p), nil
}
