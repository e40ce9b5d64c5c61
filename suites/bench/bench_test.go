package bench

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"

	"wink.dev/wink/harness"
	"wink.dev/wink/harness/config"
	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/suites/suite"
)

// up brings up a fresh cluster from a config text and deletes it at the end.
// With schedulable it also waits for the not-ready taints to be lifted.
func up(b *testing.B, name, cfgYAML string, schedulable bool) (*harness.Cluster, harness.Options, time.Duration) {
	b.Helper()
	return upWithin(b, name, cfgYAML, schedulable, 5*time.Minute)
}

// upWithin is up, waiting at most wait for the nodes.
func upWithin(b *testing.B, name, cfgYAML string, schedulable bool, wait time.Duration) (*harness.Cluster, harness.Options, time.Duration) {
	b.Helper()
	return upWatched(b, name, cfgYAML, schedulable, wait, nil)
}

// upWatched is upWithin; watch, when set, is called as the cluster starts
// coming up, and the function it returns once it is up (e.g. profileUp).
func upWatched(b *testing.B, name, cfgYAML string, schedulable bool, wait time.Duration, watch func(harness.Options) func()) (*harness.Cluster, harness.Options, time.Duration) {
	b.Helper()
	c, opts, took, err := tryUp(b, name, cfgYAML, schedulable, wait, watch)
	if err != nil {
		b.Fatal(err)
	}
	return c, opts, took
}

// tryUp is upWatched returning the error of a cluster that did not come
// up, for a benchmark that reports it beside the figures of the others.
func tryUp(b *testing.B, name, cfgYAML string, schedulable bool, wait time.Duration, watch func(harness.Options) func()) (*harness.Cluster, harness.Options, time.Duration, error) {
	b.Helper()
	bin, err := suite.Binary()
	if err != nil {
		b.Fatal(err)
	}
	home := os.Getenv("WINK_HOME")
	if home == "" {
		home = b.TempDir()
	}
	var cfg *v1alpha1.Cluster
	if cfgYAML != "" {
		if cfg, err = config.Parse([]byte(cfgYAML), name+".yaml"); err != nil {
			b.Fatal(err)
		}
	}
	opts := harness.Options{Name: name, Home: home, Binary: bin}
	profileEnv(b)
	start := time.Now()
	done := func() {}
	if watch != nil {
		done = watch(opts)
	}
	b.Cleanup(func() { _ = harness.Delete(context.Background(), opts) })
	c, err := harness.Up(context.Background(), harness.UpOptions{Options: opts, Config: cfg, Fresh: true, Wait: wait, Schedulable: schedulable})
	took := time.Since(start)
	done()
	return c, opts, took, err
}

func clientset(b *testing.B, kubeconfig string) kubernetes.Interface {
	b.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		b.Fatal(err)
	}
	cfg.QPS, cfg.Burst = 2000, 4000
	// The certificates in memory: a client of files reloads them, and
	// complains every few seconds once a deleted cluster took them away.
	if err := rest.LoadTLSFiles(cfg); err != nil {
		b.Fatal(err)
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		b.Fatal(err)
	}
	return cs
}

// BenchmarkUp measures `wink up` of the default cluster, the binary built,
// until every node is Ready (goal: under 5 s on 2 cores).
func BenchmarkUp(b *testing.B) {
	var total time.Duration
	for i := range b.N {
		_, opts, took := up(b, "bench-up-"+strconv.Itoa(i), "", false)
		total += took
		if err := harness.Delete(context.Background(), opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "s/up")
	fmt.Printf("wink up, default cluster, until every node is Ready: %.2f s (goal < 5 s)\n", total.Seconds()/float64(b.N))
}

const podsConfig = `apiVersion: wink.dev/v1alpha1
kind: Cluster
nodePools:
- name: win
  os: windows
  windowsBuild: "10.0.20348"
  count: 50
  capacity: {cpu: "64", memory: 256Gi, pods: "110"}
- name: linux
  os: linux
  count: 1
`

// BenchmarkPodThroughput creates 3,000 pods ($WINK_BENCH_PODS) for 50 Windows nodes and counts
// pods per second from created to Running through the real scheduler and
// simnode, then, in the same cluster, the bare ceiling: the same pods created
// already bound to a node no kubelet serves, their Running status written by
// the benchmark itself (no scheduler, no simnode). Goal: ratio >= 0.5.
func BenchmarkPodThroughput(b *testing.B) {
	pods := benchPods(b)
	c, opts, _ := up(b, "bench-pods", podsConfig+"images: {resolve: offline}\n", true)
	cs := clientset(b, c.Kubeconfig)
	ctx := context.Background()
	namespaces(b, cs, "through", "ceiling")
	b.ResetTimer()

	stop := profilePhase(b, "pods-through", opts)
	throughput := runPods(b, cs, "through", pods, func(p *corev1.Pod) {
		p.Spec.NodeSelector = map[string]string{"kubernetes.io/os": "windows"}
		p.Spec.Tolerations = []corev1.Toleration{{Key: "os", Value: "windows", Effect: corev1.TaintEffectNoSchedule}}
	}, nil)
	stop(pods, "pod")

	ghost := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "ceiling-node", Labels: map[string]string{"kubernetes.io/os": "windows"}}}
	if _, err := cs.CoreV1().Nodes().Create(ctx, ghost, metav1.CreateOptions{}); err != nil {
		b.Fatal(err)
	}
	stop = profilePhase(b, "pods-ceiling", opts)
	ceiling := runPods(b, cs, "ceiling", pods, func(p *corev1.Pod) { p.Spec.NodeName = ghost.Name }, func(p *corev1.Pod) error {
		p.Status.Phase = corev1.PodRunning
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
		_, err := cs.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, p, metav1.UpdateOptions{})
		return err
	})
	stop(pods, "pod")
	b.StopTimer()
	b.ReportMetric(throughput, "pods/s")
	b.ReportMetric(ceiling, "ceiling-pods/s")
	b.ReportMetric(throughput/ceiling, "ratio")
	fmt.Printf("%d pods over 50 Windows nodes, created -> Running: %.0f pods/s; bare ceiling %.0f pods/s; ratio %.2f (goal >= 0.5)\n", pods, throughput, ceiling, throughput/ceiling)
}

// runPods creates n pods with 16 workers and returns pods per second until
// all are Running, as a pod informer sees them. markRunning, when set,
// writes each pod's status itself.
func runPods(b *testing.B, cs kubernetes.Interface, ns string, n int, mutate func(*corev1.Pod), markRunning func(*corev1.Pod) error) float64 {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	running := map[string]bool{}
	allRunning := make(chan struct{})
	note := func(obj any) {
		p, ok := obj.(*corev1.Pod)
		if !ok || p.Status.Phase != corev1.PodRunning {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if !running[p.Name] {
			running[p.Name] = true
			if len(running) == n {
				close(allRunning)
			}
		}
	}
	factory := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace(ns))
	inf := factory.Core().V1().Pods().Informer()
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    note,
		UpdateFunc: func(_, obj any) { note(obj) },
	}); err != nil {
		b.Fatal(err)
	}
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())

	start := time.Now()
	var next atomic.Int64
	errs := make(chan error, 16)
	for range 16 {
		go func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				p := &corev1.Pod{
					ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p-%05d", i)},
					Spec: corev1.PodSpec{Containers: []corev1.Container{{
						Name: "c", Image: "mcr.microsoft.com/windows/nanoserver:ltsc2022",
						// An idle container, as most of a real node's are:
						// `ping -t` would print a line a second for each of
						// the 3,000 and measure the simulated shell instead.
						Command:   []string{"pause"},
						Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m")}},
					}}},
				}
				mutate(p)
				created, err := cs.CoreV1().Pods(ns).Create(ctx, p, metav1.CreateOptions{})
				if err == nil && markRunning != nil {
					err = markRunning(created)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	select {
	case <-allRunning:
	case err := <-errs:
		b.Fatal(err)
	case <-time.After(10 * time.Minute):
		mu.Lock()
		defer mu.Unlock()
		b.Fatalf("%s: %d of %d pods Running after 10 minutes", ns, len(running), n)
	}
	return float64(n) / time.Since(start).Seconds()
}

// envCount is the positive number in $name (a smaller or larger run),
// else def; what says what it counts.
func envCount(b *testing.B, name, what string, def int) int {
	b.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		b.Fatalf("%s=%q: want a positive number of %s", name, s, what)
	}
	return n
}

// namespaces creates each namespace and waits for its default
// ServiceAccount.
func namespaces(b *testing.B, cs kubernetes.Interface, names ...string) {
	b.Helper()
	for _, ns := range names {
		if _, err := cs.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
		waitSA(b, cs, ns)
	}
}

func waitSA(b *testing.B, cs kubernetes.Interface, ns string) {
	b.Helper()
	for range 300 {
		if _, err := cs.CoreV1().ServiceAccounts(ns).Get(context.Background(), "default", metav1.GetOptions{}); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.Fatalf("namespace %s has no default ServiceAccount", ns)
}

// BenchmarkIdleNodeMemory brings up 500 idle Windows nodes and reports
// simnode's resident memory per node, net of a 10-node baseline.
func BenchmarkIdleNodeMemory(b *testing.B) {
	rss := func(nodes int) float64 {
		cfg := strings.ReplaceAll(`apiVersion: wink.dev/v1alpha1
kind: Cluster
networking:
  nodeCIDRMaskSize: 26
nodePools:
- name: win
  os: windows
  count: N
- name: linux
  os: linux
`, "count: N", "count: "+strconv.Itoa(nodes))
		_, opts, _ := up(b, "bench-mem-"+strconv.Itoa(nodes), cfg, false)
		time.Sleep(15 * time.Second) // a lease renewal round, settled
		pid, err := harness.ComponentPID(opts, "simnode")
		if err != nil {
			b.Fatal(err)
		}
		kib := procStatusKiB(b, pid, "VmRSS")
		if err := harness.Delete(context.Background(), opts); err != nil {
			b.Fatal(err)
		}
		return kib
	}
	for range b.N {
		base := rss(10)
		big := rss(500)
		perNode := (big - base) / 490
		b.ReportMetric(big/1024, "MiB-at-500")
		b.ReportMetric(perNode, "KiB/node")
		fmt.Printf("simnode RSS: %.0f MiB with 11 nodes, %.0f MiB with 501 nodes: %.0f KiB per idle node\n", base/1024, big/1024, perNode)
	}
}

// procStatusKiB is a memory field of process pid's /proc status (VmRSS,
// VmHWM), in KiB.
func procStatusKiB(b *testing.B, pid int, field string) float64 {
	b.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kib, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				b.Fatal(err)
			}
			return kib
		}
	}
	b.Fatal("no " + field)
	return 0
}
