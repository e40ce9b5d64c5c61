package resources

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/version"
	statsapi "k8s.io/kubelet/pkg/apis/stats/v1alpha1"
	clocktesting "k8s.io/utils/clock/testing"
	"wink.dev/wink/simnode/facts"
)

var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func node(cpu, mem string) *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: "n1"},
		Status: corev1.NodeStatus{Capacity: corev1.ResourceList{
			corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(mem),
			corev1.ResourceEphemeralStorage: resource.MustParse("100Gi"),
		}},
	}
}

type ctr struct {
	name, image        string
	reqMem, limMem     string
	reqCPU, limCPU     string
	cpuUsage, memUsage string
}

func pod(name string, containers ...ctr) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID("uid-" + name), Annotations: map[string]string{}},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning},
	}
	for _, c := range containers {
		spec := corev1.Container{Name: c.name, Image: c.image, Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{}, Limits: corev1.ResourceList{}}}
		for _, r := range []struct {
			v    string
			list corev1.ResourceList
			name corev1.ResourceName
		}{
			{c.reqMem, spec.Resources.Requests, corev1.ResourceMemory},
			{c.limMem, spec.Resources.Limits, corev1.ResourceMemory},
			{c.reqCPU, spec.Resources.Requests, corev1.ResourceCPU},
			{c.limCPU, spec.Resources.Limits, corev1.ResourceCPU},
		} {
			if r.v != "" {
				r.list[r.name] = resource.MustParse(r.v)
			}
		}
		p.Spec.Containers = append(p.Spec.Containers, spec)
		if c.cpuUsage != "" {
			p.Annotations[CPUUsageAnnotationPrefix+c.name] = c.cpuUsage
		}
		if c.memUsage != "" {
			p.Annotations[MemoryUsageAnnotationPrefix+c.name] = c.memUsage
		}
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{
			Name: c.name, ContainerID: "containerd://" + name + "-" + c.name,
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(t0.Add(-time.Minute))}},
		})
	}
	return p
}

type fixture struct {
	clock *clocktesting.FakePassiveClock
	pods  []*corev1.Pod
	res   *Resources
}

func newFixture(os facts.OS, n *corev1.Node, pods ...*corev1.Pod) *fixture {
	f := &fixture{clock: clocktesting.NewFakePassiveClock(t0), pods: pods}
	f.res = New(Config{
		OS:                        os,
		Node:                      func() *corev1.Node { return n },
		Pods:                      FromLister(func() []*corev1.Pod { return f.pods }),
		BootTime:                  t0.Add(-time.Hour),
		WindowsGlobalCommitMemory: true,
		KubeletVersion:            version.MustParseSemantic("v1.35.4"),
		Clock:                     f.clock,
	})
	return f
}

func usageOf(s *Snapshot, pod, container string) ContainerUsage {
	for _, c := range s.Containers {
		if c.Pod.Name == pod && c.Name == container {
			return c
		}
	}
	return ContainerUsage{}
}

// TestCPUMaximum checks B7's arithmetic against calculateCPUMaximum.
func TestCPUMaximum(t *testing.T) {
	for _, tc := range []struct {
		name              string
		os                string
		limitMilli, ncpu  int64
		wantMax, wantUsed int64
	}{
		{name: "500m on 4 CPUs", os: "windows", limitMilli: 500, ncpu: 4, wantMax: 1250, wantUsed: 500},
		{name: "1 CPU on 3 CPUs truncates", os: "windows", limitMilli: 1000, ncpu: 3, wantMax: 3333, wantUsed: 999},
		{name: "tiny limit clamps to 1", os: "windows", limitMilli: 1, ncpu: 64, wantMax: 1, wantUsed: 6},
		{name: "above the machine clamps to 10000", os: "windows", limitMilli: 16000, ncpu: 4, wantMax: 10000, wantUsed: 4000},
		{name: "linux is the quota", os: "linux", limitMilli: 250, ncpu: 4, wantMax: 625, wantUsed: 250},
		{name: "linux minimum quota", os: "linux", limitMilli: 1, ncpu: 4, wantMax: 2, wantUsed: 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := CPUMaximum(tc.limitMilli, tc.ncpu); got != tc.wantMax {
				t.Errorf("CPUMaximum(%d, %d) = %d, want %d", tc.limitMilli, tc.ncpu, got, tc.wantMax)
			}
			if got := CPULimitMilli(facts.OS(tc.os), tc.limitMilli, tc.ncpu); got != tc.wantUsed {
				t.Errorf("CPULimitMilli = %d, want %d", got, tc.wantUsed)
			}
		})
	}
}

// TestUsage checks demand, annotations and clamping per OS (B5, B7).
func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		name               string
		os                 string
		c                  ctr
		wantCPU            int64
		wantWS, wantCommit string
		wantOver, wantOOM  bool
	}{
		{name: "nanoserver default", os: "windows", c: ctr{name: "c", image: "mcr.microsoft.com/windows/nanoserver:ltsc2022"},
			wantCPU: 5, wantWS: "30Mi", wantCommit: "30Mi"},
		{name: "servercore default", os: "windows", c: ctr{name: "c", image: "mcr.microsoft.com/windows/servercore:ltsc2022"},
			wantCPU: 5, wantWS: "80Mi", wantCommit: "80Mi"},
		{name: "annotations", os: "windows", c: ctr{name: "c", image: "x", cpuUsage: "250m", memUsage: "600Mi"},
			wantCPU: 250, wantWS: "600Mi", wantCommit: "600Mi"},
		{name: "windows CPU capped by the CPU maximum", os: "windows", c: ctr{name: "c", image: "x", cpuUsage: "3", limCPU: "1"},
			wantCPU: 1000, wantWS: "50Mi", wantCommit: "50Mi"},
		{name: "requests cap nothing", os: "windows", c: ctr{name: "c", image: "x", cpuUsage: "2", reqCPU: "100m", reqMem: "10Mi", memUsage: "1Gi"},
			wantCPU: 2000, wantWS: "1Gi", wantCommit: "1Gi"},
		{name: "CPU capped by the node", os: "windows", c: ctr{name: "c", image: "x", cpuUsage: "64"},
			wantCPU: 4000, wantWS: "50Mi", wantCommit: "50Mi"},
		{name: "windows over the memory limit pages, never OOM (B5)", os: "windows", c: ctr{name: "c", image: "x", memUsage: "800Mi", limMem: "500Mi"},
			wantCPU: 5, wantWS: "500Mi", wantCommit: "800Mi", wantOver: true},
		{name: "linux over the memory limit is OOM killed", os: "linux", c: ctr{name: "c", image: "busybox", memUsage: "800Mi", limMem: "500Mi"},
			wantCPU: 2, wantWS: "500Mi", wantCommit: "500Mi", wantOver: true, wantOOM: true},
		{name: "bad annotation keeps the default", os: "linux", c: ctr{name: "c", image: "busybox", memUsage: "lots"},
			wantCPU: 2, wantWS: "10Mi", wantCommit: "10Mi"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(facts.OS(tc.os), node("4", "16Gi"), pod("p", tc.c))
			u := usageOf(f.res.Sample(), "p", "c")
			if u.MilliCPU != tc.wantCPU {
				t.Errorf("cpu %dm, want %dm", u.MilliCPU, tc.wantCPU)
			}
			if want := resource.MustParse(tc.wantWS); u.WorkingSet != want.Value() {
				t.Errorf("working set %d, want %s", u.WorkingSet, tc.wantWS)
			}
			if want := resource.MustParse(tc.wantCommit); u.Commit != want.Value() {
				t.Errorf("commit %d, want %s", u.Commit, tc.wantCommit)
			}
			if u.OverMemoryLimit != tc.wantOver {
				t.Errorf("over limit %v, want %v", u.OverMemoryLimit, tc.wantOver)
			}
			select {
			case k := <-f.res.OOMKills():
				if !tc.wantOOM {
					t.Errorf("unexpected OOM kill %+v", k)
				} else if k.ExitCode != 137 || k.Reason != "OOMKilled" || k.ContainerID != "containerd://p-c" {
					t.Errorf("kill %+v, want exit 137 OOMKilled of containerd://p-c", k)
				}
			default:
				if tc.wantOOM {
					t.Error("no OOM kill")
				}
			}
			// One kill per container instance.
			f.res.Sample()
			select {
			case k := <-f.res.OOMKills():
				t.Errorf("second kill of the same instance: %+v", k)
			default:
			}
		})
	}
}

// TestCumulativeCPU checks that cumulative CPU starts above zero, follows
// the rate, and never goes back when the rate changes.
func TestCumulativeCPU(t *testing.T) {
	p := pod("p", ctr{name: "c", image: "x", cpuUsage: "500m"})
	f := newFixture("windows", node("4", "16Gi"), p)
	s1 := f.res.Sample()
	c1 := usageOf(s1, "p", "c").CPUCoreNanoSeconds
	// Started a minute ago at 500m: 30 s of CPU plus the start-up cost.
	if want := uint64(30*time.Second + startupCPU); c1 != want {
		t.Errorf("first cumulative %d, want %d", c1, want)
	}
	f.clock.SetTime(t0.Add(10 * time.Second))
	s2 := f.res.Sample()
	if got, want := usageOf(s2, "p", "c").CPUCoreNanoSeconds-c1, uint64(5*time.Second); got != want {
		t.Errorf("10 s at 500m added %d, want %d", got, want)
	}
	if s2.NodeCPUCoreNanoSeconds <= s1.NodeCPUCoreNanoSeconds {
		t.Errorf("node cumulative went from %d to %d", s1.NodeCPUCoreNanoSeconds, s2.NodeCPUCoreNanoSeconds)
	}
	p.Annotations[CPUUsageAnnotationPrefix+"c"] = "0"
	f.clock.SetTime(t0.Add(20 * time.Second))
	s3 := f.res.Sample()
	if usageOf(s3, "p", "c").CPUCoreNanoSeconds != usageOf(s2, "p", "c").CPUCoreNanoSeconds {
		t.Error("cumulative changed at rate 0")
	}
	if s3.NodeCPUCoreNanoSeconds < s2.NodeCPUCoreNanoSeconds {
		t.Error("node cumulative went back")
	}
}

// TestMemoryAvailable checks the eviction signal per OS.
func TestMemoryAvailable(t *testing.T) {
	for _, tc := range []struct {
		name          string
		os            string
		c             ctr
		wantAvailable string
		wantCapacity  string
	}{
		// 16Gi − 2Gi system commit − 10Gi container commit (over its limit:
		// the working set is 1Gi, the commit charge is all of it).
		{name: "windows: commit charge", os: "windows", c: ctr{name: "c", image: "x", memUsage: "10Gi", limMem: "1Gi"},
			wantAvailable: "4Gi", wantCapacity: "16Gi"},
		// 8Gi − 512Mi system − 1Gi working set.
		{name: "linux: working set", os: "linux", c: ctr{name: "c", image: "x", memUsage: "1Gi"},
			wantAvailable: "6656Mi", wantCapacity: "8Gi"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			capacity := "16Gi"
			if tc.os == "linux" {
				capacity = "8Gi"
			}
			f := newFixture(facts.OS(tc.os), node("4", capacity), pod("p", tc.c))
			avail, cp := f.res.Sample().MemoryAvailable()
			if got := resource.NewQuantity(avail, resource.BinarySI).String(); got != tc.wantAvailable {
				t.Errorf("available %s, want %s", got, tc.wantAvailable)
			}
			if got := resource.NewQuantity(cp, resource.BinarySI).String(); got != tc.wantCapacity {
				t.Errorf("capacity %s, want %s", got, tc.wantCapacity)
			}
		})
	}
}

// TestSummary checks what e2e kubelet_stats.go and metrics-server read
// (B14): per-pod and per-container CPU and working set above zero, log stats
// with available bytes, and the system containers.
func TestSummary(t *testing.T) {
	for _, tc := range []struct {
		name       string
		os         string
		commit     bool
		wantSystem []string
		wantCommit bool
	}{
		{name: "windows v1.31+", os: "windows", commit: true, wantSystem: []string{"pods", "windows-global-commit-memory"}, wantCommit: true},
		{name: "windows before v1.31", os: "windows", commit: false, wantSystem: []string{"pods"}},
		{name: "linux", os: "linux", commit: true, wantSystem: []string{"kubelet", "runtime", "pods"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(facts.OS(tc.os), node("4", "16Gi"),
				pod("a", ctr{name: "c1", image: "x"}, ctr{name: "c2", image: "x", memUsage: "100Mi"}),
				pod("b", ctr{name: "c", image: "x"}))
			f.res.cfg.WindowsGlobalCommitMemory = tc.commit
			def := DefaultDemand(facts.OS(tc.os), "x").Memory
			data, err := json.Marshal(f.res.Summary())
			if err != nil {
				t.Fatal(err)
			}
			var s statsapi.Summary
			if err := json.Unmarshal(data, &s); err != nil {
				t.Fatal(err)
			}
			if s.Node.NodeName != "n1" || s.Node.CPU == nil || *s.Node.CPU.UsageCoreNanoSeconds == 0 || *s.Node.Memory.WorkingSetBytes == 0 {
				t.Errorf("node stats incomplete: %s", data)
			}
			var names []string
			for _, c := range s.Node.SystemContainers {
				names = append(names, c.Name)
				if c.Name == "windows-global-commit-memory" {
					// 16Gi − 2Gi system − 50Mi − 100Mi − 50Mi.
					if got := *c.Memory.AvailableBytes; got != uint64(16<<30-2<<30-200<<20) {
						t.Errorf("commit available %d", got)
					}
				}
				if want := uint64(2*def + 100<<20); c.Name == "pods" && *c.Memory.WorkingSetBytes != want {
					t.Errorf("pods working set %d, want %d", *c.Memory.WorkingSetBytes, want)
				}
			}
			if strings.Join(names, ",") != strings.Join(tc.wantSystem, ",") {
				t.Errorf("system containers %v, want %v", names, tc.wantSystem)
			}
			if len(s.Pods) != 2 {
				t.Fatalf("%d pods, want 2", len(s.Pods))
			}
			for _, p := range s.Pods {
				if *p.CPU.UsageCoreNanoSeconds == 0 || *p.Memory.WorkingSetBytes == 0 {
					t.Errorf("pod %s: cpu %d, working set %d", p.PodRef.Name, *p.CPU.UsageCoreNanoSeconds, *p.Memory.WorkingSetBytes)
				}
				if p.PodRef.UID != "uid-"+p.PodRef.Name || p.PodRef.Namespace != "ns" {
					t.Errorf("podRef %+v", p.PodRef)
				}
				for _, c := range p.Containers {
					if c.Logs == nil || *c.Logs.AvailableBytes == 0 || c.CPU == nil || c.Memory == nil {
						t.Errorf("container %s/%s stats incomplete", p.PodRef.Name, c.Name)
					}
				}
			}
			if p, want := s.Pods[0], uint64(def+100<<20); p.PodRef.Name != "a" || *p.Memory.WorkingSetBytes != want {
				t.Errorf("pod %s working set %d, want a with %d", p.PodRef.Name, *p.Memory.WorkingSetBytes, want)
			}
		})
	}
}

// TestResourceMetrics checks the exposition text against the kubelet's
// names, labels and help texts, byte for byte.
func TestResourceMetrics(t *testing.T) {
	mk := func() *Snapshot {
		p := pod("web", ctr{name: "app", image: "x", cpuUsage: "250m", memUsage: "100Mi"})
		f := newFixture("windows", node("4", "16Gi"), p)
		s := f.res.Sample()
		return s
	}
	ts := "1748779200000"
	for _, tc := range []struct {
		name    string
		kubelet string
		want    string
	}{
		{name: "v1.35", kubelet: "v1.35.4", want: `# HELP container_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the container in core-seconds
# TYPE container_cpu_usage_seconds_total counter
container_cpu_usage_seconds_total{container="app",namespace="ns",pod="web"} 15.02 ` + ts + `
# HELP container_memory_working_set_bytes [STABLE] Current working set of the container in bytes
# TYPE container_memory_working_set_bytes gauge
container_memory_working_set_bytes{container="app",namespace="ns",pod="web"} 1.048576e+08 ` + ts + `
# HELP container_start_time_seconds [STABLE] Start time of the container since unix epoch in seconds
# TYPE container_start_time_seconds gauge
container_start_time_seconds{container="app",namespace="ns",pod="web"} 1.74877914e+09
# HELP node_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the node in core-seconds
# TYPE node_cpu_usage_seconds_total counter
node_cpu_usage_seconds_total 376.02 ` + ts + `
# HELP node_memory_working_set_bytes [STABLE] Current working set of the node in bytes
# TYPE node_memory_working_set_bytes gauge
node_memory_working_set_bytes 1.715470336e+09 ` + ts + `
# HELP pod_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the pod in core-seconds
# TYPE pod_cpu_usage_seconds_total counter
pod_cpu_usage_seconds_total{namespace="ns",pod="web"} 15.02 ` + ts + `
# HELP pod_memory_working_set_bytes [STABLE] Current working set of the pod in bytes
# TYPE pod_memory_working_set_bytes gauge
pod_memory_working_set_bytes{namespace="ns",pod="web"} 1.048576e+08 ` + ts + `
# HELP resource_scrape_error [STABLE] 1 if there was an error while getting container metrics, 0 otherwise
# TYPE resource_scrape_error gauge
resource_scrape_error 0
`},
		{name: "v1.28 has scrape_error", kubelet: "v1.28.0", want: "# HELP scrape_error [ALPHA] 1 if there was an error while getting container metrics, 0 otherwise\n# TYPE scrape_error gauge\nscrape_error 0\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := mk().WriteResourceMetrics(&buf, version.MustParseSemantic(tc.kubelet)); err != nil {
				t.Fatal(err)
			}
			got := buf.String()
			if tc.kubelet == "v1.35.4" {
				if got != tc.want {
					t.Errorf("got\n%s\nwant\n%s", got, tc.want)
				}
				return
			}
			if !strings.HasSuffix(got, tc.want) || strings.Contains(got, "resource_scrape_error") {
				t.Errorf("got\n%s\nwant suffix\n%s", got, tc.want)
			}
		})
	}
}

// TestBusyThreads checks that a container's computing threads demand a
// core each and that the Windows CPU maximum caps them (B7; e2e's Cpu
// Resources spec: 8 PowerShell jobs, limit 500m, usage under the limit).
func TestBusyThreads(t *testing.T) {
	for _, tc := range []struct {
		name    string
		os      string
		threads int
		limCPU  string
		wantCPU int64
	}{
		{name: "8 threads, limit 500m", os: "windows", threads: 8, limCPU: "500m", wantCPU: 500},
		{name: "8 threads, no limit: the node's 4 cores", os: "windows", threads: 8, wantCPU: 4000},
		{name: "one thread", os: "windows", threads: 1, limCPU: "2", wantCPU: 1000},
		{name: "idle", os: "windows", threads: 0, limCPU: "500m", wantCPU: 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(facts.OS(tc.os), node("4", "16Gi"), pod("p", ctr{name: "c", image: "mcr.microsoft.com/windows/nanoserver:ltsc2022", limCPU: tc.limCPU}))
			f.res.cfg.BusyThreads = func(id string) int {
				if id != "containerd://p-c" {
					t.Errorf("asked for %q", id)
				}
				return tc.threads
			}
			if u := usageOf(f.res.Sample(), "p", "c"); u.MilliCPU != tc.wantCPU {
				t.Errorf("cpu %dm, want %dm", u.MilliCPU, tc.wantCPU)
			}
		})
	}
}

// TestMemoryHeld checks that memory a container's programs hold adds to
// its working set and commit (B5: no OOM on Windows, the commit counts for
// memory.available, B6).
func TestMemoryHeld(t *testing.T) {
	f := newFixture("windows", node("4", "16Gi"), pod("p", ctr{name: "c", image: "mcr.microsoft.com/windows/nanoserver:ltsc2022", limMem: "1Gi"}))
	f.res.cfg.MemoryHeld = func(string) int64 { return 3 << 30 }
	u := usageOf(f.res.Sample(), "p", "c")
	if want := int64(3<<30 + 30<<20); u.Commit != want || u.WorkingSet != 1<<30 || !u.OverMemoryLimit {
		t.Errorf("commit %d working set %d over %v, want commit %d, working set 1Gi (the limit), over", u.Commit, u.WorkingSet, u.OverMemoryLimit, want)
	}
}
