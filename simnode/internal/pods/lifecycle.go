package pods

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/internal/logs"
	"wink.dev/wink/simnode/rules"
)

// This file is the kubelet's pod sync for the simulated runtime
// (kuberuntime_manager.go computePodActions/SyncPod, kuberuntime_container.go
// startContainer): init containers in order, then the app containers; image
// pulls with back-off (B4); container config (env, users: B8-B10); the
// container's command run in the shell; restarts per restartPolicy with the
// crash-loop back-off; the pod phase (kubelet_pods.go getPhase).

// runtimeDeps are the machine's collaborators (ports, runtime.go).
type runtimeDeps struct {
	shell          Shell
	images         Images
	volumes        Volumes
	network        Network
	objects        Objects
	runtimeClasses RuntimeClasses
	nodeObject     func() *corev1.Node
	metrics        ContainerMetrics
	host           HostConfig
}

// effects are what the machine asks its driver (the Provider) to do
// outside the current call: run a function later and run a command.
type effects interface {
	now() time.Time
	// after runs f (may be nil) after d, then syncs rec, under the
	// provider's lock, unless rec is gone.
	after(rec *record, d time.Duration, f func())
	// spawn runs j in its own goroutine; j.done is then called under the
	// lock and rec is synced.
	spawn(rec *record, j *job)
}

// job is one command run in a container: its process, a hook or an exec
// probe.
type job struct {
	c        *container
	instance int
	kind     string // process, postStart, preStop, probe
	argv     []string
	env      *Env
	ctx      context.Context
	cancel   context.CancelFunc
	stdout   logs.Writer // nil: collect into output
	done     func(code int, output string)
	// clock is a container process's own clock (continuity.go); nil: the
	// provider's (hooks, probes). writes records its file writes.
	clock  *procClock
	writes *writeGate
	// completes: a process that runs to completion (an init container's,
	// or a pod's that does not restart): see Env.Completes.
	completes bool
	// oom: the process was OOM-killed (limits.go, row B5 Linux side).
	oom atomic.Bool
}

// backoff is one client-go flowcontrol.Backoff entry.
type backoff struct {
	d    time.Duration
	last time.Time
	set  bool
}

func (b *backoff) expired(eventTime time.Time, r rules.Backoff) bool {
	return eventTime.Sub(b.last) > r.Reset.Duration
}

// inBackOffSince is IsInBackOffSince(key, ts).
func (b *backoff) inBackOffSince(ts, now time.Time, r rules.Backoff) bool {
	if !b.set || b.expired(ts, r) {
		return false
	}
	return now.Sub(ts) < b.d
}

// inBackOffSinceUpdate is IsInBackOffSinceUpdate(key, now).
func (b *backoff) inBackOffSinceUpdate(now time.Time, r rules.Backoff) bool {
	if !b.set || b.expired(now, r) {
		return false
	}
	return now.Sub(b.last) < b.d
}

// next is Next(key, eventTime).
func (b *backoff) next(eventTime, now time.Time, r rules.Backoff) {
	if !b.set || b.expired(eventTime, r) {
		b.d = r.Initial.Duration
	} else {
		b.d = min(2*b.d, r.Max.Duration)
	}
	b.set = true
	b.last = now
}

func (m *machine) now() time.Time { return m.fx.now() }

func (m *machine) podEvent(pod *corev1.Pod, id string, d rules.EventData) {
	typ, reason, msg, err := m.rules.Event(id, m.node.KubeletVersion, d)
	if err != nil {
		panic(err)
	}
	m.recorder.Event(pod, typ, reason, msg)
}

func (m *machine) host(rec *record) ImageHost {
	h := ImageHost{OS: m.node.OS}
	if n := m.rt.nodeObject(); n != nil {
		h.Build = n.Labels["node.kubernetes.io/windows-build"]
	}
	if rc := rec.pod.Spec.RuntimeClassName; rc != nil && m.rt.runtimeClasses != nil {
		if handler, ok := m.rt.runtimeClasses(*rc); ok {
			h.Handler = handler
		}
	}
	return h
}

// sandboxError is the check the CRI does when it creates the pod sandbox:
// the RuntimeClass handler (B4, N8) and, on Windows, the pod-level user
// (B9). "" means the sandbox can be created.
func (m *machine) sandboxError(rec *record) string {
	if m.rt.images != nil {
		if err := m.rt.images.Sandbox(m.host(rec)); err != nil {
			return err.Error()
		}
	}
	if m.node.OS.IsWindows() {
		if u := podUserName(rec.pod); u != nil && !m.localGroup(rec, *u) && !m.rules.Runtime.KnownUser(*u, facts.HostProcess(rec.pod), m.nodeLabels()) {
			return m.rules.Runtime.Message("sandboxUnknownUserMessage", rules.MessageData{ID: strings.TrimPrefix(sandboxID(rec.uid), "containerd://")})
		}
	}
	return ""
}

func (m *machine) nodeLabels() map[string]string {
	if n := m.rt.nodeObject(); n != nil {
		return n.Labels
	}
	return nil
}

// prepareSandbox creates the sandbox's parts that can fail: the sandbox
// itself (FailedCreatePodSandBox) and the volumes (FailedMount). It
// reports whether the pod can start; otherwise a retry is scheduled with
// retry.
func (m *machine) prepareSandbox(rec *record, retry func(d time.Duration)) bool {
	if rec.volumes == nil && m.rt.volumes != nil {
		v, err := m.rt.volumes.Mount(context.Background(), rec.pod)
		if err != nil {
			errs := []error{err}
			if j, ok := err.(interface{ Unwrap() []error }); ok {
				errs = j.Unwrap()
			}
			for _, e := range errs {
				m.podEvent(rec.pod, rules.EventFailedMount, rules.EventData{Message: e.Error()})
			}
			// operationexecutor: exponential retry from 500ms to 2m2s.
			if rec.mountBackoff == 0 {
				rec.mountBackoff = 500 * time.Millisecond
			} else {
				rec.mountBackoff = min(2*rec.mountBackoff, 2*time.Minute+2*time.Second)
			}
			retry(rec.mountBackoff)
			return false
		}
		rec.volumes = v
	}
	if msg := m.sandboxError(rec); msg != "" {
		m.podEvent(rec.pod, rules.EventSandboxFailed, rules.EventData{Message: msg})
		retry(m.rules.Runtime.SyncRetry.Duration)
		return false
	}
	return true
}

// start brings the sandbox up with podIP and syncs the pod: containers
// start as the kubelet starts them.
func (m *machine) start(rec *record, podIP string, now time.Time) {
	rec.sandboxReady = true
	rec.podIP = podIP
	rec.stage = stageRunning
	if rec.volumes != nil && podIP != "" {
		rec.volumes.SetPodIPs([]string{podIP})
	}
	m.sync(rec)
	_ = now
}

func restartPolicy(rec *record) corev1.RestartPolicy {
	if rec.pod.Spec.RestartPolicy == "" {
		return corev1.RestartPolicyAlways
	}
	return rec.pod.Spec.RestartPolicy
}

func (c *container) succeeded() bool {
	return c.state.Terminated != nil && c.state.Terminated.ExitCode == 0
}

func (c *container) exited() bool {
	return c.state.Terminated != nil || (c.state.Waiting != nil && c.lastState.Terminated != nil && c.created)
}

// busy: the container runs (or is being killed).
func (c *container) busy(time.Time) bool { return c.running() || c.killing }

// sync is one pass of the kubelet's pod sync over rec.
func (m *machine) sync(rec *record) {
	if rec.stage != stageRunning {
		return
	}
	now := m.now()
	m.definitionChanged(rec)
	policy := restartPolicy(rec)
	initDone := true
	for _, c := range rec.containers {
		if !c.init && !c.sidecar {
			continue
		}
		if c.sidecar {
			if c.running() {
				if c.started {
					continue
				}
				initDone = false
				break
			}
			m.startOrRestart(rec, c, c.exited(), now)
			if c.running() && c.started {
				// Started without a startup probe: the kubelet's next
				// SyncPod (PLEG's ContainerStarted event) goes on with
				// the next container at once; no timer of this one
				// would (B13, kubelet versions with SidecarContainers:
				// 1.29+).
				m.fx.after(rec, 0, nil)
			}
			initDone = false
			break
		}
		if c.succeeded() {
			continue
		}
		initDone = false
		if c.busy(now) {
			break
		}
		if c.exited() && c.state.Terminated != nil && policy == corev1.RestartPolicyNever {
			// An init container failed and will not be retried: the pod
			// fails (kubelet_pods.go getPhase: pendingInitialization with
			// a failed init container and restartPolicy Never).
			m.podDone(rec, corev1.PodFailed, now)
			return
		}
		m.startOrRestart(rec, c, c.exited(), now)
		break
	}
	if initDone {
		for _, c := range rec.containers {
			if c.init || c.sidecar || c.busy(now) {
				continue
			}
			switch {
			case c.state.Terminated != nil || (c.state.Waiting != nil && c.lastState.Terminated != nil && c.created):
				if shouldRestart(policy, c) || c.changed {
					m.startOrRestart(rec, c, true, now)
				}
			default:
				m.startOrRestart(rec, c, false, now)
			}
		}
	}
	m.startEphemeral(rec, now)
	m.updatePhase(rec, initDone, now)
	m.refreshConditions(rec, now)
}

// definitionChanged is computePodActions' containerChanged
// (kuberuntime_manager.go; kuberuntime_container.go for a restartable init
// container): the container hash covers its name and image only
// (container/helpers.go pickFieldsToHash), so a pod update that changes a
// container's image makes the kubelet kill the running container with
// "Container <name> definition changed, will be restarted" ("Init container
// <name> definition changed" for a sidecar) and start it again, whatever the
// restart policy: it pulls the new image and its restart count goes on. The
// crash-loop and pull back-offs are keyed by the image (helpers.go
// GetBackoffKey, image_manager.go's pod UID and image key), so the new image
// starts with none: the restart is at once (issue 21; B13).
func (m *machine) definitionChanged(rec *record) {
	for _, c := range rec.containers {
		if c.init {
			continue
		}
		img := m.spec(rec, c).Image
		if img == c.image {
			continue
		}
		if c.running() {
			if !c.killing {
				msg := fmt.Sprintf("Container %s definition changed, will be restarted", c.name)
				if c.sidecar {
					msg = fmt.Sprintf("Init container %s definition changed", c.name)
				}
				m.kill(rec, c, msg)
				c.changed = true
			}
			continue
		}
		c.image = img
		c.crash, c.pullBackoff = backoff{}, backoff{}
		c.pulled, c.pullUntil, c.notBefore = false, time.Time{}, time.Time{}
	}
}

// imageChanged reports whether a container's image in rec's spec differs
// from the one it runs (definitionChanged).
func (m *machine) imageChanged(rec *record) bool {
	for _, c := range rec.containers {
		if !c.init && m.spec(rec, c).Image != c.image {
			return true
		}
	}
	return false
}

func shouldRestart(policy corev1.RestartPolicy, c *container) bool {
	t := c.state.Terminated
	if t == nil {
		t = c.lastState.Terminated
	}
	switch policy {
	case corev1.RestartPolicyAlways:
		return true
	case corev1.RestartPolicyOnFailure:
		return t == nil || t.ExitCode != 0
	}
	return false
}

// updatePhase is getPhase for a pod that is not being deleted.
func (m *machine) updatePhase(rec *record, initDone bool, now time.Time) {
	if !initDone {
		rec.phase = corev1.PodPending
		return
	}
	policy := restartPolicy(rec)
	running, waiting, stopped, succeeded := 0, 0, 0, 0
	for _, c := range rec.containers {
		if c.init || c.sidecar {
			continue
		}
		switch {
		case c.running():
			running++
		case c.state.Terminated != nil:
			stopped++
			if c.state.Terminated.ExitCode == 0 {
				succeeded++
			}
		case c.state.Waiting != nil && c.lastState.Terminated != nil:
			stopped++
		default:
			waiting++
		}
	}
	switch {
	case waiting > 0:
		rec.phase = corev1.PodPending
	case running > 0:
		rec.phase = corev1.PodRunning
	case stopped > 0:
		switch {
		case policy == corev1.RestartPolicyAlways:
			rec.phase = corev1.PodRunning
		case succeeded == stopped:
			m.podDone(rec, corev1.PodSucceeded, now)
		case policy == corev1.RestartPolicyOnFailure:
			rec.phase = corev1.PodRunning
		default:
			m.podDone(rec, corev1.PodFailed, now)
		}
	}
}

// podDone ends a pod whose containers all finished (Succeeded or Failed):
// sidecars are stopped and the sandbox is torn down.
func (m *machine) podDone(rec *record, phase corev1.PodPhase, now time.Time) {
	for _, c := range rec.withEphemeral() {
		if c.running() {
			m.finishContainer(rec, c, 0, false, now)
		}
		c.stopped = true
		if c.cancel != nil {
			c.cancel()
		}
	}
	rec.phase = phase
	rec.stage = stageTerminated
	rec.sandboxReady = false
	m.refreshConditions(rec, now)
}

// startOrRestart starts c, or restarts it after an exit, honouring the
// crash-loop back-off (kuberuntime_manager.go doBackOff) and the
// config/pull retry gate.
func (m *machine) startOrRestart(rec *record, c *container, restart bool, now time.Time) {
	if now.Before(c.notBefore) {
		return
	}
	if restart && c.pullUntil.IsZero() && !c.pulled {
		r := m.rules.Runtime.CrashLoopBackOff
		if c.crash.inBackOffSince(c.finishedAt, now, r) {
			if c.backoffFor != c.finishedAt {
				c.backoffFor = c.finishedAt
				m.event(rec.pod, c, rules.EventBackOff, rules.EventData{Container: c.name, Pod: podFormat(rec.pod)})
				msg := m.rules.Runtime.Message("crashLoopMessage", rules.MessageData{Backoff: c.crash.d.String(), Container: c.name, Pod: podFormat(rec.pod)})
				m.waiting(c, "CrashLoopBackOff", msg)
			}
			m.fx.after(rec, c.finishedAt.Add(c.crash.d).Sub(now), nil)
			return
		}
		c.crash.next(c.finishedAt, now, r)
	}
	m.startContainer(rec, c, now)
}

func (m *machine) imageFor(c *container) (ref, id string) {
	ref, id = imageRefs(c.image)
	if c.img.Ref != "" {
		ref = c.img.Ref
	}
	if c.img.ID != "" {
		id = c.img.ID
	}
	return ref, id
}

// waiting sets c's waiting state, keeping a new start from being reported
// as a restart.
func (m *machine) waiting(c *container, reason, message string) {
	if c.state.Terminated != nil {
		c.lastState = corev1.ContainerState{Terminated: c.state.Terminated}
	}
	c.state = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: message}}
}

// ensureImage is image_manager.go EnsureImageExists. It reports whether
// the image is there; otherwise c waits (pulling, or an error state).
func (m *machine) ensureImage(rec *record, c *container, now time.Time) bool {
	if c.pulled {
		return true
	}
	spec := m.spec(rec, c)
	ref, _ := imageRefs(c.image)
	if !c.pullUntil.IsZero() {
		if now.Before(c.pullUntil) {
			return false
		}
		d := c.pullUntil.Sub(c.pullStart).Truncate(time.Millisecond).String()
		c.pullUntil = time.Time{}
		m.event(rec.pod, c, rules.EventPulled, rules.EventData{Container: c.name, Image: c.image, PullDuration: d, TotalDuration: d, ImageSize: c.img.Size})
		m.recordImage(ref, c.img)
		c.pulled = true
		return true
	}
	policy := spec.ImagePullPolicy
	present := m.images[ref]
	if policy == corev1.PullNever && !present {
		m.event(rec.pod, c, rules.EventNeverPull, rules.EventData{Container: c.name, Image: c.image})
		msg := m.renderEvent(rules.EventNeverPull, rules.EventData{Container: c.name, Image: c.image})
		m.event(rec.pod, c, rules.EventError, rules.EventData{Container: c.name, Image: c.image, Message: "ErrImageNeverPull"})
		m.waiting(c, "ErrImageNeverPull", msg)
		m.retryLater(rec, c, m.rules.Runtime.SyncRetry.Duration, now)
		return false
	}
	if policy != corev1.PullAlways && present {
		c.img = m.imageMeta(rec, c)
		m.event(rec.pod, c, rules.EventAlreadyPresent, rules.EventData{Container: c.name, Image: c.image})
		c.pulled = true
		return true
	}
	r := m.rules.Runtime.ImagePullBackOff
	if c.pullBackoff.inBackOffSinceUpdate(now, r) {
		m.event(rec.pod, c, rules.EventPullBackOff, rules.EventData{Container: c.name, Image: c.image})
		m.event(rec.pod, c, rules.EventError, rules.EventData{Container: c.name, Image: c.image, Message: "ImagePullBackOff"})
		msg := ""
		if w := c.state.Waiting; w != nil {
			msg = w.Message
			if w.Reason == "ImagePullBackOff" {
				msg = c.lastPullError()
			}
		}
		m.waiting(c, "ImagePullBackOff", m.rules.Runtime.Message("pullBackoffMessage", rules.MessageData{Image: c.image, Reason: c.pullErrReason(), Message: msg}))
		c.notBefore = c.pullBackoff.last.Add(c.pullBackoff.d)
		m.fx.after(rec, c.notBefore.Sub(now), nil)
		return false
	}
	m.event(rec.pod, c, rules.EventPulling, rules.EventData{Container: c.name, Image: c.image})
	img := Image{}
	if m.rt.images != nil {
		var err error
		img, err = m.rt.images.Pull(c.image, m.host(rec), rec.pod, c.name)
		if err != nil {
			reason, msg := "ErrImagePull", err.Error()
			var pe *PullError
			if errors.As(err, &pe) {
				msg = pe.Message
				if pe.Reason != "" {
					reason = pe.Reason
				}
			}
			m.event(rec.pod, c, rules.EventFailedPull, rules.EventData{Container: c.name, Image: c.image, Message: msg})
			c.pullBackoff.next(now, now, r)
			m.event(rec.pod, c, rules.EventError, rules.EventData{Container: c.name, Image: c.image, Message: reason})
			m.waiting(c, reason, msg)
			m.retryLater(rec, c, m.rules.Runtime.PullFailureResync.Duration, now)
			return false
		}
	}
	if img.Fallback != "" {
		m.event(rec.pod, c, rules.EventImageFallback, rules.EventData{Container: c.name, Image: c.image, Message: img.Fallback})
	}
	if img.Size == 0 {
		img.Size = imageSize(ref, m.node.OS)
	}
	c.img = img
	// Without a bandwidth the pull takes no simulated time (the start
	// delay covers it) and reports pullDuration.
	c.pullStart = now
	if m.pullBandwidth <= 0 {
		c.pullStart = now.Add(-m.pullDuration)
		c.pullUntil = now
		return m.ensureImage(rec, c, now)
	}
	d := time.Duration(float64(img.Size) / float64(m.pullBandwidth) * float64(time.Second))
	c.pullUntil = now.Add(d)
	if d <= 0 {
		return m.ensureImage(rec, c, now)
	}
	m.fx.after(rec, d, nil)
	return false
}

func (c *container) lastPullError() string {
	if w := c.state.Waiting; w != nil {
		if i := strings.Index(w.Message, ": "); i >= 0 && strings.HasPrefix(w.Message, "Back-off pulling image") {
			rest := w.Message[i+2:]
			if j := strings.Index(rest, ": "); j >= 0 {
				return rest[j+2:]
			}
		}
		return w.Message
	}
	return ""
}

func (c *container) pullErrReason() string {
	if w := c.state.Waiting; w != nil && w.Reason != "ImagePullBackOff" {
		return w.Reason
	}
	return "ErrImagePull"
}

func (m *machine) renderEvent(id string, d rules.EventData) string {
	_, _, msg, err := m.rules.Event(id, m.node.KubeletVersion, d)
	if err != nil {
		panic(err)
	}
	return msg
}

func (m *machine) retryLater(rec *record, c *container, d time.Duration, now time.Time) {
	c.notBefore = now.Add(d)
	m.fx.after(rec, d, nil)
}

// configError is a CreateContainerConfigError (B8, B12).
func (m *machine) configError(rec *record, c *container, msg string, now time.Time) {
	m.countStartFailed(rec, c, "CreateContainerConfigError")
	m.event(rec.pod, c, rules.EventError, rules.EventData{Container: c.name, Image: c.image, Message: msg})
	m.waiting(c, "CreateContainerConfigError", msg)
	m.retryLater(rec, c, m.rules.Runtime.SyncRetry.Duration, now)
}

// startContainer is kuberuntime_container.go startContainer: pull, create
// the config, create, start, postStart.
func (m *machine) startContainer(rec *record, c *container, now time.Time) {
	if !m.ensureImage(rec, c, now) {
		return
	}
	spec := m.spec(rec, c)
	m.countStarted(rec, c)
	var allocatable corev1.ResourceList
	if n := m.rt.nodeObject(); n != nil {
		allocatable = n.Status.Allocatable
	}
	vars, err := resolveEnv(&envInput{pod: rec.pod, container: spec, podIP: rec.podIP, hostIP: rec.hostIP, allocatable: allocatable, objects: m.rt.objects})
	if err != nil {
		m.configError(rec, c, err.Error(), now)
		return
	}
	if err := verifyRunAsNonRoot(&m.rules.Runtime, m.node.OS, rec.pod, spec, c.img); err != nil {
		m.configError(rec, c, err.Error(), now)
		return
	}
	c.pulled = false // the next start goes through the image manager again
	c.notBefore = time.Time{}
	c.changed = false
	if c.state.Terminated != nil || (c.state.Waiting != nil && c.lastState.Terminated != nil && c.created) {
		if c.state.Terminated != nil {
			c.lastState = corev1.ContainerState{Terminated: c.state.Terminated}
		}
		c.restartCount++
	}
	for k, v := range c.img.Env {
		if _, ok := vars[k]; !ok {
			vars[k] = v
		}
	}
	env := m.containerEnv(rec, spec, c, vars)
	argv := argvOf(spec, c.img, vars)
	c.created = true
	c.imageRef, c.imageID = m.imageFor(c)
	c.id = containerID(rec.uid, c.name, c.restartCount)
	if rec.volumes != nil {
		// The mounts of this start are made with its environment: a
		// subPathExpr expands with the pod as it is now (kubelet_pods.go
		// makeMounts, each start attempt), so a pod update that sets the
		// missing value lets the next attempt start (issue 21, B11).
		rec.volumes.SetEnv(c.name, vars)
		if err := rec.volumes.ContainerError(c.name); err != nil {
			var ce *ContainerMountError
			if errors.As(err, &ce) && ce.Reason != "StartError" {
				m.countStartFailed(rec, c, ce.Reason)
				m.event(rec.pod, c, rules.EventError, rules.EventData{Container: c.name, Image: c.image, Message: ce.Message})
				m.waiting(c, ce.Reason, ce.Message)
				m.retryLater(rec, c, m.rules.Runtime.SyncRetry.Duration, now)
				return
			}
		}
		rec.volumes.SetContainerID(c.name, c.id)
		rec.volumes.SetEnv(c.name, vars)
		env.Files = rec.volumes.FS(c.name)
	}
	if facts.HostProcess(rec.pod) {
		env.Vars["CONTAINER_SANDBOX_MOUNT_POINT"] = SandboxMountPoint(c.id)
		if rec.volumes != nil {
			if mp := rec.volumes.SandboxMountPoint(c.name); mp != "" {
				env.Vars["CONTAINER_SANDBOX_MOUNT_POINT"] = mp
			}
		}
	}
	m.event(rec.pod, c, rules.EventCreated, rules.EventData{Container: c.name, Image: c.image})
	buf := m.logs.Open(logKey(rec, c, c.restartCount))

	// The runtime starts the task: the user must exist (B9) and the program
	// be in the image.
	id := strings.TrimPrefix(c.id, "containerd://")
	se := m.rules.Runtime.StartError
	startErr := ""
	asGroup := m.localGroup(rec, env.User)
	if asGroup {
		// B10: a HostProcess container running as a local group of the
		// node runs as a temporary user in it.
		env.User = temporaryUser(c.id)
	}
	switch {
	case m.node.OS.IsWindows() && !asGroup && !m.rules.Runtime.KnownUser(env.User, facts.HostProcess(rec.pod), m.nodeLabels()):
		startErr = m.rules.Runtime.Message("startError.unknownUser", rules.MessageData{ID: id})
	case rec.volumes != nil && rec.volumes.ContainerError(c.name) != nil:
		startErr = rec.volumes.ContainerError(c.name).Error()
	case len(argv) > 0 && m.rt.shell != nil && !m.found(env, argv) && !entrypoint(spec, c.img, argv):
		name := "startError.notFoundLinux"
		if m.node.OS.IsWindows() {
			name = "startError.notFoundWindows"
		}
		startErr = m.rules.Runtime.Message(name, rules.MessageData{ID: id, Program: argv[0]})
	}
	if startErr != "" {
		m.countStartFailed(rec, c, "RunContainerError")
		m.event(rec.pod, c, rules.EventError, rules.EventData{Container: c.name, Image: c.image, Message: startErr})
		c.state = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
			ExitCode: se.ExitCode, Reason: se.Reason, Message: startErr,
			StartedAt: metav1.NewTime(time.Unix(0, 0).UTC()), FinishedAt: metav1.NewTime(now), ContainerID: c.id,
		}}
		c.finishedAt = now
		c.ready, c.started = false, false
		buf.Close()
		m.fx.after(rec, 0, nil)
		return
	}

	if entrypoint(spec, c.img, argv) {
		env.Server = argv[0]
		env.ImageCommand = len(spec.Command) == 0 && len(spec.Args) == 0
	}
	c.opaque = m.opaque(spec, c, env, argv)
	m.event(rec.pod, c, rules.EventStarted, rules.EventData{Container: c.name, Image: c.image})
	c.state = corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(now)}}
	c.killing, c.stopped, c.partialTail = false, false, false
	c.env, c.argv = env, argv
	c.listens = m.listens(spec, c, argv)
	c.started = spec.StartupProbe == nil
	c.ready = c.started && spec.ReadinessProbe == nil
	if c.init || c.ephemeral {
		c.ready = false // ephemeral containers report ready false
	}
	st := procState{ID: c.id, Start: now}
	_ = saveJSON(m.procPath(rec, c), st)
	m.runProcess(rec, c, buf, st, false)
	if spec.Lifecycle != nil && spec.Lifecycle.PostStart != nil {
		m.postStart(rec, c, spec.Lifecycle.PostStart)
	}
	m.startProbes(rec, c, spec)
}

// runsToCompletion reports whether a pod's containers are not restarted
// when they exit (restartPolicy Never or OnFailure: a Job's); the API's
// default is Always.
func runsToCompletion(pod *corev1.Pod) bool {
	rp := pod.Spec.RestartPolicy
	return rp == corev1.RestartPolicyNever || rp == corev1.RestartPolicyOnFailure
}

// runProcess runs c's process on its own clock from st.Start (a resumed
// process, resumed, from the start its record has): out is its log, and
// its file writes are recorded in st (continuity.go).
func (m *machine) runProcess(rec *record, c *container, out logs.Writer, st procState, resumed bool) {
	c.instance++
	inst := c.instance
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	clock := &procClock{t: st.Start}
	j := &job{c: c, instance: inst, kind: "process", argv: c.argv, env: c.env, ctx: ctx, cancel: cancel, stdout: out, clock: clock,
		completes: (c.init || runsToCompletion(rec.pod)) && !c.img.Known}
	if path := m.procPath(rec, c); path != "" {
		j.writes = newWriteGate(clock, path, st, resumed)
	}
	j.done = func(code int, _ string) {
		if c.instance != inst || !c.running() || c.stopped {
			return
		}
		m.finishContainer(rec, c, int32(code), false, m.now())
		if j.oom.Load() && c.state.Terminated != nil {
			// Past its memory limit on Linux (row B5): as containerd
			// reports a container the kernel OOM-killed.
			c.state.Terminated.ExitCode, c.state.Terminated.Reason = oomExitCode, oomReason
		}
	}
	m.fx.spawn(rec, j)
}

// finishContainer records the exit of c's current instance.
func (m *machine) finishContainer(rec *record, c *container, code int32, killed bool, now time.Time) {
	if !c.running() {
		return
	}
	reason := "Completed"
	if code != 0 {
		reason = "Error"
	}
	c.state = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
		ExitCode: code, Reason: reason, StartedAt: c.state.Running.StartedAt,
		FinishedAt: metav1.NewTime(now), ContainerID: c.id,
		Message: m.terminationMessage(rec, c, code),
	}}
	c.finishedAt = now
	c.ready = false
	c.started = false
	c.killing = false
	c.probes = nil
	if c.init {
		c.ready = code == 0 // a completed regular init container reports ready
	}
	if b, err := m.logs.Get(logKey(rec, c, c.restartCount)); err == nil {
		b.Close()
	}
	if c.cancel != nil {
		c.cancel()
	}
	_ = killed
}

// containerEnv builds what the container's commands observe.
func (m *machine) containerEnv(rec *record, spec *corev1.Container, c *container, vars map[string]string) *Env {
	hostname := rec.pod.Name
	if rec.pod.Spec.Hostname != "" {
		hostname = rec.pod.Spec.Hostname
	}
	if facts.HostProcess(rec.pod) || (rec.pod.Spec.HostNetwork && m.node.OS.IsLinux()) {
		hostname = m.node.Name // B10: the host's name
	}
	user := ""
	if m.node.OS.IsWindows() {
		user = userFor(&m.rules.Runtime, rec.pod, spec, c.img)
	} else if c.img.User != "" {
		user = c.img.User
	} else {
		user = "root"
	}
	env := &Env{
		OS: m.node.OS, Hostname: hostname, User: user, Vars: vars,
		GMSADomain: gmsaDomain(rec.pod, spec), Dir: spec.WorkingDir, Now: m.now,
		Image: spec.Image, HostProcess: facts.HostProcess(rec.pod),
	}
	if env.Dir == "" {
		env.Dir = c.img.WorkingDir
	}
	env.Limits, env.Tracer = m.limits(spec), m.tracer(rec, c)
	m.hostEnv(rec, c, env)
	if rec.volumes != nil {
		env.Files = rec.volumes.FS(c.name)
	}
	if m.rt.network != nil {
		pod := rec.pod.DeepCopy()
		pod.Status.PodIP = rec.podIP
		pod.Status.HostIP = rec.hostIP
		if rec.podIP != "" {
			pod.Status.PodIPs = []corev1.PodIP{{IP: rec.podIP}}
		}
		env.Net = m.rt.network.From(pod)
		env.Interfaces = m.rt.network.NetConfig(pod)
	}
	if n := m.rt.nodeObject(); n != nil {
		env.OSVersion = n.Status.NodeInfo.KernelVersion
	}
	return env
}

// listens is what a container listens on: the image's ports, its
// containerPorts and what its command serves.
func (m *machine) listens(spec *corev1.Container, c *container, argv []string) []int {
	seen := map[int]bool{}
	var out []int
	add := func(p int) {
		if p > 0 && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range c.img.Ports {
		add(p)
	}
	for _, p := range spec.Ports {
		if p.Protocol == "" || p.Protocol == corev1.ProtocolTCP {
			add(int(p.ContainerPort))
		}
	}
	if m.rt.shell != nil {
		for _, p := range m.rt.shell.Listens(argv) {
			add(p)
		}
	}
	if c.opaque {
		// A program wink does not simulate serves what its probes check,
		// as it does on the real node the manifest was written for.
		for _, pr := range []*corev1.Probe{spec.StartupProbe, spec.LivenessProbe, spec.ReadinessProbe} {
			switch {
			case pr == nil:
			case pr.HTTPGet != nil:
				add(port(spec, pr.HTTPGet.Port))
			case pr.TCPSocket != nil:
				add(port(spec, pr.TCPSocket.Port))
			case pr.GRPC != nil:
				add(int(pr.GRPC.Port))
			}
		}
	}
	return out
}

// beginStop starts the graceful termination of a pod (B13): each running
// container gets a Killing event, runs its preStop hook (which counts
// against the grace period) and exits with stopCode after stopDelay, or,
// with IgnoreSigtermAnnotation, at the end of the grace period (killed).
// Containers that are not running are done at once. done is called when
// every container has stopped.
func (m *machine) beginStop(rec *record, stopDelay, grace time.Duration, stopCode int32, done func()) {
	now := m.now()
	rec.stage = stageTerminating
	ignore := rec.pod.Annotations[IgnoreSigtermAnnotation] == "true"
	var order []*container
	// The kubelet stops regular containers, then sidecars.
	for _, c := range rec.containers {
		if c.running() && !c.sidecar {
			order = append(order, c)
		}
	}
	for _, c := range rec.containers {
		if c.running() && c.sidecar {
			order = append(order, c)
		}
	}
	for _, c := range rec.ephemeral {
		if c.running() {
			order = append(order, c)
		}
	}
	for _, c := range rec.withEphemeral() {
		c.probes = nil
		if !c.running() {
			c.stopped = true
			if c.cancel != nil {
				c.cancel()
			}
		}
	}
	if len(order) == 0 {
		m.terminated(rec, now)
		done()
		return
	}
	remaining := len(order)
	stopWith := func(c *container, code int32, killed bool) {
		if !c.running() {
			return
		}
		if killed {
			code = m.rules.KilledExitCode[m.node.OS]
		}
		c.stopped = true
		m.finishContainer(rec, c, code, killed, m.now())
		remaining--
		if remaining == 0 {
			m.terminated(rec, m.now())
			done()
		} else {
			m.refreshConditions(rec, m.now())
		}
	}
	stop := func(c *container, killed bool) { stopWith(c, stopCode, killed) }
	for _, c := range order {
		m.event(rec.pod, c, rules.EventKilling, rules.EventData{Container: c.name, Image: c.image})
		spec := m.spec(rec, c)
		// A container that ignores SIGTERM is killed when the grace period
		// is over (B13), not a moment sooner. virtual-kubelet force-deletes
		// the pod from the API at that same instant, so the terminal status
		// may not be seen: a user watching a real kubelet rarely sees it
		// either.
		kill := grace
		if ignore {
			m.fx.after(rec, kill, func() { stop(c, true) })
			continue
		}
		if spec.Lifecycle != nil && spec.Lifecycle.PreStop != nil && spec.Lifecycle.PreStop.Sleep != nil {
			// A sleep preStop hook (lifecycle_hook.go runSleepHandler,
			// PodLifecycleSleepAction GA in v1.34) waits its seconds, cut
			// at the grace period; then SIGTERM stops the container as
			// usual (B13; issue 21: upstream's async preemption spec holds
			// its victims this way).
			d := time.Duration(spec.Lifecycle.PreStop.Sleep.Seconds) * time.Second
			m.fx.after(rec, max(0, min(d, grace))+stopDelay, func() { stop(c, false) })
			continue
		}
		if spec.Lifecycle != nil && spec.Lifecycle.PreStop != nil && spec.Lifecycle.PreStop.Exec != nil {
			start := now
			m.runHook(rec, c, "preStop", spec.Lifecycle.PreStop.Exec.Command, func(code int) {
				if code != 0 {
					m.event(rec.pod, c, rules.EventPreStopFailed, rules.EventData{Container: c.name})
				}
				left := grace - m.now().Sub(start)
				m.fx.after(rec, max(0, min(stopDelay, left)), func() { stop(c, false) })
			})
			m.fx.after(rec, kill, func() { stop(c, true) })
			continue
		}
		if spec.Lifecycle != nil && spec.Lifecycle.PreStop != nil && spec.Lifecycle.PreStop.HTTPGet != nil {
			m.remoteHook(rec, c, spec.Lifecycle.PreStop.HTTPGet)
		}
		// A program that keeps running after SIGTERM (agnhost netexec
		// --delay-shutdown) exits with 0 when it is done, or is killed
		// when the grace period ends first (B13).
		if delay, ok := m.shutdownDelay(c); ok {
			if delay >= grace {
				m.fx.after(rec, grace, func() { stop(c, true) })
			} else {
				m.fx.after(rec, delay, func() { stopWith(c, 0, false) })
			}
			continue
		}
		m.fx.after(rec, min(stopDelay, grace), func() { stop(c, false) })
	}
}

// shutdownDelay is how long c's program runs on after SIGTERM (Shell's
// ShutdownDelay).
func (m *machine) shutdownDelay(c *container) (time.Duration, bool) {
	if m.rt.shell == nil {
		return 0, false
	}
	return m.rt.shell.ShutdownDelay(c.argv)
}

// runHook runs an exec hook in c (postStart, preStop); done gets its exit
// code.
func (m *machine) runHook(rec *record, c *container, kind string, argv []string, done func(code int)) {
	ctx, cancel := context.WithCancel(context.Background())
	inst := c.instance
	j := &job{c: c, instance: inst, kind: kind, argv: argv, env: c.env, ctx: ctx, cancel: cancel}
	j.done = func(code int, _ string) {
		cancel()
		if c.instance != inst {
			return
		}
		done(code)
	}
	m.fx.spawn(rec, j)
}

// postStart runs the postStart hook (exec; httpGet succeeds when the
// container listens): a failure kills the container, which then restarts
// per policy (kuberuntime_container.go: FailedPostStartHook).
func (m *machine) postStart(rec *record, c *container, h *corev1.LifecycleHandler) {
	fail := func() {
		m.event(rec.pod, c, rules.EventPostStartFailed, rules.EventData{Container: c.name})
		m.kill(rec, c, "FailedPostStartHook")
	}
	switch {
	case h.Exec != nil:
		m.runHook(rec, c, "postStart", h.Exec.Command, func(code int) {
			if code != 0 && c.running() {
				fail()
			}
		})
	case h.HTTPGet != nil && m.remoteHook(rec, c, h.HTTPGet):
		// The hook has returned: the pod sync goes on (a sidecar's
		// postStart gates the next containers).
		m.fx.after(rec, 0, nil)
	case h.HTTPGet != nil:
		if !m.listening(c, m.spec(rec, c), h.HTTPGet.Port) {
			fail()
		}
	}
}

// kill stops c's current instance for the kubelet's own reasons (probe,
// hook): a Killing event with message, then the process is signalled after
// the stop delay; its exit is a normal exit (restart per policy).
func (m *machine) kill(rec *record, c *container, message string) {
	if c.killing || !c.running() {
		return
	}
	c.killing = true
	c.probes = nil
	m.event(rec.pod, c, rules.EventKillingBecause, rules.EventData{Container: c.name, Message: message})
	inst := c.instance
	m.fx.after(rec, m.stopDelay, func() {
		if c.instance == inst && c.running() && c.cancel != nil {
			c.cancel()
		}
	})
}

// entrypoint reports whether argv runs the image's own ENTRYPOINT: its
// known main program (imageServer), or, for an image whose ENTRYPOINT wink
// does not know, a container that gives only args: containerd passes them
// to that ENTRYPOINT (CRI: args replace CMD, command replaces ENTRYPOINT),
// so the process is the image's program with these args, not args[0].
func entrypoint(spec *corev1.Container, img Image, argv []string) bool {
	if imageServer(img, argv) {
		return true
	}
	return !img.Known && len(spec.Command) == 0 && len(spec.Args) > 0 && len(argv) > 0
}

// found asks the shell whether the container may have program argv[0].
func (m *machine) found(env *Env, argv []string) bool {
	found, _ := m.rt.shell.Found(env, argv)
	return found
}

// opaque reports whether the container's process is a program wink does
// not simulate (open world): it runs until stopped, with no output, and
// listens on its declared ports and the ports its probes check.
func (m *machine) opaque(spec *corev1.Container, c *container, env *Env, argv []string) bool {
	if m.rt.shell == nil {
		return false
	}
	if len(argv) == 0 {
		return !c.img.Known // the image's unknown default process (argvOf)
	}
	found, simulated := m.rt.shell.Found(env, argv)
	return !simulated && (found || entrypoint(spec, c.img, argv))
}

// imageServer reports whether argv runs the image's own main program, the
// first element of its catalog entrypoint (a server such as /coredns or
// kube-proxy): the image has it even though the shell does not simulate it.
func imageServer(img Image, argv []string) bool {
	return len(img.Entrypoint) > 0 && len(argv) > 0 && argv[0] == img.Entrypoint[0]
}
