package rules

import (
	"bytes"
	"fmt"
	"text/template"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/version"

	"wink.dev/wink/simnode/facts"
)

// NodeShutdown is the kubelet's graceful node shutdown (B15, shutdown.yaml
// nodeShutdown).
type NodeShutdown struct {
	Cites []string `json:"cites"`
	// Managers say which kubelets have the shutdown manager, per OS.
	Managers []ShutdownManager `json:"managers"`
	// EventReason is the reason of the Normal event on the Node.
	EventReason string `json:"eventReason"`
	// CriticalPriority is the priority from which pods are critical.
	CriticalPriority int32 `json:"criticalPriority"`
	// PodReason, PodMessage and PodCondition are what a killed pod's
	// status gets.
	PodReason    string              `json:"podReason"`
	PodMessage   string              `json:"podMessage"`
	PodCondition corev1.PodCondition `json:"podCondition"`
	// AdmissionReason and AdmissionMessage reject pods while the node
	// shuts down.
	AdmissionReason  string `json:"admissionReason"`
	AdmissionMessage string `json:"admissionMessage"`
	// Ready is the node's Ready condition while it shuts down.
	Ready corev1.NodeCondition `json:"ready"`
	// NotReadyEvent is the message of the NodeNotReady event, a template
	// over {Node}.
	NotReadyEvent string `json:"notReadyEvent"`

	notReady *template.Template
}

// ShutdownManager is the node shutdown manager of kubelets of one OS.
type ShutdownManager struct {
	OS              facts.OS `json:"os"`
	KubeletVersions Range    `json:"kubeletVersions"`
	// Event is the message of the Node event when the shutdown starts.
	Event string `json:"event"`
}

// ShutdownGroup is one priority group of the shutdown manager
// (nodeshutdown_manager.go podShutdownGroup): pods from Priority up to the
// next group's are killed with at most GracePeriod.
type ShutdownGroup struct {
	Priority    int32
	GracePeriod time.Duration
}

// Reboot is what a node shows when its machine boots again (N3,
// shutdown.yaml reboot).
type Reboot struct {
	Cites []string `json:"cites"`
	// EventReason and Event (a template over {Node, BootID}) are the
	// Warning event of a changed bootID.
	EventReason string `json:"eventReason"`
	Event       string `json:"event"`
	// ReadyEvent is the NodeReady event's message (a template over {Node}).
	ReadyEvent string `json:"readyEvent"`
	// LostContainerReason and LostContainerExitCode are the terminated
	// state of a container that ran when the machine went down.
	LostContainerReason   string `json:"lostContainerReason"`
	LostContainerExitCode int32  `json:"lostContainerExitCode"`
	// SandboxChangedReason and SandboxChanged are the Normal pod event of
	// a re-created sandbox.
	SandboxChangedReason string `json:"sandboxChangedReason"`
	SandboxChanged       string `json:"sandboxChanged"`

	event, ready *template.Template
}

// Manager returns the node shutdown manager of a kubelet of os at version
// v, or nil when it has none (the kubelet's managerStub).
func (s *NodeShutdown) Manager(os facts.OS, v *version.Version) *ShutdownManager {
	for i := range s.Managers {
		if m := &s.Managers[i]; m.OS == os && m.KubeletVersions.Contains(v) {
			return m
		}
	}
	return nil
}

// Groups are the priority groups of a kubelet configured with
// shutdownGracePeriod total and shutdownGracePeriodCriticalPods critical,
// lowest priority first (B15; nodeshutdown_manager.go migrateConfig): pods
// below CriticalPriority get total - critical, critical pods critical, each
// in whole seconds. There are none (nil) when total is 0 or critical is
// negative or longer than total: such a kubelet has no node shutdown
// manager (NewManager returns managerStub, "no shutdown grace period is
// configured").
func (s *NodeShutdown) Groups(total, critical time.Duration) []ShutdownGroup {
	if total == 0 || critical < 0 || critical > total {
		return nil
	}
	return []ShutdownGroup{
		{Priority: 0, GracePeriod: (total - critical).Truncate(time.Second)},
		{Priority: s.CriticalPriority, GracePeriod: critical.Truncate(time.Second)},
	}
}

// DefaultGroups are the Groups of the default grace periods, those of a
// pool that sets none (facts.ShutdownGracePeriods).
func (s *NodeShutdown) DefaultGroups() []ShutdownGroup {
	return s.Groups(facts.ShutdownGracePeriods(nil, nil))
}

// GroupOf is the index in groups of the group of a pod of priority
// (nodeshutdown_manager.go groupByPriority: the last group whose priority
// is not above the pod's; the first group for pods below every group).
func GroupOf(groups []ShutdownGroup, priority int32) int {
	i := 0
	for j, g := range groups {
		if g.Priority <= priority {
			i = j
		}
	}
	return i
}

// GracePeriod is the grace period of pod in a shutdown with the default
// grace periods (DefaultGroups); see PodGracePeriod.
func (s *NodeShutdown) GracePeriod(pod *corev1.Pod) time.Duration {
	return PodGracePeriod(s.DefaultGroups(), pod)
}

// PodGracePeriod is the grace period of pod in a shutdown with groups
// (nodeshutdown_manager.go killPods): its group's, or its own
// terminationGracePeriodSeconds when that is not longer. Without groups
// (no node shutdown manager) it is 0.
func PodGracePeriod(groups []ShutdownGroup, pod *corev1.Pod) time.Duration {
	if len(groups) == 0 {
		return 0
	}
	var prio int32
	if pod.Spec.Priority != nil {
		prio = *pod.Spec.Priority
	}
	grace := groups[GroupOf(groups, prio)].GracePeriod
	if t := pod.Spec.TerminationGracePeriodSeconds; t != nil && time.Duration(*t)*time.Second <= grace {
		grace = time.Duration(*t) * time.Second
	}
	return grace
}

// NotReadyMessage renders the NodeNotReady event of node.
func (s *NodeShutdown) NotReadyMessage(node string) string {
	var b bytes.Buffer
	_ = s.notReady.Execute(&b, struct{ Node string }{node}) // checked in compile
	return b.String()
}

// EventMessage renders the Rebooted event of node, now at bootID.
func (r *Reboot) EventMessage(node, bootID string) string {
	var b bytes.Buffer
	_ = r.event.Execute(&b, struct{ Node, BootID string }{node, bootID}) // checked in compile
	return b.String()
}

// ReadyMessage renders the NodeReady event of node.
func (r *Reboot) ReadyMessage(node string) string {
	var b bytes.Buffer
	_ = r.ready.Execute(&b, struct{ Node string }{node}) // checked in compile
	return b.String()
}

func parseTemplate(name, text string, sample any) (*template.Template, error) {
	if text == "" {
		return nil, fmt.Errorf("%s is required", name)
	}
	t, err := template.New(name).Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := t.Execute(&bytes.Buffer{}, sample); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return t, nil
}

func (s *NodeShutdown) compile() error {
	if err := checkCites("nodeShutdown", s.Cites); err != nil {
		return err
	}
	if len(s.Managers) == 0 {
		return fmt.Errorf("nodeShutdown: managers are required")
	}
	for i := range s.Managers {
		m := &s.Managers[i]
		what := fmt.Sprintf("nodeShutdown.managers[%d]", i)
		if err := m.OS.Check(); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if err := m.KubeletVersions.compile(); err != nil {
			return fmt.Errorf("%s: kubeletVersions: %w", what, err)
		}
		if m.Event == "" {
			return fmt.Errorf("%s: event is required", what)
		}
		for j := range i {
			if o := s.Managers[j]; o.OS == m.OS && overlap(o.KubeletVersions, m.KubeletVersions) {
				return fmt.Errorf("%s: overlaps managers[%d] for %s", what, j, m.OS)
			}
		}
	}
	if len(s.DefaultGroups()) == 0 {
		return fmt.Errorf("nodeShutdown: the default shutdownGracePeriod and shutdownGracePeriodCriticalPods (simnode/facts) turn the manager off")
	}
	if s.CriticalPriority <= 0 {
		return fmt.Errorf("nodeShutdown: criticalPriority must be positive")
	}
	if s.EventReason == "" || s.PodReason == "" || s.PodMessage == "" || s.AdmissionReason == "" || s.AdmissionMessage == "" {
		return fmt.Errorf("nodeShutdown: eventReason, podReason, podMessage, admissionReason and admissionMessage are required")
	}
	if c := s.PodCondition; c.Type != corev1.DisruptionTarget || c.Status != corev1.ConditionTrue || c.Reason == "" || c.Message == "" {
		return fmt.Errorf("nodeShutdown: podCondition must be a DisruptionTarget condition with status True, reason and message")
	}
	if c := s.Ready; c.Type != corev1.NodeReady || c.Status != corev1.ConditionFalse || c.Reason == "" || c.Message == "" {
		return fmt.Errorf("nodeShutdown: ready must be a Ready condition with status False, reason and message")
	}
	var err error
	s.notReady, err = parseTemplate("nodeShutdown.notReadyEvent", s.NotReadyEvent, struct{ Node string }{"n"})
	return err
}

func (r *Reboot) compile() error {
	if err := checkCites("reboot", r.Cites); err != nil {
		return err
	}
	if r.EventReason == "" || r.LostContainerReason == "" || r.SandboxChangedReason == "" || r.SandboxChanged == "" {
		return fmt.Errorf("reboot: eventReason, lostContainerReason, sandboxChangedReason and sandboxChanged are required")
	}
	var err error
	if r.event, err = parseTemplate("reboot.event", r.Event, struct{ Node, BootID string }{"n", "2"}); err != nil {
		return err
	}
	r.ready, err = parseTemplate("reboot.readyEvent", r.ReadyEvent, struct{ Node string }{"n"})
	return err
}

// overlap reports whether two compiled ranges share a version.
func overlap(a, b Range) bool {
	// [a.since, a.until) and [b.since, b.until) overlap when each starts
	// before the other ends.
	startsBefore := func(x, y Range) bool { return y.until == nil || x.since.LessThan(y.until) }
	return startsBefore(a, b) && startsBefore(b, a)
}
