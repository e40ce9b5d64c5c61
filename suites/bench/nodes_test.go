package bench

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"wink.dev/wink/harness"
	"wink.dev/wink/simnode/facts"
)

// manyNodes is BenchmarkNodesVsKwok's node count: 5,000, or
// $WINK_BENCH_NODES for a small run.
func manyNodes(b *testing.B) int {
	b.Helper()
	return envCount(b, "WINK_BENCH_NODES", "nodes", 5000)
}

// kubeletLease is the kubelet's default nodeLeaseDurationSeconds: a lease
// renewed every 10 s.
const kubeletLease = 40

// nodesLease is BenchmarkNodesVsKwok's node lease on both sides, in
// seconds: 200, kwokctl's default (--heartbeat-factor 5, renewed every
// 50 s), or $WINK_BENCH_LEASE. At the kubelet's 40, 5,000 nodes do not fit
// 2 cores on either side (docs/benchmarks.md).
func nodesLease(b *testing.B) int {
	b.Helper()
	return envCount(b, "WINK_BENCH_LEASE", "lease seconds", 200)
}

// readyLimit is how long BenchmarkNodesVsKwok waits for a side's nodes.
const readyLimit = 10 * time.Minute

// manyNodesConfig: n Windows nodes in one simnode process, no other (a
// cluster has at most 5,000), their leases of lease seconds. The pod subnet
// (10.128.0.0/9 in /26 node podCIDRs, room for 131,072 nodes) and the node
// addresses from 172.18.0.2 leave room for them.
func manyNodesConfig(n, lease int) string {
	return manyNodesCluster + "nodePools:\n" + manyNodesPool(n, lease)
}

// manyNodesCluster is the start of a cluster with room for 5,000 nodes.
const manyNodesCluster = `apiVersion: wink.dev/v1alpha1
kind: Cluster
images: {resolve: offline}
networking:
  podSubnet: 10.128.0.0/9
  nodeCIDRMaskSize: 26
`

// manyNodesPool is the pool of n Windows nodes with leases of lease seconds.
func manyNodesPool(n, lease int) string {
	return fmt.Sprintf(`- name: win
  os: windows
  count: %d
  kubelet: {nodeLeaseDurationSeconds: %d}
`, n, lease)
}

// benchShards is how many simnode processes the benchmarks' sharded sides
// share the nodes between: 2, or $WINK_BENCH_SHARDS.
func benchShards(b *testing.B) int {
	b.Helper()
	return envCount(b, "WINK_BENCH_SHARDS", "shards", 2)
}

// shardsBaseConfig is the control plane the shards join: an embedded
// cluster of no node of its own (every node lease is a shard's) with room
// for 5,000 nodes.
const shardsBaseConfig = manyNodesCluster + `nodePools:
- name: linux
  os: linux
  count: 0
`

// joinedConfig: pools (YAML list items) in shards simnode processes of
// backend existing, joining the cluster of kubeconfig.
func joinedConfig(shards int, kubeconfig, pools string) string {
	return fmt.Sprintf(`apiVersion: wink.dev/v1alpha1
kind: Cluster
backend: existing
kubeconfig: %s
images: {resolve: offline}
simnode: {shards: %d}
nodePools:
%s`, kubeconfig, shards, pools)
}

// BenchmarkNodesVsKwok brings up the same n Windows nodes (5,000, or
// $WINK_BENCH_NODES), their leases of nodesLease seconds, on kwok v0.8.0
// (`kwokctl scale node`, its control plane already running) and on wink (one
// simnode process, `wink up` from nothing, control plane included), then in
// benchShards simnode processes of backend existing joining a wink control
// plane already up, one after the other on the same machine, and prints
// side by side: seconds
// until all are Ready, every node lease renewed within its interval, and at
// steady state the CPU per node per minute of the apiserver and of the
// simulator (kwok's controller, simnode) and the cores the whole cluster
// uses, with the load. Issue 20's goals: all Ready within 60 s and no later
// than kwok; under one core at steady state. It skips when kwok is not
// installed (`make kwok`); a kwok whose nodes are not all Ready within
// readyLimit is reported with how many were.
func BenchmarkNodesVsKwok(b *testing.B) {
	n, lease, shards := manyNodes(b), nodesLease(b), benchShards(b)
	var kwok, wink, sharded nodesRun
	for range b.N {
		func() {
			created := time.Now()
			k := kwokUp(b, "wink-bench-nodes", lease)
			kwok.controlPlane = time.Since(created)
			cs := clientset(b, k.kubeconfig)
			stop := profileKwok(b, "kwok-nodes-up", k)
			start := time.Now()
			if out, err := k.run(context.Background(), "scale", "node", "--name", k.name, "--replicas", strconv.Itoa(n)); err != nil {
				b.Fatalf("kwokctl scale node: %v\n%s", err, out)
			}
			kwok.ready, kwok.readyNodes = waitNodesReady(b, cs, n, start, readyLimit)
			stop(n, "node")
			if kwok.readyNodes < n {
				return // no steady state to measure
			}
			stop = profileKwok(b, "kwok-nodes-steady", k)
			kwok.steady(b, cs, n, time.Duration(lease)*time.Second, func(c string) []int { return nonZero(kwokPID(k.workdir, c)) }, "kwok-controller")
			stop(n, "node")
			if _, err := k.run(context.Background(), "delete", "cluster", "--name", k.name, "--kubeconfig", k.kubeconfig); err != nil {
				b.Logf("kwokctl delete cluster: %v", err)
			}
		}()
		func() {
			c, opts, took := upWatched(b, "bench-nodes", manyNodesConfig(n, lease), false, readyLimit, func(o harness.Options) func() {
				stop := profileUp(b, "nodes-up", o)
				return func() { stop(n, "node") }
			})
			wink.ready, wink.readyNodes = took, n
			pids := func(c string) []int { return componentPIDs(opts, c) }
			stop := profilePhase(b, "nodes-steady", opts)
			wink.steady(b, clientset(b, c.Kubeconfig), n, time.Duration(lease)*time.Second, pids, "simnode")
			stop(n, "node")
			wink.rssKiB = rssKiB(b, pids("simnode"))
			deleteCluster(b, opts)
		}()
		func() {
			base, baseOpts, _ := up(b, "bench-nodes-cp", shardsBaseConfig, false)
			c, opts, took, err := tryUp(b, "bench-nodes-shards", joinedConfig(shards, base.Kubeconfig, manyNodesPool(n, lease)), false, readyLimit, func(harness.Options) func() {
				stop := profileUp(b, "shards-up", baseOpts)
				return func() { stop(n, "node") }
			})
			if err != nil {
				sharded.err = err
				return
			}
			sharded.ready, sharded.readyNodes = took, n
			// The control plane is the base cluster's; the simulator the
			// shards (simnode-0, simnode-1, …) and the base's own simnode
			// (its Linux node, the apiserver's egress proxy).
			pids := func(comp string) []int {
				if comp != "simnode" {
					return componentPIDs(baseOpts, comp)
				}
				return append(componentPIDs(opts, comp), componentPIDs(baseOpts, comp)...)
			}
			stop := profilePhase(b, "shards-steady", baseOpts)
			sharded.steady(b, clientset(b, c.Kubeconfig), n, time.Duration(lease)*time.Second, pids, "simnode")
			stop(n, "node")
			sharded.rssKiB = rssKiB(b, componentPIDs(opts, "simnode"))
			deleteCluster(b, opts)
			deleteCluster(b, baseOpts)
		}()
	}
	var t strings.Builder
	fmt.Fprintf(&t, "%d Windows nodes, leases of %d s renewed every %d s, kwok %s (binary runtime, QPS limits off), wink (one simnode) and wink (%d simnode shards of backend existing), the same v1.35.4 control plane:\n", n, lease, lease/4, kwokVersion, shards)
	fmt.Fprintf(&t, "| | kwok | wink | wink/kwok | wink, %d shards | shards/kwok |\n|---|---|---|---|---|---|\n", shards)
	row := func(what, format string, k, w, s float64) {
		sh := fmt.Sprintf(format+" | %.2f", s, s/k)
		if sharded.err != nil {
			sh = "not up | "
		}
		fmt.Fprintf(&t, "| %s | "+format+" | "+format+" | %.2f | %s |\n", what, k, w, w/k, sh)
	}
	if kwok.readyNodes < n {
		fmt.Fprintf(&t, "| kwok: nodes Ready after %s (not all: no steady state) | %d | | | | |\n", readyLimit, kwok.readyNodes)
	}
	row("all Ready, s (kwok: from `scale node`, its control plane up; wink: from `wink up`, goal <= 60 and <= kwok; shards: from `wink up` of backend existing, the control plane up)", "%.1f",
		kwok.ready.Seconds(), wink.ready.Seconds(), sharded.ready.Seconds())
	row("kwok: `create cluster` + `scale node`, s", "%.1f", (kwok.controlPlane + kwok.ready).Seconds(), wink.ready.Seconds(), sharded.ready.Seconds())
	row(fmt.Sprintf("leases renewed within %d s", lease/4+5), "%.0f", float64(kwok.renewed), float64(wink.renewed), float64(sharded.renewed))
	row("apiserver CPU ms per node per minute", "%.1f", kwok.perNode("kube-apiserver"), wink.perNode("kube-apiserver"), sharded.perNode("kube-apiserver"))
	row("etcd CPU ms per node per minute", "%.1f", kwok.perNode("etcd"), wink.perNode("etcd"), sharded.perNode("etcd"))
	row("simulator CPU ms per node per minute (kwok-controller; simnode)", "%.1f", kwok.perNode(kwok.simulator), wink.perNode(wink.simulator), sharded.perNode(sharded.simulator))
	row("whole cluster at steady state, cores (goal < 1)", "%.2f", kwok.cores(), wink.cores(), sharded.cores())
	row("load average (1 min) at the end of the steady state", "%.1f", kwok.load, wink.load, sharded.load)
	if sharded.err != nil {
		fmt.Fprintf(&t, "\nwink, %d shards: not up: %v\n", shards, sharded.err)
	}
	fmt.Print(t.String())
	fmt.Printf("simnode RSS: one %.0f MiB, %.0f KiB per node; %d shards %.0f MiB, %.0f KiB per node\n",
		wink.rssKiB/1024, wink.rssKiB/float64(n), shards, sharded.rssKiB/1024, sharded.rssKiB/float64(n))
	b.ReportMetric(kwok.ready.Seconds(), "kwok-s-to-ready")
	b.ReportMetric(wink.ready.Seconds(), "wink-s-to-ready")
	b.ReportMetric(sharded.ready.Seconds(), "shards-s-to-ready")
	b.ReportMetric(wink.ready.Seconds()/kwok.ready.Seconds(), "ready-ratio")
	b.ReportMetric(wink.cores(), "wink-steady-cores")
	b.ReportMetric(wink.rssKiB/float64(n), "KiB/node")
	for _, r := range []nodesRun{kwok, wink, sharded} {
		if r.readyNodes == n && r.renewed < n {
			b.Errorf("%s: %d of %d node leases renewed within %d s (renew interval %d s)", r.simulator, r.renewed, n, lease/4+5, lease/4)
		}
	}
}

// steadyComponents are the processes whose CPU BenchmarkNodesVsKwok
// measures at steady state, besides the simulator.
var steadyComponents = []string{"kube-apiserver", "etcd", "kube-controller-manager", "kube-scheduler", "metrics-server"}

// nodesRun is one side of BenchmarkNodesVsKwok.
type nodesRun struct {
	ready, controlPlane time.Duration
	readyNodes, renewed int
	simulator           string
	cpu                 map[string]time.Duration // over window
	window              time.Duration
	nodes               int
	load, rssKiB        float64
	err                 error // the side did not come up
}

// steady waits for every node's lease and a renew interval (a quarter of
// lease) more, checks that every lease renews within its renew interval and
// 5 s, and measures each component's CPU over a minute
// (nodeStatusReportFrequency's unit) or two renew intervals, whichever is
// longer (a component not running on a side, metrics-server on kwok's,
// counts as none).
func (r *nodesRun) steady(b *testing.B, cs kubernetes.Interface, n int, lease time.Duration, pids func(string) []int, simulator string) {
	b.Helper()
	r.simulator, r.nodes = simulator, n
	renew := lease / 4
	r.window = max(time.Minute, 2*renew)
	// The bring-up's tail first: every node's lease created, and a renew
	// interval for the writes still queued (events, the controllers'
	// patches).
	deadline := time.Now().Add(5 * time.Minute)
	for len(leaseRenewals(b, cs)) < n {
		if time.Now().After(deadline) {
			b.Fatalf("%s: %d of %d node leases 5 minutes after all were Ready", simulator, len(leaseRenewals(b, cs)), n)
		}
		time.Sleep(time.Second)
	}
	time.Sleep(renew)
	before := leaseRenewals(b, cs)
	components := append([]string{simulator}, steadyComponents...)
	cpu := func() map[string]time.Duration {
		m := map[string]time.Duration{}
		for _, c := range components {
			for _, p := range pids(c) {
				m[c] += procCPU(b, p)
			}
		}
		return m
	}
	start := cpu()
	time.Sleep(renew + 5*time.Second)
	after := leaseRenewals(b, cs)
	for name, t := range after {
		if t.After(before[name]) {
			r.renewed++
		}
	}
	time.Sleep(r.window - renew - 5*time.Second)
	r.cpu = cpu()
	for c := range r.cpu {
		r.cpu[c] -= start[c]
	}
	r.load = loadAverage(b)
}

// perNode is component's CPU in ms per node per minute at steady state.
func (r *nodesRun) perNode(component string) float64 {
	return float64(r.cpu[component].Milliseconds()) / float64(r.nodes) / r.window.Minutes()
}

// cores is the whole cluster's CPU at steady state, in cores.
func (r *nodesRun) cores() float64 {
	var all time.Duration
	for _, d := range r.cpu {
		all += d
	}
	return all.Seconds() / r.window.Seconds()
}

// waitNodesReady watches the nodes until n are Ready and returns the time
// since start and n, or, when they are not all Ready within limit, limit
// and how many were Ready then.
func waitNodesReady(b *testing.B, cs kubernetes.Interface, n int, start time.Time, limit time.Duration) (time.Duration, int) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	ready := map[string]bool{}
	var mu sync.Mutex
	count := func(obj any) {
		node, ok := obj.(*corev1.Node)
		if !ok {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		ready[node.Name] = facts.NodeReady(node)
	}
	inf := informers.NewSharedInformerFactory(cs, 0).Core().V1().Nodes().Informer()
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: count, UpdateFunc: func(_, o any) { count(o) }}); err != nil {
		b.Fatal(err)
	}
	go inf.Run(ctx.Done())
	for {
		mu.Lock()
		got := 0
		for _, r := range ready {
			if r {
				got++
			}
		}
		mu.Unlock()
		if got >= n {
			return time.Since(start), n
		}
		select {
		case <-ctx.Done():
			return limit, got
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// componentPIDs is the pid of a running component of the cluster of opts,
// or of each of its shards (simnode-0, simnode-1, …); none when it does not
// run.
func componentPIDs(opts harness.Options, component string) []int {
	st, err := harness.GetStatus(opts)
	if err != nil {
		return nil
	}
	var pids []int
	for _, c := range st.Components {
		if c.PID > 0 && (c.Name == component || strings.HasPrefix(c.Name, component+"-")) {
			pids = append(pids, c.PID)
		}
	}
	return pids
}

// nonZero is pid as a list: none for 0.
func nonZero(pid int) []int {
	if pid == 0 {
		return nil
	}
	return []int{pid}
}

// rssKiB is the resident memory of the processes pids together.
func rssKiB(b *testing.B, pids []int) float64 {
	b.Helper()
	var kib float64
	for _, p := range pids {
		kib += procStatusKiB(b, p, "VmRSS")
	}
	return kib
}

// loadAverage is the machine's 1-minute load average.
func loadAverage(b *testing.B) float64 {
	b.Helper()
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		b.Fatal(err)
	}
	var load float64
	if _, err := fmt.Sscan(string(data), &load); err != nil {
		b.Fatalf("/proc/loadavg: %v", err)
	}
	return load
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
