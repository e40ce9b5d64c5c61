package resources

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	resourcehelper "k8s.io/component-helpers/resource"
	"k8s.io/utils/clock"

	"wink.dev/wink/simnode/rules"
)

// Evictor kills an evicted pod: the runtime stops its containers and sets
// the pod's status to phase Failed, reason Evicted and message (and the
// DisruptionTarget condition), as the kubelet's killPodFunc does for the
// eviction manager.
type Evictor interface {
	Evict(pod *corev1.Pod, message string) error
}

// Eviction strings of pkg/kubelet/eviction (eviction_manager.go, helpers.go).
const (
	// EvictedReason is the pod status reason and the event reason.
	EvictedReason = "Evicted"
	// TerminationByKubelet is the DisruptionTarget condition's reason
	// (v1.PodReasonTerminationByKubelet).
	TerminationByKubelet = "TerminationByKubelet"

	nodeLowMessageFmt      = "The node was low on resource: %v. "
	thresholdMetMessageFmt = "Threshold quantity: %v, available: %v. "
	containerMessageFmt    = "Container %s was using %s, request is %s, has larger consumption of %v. "

	// Event annotations (AnnotatedEventf).
	OffendingContainersKey      = "offending_containers"
	OffendingContainersUsageKey = "offending_containers_usage"
	StarvedResourceKey          = "starved_resource"
)

// Kubelet defaults.
const (
	// MonitoringInterval is the eviction manager's housekeeping interval.
	MonitoringInterval = 10 * time.Second
	// PressureTransitionPeriod is --eviction-pressure-transition-period.
	PressureTransitionPeriod = 5 * time.Minute
	// systemCriticalPriority is scheduling.SystemCriticalPriority: pods at
	// or above it are critical and never evicted.
	systemCriticalPriority = 2000000000
)

// EventRecorder is the part of record.EventRecorder the manager uses.
type EventRecorder interface {
	AnnotatedEventf(object runtime.Object, annotations map[string]string, eventtype, reason, messageFmt string, args ...interface{})
}

// ManagerConfig configures one node's eviction manager.
type ManagerConfig struct {
	Resources *Resources
	// ConditionSet is the node's row of conditions.yaml: whether
	// MemoryPressure can become True and whether the kubelet evicts.
	ConditionSet *rules.ConditionSet
	// EvictionHard are the node's hard thresholds (the pool's, else the
	// condition set's defaults); only memory.available is simulated.
	EvictionHard map[string]string
	// ActivePods are the node's pods that are not terminal (the kubelet's
	// GetActivePods): the eviction candidates.
	ActivePods func() []*corev1.Pod
	Evictor    Evictor
	Recorder   EventRecorder
	// SetMemoryPressure updates the node's MemoryPressure condition.
	SetMemoryPressure func(pressure bool)
	// LocalStorage measures a pod's local ephemeral storage (issue 22);
	// nil: no local storage eviction and no nodefs signal.
	LocalStorage func(*corev1.Pod) (PodStorage, bool)
	// DiskPressure: the node reports DiskPressure and evicts for
	// nodefs.available (Linux; a Windows node's DiskPressure is always
	// False, N7). SetDiskPressure updates the condition.
	DiskPressure    bool
	SetDiskPressure func(pressure bool)
	// Interval and TransitionPeriod default to the kubelet's.
	Interval         time.Duration
	TransitionPeriod time.Duration
	Clock            clock.PassiveClock
	Log              *slog.Logger
}

// Manager is one node's eviction manager for memory.available.
type Manager struct {
	cfg ManagerConfig

	mu       sync.Mutex
	lastMet  time.Time
	pressure bool
	// nodefs.available (issue 22).
	diskLastMet  time.Time
	diskPressure bool
}

// NewManager returns an eviction manager; Run starts it.
func NewManager(cfg ManagerConfig) *Manager {
	if cfg.Interval == 0 {
		cfg.Interval = MonitoringInterval
	}
	if cfg.TransitionPeriod == 0 {
		cfg.TransitionPeriod = PressureTransitionPeriod
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.RealClock{}
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Manager{cfg: cfg}
}

// Enabled reports whether the node can have memory pressure at all (N6:
// not a Windows kubelet before v1.31).
func (m *Manager) Enabled() bool {
	return m.cfg.ConditionSet != nil && m.cfg.ConditionSet.PressureCanBecomeTrue
}

// Run synchronizes every interval until ctx is done.
func (m *Manager) Run(ctx context.Context) {
	if !m.Enabled() {
		return
	}
	t := time.NewTicker(m.cfg.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := m.Synchronize(); err != nil {
				m.cfg.Log.Warn("eviction", "err", err)
			}
		}
	}
}

// Observation is an eviction signal (memory.available, nodefs.available)
// against its threshold.
type Observation struct {
	Available, Capacity, Threshold resource.Quantity
	// Met: available is below the threshold.
	Met bool
}

// Observe evaluates memory.available in snap against the node's threshold.
// ok is false when the node has no memory.available threshold.
func (m *Manager) Observe(snap *Snapshot) (Observation, bool, error) {
	v, ok := m.cfg.EvictionHard["memory.available"]
	if !ok || v == "" {
		return Observation{}, false, nil
	}
	available, capacity := snap.MemoryAvailable()
	return observe(v, available, capacity)
}

// observe is a signal's Observation: available and capacity in bytes
// against the threshold v (a quantity or a percentage of capacity).
func observe(v string, available, capacity int64) (Observation, bool, error) {
	o := Observation{
		Available: *resource.NewQuantity(available, resource.BinarySI),
		Capacity:  *resource.NewQuantity(capacity, resource.BinarySI),
	}
	q, err := rules.ParseThreshold(v, o.Capacity)
	if err != nil {
		return Observation{}, false, err
	}
	o.Threshold = q
	o.Met = q.Cmp(o.Available) > 0
	return o, true, nil
}

// Synchronize is one pass of the kubelet's eviction manager: observe,
// update MemoryPressure (and DiskPressure), and evict at most one pod for
// a threshold. It returns the evicted pod, if any.
//
// Local storage (issue 22) comes before the thresholds, as in the
// kubelet's synchronize (localStorageCapacityIsolation, on by default): a
// pod past an emptyDir sizeLimit or an ephemeral-storage limit is
// evicted, and then no pod for a threshold in that pass. Of the
// thresholds memory comes first (byEvictionPriority), then nodefs.
func (m *Manager) Synchronize() (*corev1.Pod, error) {
	if !m.Enabled() {
		return nil, nil // N6: no eviction at all
	}
	snap := m.cfg.Resources.Sample()
	obs, ok, err := m.Observe(snap)
	if err != nil {
		return nil, err
	}
	active := m.cfg.ActivePods()
	storage := m.storage(active)
	disk, diskOK, err := m.observeDisk(snap, storage)
	if err != nil {
		return nil, err
	}
	now := m.cfg.Clock.Now()
	m.mu.Lock()
	if ok && obs.Met {
		m.lastMet = now
	}
	if diskOK && disk.Met {
		m.diskLastMet = now
	}
	pressure := !m.lastMet.IsZero() && now.Sub(m.lastMet) < m.cfg.TransitionPeriod
	changed := pressure != m.pressure
	m.pressure = pressure
	diskPressure := !m.diskLastMet.IsZero() && now.Sub(m.diskLastMet) < m.cfg.TransitionPeriod
	diskChanged := diskPressure != m.diskPressure
	m.diskPressure = diskPressure
	m.mu.Unlock()
	if changed && m.cfg.SetMemoryPressure != nil {
		m.cfg.SetMemoryPressure(pressure)
	}
	if diskChanged && m.cfg.SetDiskPressure != nil {
		m.cfg.SetDiskPressure(diskPressure)
	}
	if evicted := m.localStorageEviction(active, storage); len(evicted) > 0 {
		return evicted[0], nil
	}
	if !m.cfg.ConditionSet.Evicts {
		return nil, nil
	}
	var candidates []*corev1.Pod
	var message func(*corev1.Pod) (string, map[string]string)
	switch {
	case ok && obs.Met:
		m.cfg.Log.Info("eviction manager: attempting to reclaim", "resourceName", "memory", "available", obs.Available.String(), "threshold", obs.Threshold.String())
		candidates = m.cfg.ActivePods()
		RankMemoryPressure(candidates, snap)
		message = func(pod *corev1.Pod) (string, map[string]string) { return EvictionMessage(pod, snap, obs) }
	case diskOK && disk.Met:
		m.cfg.Log.Info("eviction manager: attempting to reclaim", "resourceName", "ephemeral-storage", "available", disk.Available.String(), "threshold", disk.Threshold.String())
		candidates = active
		RankDiskPressure(candidates, storage)
		message = func(pod *corev1.Pod) (string, map[string]string) { return DiskEvictionMessage(pod, storage[pod], disk) }
	default:
		return nil, nil
	}
	for _, pod := range candidates {
		if isCritical(pod) {
			continue
		}
		msg, annotations := message(pod)
		if m.cfg.Recorder != nil {
			m.cfg.Recorder.AnnotatedEventf(pod, annotations, corev1.EventTypeWarning, EvictedReason, "%s", msg)
		}
		if err := m.cfg.Evictor.Evict(pod, msg); err != nil {
			m.cfg.Log.Warn("eviction manager: pod failed to evict", "pod", pod.Namespace+"/"+pod.Name, "err", err)
		} else {
			m.cfg.Log.Info("eviction manager: pod is evicted successfully", "pod", pod.Namespace+"/"+pod.Name)
		}
		return pod, nil
	}
	m.cfg.Log.Info("eviction manager: unable to evict any pods from the node")
	return nil, nil
}

// isCritical is kubelettypes.IsCriticalPod: static and mirror pods, and
// pods at system-critical priority or above.
func isCritical(pod *corev1.Pod) bool {
	if src, ok := pod.Annotations["kubernetes.io/config.source"]; ok && src != "api" {
		return true
	}
	if _, ok := pod.Annotations[corev1.MirrorPodAnnotationKey]; ok {
		return true
	}
	return pod.Spec.Priority != nil && *pod.Spec.Priority >= systemCriticalPriority
}

func podPriority(pod *corev1.Pod) int32 {
	if pod.Spec.Priority != nil {
		return *pod.Spec.Priority
	}
	return 0
}

func cmpBool(a, b bool) int {
	if a == b {
		return 0
	}
	if !b {
		return -1
	}
	return 1
}

// RankMemoryPressure orders pods for eviction as the kubelet's
// rankMemoryPressure (pkg/kubelet/eviction/helpers.go): pods without stats
// first, then pods whose working set exceeds their memory request (so
// BestEffort pods, whose request is 0, come before pods within their
// requests), then lower priority first, then larger working set above the
// request first. The sort is stable.
func RankMemoryPressure(pods []*corev1.Pod, snap *Snapshot) {
	rankByUsage(pods, corev1.ResourceMemory, snap.PodWorkingSet)
}

// rankByUsage is the order the kubelet's rankMemoryPressure and
// rankDiskPressureFunc share (orderedBy(exceedRequests, priority, usage)
// in pkg/kubelet/eviction/helpers.go): pods without stats first, then
// pods whose usage of res exceeds their request, then lower priority,
// then larger usage above the request. The sort is stable.
func rankByUsage(pods []*corev1.Pod, res corev1.ResourceName, usageOf func(*corev1.Pod) (int64, bool)) {
	type key struct {
		found, exceeds bool
		prio           int32
		above          resource.Quantity
	}
	keys := map[*corev1.Pod]key{}
	for _, p := range pods {
		used, found := usageOf(p)
		req := resourcehelper.PodRequests(p, resourcehelper.PodResourcesOptions{})[res]
		usage := resource.NewQuantity(used, resource.BinarySI)
		k := key{found: found, prio: podPriority(p), exceeds: usage.Cmp(req) == 1}
		usage.Sub(req)
		k.above = *usage
		keys[p] = k
	}
	sort.SliceStable(pods, func(i, j int) bool {
		a, b := keys[pods[i]], keys[pods[j]]
		if !a.found || !b.found {
			return cmpBool(!a.found, !b.found) < 0
		}
		if c := cmpBool(a.exceeds, b.exceeds); c != 0 {
			return c < 0
		}
		if a.prio != b.prio {
			return a.prio < b.prio
		}
		return b.above.Cmp(a.above) < 0
	})
}

// EvictionMessage is the kubelet's evictionMessage for memory: "The node
// was low on resource: memory. Threshold quantity: <q>, available: <a>. "
// followed by "Container <c> was using <usage>, request is <req>, has larger
// consumption of memory. " for every container above its request (in spec
// order: containers, then init containers), and the event annotations.
func EvictionMessage(pod *corev1.Pod, snap *Snapshot, obs Observation) (string, map[string]string) {
	return evictionMessage(pod, corev1.ResourceMemory, obs, func(name string) (int64, bool) {
		for _, u := range snap.Containers {
			if u.Pod.UID == pod.UID && u.Name == name {
				return u.WorkingSet, true
			}
		}
		return 0, false
	})
}

// evictionMessage is the kubelet's evictionMessage for res, with
// usageOf giving a container's usage by name (false: no stats): the node
// line, the threshold line, a line for each container above its request
// (containers, then init containers), and the event annotations.
func evictionMessage(pod *corev1.Pod, res corev1.ResourceName, obs Observation, usageOf func(container string) (int64, bool)) (string, map[string]string) {
	msg := fmt.Sprintf(nodeLowMessageFmt, res)
	msg += fmt.Sprintf(thresholdMetMessageFmt, &obs.Threshold, &obs.Available)
	var names, usages []string
	specs := append(append([]corev1.Container(nil), pod.Spec.Containers...), pod.Spec.InitContainers...)
	for _, c := range specs {
		used, ok := usageOf(c.Name)
		if !ok {
			continue
		}
		req := c.Resources.Requests[res]
		usage := resource.NewQuantity(used, resource.BinarySI)
		if usage.Cmp(req) > 0 {
			msg += fmt.Sprintf(containerMessageFmt, c.Name, usage.String(), req.String(), res)
			names = append(names, c.Name)
			usages = append(usages, usage.String())
		}
	}
	return msg, map[string]string{
		OffendingContainersKey:      strings.Join(names, ","),
		OffendingContainersUsageKey: strings.Join(usages, ","),
		StarvedResourceKey:          string(res),
	}
}
