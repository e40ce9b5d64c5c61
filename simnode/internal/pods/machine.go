package pods

import (
	"context"
	"fmt"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/scheme"
	k8srecord "k8s.io/client-go/tools/record"
	"k8s.io/client-go/tools/reference"
	"k8s.io/utils/clock"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/internal/logs"
	"wink.dev/wink/simnode/internal/nodes"
	"wink.dev/wink/simnode/internal/pods/containerenv"
	"wink.dev/wink/simnode/rules"
	"wink.dev/wink/simnode/shell/process"
)

// IgnoreSigtermAnnotation makes every container of a pod ignore SIGTERM
// (CTRL_SHUTDOWN_EVENT on Windows): it runs until the grace period is over
// and is then killed (B13).
const IgnoreSigtermAnnotation = "wink.dev/ignore-sigterm"

// DefaultTerminationGracePeriod is the API default of
// spec.terminationGracePeriodSeconds.
const DefaultTerminationGracePeriod = 30 * time.Second

type stage int

const (
	stageRejected    stage = iota // failed kubelet admission (B1-B3)
	stagePending                  // admitted, sandbox and containers being created
	stageRunning                  // containers started
	stageTerminating              // deletion requested, containers stopping
	stageTerminated               // all containers stopped
)

func (s stage) String() string {
	return [...]string{"rejected", "pending", "running", "terminating", "terminated"}[s]
}

// container is the single source of truth for one container of a pod:
// its status fields, and the runtime state behind them (pull, back-offs,
// process, probes). Status is derived from it (buildStatus).
type container struct {
	// cpu is the current instance's busy threads (host.go).
	cpu     *cpuMeter
	name    string
	init    bool // a regular init container: runs to completion first
	sidecar bool // a restartable init container (restartPolicy Always)
	image   string

	created      bool
	imageRef     string
	imageID      string
	id           string
	restartCount int32
	state        corev1.ContainerState
	lastState    corev1.ContainerState
	ready        bool
	started      bool

	// img is the pulled image; pulled says the image is there for the
	// current start attempt; pullUntil is when a pull in progress ends.
	img       Image
	pulled    bool
	pullUntil time.Time
	pullStart time.Time
	// notBefore gates the next start attempt (config error retry, image
	// pull and crash loop back-off).
	notBefore   time.Time
	pullBackoff backoff
	crash       backoff
	// changed: the kubelet killed the running instance because the spec's
	// image changed; it restarts whatever the restart policy (issue 21).
	changed bool
	// finishedAt is when the last instance exited (crash back-off key time).
	finishedAt time.Time
	// backoffFor is the finishedAt whose back-off was already announced.
	backoffFor time.Time

	// instance numbers the processes of the container; a callback of an
	// older instance is ignored.
	instance int
	env      *Env
	argv     []string
	// opaque: the process is a program wink does not simulate (lifecycle.go).
	opaque  bool
	listens []int
	cancel  context.CancelFunc
	// killing: the kubelet is stopping the current instance (liveness,
	// startup probe, postStart hook): its exit restarts per policy.
	killing bool
	// stopped: stopped for the pod's deletion; a late exit is ignored.
	stopped bool
	probes  map[string]*probeState
	// partialTail: the current instance's output ended without a newline
	// (containerd logs that last line as partial, termmsg.go).
	partialTail bool
	// ephemeral: an ephemeral container (ephemeral.go): started once,
	// never restarted, outside the pod's phase and readiness.
	ephemeral bool
}

func (c *container) running() bool { return c.state.Running != nil }

// record is the simulated runtime's state of one pod.
type record struct {
	key string
	uid string
	pod *corev1.Pod // latest spec seen

	stage        stage
	phase        corev1.PodPhase
	reason       string
	message      string
	sandboxReady bool
	podIP        string
	hostIP       string
	startTime    *metav1.Time
	containers   []*container // init containers first, then regular ones, in spec order
	ephemeral    []*container // ephemeral containers, in the order they were added
	deadline     clock.Timer  // the active deadline check (deadline.go)
	conditions   []corev1.PodCondition
	// preferredIP is the pod IP the API already shows (a restart while the
	// pod was starting); it is reused when the sandbox comes up.
	preferredIP string
	// waitingForCIDR is set once the "no podCIDR" state has been logged.
	waitingForCIDR bool
	// volumes are the pod's mounted volumes (B11, B12); mountBackoff the
	// retry delay of a failed mount.
	volumes      PodVolumes
	mountBackoff time.Duration
	// ending is a kill the kubelet started on its own (eviction, node
	// shutdown: Terminate); it decides the terminal status once the
	// containers stopped. shared are the conditions that status adds
	// (DisruptionTarget), merged over the API's as the status manager's
	// ReplaceOrAppendPodCondition does.
	ending *Termination
	shared []corev1.PodCondition
	// waiters are told when the pod's terminal status is in the API.
	waiters []chan error
	// sandboxChanged: the pod's sandbox went away with the machine (a
	// reboot, N3) and the next start re-creates it.
	sandboxChanged bool
	// notSimulated: the pod's NotSimulated events so far (limits.go).
	notSimulated *notSimulated
}

// machine applies the kubelet's behaviour (the rule tables) to records.
type machine struct {
	node     *nodes.Info
	rules    *rules.Rules
	recorder k8srecord.EventRecorder
	logs     *logs.Store
	// images already present on the node, by containerd reference.
	images map[string]bool
	// pullDuration is how long a simulated image pull takes when the
	// catalog gives no size (or pullBandwidth is 0).
	pullDuration  time.Duration
	pullBandwidth int64 // bytes per second
	// imageInfo is what the catalog said of the images on the node.
	imageInfo map[string]Image
	// stateDir holds the runtime's records on the node's disk
	// (continuity.go); "" keeps nothing.
	stateDir  string
	stopDelay time.Duration
	http      *httpState

	rt *runtimeDeps
	fx effects
	// shuttingDown reports whether the node shuts down (B15); may be nil.
	shuttingDown func() bool
	// cpu is the node's CPU its processes share (limits.go).
	cpu *process.CPUShare
}

func podKey(pod *corev1.Pod) string { return pod.Namespace + "/" + pod.Name }

func newRecord(pod *corev1.Pod) *record {
	rec := &record{key: podKey(pod), uid: string(pod.UID), pod: pod.DeepCopy()}
	for _, c := range pod.Spec.InitContainers {
		sidecar := c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
		rec.containers = append(rec.containers, &container{name: c.Name, init: !sidecar, sidecar: sidecar, image: c.Image})
	}
	for _, c := range pod.Spec.Containers {
		rec.containers = append(rec.containers, &container{name: c.Name, image: c.Image})
	}
	return rec
}

func (m *machine) feature(f rules.Feature) bool {
	return f.KubeletVersions.Contains(m.node.KubeletVersion)
}

// containerRef is the event's involvedObject for a container, as
// kubecontainer.GenerateContainerRef builds it.
func containerRef(pod *corev1.Pod, c *container) *corev1.ObjectReference {
	path := fmt.Sprintf("spec.containers{%s}", c.name)
	if c.init || c.sidecar {
		path = fmt.Sprintf("spec.initContainers{%s}", c.name)
	}
	ref, err := reference.GetPartialReference(scheme.Scheme, pod, path)
	if err != nil {
		return &corev1.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID, FieldPath: path}
	}
	return ref
}

func (m *machine) event(pod *corev1.Pod, c *container, id string, d rules.EventData) {
	typ, reason, msg, err := m.rules.Event(id, m.node.KubeletVersion, d)
	if err != nil {
		// The tables are validated to cover every supported version.
		panic(err)
	}
	m.recorder.Event(containerRef(pod, c), typ, reason, msg)
}

// admit runs kubelet admission (B1-B3, then, while the node shuts down,
// the node shutdown manager's B15). A rejected pod goes Failed with the
// rule's reason and "Pod was rejected: <message>", and gets a Warning event
// on the pod (kubelet.go rejectPod). Like the kubelet's status manager, the
// rejected status has a startTime and no conditions.
func (m *machine) admit(rec *record, node *corev1.Node, active []*corev1.Pod, now time.Time) bool {
	rej := m.rules.Admit(rec.pod, node, m.node.OS, m.node.KubeletVersion, active)
	if rej == nil {
		if m.shuttingDown != nil && m.shuttingDown() {
			return m.shutdownRejection(rec, now)
		}
		return true
	}
	rec.stage = stageRejected
	rec.phase = corev1.PodFailed
	rec.reason = rej.Reason
	rec.message = rej.StatusMessage
	rec.startTime = startTimeOf(rec.pod, now)
	m.recorder.Event(rec.pod, corev1.EventTypeWarning, rej.Reason, rej.EventMessage)
	return false
}

func startTimeOf(pod *corev1.Pod, now time.Time) *metav1.Time {
	if pod.Status.StartTime != nil && !pod.Status.StartTime.IsZero() {
		t := *pod.Status.StartTime
		return &t
	}
	t := metav1.NewTime(now)
	return &t
}

// pending is the kubelet's first status of an admitted pod: Pending, the
// containers waiting (ContainerCreating, or PodInitializing behind init
// containers), no sandbox yet. hostNetwork pods get the node IP at once.
func (m *machine) pending(rec *record, now time.Time) {
	rec.stage = stagePending
	rec.phase = corev1.PodPending
	rec.hostIP = m.node.InternalIP
	rec.startTime = startTimeOf(rec.pod, now)
	if rec.pod.Spec.HostNetwork {
		rec.podIP = m.node.InternalIP
	}
	hasInit := false
	for _, c := range rec.containers {
		if c.init || c.sidecar {
			hasInit = true
		}
	}
	for _, c := range rec.containers {
		reason := "ContainerCreating"
		if hasInit {
			reason = "PodInitializing"
		}
		c.state = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason}}
	}
	m.refreshConditions(rec, now)
}

func (m *machine) spec(rec *record, c *container) *corev1.Container {
	for _, list := range [][]corev1.Container{rec.pod.Spec.InitContainers, rec.pod.Spec.Containers} {
		for i := range list {
			if list[i].Name == c.name {
				return &list[i]
			}
		}
	}
	if c.ephemeral {
		if s := ephemeralSpec(rec.pod, c.name); s != nil {
			return s
		}
	}
	return &corev1.Container{Name: c.name, Image: c.image}
}

// gracePeriod is the time a container that ignores SIGTERM gets.
func gracePeriod(pod *corev1.Pod) time.Duration {
	if pod.DeletionGracePeriodSeconds != nil {
		return time.Duration(*pod.DeletionGracePeriodSeconds) * time.Second
	}
	if pod.Spec.TerminationGracePeriodSeconds != nil {
		return time.Duration(*pod.Spec.TerminationGracePeriodSeconds) * time.Second
	}
	return DefaultTerminationGracePeriod
}

// terminated finishes a deleted or killed pod: sandbox gone, and (kubelet
// >= v1.27) phase Succeeded if every container exited 0, else Failed.
//
// A kill of the kubelet's own (rec.ending: eviction B6, node shutdown B15)
// is killPodNow with a status function: the status manager keeps its
// Failed phase, reason and message and its DisruptionTarget condition back
// until the containers stopped (status_manager.go mergePodStatus), and the
// final status (kubelet_pods.go generateAPIPodStatus) takes the phase of
// the stopped containers since v1.27: a pod whose containers all exited 0
// is Succeeded, which drops reason and message (the phase differs from
// the status function's); otherwise it stays Failed with them. The
// DisruptionTarget condition is added either way.
func (m *machine) terminated(rec *record, now time.Time) {
	rec.stage = stageTerminated
	rec.sandboxReady = false
	terminalPhase := m.feature(m.rules.PodStatus.TerminalPhaseOnDeletion)
	if terminalPhase {
		rec.phase = corev1.PodSucceeded
		for _, c := range rec.containers {
			if c.init {
				continue
			}
			if t := c.state.Terminated; t == nil || t.ExitCode != 0 {
				rec.phase = corev1.PodFailed
			}
		}
	}
	if e := rec.ending; e != nil {
		if !terminalPhase || rec.phase != corev1.PodSucceeded || e.Failed {
			rec.phase = corev1.PodFailed
			rec.reason, rec.message = e.Reason, e.Message
		}
		if e.Condition.Type != "" {
			c := e.Condition
			c.LastTransitionTime = metav1.NewTime(now)
			rec.shared = []corev1.PodCondition{c}
		}
	}
	m.refreshConditions(rec, now)
}

// refreshConditions recomputes the kubelet-owned conditions
// (pkg/kubelet/status/generate.go), keeping lastTransitionTime when a
// condition's status did not change (status_manager.go
// updateLastTransitionTime). Order as generateAPIPodStatus:
// PodReadyToStartContainers, Initialized, Ready, ContainersReady,
// PodScheduled.
func (m *machine) refreshConditions(rec *record, now time.Time) {
	if rec.stage == stageRejected {
		rec.conditions = nil
		return
	}
	var conds []corev1.PodCondition
	if m.feature(m.rules.PodStatus.ReadyToStartContainersCondition) {
		st := corev1.ConditionFalse
		if rec.sandboxReady {
			st = corev1.ConditionTrue
		}
		conds = append(conds, corev1.PodCondition{Type: corev1.PodReadyToStartContainers, Status: st})
	}
	conds = append(conds, m.initializedCondition(rec))
	ready := m.containersReadyCondition(rec)
	podReady := ready
	podReady.Type = corev1.PodReady
	if ready.Status == corev1.ConditionTrue {
		podReady = m.readinessGates(rec)
	}
	conds = append(conds, podReady, ready, corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionTrue})

	t := metav1.NewTime(now)
	for i := range conds {
		conds[i].LastTransitionTime = t
		for _, old := range rec.conditions {
			if old.Type == conds[i].Type && old.Status == conds[i].Status {
				conds[i].LastTransitionTime = old.LastTransitionTime
			}
		}
		if conds[i].Type == corev1.PodScheduled {
			// The scheduler set it; keep its time.
			for _, c := range rec.pod.Status.Conditions {
				if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionTrue && !c.LastTransitionTime.IsZero() {
					conds[i].LastTransitionTime = c.LastTransitionTime
				}
			}
		}
	}
	rec.conditions = conds
}

func (m *machine) initializedCondition(rec *record) corev1.PodCondition {
	c := corev1.PodCondition{Type: corev1.PodInitialized, Status: corev1.ConditionTrue}
	if rec.phase == corev1.PodSucceeded {
		c.Reason = "PodCompleted"
		return c
	}
	regularStarted := false
	var incomplete []string
	for _, ct := range rec.containers {
		switch {
		case ct.init:
			if !ct.ready {
				incomplete = append(incomplete, ct.name)
			}
		case ct.sidecar:
			if !ct.started && ct.state.Terminated == nil {
				incomplete = append(incomplete, ct.name)
			}
		default:
			if ct.created {
				regularStarted = true
			}
		}
	}
	if regularStarted || len(incomplete) == 0 {
		return c
	}
	c.Status = corev1.ConditionFalse
	c.Reason = "ContainersNotInitialized"
	c.Message = fmt.Sprintf("containers with incomplete status: %s", incomplete)
	return c
}

func (m *machine) containersReadyCondition(rec *record) corev1.PodCondition {
	c := corev1.PodCondition{Type: corev1.ContainersReady, Status: corev1.ConditionFalse}
	switch rec.phase {
	case corev1.PodFailed:
		c.Reason = "PodFailed"
		return c
	case corev1.PodSucceeded:
		c.Reason = "PodCompleted"
		return c
	}
	var unready []string
	for _, ct := range rec.containers {
		if ct.init {
			continue
		}
		if !ct.ready {
			unready = append(unready, ct.name)
		}
	}
	if len(unready) > 0 {
		c.Reason = "ContainersNotReady"
		c.Message = fmt.Sprintf("containers with unready status: %s", unready)
		return c
	}
	c.Status = corev1.ConditionTrue
	return c
}

// readinessGates is GeneratePodReadyCondition's readiness gate check.
func (m *machine) readinessGates(rec *record) corev1.PodCondition {
	var msgs []string
	for _, g := range rec.pod.Spec.ReadinessGates {
		var found *corev1.PodCondition
		for i := range rec.pod.Status.Conditions {
			if rec.pod.Status.Conditions[i].Type == g.ConditionType {
				found = &rec.pod.Status.Conditions[i]
			}
		}
		if found == nil {
			msgs = append(msgs, fmt.Sprintf("corresponding condition of pod readiness gate %q does not exist.", string(g.ConditionType)))
		} else if found.Status != corev1.ConditionTrue {
			msgs = append(msgs, fmt.Sprintf("the status of pod readiness gate %q is not \"True\", but %v", string(g.ConditionType), found.Status))
		}
	}
	if len(msgs) > 0 {
		return corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionFalse, Reason: "ReadinessGatesNotReady", Message: joinComma(msgs)}
	}
	return corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue}
}

func joinComma(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}

var kubeletConditions = map[corev1.PodConditionType]bool{
	corev1.PodScheduled: true, corev1.PodReady: true, corev1.PodInitialized: true,
	corev1.ContainersReady: true, corev1.PodReadyToStartContainers: true,
	corev1.PodResizeInProgress: true, corev1.PodResizePending: true,
}

// buildStatus derives the pod status from the record. apiPod is the pod as
// the API has it now: conditions the kubelet does not own (readiness gates,
// DisruptionTarget) are kept from it, first, as mergePodStatus does.
func (m *machine) buildStatus(rec *record, apiPod *corev1.Pod) corev1.PodStatus {
	s := corev1.PodStatus{
		Phase:     rec.phase,
		Reason:    rec.reason,
		Message:   rec.message,
		StartTime: rec.startTime.DeepCopy(),
		QOSClass:  apiPod.Status.QOSClass,
	}
	if rec.stage == stageRejected {
		return s
	}
	gen := int64(0)
	if m.feature(m.rules.PodStatus.ObservedGeneration) {
		gen = apiPod.Generation
		s.ObservedGeneration = gen
	}
	for _, c := range apiPod.Status.Conditions {
		if !kubeletConditions[c.Type] {
			s.Conditions = append(s.Conditions, c)
		}
	}
	for _, c := range rec.shared {
		c.ObservedGeneration = gen
		s.Conditions = replaceOrAppend(s.Conditions, c)
	}
	for _, c := range rec.conditions {
		c.ObservedGeneration = gen
		s.Conditions = append(s.Conditions, c)
	}
	if rec.hostIP != "" {
		s.HostIP = rec.hostIP
		s.HostIPs = []corev1.HostIP{{IP: rec.hostIP}}
	}
	if rec.podIP != "" {
		s.PodIP = rec.podIP
		s.PodIPs = []corev1.PodIP{{IP: rec.podIP}}
	}
	for _, c := range rec.withEphemeral() {
		cs := corev1.ContainerStatus{
			Name:                 c.name,
			State:                *c.state.DeepCopy(),
			LastTerminationState: *c.lastState.DeepCopy(),
			Ready:                c.ready,
			RestartCount:         c.restartCount,
			Image:                c.image,
			Started:              ptrBool(c.started),
		}
		if c.created {
			cs.Image = c.imageRef
			cs.ImageID = c.imageID
			cs.ContainerID = c.id
		}
		if c.ephemeral {
			s.EphemeralContainerStatuses = append(s.EphemeralContainerStatuses, cs)
		} else if c.init || c.sidecar {
			s.InitContainerStatuses = append(s.InitContainerStatuses, cs)
		} else {
			s.ContainerStatuses = append(s.ContainerStatuses, cs)
		}
	}
	return s
}

func ptrBool(b bool) *bool { return &b }

// replaceOrAppend is the status manager's ReplaceOrAppendPodCondition:
// c replaces the condition of its type, or is appended.
func replaceOrAppend(conds []corev1.PodCondition, c corev1.PodCondition) []corev1.PodCondition {
	for i := range conds {
		if conds[i].Type == c.Type {
			conds[i] = c
			return conds
		}
	}
	return append(conds, c)
}

// adopt rebuilds a record from a pod the API shows as already started on
// this node (a simnode restart): phase, startTime, podIP, containerIDs,
// restart counts, container states and condition times are taken as they
// are, so the next status update changes none of them (requirement 4).
func (m *machine) adopt(pod *corev1.Pod, now time.Time) *record {
	rec := newRecord(pod)
	rec.phase = pod.Status.Phase
	rec.reason, rec.message = pod.Status.Reason, pod.Status.Message
	rec.startTime = startTimeOf(pod, now)
	rec.hostIP = pod.Status.HostIP
	if rec.hostIP == "" {
		rec.hostIP = m.node.InternalIP
	}
	rec.podIP = pod.Status.PodIP
	rec.sandboxReady = true
	statuses := map[string]corev1.ContainerStatus{}
	for _, cs := range append(append(append([]corev1.ContainerStatus(nil), pod.Status.InitContainerStatuses...), pod.Status.ContainerStatuses...), pod.Status.EphemeralContainerStatuses...) {
		statuses[cs.Name] = cs
	}
	// Ephemeral containers are containers of the pod's sandbox like the
	// others: they outlive simnode as the regular ones do (issue 21, B16).
	for _, ec := range pod.Spec.EphemeralContainers {
		rec.ephemeral = append(rec.ephemeral, &container{name: ec.Name, image: ec.Image, ephemeral: true})
	}
	for _, c := range rec.withEphemeral() {
		cs, ok := statuses[c.name]
		if !ok {
			c.state = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}}
			continue
		}
		c.state = *cs.State.DeepCopy()
		c.lastState = *cs.LastTerminationState.DeepCopy()
		c.ready = cs.Ready
		c.started = cs.Started != nil && *cs.Started
		c.restartCount = cs.RestartCount
		if cs.ContainerID != "" {
			c.created = true
			c.id = cs.ContainerID
			c.imageRef = cs.Image
			c.imageID = cs.ImageID
			m.images[cs.Image] = true
			// The image stays on the node with what its pull resolved
			// (entrypoint, cmd, env, user).
			m.imageMeta(rec, c)
		}
	}
	for _, c := range pod.Status.Conditions {
		if kubeletConditions[c.Type] {
			c.ObservedGeneration = 0
			rec.conditions = append(rec.conditions, c)
		}
	}
	// Containers exist, so the sandbox is up: the pod is past creation.
	// A pending deletion is carried out by DeletePod.
	rec.stage = stageRunning
	return rec
}

// adoptable reports whether pod is one this node had started before a
// restart: its containers exist (a containerID is set) and it is not
// terminal.
func adoptable(pod *corev1.Pod) bool {
	if pod.Status.Phase != corev1.PodRunning && pod.Status.Phase != corev1.PodPending {
		return false
	}
	for _, cs := range append(append([]corev1.ContainerStatus(nil), pod.Status.InitContainerStatuses...), pod.Status.ContainerStatuses...) {
		if cs.ContainerID != "" {
			return true
		}
	}
	return false
}

// sortedKeys is used for deterministic iteration in tests.
func sortedKeys(m map[string]*record) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// resume takes up the processes of an adopted pod's running containers
// (simnode restarted; the containers kept running): no events, same
// container IDs, start times and restart counts. The pod's volumes are
// mounted again from the node's disk (emptyDirs and container layers as
// they were), and each process is re-run from its recorded start on its
// own clock: what it printed and wrote before is in its log file and on
// disk already and is not repeated; what it would have done while simnode
// was down is done now, with the times it would have had.
func (m *machine) resume(rec *record) {
	var allocatable corev1.ResourceList
	if n := m.rt.nodeObject(); n != nil {
		allocatable = n.Status.Allocatable
	}
	if rec.volumes == nil && m.rt.volumes != nil {
		// A volume that cannot be set up now (a ConfigMap deleted since)
		// leaves the containers running without their files.
		if v, err := m.rt.volumes.Mount(context.Background(), rec.pod); err == nil {
			rec.volumes = v
			if rec.podIP != "" {
				v.SetPodIPs([]string{rec.podIP})
			}
			if ev, ok := v.(ephemeralVolumes); ok && len(rec.pod.Spec.EphemeralContainers) > 0 {
				ev.SetEphemeralContainers(rec.pod.Spec.EphemeralContainers)
			}
		}
	}
	for _, c := range rec.withEphemeral() {
		if !c.running() {
			continue
		}
		spec := m.spec(rec, c)
		c.img = m.imageMeta(rec, c)
		vars, err := containerenv.Resolve(&containerenv.Input{Pod: rec.pod, Container: spec, PodIP: rec.podIP, HostIP: rec.hostIP, Allocatable: allocatable, Objects: m.rt.objects})
		if err != nil {
			vars = map[string]string{}
		}
		for k, v := range c.img.Env {
			if _, ok := vars[k]; !ok {
				vars[k] = v
			}
		}
		c.env = m.containerEnv(rec, spec, c, vars)
		if rec.volumes != nil {
			rec.volumes.SetContainerID(c.name, c.id)
			rec.volumes.SetEnv(c.name, vars)
			c.env.Files = rec.volumes.FS(c.name)
		}
		if facts.HostProcess(rec.pod) {
			c.env.Vars["CONTAINER_SANDBOX_MOUNT_POINT"] = SandboxMountPoint(c.id)
			if rec.volumes != nil {
				if mp := rec.volumes.SandboxMountPoint(c.name); mp != "" {
					c.env.Vars["CONTAINER_SANDBOX_MOUNT_POINT"] = mp
				}
			}
		}
		c.argv = argvOf(spec, c.img, vars)
		if entrypoint(spec, c.img, c.argv) {
			c.env.Server = c.argv[0]
		}
		c.opaque = m.opaque(spec, c, c.env, c.argv)
		c.listens = m.listens(spec, c, c.argv)
		buf := m.logs.Open(logKey(rec, c, c.restartCount))
		st, ok := m.loadProc(rec, c)
		if !ok {
			// No record (a node state from before records were kept):
			// the API's startedAt, to the second.
			st = procState{ID: c.id, Start: c.state.Running.StartedAt.Time}
		}
		last, n := buf.Last()
		out := &resumeFilter{w: buf, last: last, skip: n, done: last.IsZero()}
		m.runProcess(rec, c, out, st, true)
		m.startProbes(rec, c, spec)
	}
}
