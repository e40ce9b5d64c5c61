package wire

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	corev1listers "k8s.io/client-go/listers/core/v1"
	discoverylisters "k8s.io/client-go/listers/discovery/v1"
	"k8s.io/client-go/tools/cache"

	"wink.dev/wink/simnode/images"
	"wink.dev/wink/simnode/internal/logs"
	"wink.dev/wink/simnode/internal/pods"
	"wink.dev/wink/simnode/network"
	"wink.dev/wink/simnode/rules"
)

// BenchmarkIdlePingProcesses is the runtime alone (no control plane) with
// WINK_IDLE_CONTAINERS (default 1,000) `cmd /c ping -t localhost`
// containers on one node, the real shell, network model, log files and
// clock: the CPU the process uses over a 10 s window once they run, as %
// of one core (issue 13's goal for the whole simnode: < 5 %).
// WINK_IDLE_PROFILE=<file> writes a CPU profile of that window alone
// (-cpuprofile has the pods' creation too).
func BenchmarkIdlePingProcesses(b *testing.B) {
	n := 1000
	if s := os.Getenv("WINK_IDLE_CONTAINERS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil {
			b.Fatalf("WINK_IDLE_CONTAINERS=%q: want a number of containers", s)
		}
		n = v
	}
	for range b.N {
		dir := b.TempDir()
		node := windowsNode()
		node.Spec.PodCIDR = "10.244.0.0/20"
		info, err := pods.NodeInfoFromNode(node)
		if err != nil {
			b.Fatal(err)
		}
		podIdx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
		nodeIdx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
		if err := nodeIdx.Add(node); err != nil {
			b.Fatal(err)
		}
		empty := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
		var prov *pods.Provider
		model := network.New(&network.Listers{
			PodLister:           corev1listers.NewPodLister(podIdx),
			ServiceLister:       corev1listers.NewServiceLister(empty),
			EndpointSliceLister: discoverylisters.NewEndpointSliceLister(empty),
			NodeLister:          corev1listers.NewNodeLister(nodeIdx),
		}, NetworkOptions(network.Options{}, func(string) *pods.Provider { return prov }))
		prov = pods.NewProvider(pods.Config{
			Node: info, Rules: rules.Default(), Pods: corev1listers.NewPodLister(podIdx),
			NodeObject: func() *corev1.Node { return node },
			Recorder:   &pods.Recorder{},
			Logs:       logs.NewFileStore(filepath.Join(dir, "root"), logs.Rotation{}),
			StartDelay: 10 * time.Millisecond, StopDelay: 10 * time.Millisecond,
			Shell: Shell{}, Images: Images{Catalog: images.Default()}, Network: Network{Model: model},
			StateDir: filepath.Join(dir, "state"),
			Log:      slog.New(slog.NewTextHandler(io.Discard, nil)),
		})
		ctx := context.Background()
		var list []*corev1.Pod
		for i := range n {
			p := pod(fmt.Sprintf("ping-%04d", i), corev1.RestartPolicyAlways, "mcr.microsoft.com/windows/nanoserver:ltsc2022", "cmd", "/c", "ping -t localhost")
			p.UID = types.UID(fmt.Sprintf("uid-ping-%04d", i))
			p.CreationTimestamp = metav1.Now()
			if err := podIdx.Add(p); err != nil {
				b.Fatal(err)
			}
			if err := prov.CreatePod(ctx, p); err != nil {
				b.Fatal(err)
			}
			list = append(list, p)
		}
		deadline := time.Now().Add(2 * time.Minute)
		for _, p := range list {
			for {
				st, err := prov.GetPodStatus(ctx, p.Namespace, p.Name)
				if err == nil && st.Phase == corev1.PodRunning {
					break
				}
				if time.Now().After(deadline) {
					b.Fatalf("%s not Running after 2 minutes: %v %v", p.Name, st, err)
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
		time.Sleep(15 * time.Second) // past the first wakes of every process
		const window = 10 * time.Second
		if path := os.Getenv("WINK_IDLE_PROFILE"); path != "" {
			out, err := os.Create(path)
			if err != nil {
				b.Fatalf("WINK_IDLE_PROFILE: %v", err)
			}
			if err := pprof.StartCPUProfile(out); err != nil {
				b.Fatalf("WINK_IDLE_PROFILE: %v (with -cpuprofile, leave it unset)", err)
			}
			defer out.Close()
		}
		before := cpuTime(b)
		b.ResetTimer()
		time.Sleep(window)
		b.StopTimer()
		pprof.StopCPUProfile()
		used := cpuTime(b) - before
		pct := 100 * used.Seconds() / window.Seconds()
		b.ReportMetric(pct, "%CPU")
		fmt.Printf("%d running `ping -t localhost` containers (runtime alone): %.1f%% of one CPU over %s, RSS %.0f MiB\n", n, pct, window, rssMiB(b))
		for _, p := range list {
			_ = prov.DeletePod(ctx, p)
		}
	}
}

func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func rssMiB(b *testing.B) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kib, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kib / 1024
		}
	}
	return 0
}
