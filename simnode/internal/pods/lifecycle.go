package pods

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/internal/logs"
	"wink.dev/wink/simnode/internal/pods/containerenv"
	"wink.dev/wink/simnode/rules"
)

// This file is the kubelet's pod sync for the simulated runtime
// (kuberuntime_manager.go computePodActions/SyncPod): init containers in
// order, then the app containers; restarts per restartPolicy with the
// crash-loop back-off (backoff.go); the pod phase (kubelet_pods.go
// getPhase). The sandbox is sandbox.go, image pulls images.go (B4), a
// container's start start.go (its config: config.go, B8-B10), its stop
// stop.go, its hooks hooks.go.

// runtimeDeps are the machine's collaborators (ports, runtime.go).
type runtimeDeps struct {
	shell          Shell
	images         Images
	volumes        Volumes
	network        Network
	objects        containerenv.Objects
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

func (m *machine) now() time.Time { return m.fx.now() }

func (m *machine) podEvent(pod *corev1.Pod, id string, d rules.EventData) {
	typ, reason, msg, err := m.rules.Event(id, m.node.KubeletVersion, d)
	if err != nil {
		panic(err)
	}
	m.recorder.Event(pod, typ, reason, msg)
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
