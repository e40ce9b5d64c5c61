package pods

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/virtual-kubelet/virtual-kubelet/errdefs"
	"github.com/virtual-kubelet/virtual-kubelet/node"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	corev1listers "k8s.io/client-go/listers/core/v1"
	k8srecord "k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/retry"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/clock"

	"wink.dev/wink/simnode/internal/logs"
	"wink.dev/wink/simnode/internal/nodes"
	"wink.dev/wink/simnode/internal/pods/containerenv"
	"wink.dev/wink/simnode/internal/pods/ipam"
	"wink.dev/wink/simnode/rules"
)

// Config configures a Provider.
type Config struct {
	Node   *nodes.Info
	Rules  *rules.Rules
	Client kubernetes.Interface
	// Pods lists pods from the shared informer.
	Pods corev1listers.PodLister
	// NodeObject returns the node as the API has it (labels for admission,
	// spec.podCIDR for pod IPs). It may return nil before the node exists.
	NodeObject func() *corev1.Node
	Recorder   k8srecord.EventRecorder
	Logs       *logs.Store
	// StartDelay is the time from admission to Running (sandbox, image
	// pull, container start). StopDelay the time a container takes to exit
	// after SIGTERM.
	StartDelay time.Duration
	StopDelay  time.Duration
	Clock      clock.WithDelayedExecution
	Log        *slog.Logger

	// The runtime's collaborators (runtime.go). Shell is required (the
	// simulated shell, wire.Shell); a nil Images, Volumes or Network is a
	// node without a catalog (every image pulls), without volumes, without
	// network.
	Shell   Shell
	Images  Images
	Volumes Volumes
	Network Network
	// Objects are the ConfigMaps, Secrets and Services containers refer to.
	Objects containerenv.Objects
	// RuntimeClasses resolves spec.runtimeClassName to its handler.
	RuntimeClasses RuntimeClasses
	// PullBandwidth (bytes/s) turns an image's size into its pull time;
	// 0 means StartDelay/2 for every pull.
	PullBandwidth int64

	// ShuttingDown reports whether the node shuts down (B15): pods that
	// reach it then are rejected (nil: never).
	ShuttingDown func() bool
	// StateDir is where the runtime keeps its records on the node's disk
	// (images with their metadata, container start times and writes;
	// continuity.go), so that a restarted simnode takes its containers up
	// where they were. "" keeps nothing.
	StateDir string
	// Rebooted says the machine rebooted since the pods the API shows on
	// this node last ran (N3): their containers are gone, so a started pod
	// is not adopted as it is but gets a new sandbox and restarts.
	Rebooted bool
	// Host is the node machine as HostProcess containers reach it.
	Host HostConfig
	// Metrics counts container starts and their failures as the kubelet's
	// /metrics does (nil: not counted).
	Metrics ContainerMetrics
}

// cidrRetry is how often a pod waiting for the node's podCIDR retries.
const cidrRetry = 250 * time.Millisecond

// Provider is the simulated runtime of one node.
type Provider struct {
	cfg  Config
	m    *machine
	ipam *ipam.IPAM

	mu   sync.Mutex
	pods map[string]*record

	queue  workqueue.TypedInterface[string]
	notify func(*corev1.Pod)

	// busy counts the jobs (commands) that are computing rather than
	// waiting for the clock or their context; Simulate waits for zero.
	busy atomic.Int64
}

var (
	_ node.PodLifecycleHandler = (*Provider)(nil)
	_ node.PodNotifier         = (*Provider)(nil)
)

// NewProvider returns the runtime of cfg.Node.
func NewProvider(cfg Config) *Provider {
	if cfg.Clock == nil {
		cfg.Clock = clock.RealClock{}
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Logs == nil {
		cfg.Logs = logs.NewStore()
	}
	// The log holds back what a process prints ahead of this clock
	// (lookahead.go).
	cfg.Logs.SetClock(cfg.Clock)
	if cfg.Shell == nil {
		panic("pods.NewProvider: Config.Shell is nil; pass the simulated shell (wire.Shell)")
	}
	p := &Provider{
		cfg:   cfg,
		ipam:  ipam.New(),
		pods:  map[string]*record{},
		queue: workqueue.NewTyped[string](),
	}
	p.m = &machine{
		node: cfg.Node, rules: cfg.Rules, recorder: cfg.Recorder, logs: cfg.Logs,
		images: map[string]bool{}, imageInfo: map[string]Image{}, pullDuration: cfg.StartDelay / 2,
		pullBandwidth: cfg.PullBandwidth, stopDelay: cfg.StopDelay,
		rt: &runtimeDeps{
			shell: cfg.Shell, images: cfg.Images, volumes: cfg.Volumes, network: cfg.Network,
			objects: cfg.Objects, runtimeClasses: cfg.RuntimeClasses, nodeObject: p.nodeObject,
			metrics: cfg.Metrics, host: cfg.Host,
		},
		fx: p, shuttingDown: cfg.ShuttingDown, stateDir: cfg.StateDir,
	}
	if cfg.StateDir != "" {
		p.m.loadImages()
	}
	return p
}

// IPAM exposes the node's pod IP allocator.
func (p *Provider) IPAM() *ipam.IPAM { return p.ipam }

// Logs exposes the node's container logs.
func (p *Provider) Logs() *logs.Store { return p.cfg.Logs }

// Seed marks the IPs of the node's live pods as used before any pod is
// created, so that a new pod never gets the IP of a pod that is adopted
// later in the start-up (requirement 4).
func (p *Provider) Seed(pods []*corev1.Pod) {
	for _, pod := range pods {
		if pod.Spec.NodeName != p.cfg.Node.Name || pod.Spec.HostNetwork || pod.Status.PodIP == "" {
			continue
		}
		if pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
			continue
		}
		if err := p.ipam.MarkUsed(pod.Status.PodIP, string(pod.UID)); err != nil {
			p.cfg.Log.Warn("pod IP conflict at start-up", "pod", podKey(pod), "err", err)
		}
	}
}

// NotifyPods registers virtual-kubelet's callback and starts the goroutine
// that delivers status changes in order (one per node).
func (p *Provider) NotifyPods(ctx context.Context, cb func(*corev1.Pod)) {
	p.mu.Lock()
	p.notify = cb
	p.mu.Unlock()
	go func() {
		<-ctx.Done()
		p.queue.ShutDown()
	}()
	go p.remountLoop(ctx)
	go func() {
		sent := statusLog{}
		for {
			key, quit := p.queue.Get()
			if quit {
				return
			}
			pod := p.current(key)
			if sent.changed(key, pod) {
				cb(pod)
			}
			p.queue.Done(key)
		}
	}()
}

// current returns the pod with its current simulated status.
func (p *Provider) current(key string) *corev1.Pod {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.pods[key]
	if !ok {
		return nil
	}
	return p.podLocked(rec)
}

// podLocked returns the latest API pod (or the record's copy) with the
// record's status.
func (p *Provider) podLocked(rec *record) *corev1.Pod {
	base := rec.pod
	if p.cfg.Pods != nil {
		ns, name := splitKey(rec.key)
		if api, err := p.cfg.Pods.Pods(ns).Get(name); err == nil && string(api.UID) == rec.uid {
			base = api
		}
	}
	pod := base.DeepCopy()
	pod.Status = p.m.buildStatus(rec, base)
	return pod
}

func splitKey(key string) (string, string) {
	for i := 0; i < len(key); i++ {
		if key[i] == '/' {
			return key[:i], key[i+1:]
		}
	}
	return "", key
}

func (p *Provider) enqueue(key string) { p.queue.Add(key) }

func (p *Provider) nodeObject() *corev1.Node {
	if p.cfg.NodeObject != nil {
		if n := p.cfg.NodeObject(); n != nil {
			return n
		}
	}
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: p.cfg.Node.Name}}
}

// CreatePod admits the pod (B1-B3) and, if admitted, starts it: Pending at
// once, Running after StartDelay. A pod this node had already started
// before a restart is adopted as it is.
func (p *Provider) CreatePod(_ context.Context, pod *corev1.Pod) error {
	key := podKey(pod)
	now := p.cfg.Clock.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	if rec, ok := p.pods[key]; ok {
		if rec.uid == string(pod.UID) {
			rec.pod = pod.DeepCopy()
			return nil
		}
		p.forgetLocked(rec) // a new pod with the same name
	}
	if adoptable(pod) && p.cfg.Rebooted {
		rec := p.m.adopt(pod, now)
		p.pods[key] = rec
		if p.m.lostOnReboot(rec, now) {
			uid := rec.uid
			p.cfg.Clock.AfterFunc(p.cfg.StartDelay, func() { p.tryStart(key, uid) })
		}
		p.cfg.Log.Info("pod's containers lost in a reboot", "node", p.cfg.Node.Name, "pod", key, "phase", rec.phase)
		p.enqueue(key)
		return nil
	}
	if adoptable(pod) {
		rec := p.m.adopt(pod, now)
		if rec.podIP != "" && !pod.Spec.HostNetwork {
			if err := p.ipam.MarkUsed(rec.podIP, rec.uid); err != nil {
				p.cfg.Log.Warn("adopted pod IP conflict", "pod", key, "err", err)
			}
		}
		p.pods[key] = rec
		p.m.resume(rec)
		p.armDeadline(rec)
		p.cfg.Log.Info("adopted running pod", "node", p.cfg.Node.Name, "pod", key, "podIP", rec.podIP)
		// No status notification: the API already has this status. A
		// container that is not running (exited, in back-off) is synced
		// as the kubelet's first sync after its restart does: it
		// restarts per restartPolicy, its back-off starting afresh (the
		// kubelet keeps back-offs in memory).
		for _, c := range rec.withEphemeral() {
			if !c.running() && !c.succeeded() && (!c.ephemeral || !c.created) {
				p.after(rec, 0, nil)
				break
			}
		}
		return nil
	}
	// The node's admitted pods that still hold their resources (host
	// ports: admission's NodePorts check).
	var active []*corev1.Pod
	for _, o := range p.pods {
		if o.stage != stageRejected && o.phase != corev1.PodSucceeded && o.phase != corev1.PodFailed {
			active = append(active, o.pod)
		}
	}
	rec := newRecord(pod)
	p.pods[key] = rec
	if !p.m.admit(rec, p.nodeObject(), active, now) {
		p.cfg.Log.Info("pod rejected at admission", "node", p.cfg.Node.Name, "pod", key, "reason", rec.reason)
		p.enqueue(key)
		return nil
	}
	rec.preferredIP = pod.Status.PodIP
	p.m.pending(rec, now)
	p.armDeadline(rec)
	p.enqueue(key)
	uid := rec.uid
	p.cfg.Clock.AfterFunc(p.cfg.StartDelay, func() { p.tryStart(key, uid) })
	return nil
}

// tryStart brings the sandbox up once the node has a podCIDR.
func (p *Provider) tryStart(key, uid string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.pods[key]
	if !ok || rec.uid != uid || rec.stage != stagePending {
		return
	}
	p.m.sandboxChangedEvent(rec)
	if !p.m.prepareSandbox(rec, func(d time.Duration) {
		p.cfg.Clock.AfterFunc(d, func() { p.tryStart(key, uid) })
	}) {
		p.enqueue(key)
		return
	}
	ip := p.cfg.Node.InternalIP
	if !rec.pod.Spec.HostNetwork {
		cidr := p.nodeObject().Spec.PodCIDR
		if rec.preferredIP != "" && cidr != "" {
			if err := p.ipam.MarkUsed(rec.preferredIP, uid); err == nil {
				ip = rec.preferredIP
				cidr = ""
			}
		}
		if cidr != "" {
			var err error
			ip, err = p.ipam.Allocate(cidr, uid)
			if err != nil {
				p.cfg.Log.Error("cannot allocate pod IP", "node", p.cfg.Node.Name, "pod", key, "err", err)
				p.cfg.Clock.AfterFunc(cidrRetry*4, func() { p.tryStart(key, uid) })
				return
			}
		} else if ip == p.cfg.Node.InternalIP {
			if !rec.waitingForCIDR {
				rec.waitingForCIDR = true
				p.cfg.Log.Info("waiting for the node's podCIDR", "node", p.cfg.Node.Name, "pod", key)
			}
			p.cfg.Clock.AfterFunc(cidrRetry, func() { p.tryStart(key, uid) })
			return
		}
	}
	p.m.start(rec, ip, p.cfg.Clock.Now())
	p.enqueue(key)
}

// Observe is called for every API update of a pod bound to this node.
// virtual-kubelet only re-syncs pods on spec changes; the kubelet also
// reacts to status conditions others own: a pod's readiness gates
// (GeneratePodReadyCondition) are re-evaluated here.
func (p *Provider) Observe(pod *corev1.Pod) {
	if len(pod.Spec.ReadinessGates) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.pods[podKey(pod)]
	if !ok || rec.uid != string(pod.UID) || rec.stage == stageRejected {
		return
	}
	before := rec.conditions
	rec.pod.Status.Conditions = append([]corev1.PodCondition(nil), pod.Status.Conditions...)
	p.m.refreshConditions(rec, p.cfg.Clock.Now())
	for i := range rec.conditions {
		if i >= len(before) || before[i].Status != rec.conditions[i].Status || before[i].Reason != rec.conditions[i].Reason || before[i].Message != rec.conditions[i].Message {
			p.enqueue(rec.key)
			return
		}
	}
}

// UpdatePod records the new spec and metadata (labels, annotations). The
// kubelet's pod worker syncs the updated pod and its status manager writes
// the status again, with the new generation as observedGeneration.
func (p *Provider) UpdatePod(_ context.Context, pod *corev1.Pod) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.pods[podKey(pod)]
	if !ok || rec.uid != string(pod.UID) {
		return errdefs.NotFoundf("pod %s not found", podKey(pod))
	}
	rec.pod = pod.DeepCopy()
	p.armDeadline(rec) // activeDeadlineSeconds may be set or changed (B13)
	p.addEphemeral(rec)
	if p.m.imageChanged(rec) {
		p.after(rec, 0, nil) // the pod worker syncs the new spec (issue 21)
	}
	p.enqueue(rec.key)
	return nil
}

// DeletePod stops the pod's containers (virtual-kubelet's contract: the
// containers reach a terminal state and the pod is reported through
// NotifyPods; it may be called several times). Each container exits after
// StopDelay, or at the end of the grace period when it ignores SIGTERM;
// then the pod gets its terminal status and, like the kubelet's status
// manager, is deleted from the API with grace period 0. Once the pod is
// gone from the API, its record and IP are released.
func (p *Provider) DeletePod(_ context.Context, pod *corev1.Pod) error {
	key := podKey(pod)
	now := p.cfg.Clock.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.pods[key]
	api := p.apiPod(key)
	if !ok {
		if api == nil || api.UID != pod.UID || !adoptable(api) {
			return errdefs.NotFoundf("pod %s not found", key)
		}
		rec = p.m.adopt(api, now)
		p.pods[key] = rec
		if p.cfg.Rebooted {
			// Nothing runs after a reboot: the deletion finds no container.
			p.m.lostOnReboot(rec, now)
		} else {
			if rec.podIP != "" && !api.Spec.HostNetwork {
				_ = p.ipam.MarkUsed(rec.podIP, rec.uid)
			}
			p.m.resume(rec)
		}
	}
	if rec.uid != string(pod.UID) {
		return errdefs.NotFoundf("pod %s (uid %s) not found", key, pod.UID)
	}
	if api == nil || string(api.UID) != rec.uid {
		// Gone from the API: forget it.
		p.forgetLocked(rec)
		return nil
	}
	rec.pod = api.DeepCopy()
	switch rec.stage {
	case stageRejected, stageTerminating, stageTerminated:
		return nil
	case stagePending:
		// No container has started; the sandbox is torn down.
		p.m.terminated(rec, now)
		p.finish(rec)
		return nil
	}
	p.m.beginStop(rec, p.cfg.StopDelay, gracePeriod(rec.pod), 0, func() { p.finish(rec) })
	p.enqueue(key)
	return nil
}

// finish is the end of a deleted pod: its terminal status, then, like the
// kubelet's status manager, its deletion from the API (status_manager.go:
// canBeDeleted -> Delete with grace 0 and a UID precondition). Called with
// p.mu held; the API calls run in a goroutine.
func (p *Provider) finish(rec *record) { p.writeFinal(rec, true) }

// finalize is the end of a pod the kubelet killed on its own (Terminate):
// its terminal status only. Without a deletionTimestamp the status manager
// never deletes a pod, so it stays in the API, Failed (or Succeeded),
// until someone deletes it. Called with p.mu held.
func (p *Provider) finalize(rec *record) { p.writeFinal(rec, false) }

// writeFinal writes rec's terminal status straight to the API, whatever
// phase the API shows (virtual-kubelet stops syncing a pod's status once
// the API says it is terminal), frees the pod IP (the sandbox is gone),
// deletes the pod when del is set, and then tells rec's waiters. Called
// with p.mu held; the API calls run in a goroutine.
func (p *Provider) writeFinal(rec *record, del bool) {
	ns, name := splitKey(rec.key)
	status := p.podLocked(rec).Status
	uid := rec.uid
	if rec.podIP != "" && !rec.pod.Spec.HostNetwork {
		p.ipam.Release(rec.podIP, uid)
	}
	waiters := rec.waiters
	rec.waiters = nil
	tell := func(err error) {
		for _, w := range waiters {
			w <- err
		}
	}
	if p.cfg.Client == nil {
		tell(nil)
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		pods := p.cfg.Client.CoreV1().Pods(ns)
		err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			cur, err := pods.Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			if string(cur.UID) != uid {
				return apierrors.NewNotFound(corev1.Resource("pods"), name)
			}
			cur.Status = status
			_, err = pods.UpdateStatus(ctx, cur, metav1.UpdateOptions{})
			return err
		})
		if apierrors.IsNotFound(err) {
			err = nil // gone from the API: nothing is left to report
		}
		if err != nil {
			p.cfg.Log.Warn("final pod status update failed", "pod", ns+"/"+name, "err", err)
			err = fmt.Errorf("final status of pod %s/%s: %w", ns, name, err)
		}
		if del {
			zero := int64(0)
			u := types.UID(uid)
			derr := pods.Delete(ctx, name, metav1.DeleteOptions{GracePeriodSeconds: &zero, Preconditions: &metav1.Preconditions{UID: &u}})
			if derr != nil && !apierrors.IsNotFound(derr) && !apierrors.IsConflict(derr) {
				p.cfg.Log.Warn("pod deletion failed", "pod", ns+"/"+name, "err", derr)
			}
		}
		tell(err)
	}()
}

func (p *Provider) apiPod(key string) *corev1.Pod {
	if p.cfg.Pods == nil {
		return nil
	}
	ns, name := splitKey(key)
	pod, err := p.cfg.Pods.Pods(ns).Get(name)
	if err != nil {
		return nil
	}
	return pod
}

func (p *Provider) forgetLocked(rec *record) {
	if rec.podIP != "" && !rec.pod.Spec.HostNetwork {
		p.ipam.Release(rec.podIP, rec.uid)
	}
	p.cfg.Logs.DeletePod(rec.uid)
	if p.cfg.StateDir != "" && rec.uid != "" {
		_ = os.RemoveAll(podStateDir(p.cfg.StateDir, rec.uid))
	}
	delete(p.pods, rec.key)
}

// GetPod returns the pod with its simulated status and the spec the node
// runs (the last CreatePod or UpdatePod): virtual-kubelet compares it with
// the API's to decide on UpdatePod (node/pod.go createOrUpdatePod), so a
// spec change (activeDeadlineSeconds, ephemeral containers, images) reaches
// the node as it reaches a kubelet's pod worker.
func (p *Provider) GetPod(_ context.Context, namespace, name string) (*corev1.Pod, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.pods[namespace+"/"+name]
	if !ok {
		return nil, errdefs.NotFoundf("pod %s/%s not found", namespace, name)
	}
	pod := p.podLocked(rec)
	rec.pod.Spec.DeepCopyInto(&pod.Spec)
	pod.Labels, pod.Annotations = rec.pod.DeepCopy().Labels, rec.pod.DeepCopy().Annotations
	return pod, nil
}

// GetPodStatus returns the simulated status.
func (p *Provider) GetPodStatus(ctx context.Context, namespace, name string) (*corev1.PodStatus, error) {
	pod, err := p.GetPod(ctx, namespace, name)
	if err != nil {
		return nil, err
	}
	return &pod.Status, nil
}

// GetPods returns every pod the node runs.
func (p *Provider) GetPods(context.Context) ([]*corev1.Pod, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]*corev1.Pod, 0, len(p.pods))
	for _, k := range sortedKeys(p.pods) {
		out = append(out, p.podLocked(p.pods[k]))
	}
	return out, nil
}

// ErrContainerNotFound is returned by ContainerLogs for an unknown pod or
// container.
var ErrContainerNotFound = errors.New("container not found")

// ContainerLogs returns the log buffer of a container: the current
// instance, or with previous the one before the last restart.
func (p *Provider) ContainerLogs(namespace, name, containerName string, previous bool) (*logs.Buffer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.pods[namespace+"/"+name]
	if !ok {
		return nil, errdefs.AsNotFound(fmt.Errorf("%w: pod %q in namespace %q", ErrContainerNotFound, name, namespace))
	}
	for _, c := range rec.withEphemeral() {
		if c.name != containerName {
			continue
		}
		restart := c.restartCount
		if previous {
			if c.restartCount == 0 {
				return nil, errdefs.AsNotFound(fmt.Errorf("previous terminated container %q in pod %q not found", containerName, name))
			}
			restart--
		}
		if !c.created {
			return nil, errdefs.AsInvalidInput(fmt.Errorf("container %q in pod %q is waiting to start: %s", containerName, name, waitingReason(c)))
		}
		b, err := p.cfg.Logs.Get(logKey(rec, c, restart))
		if err != nil {
			// A container that never wrote its log file (one adopted from
			// before logs were files): an empty log.
			b = logs.Closed()
		}
		return b, nil
	}
	return nil, errdefs.AsNotFound(fmt.Errorf("%w: container %q in pod %q", ErrContainerNotFound, containerName, name))
}

func waitingReason(c *container) string {
	if c.state.Waiting != nil {
		return c.state.Waiting.Reason
	}
	return "ContainerCreating"
}

// Now is the provider's clock.
func (p *Provider) Now() time.Time { return p.cfg.Clock.Now() }
