package pods

import (
	"sync"

	corev1 "k8s.io/api/core/v1"
	k8srecord "k8s.io/client-go/tools/record"

	"wink.dev/wink/simnode/shell/process"
)

// The bounds of a container's simulated processes (issue 18: bounded by
// construction). A process holds at most the container's
// resources.limits.memory (process.DefaultMemory where it sets none) and
// computes at the pace of its CPU: its resources.limits.cpu, or the node's
// allocatable CPU where it sets none, and never more than its share of the
// node's CPU among the node's busy processes (process.CPUShare). On Linux a
// process past its memory is OOM-killed (exit 137, reason OOMKilled, row
// B5); on Windows its allocation fails (B5: nothing is OOM-killed).

// limits are the process limits of container spec on m's node.
func (m *machine) limits(spec *corev1.Container) process.Limits {
	var l process.Limits
	if q, ok := spec.Resources.Limits[corev1.ResourceMemory]; ok && q.Value() > 0 {
		l.Memory = q.Value()
	}
	cpu := m.allocatableCPU()
	if q, ok := spec.Resources.Limits[corev1.ResourceCPU]; ok && q.MilliValue() > 0 {
		cpu = q.MilliValue()
	}
	if cpu > 0 {
		l.StepsPerSecond = process.StepsFor(cpu)
	}
	l.Node = m.cpuShare()
	return l
}

// allocatableCPU is the node's allocatable CPU in millicores; 0: unknown.
func (m *machine) allocatableCPU() int64 {
	if n := m.rt.nodeObject(); n != nil {
		if q, ok := n.Status.Allocatable[corev1.ResourceCPU]; ok {
			return q.MilliValue()
		}
	}
	return 0
}

// cpuShare is the node's CPU its processes share, made on first use from
// its allocatable CPU (one core when unknown).
func (m *machine) cpuShare() *process.CPUShare {
	if m.cpu == nil {
		cpu := m.allocatableCPU()
		if cpu <= 0 {
			cpu = 1000
		}
		m.cpu = process.NewCPUShare(cpu)
	}
	return m.cpu
}

// NotSimulatedReason is the reason of the Warning event a pod gets for
// what its containers ran that wink does not simulate (issue 18).
const NotSimulatedReason = process.NotSimulatedReason

// maxNotSimulated is how many NotSimulated events one pod gets at most
// (one per container and thing): a script that runs a thousand unknown
// programs leaves the first ones.
const maxNotSimulated = 10

// NotSimulatedMessage is the message of a NotSimulated event.
func NotSimulatedMessage(container, what string) string {
	return process.NotSimulatedMessage(container, what)
}

// notSimulated records the NotSimulated events of one pod: once per
// container and thing, at most maxNotSimulated.
type notSimulated struct {
	mu       sync.Mutex
	seen     map[string]bool
	recorder k8srecord.EventRecorder
}

// tracer is the process.Tracer of container c of rec.
func (m *machine) tracer(rec *record, c *container) process.Tracer {
	if m.recorder == nil {
		return nil
	}
	if rec.notSimulated == nil {
		rec.notSimulated = &notSimulated{seen: map[string]bool{}, recorder: m.recorder}
	}
	return containerTracer{n: rec.notSimulated, ref: containerRef(rec.pod, c), container: c.name}
}

type containerTracer struct {
	n         *notSimulated
	ref       *corev1.ObjectReference
	container string
}

// NotSimulated implements process.Tracer: it runs on the process's
// goroutine.
func (t containerTracer) NotSimulated(what string) {
	n := t.n
	key := t.container + "\x00" + what
	n.mu.Lock()
	if n.seen[key] || len(n.seen) >= maxNotSimulated {
		n.mu.Unlock()
		return
	}
	n.seen[key] = true
	n.mu.Unlock()
	n.recorder.Event(t.ref, corev1.EventTypeWarning, NotSimulatedReason, NotSimulatedMessage(t.container, what))
}
