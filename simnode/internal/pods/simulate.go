package pods

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/internal/logs"
	"wink.dev/wink/simnode/internal/nodes"
	"wink.dev/wink/simnode/internal/pods/containerenv"
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
// Processes record too (their NotSimulated events, limits.go), from their
// own goroutines: read Events once they ended.
type Recorder struct {
	mu     sync.Mutex
	Events []Event
}

// Event implements record.EventRecorder.
func (r *Recorder) Event(object runtime.Object, eventtype, reason, message string) {
	ev := Event{Type: eventtype, Reason: reason, Message: message}
	if ref, ok := object.(*corev1.ObjectReference); ok {
		ev.FieldPath = ref.FieldPath
	}
	r.mu.Lock()
	r.Events = append(r.Events, ev)
	r.mu.Unlock()
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
	// Now is the time of admission.
	Now time.Time
	// Step is the start delay (admission to sandbox) and the stop delay.
	Step time.Duration
	// For is how long the pod runs before the final status (and the
	// deletion, with Delete); default 3 steps.
	For time.Duration
	// Delete deletes the pod once it ran For.
	Delete bool
	// Terminate kills the pod once it ran For, as the kubelet kills a pod
	// on its own (Evicted: B6, ShutDown: B15).
	Terminate *Termination
	// Shell, Images, Objects: the runtime's collaborators. Shell is
	// required (wire.Shell, the shell that ships); Images and Objects are
	// none by default.
	Shell   Shell
	Images  Images
	Objects containerenv.Objects
}

// NodeInfoFromNode rebuilds the Info of a node object (golden inputs).
func NodeInfoFromNode(node *corev1.Node) (*nodes.Info, error) {
	v, err := rules.ParseKubeletVersion(node.Status.NodeInfo.KubeletVersion)
	if err != nil {
		return nil, err
	}
	info := &nodes.Info{Name: node.Name, OS: facts.NodeOS(node), KubeletVersion: v}
	for _, a := range node.Status.Addresses {
		if a.Type == corev1.NodeInternalIP {
			info.InternalIP = a.Address
		}
	}
	return info, nil
}

// simTick is the time resolution of Simulate.
const simTick = 100 * time.Millisecond

// Simulate runs pod on node through a Provider on a manual clock, with the
// pod's commands in opts.Shell: admission, the Pending status, opts.For of
// running, and with opts.Delete a graceful deletion, with opts.Terminate a
// kill of the kubelet's own. It is what the golden tests of the rule
// tables run.
func Simulate(r *rules.Rules, node *corev1.Node, pod *corev1.Pod, opts SimulateOptions) (*Result, error) {
	if opts.Shell == nil {
		return nil, errors.New("pods.Simulate: SimulateOptions.Shell is nil; pass the simulated shell (wire.Shell)")
	}
	info, err := NodeInfoFromNode(node)
	if err != nil {
		return nil, err
	}
	if opts.Step == 0 {
		opts.Step = time.Second
	}
	if opts.For == 0 {
		opts.For = 3 * opts.Step
	}
	rec := &Recorder{}
	store := logs.NewStore()
	clk := newManualClock(opts.Now)
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	if err := indexer.Add(pod); err != nil {
		return nil, err
	}
	p := NewProvider(Config{
		Node: info, Rules: r, Pods: corev1listers.NewPodLister(indexer),
		NodeObject: func() *corev1.Node { return node },
		Recorder:   rec, Logs: store, StartDelay: opts.Step, StopDelay: opts.Step, Clock: clk,
		Shell: opts.Shell, Images: opts.Images, Objects: opts.Objects,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	run := func(d time.Duration) {
		for t := time.Duration(0); t < d; t += simTick {
			waitIdle(p)
			clk.Step(simTick)
		}
		waitIdle(p)
	}
	if err := p.CreatePod(context.Background(), pod); err != nil {
		return nil, err
	}
	res := &Result{}
	cur, err := p.GetPod(context.Background(), pod.Namespace, pod.Name)
	if err != nil {
		return nil, err
	}
	if cur.Status.Phase != corev1.PodFailed || cur.Status.Reason == "" {
		st := cur.Status
		res.Pending = &st
	}
	run(opts.For)
	if opts.Delete {
		if err := p.DeletePod(context.Background(), pod); err != nil {
			return nil, err
		}
		run(gracePeriod(pod) + 2*opts.Step)
	}
	if t := opts.Terminate; t != nil {
		grace := gracePeriod(pod)
		if t.GracePeriod != nil {
			grace = *t.GracePeriod
		}
		done := p.Terminate(pod, *t)
		run(max(grace, r.Runtime.KillPod.MinimumGracePeriod.Duration) + 2*opts.Step)
		select {
		case err := <-done:
			if err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("pod %s/%s was not terminated", pod.Namespace, pod.Name)
		}
	}
	cur, err = p.GetPod(context.Background(), pod.Namespace, pod.Name)
	if err != nil {
		return nil, err
	}
	res.Final = cur.Status
	res.Events = rec.Events
	p.mu.Lock()
	record := p.pods[podKey(pod)]
	for _, c := range record.containers {
		if b, err := store.Get(logs.Key{PodUID: record.uid, Container: c.name, Restart: c.restartCount}); err == nil {
			for _, l := range b.Lines() {
				if res.Logs == nil {
					res.Logs = map[string][]string{}
				}
				res.Logs[c.name] = append(res.Logs[c.name], l.Text)
			}
		}
		if c.cancel != nil {
			c.cancel()
		}
	}
	p.mu.Unlock()
	return res, nil
}

// waitIdle waits (in real time, at most 2 s) until no command computes.
func waitIdle(p *Provider) {
	deadline := time.Now().Add(2 * time.Second)
	for !p.Idle() && time.Now().Before(deadline) {
		time.Sleep(200 * time.Microsecond)
	}
}
