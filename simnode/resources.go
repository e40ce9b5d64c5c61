package simnode

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/internal/kubeletapi"
	"wink.dev/wink/simnode/internal/nodes"
	"wink.dev/wink/simnode/internal/pods"
	"wink.dev/wink/simnode/internal/resources"
	"wink.dev/wink/simnode/rules"
)

// podsByNodeIndex indexes the shared pod informer by spec.nodeName, so that
// each node lists its own pods without scanning everyone's.
const podsByNodeIndex = "wink.dev/nodeName"

// oomSampleInterval is how often a Linux node looks for containers above
// their memory limit.
const oomSampleInterval = 2 * time.Second

func podsByNode(obj interface{}) ([]string, error) {
	pod, ok := obj.(*corev1.Pod)
	if !ok || pod.Spec.NodeName == "" {
		return nil, nil
	}
	return []string{pod.Spec.NodeName}, nil
}

// nodePods returns the pods bound to node name.
func (s *shared) nodePods(name string) []*corev1.Pod {
	objs, err := s.pods.Core().V1().Pods().Informer().GetIndexer().ByIndex(podsByNodeIndex, name)
	if err != nil {
		return nil
	}
	out := make([]*corev1.Pod, 0, len(objs))
	for _, o := range objs {
		if p, ok := o.(*corev1.Pod); ok {
			out = append(out, p)
		}
	}
	return out
}

// nodeResources is one node's usage simulation and eviction manager.
type nodeResources struct {
	res      *resources.Resources
	eviction *resources.Manager
	os       facts.OS
	oom      resources.OOMHandler
	log      *slog.Logger
}

// podRuntime is what a node's resources use of its pod runtime
// (pods.Provider): evictions (B6) and Linux OOM kills (B5) go through it,
// and it counts the threads (B7) and memory (B5, B6) its containers'
// programs hold.
type podRuntime interface {
	terminator
	oomKiller
	BusyThreads(containerID string) int
	MemoryHeld(containerID string) int64
	DiskUsage(pod *corev1.Pod) (resources.PodStorage, bool)
}

var _ podRuntime = (*pods.Provider)(nil)

// newNodeResources wires simnode/internal/resources for one node, with
// MemoryPressure through the node provider: the running containers are the
// informer's view (resources.FromLister); evictions and OOM kills go
// through the runtime.
func (s *shared) newNodeResources(name string, spec nodes.Spec, info *nodes.Info, np *nodes.Provider, runtime podRuntime, recorder record.EventRecorder, log *slog.Logger) *nodeResources {
	running := resources.FromLister(func() []*corev1.Pod { return s.nodePods(name) })
	evictor := runtimeEvictor{t: runtime, rules: s.rules}
	oom := oomAdapter{runtime}
	res := resources.New(resources.Config{
		OS:                        info.OS,
		Node:                      np.Node,
		Pods:                      running,
		BootTime:                  time.Now(),
		WindowsGlobalCommitMemory: info.Conditions.PressureCanBecomeTrue,
		KubeletVersion:            info.KubeletVersion,
		BusyThreads:               runtime.BusyThreads,
		MemoryHeld:                runtime.MemoryHeld,
		DiskUsage:                 runtime.DiskUsage,
		Log:                       log,
	})
	nodeRef := &corev1.ObjectReference{APIVersion: "v1", Kind: "Node", Name: name}
	// setPressure sets a pressure condition of the node (set: one of
	// nodes.Set*Pressure) and records the kubelet's event when it changed.
	setPressure := func(set func(*corev1.Node, *rules.Rules, *rules.ConditionSet, bool, time.Time) string, what string) func(bool) {
		return func(pressure bool) {
			var event string
			np.Update(func(n *corev1.Node) {
				event = set(n, s.rules, info.Conditions, pressure, time.Now())
			})
			if event != "" {
				recorder.Eventf(nodeRef, corev1.EventTypeNormal, event, "Node %s status is now: %s", name, event)
			}
			log.Info(what, "pressure", pressure)
		}
	}
	evictionHard := spec.Pool.EvictionHard
	if evictionHard == nil {
		evictionHard = info.OS.EvictionHardDefault(info.KubeletVersion)
	}
	mgr := resources.NewManager(resources.ManagerConfig{
		Resources:    res,
		ConditionSet: info.Conditions,
		EvictionHard: evictionHard,
		ActivePods: func() []*corev1.Pod {
			var out []*corev1.Pod
			for _, p := range s.nodePods(name) {
				if p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed {
					out = append(out, p)
				}
			}
			return out
		},
		Evictor:           evictor,
		Recorder:          recorder,
		LocalStorage:      runtime.DiskUsage,
		SetMemoryPressure: setPressure(nodes.SetMemoryPressure, "memory pressure"),
		// N7: a Windows node's DiskPressure is always False.
		DiskPressure:    !info.OS.IsWindows(),
		SetDiskPressure: setPressure(nodes.SetDiskPressure, "disk pressure"),
		Log:             log.With("part", "eviction"),
	})
	return &nodeResources{res: res, eviction: mgr, os: info.OS, oom: oom, log: log}
}

// handler adds /stats/summary and /metrics/resource to the node's API.
func (r *nodeResources) handler(next http.Handler) http.Handler {
	return kubeletapi.WithStats(next, r.res)
}

// run samples for OOM kills (Linux) and runs the eviction manager until
// ctx is done.
func (r *nodeResources) run(ctx context.Context) error {
	if !r.os.IsWindows() {
		go r.res.Run(ctx, oomSampleInterval)
		go func() {
			for {
				select {
				case <-ctx.Done():
					return
				case k := <-r.res.OOMKills():
					r.oom.HandleOOMKill(k)
				}
			}
		}()
	}
	r.eviction.Run(ctx)
	<-ctx.Done()
	return nil
}

// addPodIndex registers podsByNodeIndex; it must run before the informer
// starts.
func addPodIndex(inf cache.SharedIndexInformer) error {
	if err := inf.AddIndexers(cache.Indexers{podsByNodeIndex: podsByNode}); err != nil {
		return fmt.Errorf("pod informer index: %w", err)
	}
	return nil
}

// oomKiller is what the pods runtime offers for Linux OOM kills (B5).
type oomKiller interface {
	OOMKill(namespace, pod, container, containerID string) bool
}

// oomAdapter hands the resource model's OOM kills to the runtime.
type oomAdapter struct{ k oomKiller }

func (a oomAdapter) HandleOOMKill(k resources.Kill) {
	a.k.OOMKill(k.Pod.Namespace, k.Pod.Name, k.Container, k.ContainerID)
}

// terminator is the pods runtime's way to end a pod the kubelet kills on
// its own (pods.Provider.Terminate), shared by eviction and node shutdown.
type terminator interface {
	Terminate(pod *corev1.Pod, t pods.Termination) <-chan error
}

// evictionTimeout bounds the wait for an evicted pod's end, as killPodNow
// gives up after max(10s, 1.5 x the grace period); the runtime's own
// bound is its grace period plus an API write.
const evictionTimeout = 30 * time.Second

// runtimeEvictor evicts through the runtime (B6, pods.Evicted): the
// containers stop and, like the kubelet's killPodNow, Evict returns once
// the pod is killed and its status written.
type runtimeEvictor struct {
	t     terminator
	rules *rules.Rules
}

// EvictLocalStorage implements resources.LocalStorageEvictor (issue 22).
func (e runtimeEvictor) EvictLocalStorage(pod *corev1.Pod, message string) error {
	select {
	case err := <-e.t.Terminate(pod, pods.EvictedLocalStorage(message)):
		return err
	case <-time.After(evictionTimeout):
		return fmt.Errorf("pod %s/%s: not killed within %s", pod.Namespace, pod.Name, evictionTimeout)
	}
}

// Evict implements resources.Evictor.
func (e runtimeEvictor) Evict(pod *corev1.Pod, message string) error {
	select {
	case err := <-e.t.Terminate(pod, pods.Evicted(e.rules, message)):
		return err
	case <-time.After(evictionTimeout):
		return fmt.Errorf("pod %s/%s: not killed within %s", pod.Namespace, pod.Name, evictionTimeout)
	}
}
