package resources

import (
	"bytes"
	"context"
	"log/slog"
	"sort"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/version"
	statsapi "k8s.io/kubelet/pkg/apis/stats/v1alpha1"
	"k8s.io/utils/clock"
	"wink.dev/wink/simnode/facts"
)

// Container is one running container instance, as the runtime knows it.
type Container struct {
	Pod       *corev1.Pod
	Name      string
	StartTime time.Time
	// ID is the runtime's container ID (containerd://...); a restart gets a
	// new one.
	ID string
}

// Pods tells which containers run on the node. The runtime implements it;
// FromLister is the stand-in that reads the pod informer.
type Pods interface {
	RunningContainers() []Container
}

// PodsFunc adapts a function to Pods.
type PodsFunc func() []Container

// RunningContainers calls f.
func (f PodsFunc) RunningContainers() []Container { return f() }

// Kill is a Linux OOM kill the runtime must carry out (see the package
// documentation for the contract).
type Kill struct {
	Pod         *corev1.Pod
	Container   string
	ContainerID string
	// ExitCode is 137 (SIGKILL) and Reason OOMKilled, as containerd reports
	// an OOM-killed container.
	ExitCode int32
	Reason   string
	Time     time.Time
}

// OOMHandler carries out OOM kills; the runtime implements it (the wiring
// feeds it OOMKills).
type OOMHandler interface {
	HandleOOMKill(Kill)
}

// OOM kill constants.
const (
	OOMKilledExitCode = 137
	OOMKilledReason   = "OOMKilled"
)

// startupCPU is the CPU time a container has used by the time it is first
// seen: a running process has never used none (metrics-server drops
// containers whose cumulative CPU is 0).
const startupCPU = 20 * time.Millisecond

// Config configures the resources of one node.
type Config struct {
	// OS is the node's.
	OS facts.OS
	// Node returns the current Node object (name, capacity).
	Node func() *corev1.Node
	// Pods lists the running containers.
	Pods Pods
	// BootTime is when the node (simulated) booted: the node's StartTime
	// and the origin of its cumulative CPU.
	BootTime time.Time
	// WindowsGlobalCommitMemory reports the system container
	// windows-global-commit-memory (Windows kubelets ≥ v1.31, with the
	// Windows memory eviction signal of PR 122922).
	WindowsGlobalCommitMemory bool
	// KubeletVersion chooses version-dependent metric names.
	KubeletVersion *version.Version
	// BusyThreads, when set, tells how many threads of a container (by
	// runtime ID) compute: each demands a whole core on top of the
	// container's idle demand, which the CPU limit then caps (B7).
	BusyThreads func(containerID string) int
	// MemoryHeld, when set, tells how many bytes a container's programs
	// hold (testlimit.exe): they add to its memory demand (B5, B6).
	MemoryHeld func(containerID string) int64
	// DiskUsage, when set, measures what a pod's containers wrote (its
	// layers, logs and emptyDirs) for the Summary API (issue 22).
	DiskUsage func(*corev1.Pod) (PodStorage, bool)
	// Clock defaults to the real clock.
	Clock clock.PassiveClock
	Log   *slog.Logger
}

// Resources samples the usage of one node's containers. It is safe for
// concurrent use.
type Resources struct {
	cfg Config
	oom chan Kill

	mu         sync.Mutex
	containers map[string]*cstate
	nodeCPU    float64 // cumulative core-nanoseconds
	nodeLast   time.Time
	oomSent    map[string]bool
	warned     map[string]bool
}

type cstate struct {
	cpu  float64 // cumulative core-nanoseconds
	last time.Time
}

// New returns the resources of one node.
func New(cfg Config) *Resources {
	if cfg.Clock == nil {
		cfg.Clock = clock.RealClock{}
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Resources{
		cfg:        cfg,
		oom:        make(chan Kill, 64),
		containers: map[string]*cstate{},
		oomSent:    map[string]bool{},
		warned:     map[string]bool{},
	}
}

// Summary samples now and returns the Summary API (/stats/summary).
func (r *Resources) Summary() *statsapi.Summary {
	snap := r.Sample()
	if r.cfg.DiskUsage != nil {
		snap.Disk = map[types.UID]PodStorage{}
		for _, c := range snap.Containers {
			if _, ok := snap.Disk[c.Pod.UID]; ok {
				continue
			}
			if d, ok := r.cfg.DiskUsage(c.Pod); ok {
				snap.Disk[c.Pod.UID] = d
			}
		}
	}
	return snap.Summary()
}

// ResourceMetrics samples now and writes /metrics/resource.
func (r *Resources) ResourceMetrics(w *bytes.Buffer) error {
	return r.Sample().WriteResourceMetrics(w, r.cfg.KubeletVersion)
}

// OOMKills delivers the Linux OOM kills the runtime must carry out.
func (r *Resources) OOMKills() <-chan Kill { return r.oom }

// Run samples every interval (for OOM kills) until ctx is done.
func (r *Resources) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			r.Sample()
		}
	}
}

// ContainerUsage is one container's usage at a sample.
type ContainerUsage struct {
	Container
	// Demand is what the container tries to use (annotations or defaults).
	Demand Demand
	// MilliCPU is the usage rate after the CPU limit.
	MilliCPU int64
	// CPUCoreNanoSeconds is the cumulative CPU time since the container
	// started.
	CPUCoreNanoSeconds uint64
	// WorkingSet is the memory resident, at most the limit.
	WorkingSet int64
	// Commit is the memory committed: the whole demand on Windows, the
	// working set on Linux.
	Commit int64
	// MemoryLimit is the container's memory limit in bytes (0: none).
	MemoryLimit int64
	// OverMemoryLimit: the demand exceeds the limit (Linux: OOM kill;
	// Windows: paging).
	OverMemoryLimit bool
}

// Snapshot is the node's usage at one instant.
type Snapshot struct {
	Time     time.Time
	OS       facts.OS
	NodeName string
	BootTime time.Time
	// Capacity of the node.
	MilliCPUCapacity  int64
	MemoryCapacity    int64
	EphemeralCapacity int64
	System            System
	// Node totals: system plus containers.
	NodeMilliCPU           int64
	NodeCPUCoreNanoSeconds uint64
	NodeWorkingSet         int64
	// Windows commit charge: CommitLimit is the memory capacity (no page
	// file), CommitTotal the system's plus every container's commit.
	CommitLimit int64
	CommitTotal int64
	// Containers sorted by namespace, pod and name.
	Containers                []ContainerUsage
	WindowsGlobalCommitMemory bool
	// Disk is what each pod's containers wrote, by pod UID, measured for
	// the Summary API (Config.DiskUsage, issue 22); a pod not in it has
	// fixed figures.
	Disk map[types.UID]PodStorage
}

// MemoryAvailable is the eviction signal memory.available and the capacity
// a percentage threshold applies to (see the package documentation).
func (s *Snapshot) MemoryAvailable() (available, capacity int64) {
	if s.OS.IsWindows() {
		return max(s.CommitLimit-s.CommitTotal, 0), s.CommitLimit
	}
	return max(s.MemoryCapacity-s.NodeWorkingSet, 0), s.MemoryCapacity
}

// PodWorkingSet sums the working sets of a pod's containers; ok is false
// when the pod has no running container in the snapshot.
func (s *Snapshot) PodWorkingSet(pod *corev1.Pod) (ws int64, ok bool) {
	for _, c := range s.Containers {
		if c.Pod.UID == pod.UID && c.Pod.Namespace == pod.Namespace && c.Pod.Name == pod.Name {
			ws += c.WorkingSet
			ok = true
		}
	}
	return ws, ok
}

// CPULimitMilli is the CPU a container may use, in millicores, given its
// limit (0: none) and the node's processors. Windows (B7): the limit is
// turned into a job object CPU maximum,
//
//	cpuMaximum = 10 * milliCPU / NumCPU, clamped to [1, 10000]
//
// (calculateCPUMaximum, pkg/kubelet/kuberuntime/kuberuntime_container_windows.go)
// and the container gets cpuMaximum * NumCPU / 10 millicores back (the
// reverse formula of toKubeContainerResources there). Linux: the CFS quota
// gives exactly the limit, at least the kernel's 1ms-per-100ms minimum.
func CPULimitMilli(os facts.OS, limitMilli, numCPU int64) int64 {
	if limitMilli <= 0 {
		return 0
	}
	if numCPU < 1 {
		numCPU = 1
	}
	if os.IsWindows() {
		return CPUMaximum(limitMilli, numCPU) * numCPU / 10
	}
	return max(limitMilli, 10)
}

// CPUMaximum is the kubelet's calculateCPUMaximum.
func CPUMaximum(limitMilli, numCPU int64) int64 {
	m := 10 * limitMilli / numCPU
	if m < 1 {
		m = 1
	} else if m > 10000 {
		m = 10000
	}
	return m
}

// usage computes one container's rates and memory from its spec and
// annotations.
func (r *Resources) usage(c Container, milliCapacity int64, numCPU int64) ContainerUsage {
	u := ContainerUsage{Container: c}
	var spec *corev1.Container
	for i := range c.Pod.Spec.Containers {
		if c.Pod.Spec.Containers[i].Name == c.Name {
			spec = &c.Pod.Spec.Containers[i]
		}
	}
	if spec == nil {
		for i := range c.Pod.Spec.InitContainers {
			if c.Pod.Spec.InitContainers[i].Name == c.Name {
				spec = &c.Pod.Spec.InitContainers[i]
			}
		}
	}
	image := ""
	if spec != nil {
		image = spec.Image
	}
	d, bad := annotatedDemand(c.Pod.Annotations, c.Name, DefaultDemand(r.cfg.OS, image))
	for _, b := range bad {
		key := string(c.Pod.UID) + "/" + b
		if !r.warned[key] {
			r.warned[key] = true
			r.cfg.Log.Warn("ignoring unparsable usage annotation", "pod", c.Pod.Namespace+"/"+c.Pod.Name, "annotation", b)
		}
	}
	if r.cfg.BusyThreads != nil && c.ID != "" {
		if n := r.cfg.BusyThreads(c.ID); n > 0 {
			d.MilliCPU = max(d.MilliCPU, int64(n)*1000)
		}
	}
	if r.cfg.MemoryHeld != nil && c.ID != "" {
		d.Memory += max(r.cfg.MemoryHeld(c.ID), 0)
	}
	u.Demand = d
	u.MilliCPU = d.MilliCPU
	u.WorkingSet = d.Memory
	if spec != nil {
		if l, ok := spec.Resources.Limits[corev1.ResourceCPU]; ok {
			if lim := CPULimitMilli(r.cfg.OS, l.MilliValue(), numCPU); lim > 0 {
				u.MilliCPU = min(u.MilliCPU, lim)
			}
		}
		if l, ok := spec.Resources.Limits[corev1.ResourceMemory]; ok && l.Value() > 0 {
			u.MemoryLimit = l.Value()
		}
	}
	if milliCapacity > 0 {
		u.MilliCPU = min(u.MilliCPU, milliCapacity)
	}
	if u.MemoryLimit > 0 && d.Memory > u.MemoryLimit {
		u.OverMemoryLimit = true
		u.WorkingSet = u.MemoryLimit
	}
	u.Commit = u.WorkingSet
	if r.cfg.OS.IsWindows() {
		u.Commit = d.Memory
	}
	return u
}

func containerKey(c Container) string {
	if c.ID != "" {
		return c.ID
	}
	return string(c.Pod.UID) + "/" + c.Name + "/" + c.StartTime.UTC().Format(time.RFC3339Nano)
}

// Sample takes a snapshot now, advancing cumulative CPU, and reports OOM
// kills (Linux).
func (r *Resources) Sample() *Snapshot {
	node := r.cfg.Node()
	running := r.cfg.Pods.RunningContainers()

	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.cfg.Clock.Now()
	snap := &Snapshot{
		Time:                      now,
		OS:                        r.cfg.OS,
		BootTime:                  r.cfg.BootTime,
		System:                    SystemUsage(r.cfg.OS),
		WindowsGlobalCommitMemory: r.cfg.OS.IsWindows() && r.cfg.WindowsGlobalCommitMemory,
	}
	if node != nil {
		snap.NodeName = node.Name
		cp := node.Status.Capacity
		snap.MilliCPUCapacity = cp.Cpu().MilliValue()
		snap.MemoryCapacity = cp.Memory().Value()
		snap.EphemeralCapacity = cp.StorageEphemeral().Value()
	}
	numCPU := (snap.MilliCPUCapacity + 999) / 1000

	seen := map[string]bool{}
	var delta float64
	var kills []Kill
	for _, c := range running {
		if c.Pod == nil {
			continue
		}
		u := r.usage(c, snap.MilliCPUCapacity, numCPU)
		key := containerKey(c)
		seen[key] = true
		st, ok := r.containers[key]
		if !ok {
			start := c.StartTime
			if start.IsZero() || start.After(now) {
				start = now
			}
			st = &cstate{cpu: float64(startupCPU) + float64(u.MilliCPU)*1e6*now.Sub(start).Seconds(), last: now}
			r.containers[key] = st
			delta += st.cpu
		} else if now.After(st.last) {
			d := float64(u.MilliCPU) * 1e6 * now.Sub(st.last).Seconds()
			st.cpu += d
			st.last = now
			delta += d
		}
		u.CPUCoreNanoSeconds = uint64(st.cpu)
		snap.Containers = append(snap.Containers, u)
		snap.NodeMilliCPU += u.MilliCPU
		snap.NodeWorkingSet += u.WorkingSet
		snap.CommitTotal += u.Commit
		if u.OverMemoryLimit && !r.cfg.OS.IsWindows() && !r.oomSent[key] {
			r.oomSent[key] = true
			kills = append(kills, Kill{Pod: c.Pod, Container: c.Name, ContainerID: c.ID, ExitCode: OOMKilledExitCode, Reason: OOMKilledReason, Time: now})
		}
	}
	for k := range r.containers {
		if !seen[k] {
			delete(r.containers, k)
		}
	}
	for k := range r.oomSent {
		if !seen[k] {
			delete(r.oomSent, k)
		}
	}

	// Node CPU: the system's rate since boot, plus what the containers
	// used. Monotonic whatever the containers do.
	sys := snap.System
	if r.nodeLast.IsZero() {
		boot := r.cfg.BootTime
		if boot.IsZero() || boot.After(now) {
			boot = now
		}
		r.nodeCPU = float64(sys.MilliCPU)*1e6*now.Sub(boot).Seconds() + float64(time.Second)
		r.nodeLast = now
	} else if now.After(r.nodeLast) {
		r.nodeCPU += float64(sys.MilliCPU) * 1e6 * now.Sub(r.nodeLast).Seconds()
		r.nodeLast = now
	}
	r.nodeCPU += delta
	snap.NodeCPUCoreNanoSeconds = uint64(r.nodeCPU)
	snap.NodeMilliCPU += sys.MilliCPU
	if snap.MilliCPUCapacity > 0 {
		snap.NodeMilliCPU = min(snap.NodeMilliCPU, snap.MilliCPUCapacity)
	}
	snap.NodeWorkingSet += sys.WorkingSet
	if snap.MemoryCapacity > 0 {
		snap.NodeWorkingSet = min(snap.NodeWorkingSet, snap.MemoryCapacity)
	}
	snap.CommitTotal += sys.Commit
	snap.CommitLimit = snap.MemoryCapacity

	sort.Slice(snap.Containers, func(i, j int) bool {
		a, b := snap.Containers[i], snap.Containers[j]
		if a.Pod.Namespace != b.Pod.Namespace {
			return a.Pod.Namespace < b.Pod.Namespace
		}
		if a.Pod.Name != b.Pod.Name {
			return a.Pod.Name < b.Pod.Name
		}
		return a.Name < b.Name
	})

	for _, k := range kills {
		select {
		case r.oom <- k:
		default:
			r.cfg.Log.Warn("OOM kill dropped: nobody consumes OOMKills", "pod", k.Pod.Namespace+"/"+k.Pod.Name, "container", k.Container)
		}
	}
	return snap
}
