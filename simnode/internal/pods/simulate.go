package pods

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"wink.dev/wink/simnode/internal/logs"
	"wink.dev/wink/simnode/internal/nodes"
	"wink.dev/wink/simnode/rules"
)

// Event is a recorded event, as the golden files show it.
type Event struct {
	Type      string `json:"type"`
	Reason    string `json:"reason"`
	Message   string `json:"message"`
	FieldPath string `json:"fieldPath,omitempty"`
}

// Recorder collects events in memory (a k8s.io/client-go/tools/record.EventRecorder).
type Recorder struct{ Events []Event }

// Event implements record.EventRecorder.
func (r *Recorder) Event(object runtime.Object, eventtype, reason, message string) {
	ev := Event{Type: eventtype, Reason: reason, Message: message}
	if ref, ok := object.(*corev1.ObjectReference); ok {
		ev.FieldPath = ref.FieldPath
	}
	r.Events = append(r.Events, ev)
}

// Eventf implements record.EventRecorder.
func (r *Recorder) Eventf(object runtime.Object, eventtype, reason, messageFmt string, args ...interface{}) {
	r.Event(object, eventtype, reason, fmt.Sprintf(messageFmt, args...))
}

// AnnotatedEventf implements record.EventRecorder.
func (r *Recorder) AnnotatedEventf(object runtime.Object, _ map[string]string, eventtype, reason, messageFmt string, args ...interface{}) {
	r.Eventf(object, eventtype, reason, messageFmt, args...)
}

// Result is what a simulated node did with a pod.
type Result struct {
	// Pending is the first status after admission (absent when rejected).
	Pending *corev1.PodStatus `json:"pending,omitempty"`
	// Final is the status once the pod runs (or was rejected, or, with
	// Delete, once its containers stopped).
	Final  corev1.PodStatus `json:"final"`
	Events []Event          `json:"events"`
	// Logs are the first container's log lines.
	Logs map[string][]string `json:"logs,omitempty"`
}

// SimulateOptions drive Simulate.
type SimulateOptions struct {
	// Now is the time of admission; each step adds Step.
	Now  time.Time
	Step time.Duration
	// Delete deletes the pod once it runs.
	Delete bool
}

// NodeInfoFromNode rebuilds the Info of a node object (golden inputs).
func NodeInfoFromNode(node *corev1.Node) (*nodes.Info, error) {
	v, err := rules.ParseKubeletVersion(node.Status.NodeInfo.KubeletVersion)
	if err != nil {
		return nil, err
	}
	os := node.Status.NodeInfo.OperatingSystem
	if os == "" {
		os = node.Labels[corev1.LabelOSStable]
	}
	info := &nodes.Info{Name: node.Name, OS: os, KubeletVersion: v}
	for _, a := range node.Status.Addresses {
		if a.Type == corev1.NodeInternalIP {
			info.InternalIP = a.Address
		}
	}
	return info, nil
}

// Simulate runs pod through the same state machine the Provider uses, on
// node, synchronously: admission, the Pending status, the start, and with
// opts.Delete a graceful deletion. It is what the golden tests of the rule
// tables run.
func Simulate(r *rules.Rules, node *corev1.Node, pod *corev1.Pod, opts SimulateOptions) (*Result, error) {
	info, err := NodeInfoFromNode(node)
	if err != nil {
		return nil, err
	}
	if opts.Step == 0 {
		opts.Step = time.Second
	}
	rec := &Recorder{}
	store := logs.NewStore()
	m := &machine{node: info, rules: r, recorder: rec, logs: store, images: map[string]bool{}, pullDuration: opts.Step / 2}
	now := opts.Now
	res := &Result{}
	record := newRecord(pod)
	if !m.admit(record, node, now) {
		res.Final = m.buildStatus(record, pod)
		res.Events = rec.Events
		return res, nil
	}
	m.pending(record, now)
	st := m.buildStatus(record, pod)
	res.Pending = &st
	now = now.Add(opts.Step)
	ip := info.InternalIP
	if !pod.Spec.HostNetwork {
		ip, err = NewIPAM().Allocate(node.Spec.PodCIDR, string(pod.UID))
		if err != nil {
			return nil, fmt.Errorf("pod IP: %w", err)
		}
	}
	m.start(record, ip, now)
	if opts.Delete {
		now = now.Add(opts.Step)
		for _, plan := range m.beginStop(record, opts.Step, now) {
			m.stopContainer(record, plan.container, plan.killed, now.Add(plan.after))
		}
	}
	res.Final = m.buildStatus(record, pod)
	res.Events = rec.Events
	for _, c := range record.containers {
		if b, err := store.Get(logs.Key{PodUID: record.uid, Container: c.name, Restart: c.restartCount}); err == nil {
			for _, l := range b.Lines() {
				if res.Logs == nil {
					res.Logs = map[string][]string{}
				}
				res.Logs[c.name] = append(res.Logs[c.name], l.Text)
			}
		}
	}
	return res, nil
}
