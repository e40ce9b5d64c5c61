// Package shutdown is the simulated kubelet's node shutdown manager (row
// B15; pkg/kubelet/nodeshutdown): when its machine shuts down, a kubelet
// that has the manager (rules shutdown.yaml, by OS and kubelet version)
// records the Shutdown event, reports the node NotReady, rejects the pods
// that still reach it, and kills the active pods by priority group, each
// pod with at most its group's grace period, before the machine goes down.
// A kubelet without it (managerStub) does nothing: the machine just goes.
// The grace periods are the node's pool's (wink.yaml shutdownGracePeriod
// and shutdownGracePeriodCriticalPods), simnode/facts' when it sets none; a
// shutdownGracePeriod of 0s means no manager, as in the kubelet.
package shutdown

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/clock"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/internal/nodes"
	"wink.dev/wink/simnode/internal/pods"
	"wink.dev/wink/simnode/rules"
)

// Config configures one node's manager.
type Config struct {
	Rules *rules.Rules
	Node  *nodes.Info
	// ShutdownGracePeriod and ShutdownGracePeriodCriticalPods are the
	// kubelet's configuration, the node pool's fields of those names (row
	// B15), resolved by facts.ShutdownGracePeriods as wink.yaml's
	// defaulting resolves them. A ShutdownGracePeriod of 0s means no node
	// shutdown manager.
	ShutdownGracePeriod             *metav1.Duration
	ShutdownGracePeriodCriticalPods *metav1.Duration
	// ActivePods are the node's pods that are not terminal (the kubelet's
	// GetActivePods).
	ActivePods func() []*corev1.Pod
	// Kill ends a pod as the kubelet's killPodNow does (the pods runtime's
	// Terminate); the channel reports when its terminal status is written.
	Kill func(pod *corev1.Pod, t pods.Termination) <-chan error
	// NotReady reports the node NotReady with the rules' shutdown
	// condition (the manager's syncNodeStatus).
	NotReady func()
	Recorder record.EventRecorder
	Clock    clock.Clock
	Log      *slog.Logger
}

// Manager is one node's node shutdown manager.
type Manager struct {
	cfg     Config
	manager *rules.ShutdownManager
	// groups are the priority groups of the configured grace periods; nil
	// when they turn the manager off.
	groups       []rules.ShutdownGroup
	shuttingDown atomic.Bool
}

// New returns the manager of cfg.Node; Enabled says whether its kubelet
// has one.
func New(cfg Config) *Manager {
	if cfg.Clock == nil {
		cfg.Clock = clock.RealClock{}
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	s := &cfg.Rules.NodeShutdown
	total, critical := facts.ShutdownGracePeriods(cfg.ShutdownGracePeriod, cfg.ShutdownGracePeriodCriticalPods)
	return &Manager{cfg: cfg, manager: s.Manager(cfg.Node.OS, cfg.Node.KubeletVersion), groups: s.Groups(total, critical)}
}

// Enabled reports whether the node's kubelet has a node shutdown manager
// (B15: Windows from v1.34, Linux always, and only with a shutdown grace
// period).
func (m *Manager) Enabled() bool { return m.manager != nil && len(m.groups) > 0 }

// ShuttingDown reports whether a shutdown began (the manager's
// ShutdownStatus): new pods are rejected and the node is NotReady.
func (m *Manager) ShuttingDown() bool { return m.shuttingDown.Load() }

// Shutdown is the manager's ProcessShutdownEvent: it returns when every
// priority group's pods are terminated or its grace period is over (or
// ctx is done), which is when the machine may go down. Without a manager
// it returns at once.
func (m *Manager) Shutdown(ctx context.Context) {
	if m.manager == nil {
		m.cfg.Log.Info("node shutdown: the kubelet has no node shutdown manager", "kubeletVersion", m.cfg.Node.KubeletVersion, "os", m.cfg.Node.OS)
		return
	}
	if len(m.groups) == 0 {
		m.cfg.Log.Info("node shutdown: the node shutdown manager is disabled as no shutdown grace period is configured")
		return
	}
	s := &m.cfg.Rules.NodeShutdown
	nodeRef := &corev1.ObjectReference{APIVersion: "v1", Kind: "Node", Name: m.cfg.Node.Name}
	if m.cfg.Recorder != nil {
		m.cfg.Recorder.Event(nodeRef, corev1.EventTypeNormal, s.EventReason, m.manager.Event)
	}
	m.shuttingDown.Store(true)
	if m.cfg.NotReady != nil {
		m.cfg.NotReady()
	}
	m.killPods(ctx, m.cfg.ActivePods())
}

// killPods is the podManager's killPods: the groups in order of priority,
// lowest first; each group's pods killed at once, each with its group's
// grace period or its own terminationGracePeriodSeconds when that is
// shorter; the next group after all are terminated or the group's grace
// period is over.
func (m *Manager) killPods(ctx context.Context, active []*corev1.Pod) {
	groups := m.groups
	byGroup := make([][]*corev1.Pod, len(groups))
	for _, p := range active {
		var prio int32
		if p.Spec.Priority != nil {
			prio = *p.Spec.Priority
		}
		i := rules.GroupOf(groups, prio)
		byGroup[i] = append(byGroup[i], p)
	}
	for i, g := range groups {
		if len(byGroup[i]) == 0 {
			continue
		}
		var wg sync.WaitGroup
		for _, p := range byGroup[i] {
			done := m.cfg.Kill(p, pods.ShutDown(m.cfg.Rules, groups, p))
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := <-done; err != nil {
					m.cfg.Log.Warn("node shutdown: pod not terminated", "pod", p.Namespace+"/"+p.Name, "err", err)
				}
			}()
		}
		all := make(chan struct{})
		go func() {
			wg.Wait()
			close(all)
		}()
		timer := m.cfg.Clock.NewTimer(g.GracePeriod)
		select {
		case <-all:
			m.cfg.Log.Info("node shutdown: pods terminated", "priority", g.Priority, "pods", len(byGroup[i]))
		case <-timer.C():
			m.cfg.Log.Info("node shutdown: grace period over", "priority", g.Priority, "gracePeriod", g.GracePeriod)
		case <-ctx.Done():
		}
		timer.Stop()
		if ctx.Err() != nil {
			return
		}
	}
}
