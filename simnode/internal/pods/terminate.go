package pods

import (
	"time"

	"github.com/virtual-kubelet/virtual-kubelet/errdefs"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"wink.dev/wink/simnode/internal/resources"
	"wink.dev/wink/simnode/rules"
)

// Termination is a kill the kubelet decides on its own, killPodNow with a
// grace period override and a status function (pod_workers.go): an
// eviction (row B6) or a graceful node shutdown (row B15). The pod stays in
// the API; its containers stop and its terminal status says why.
type Termination struct {
	// GracePeriod overrides the pod's terminationGracePeriodSeconds (the
	// kubelet's gracePeriodOverride); nil keeps the pod's. A container
	// always gets at least rules killPod.minimumGracePeriod.
	GracePeriod *time.Duration
	// Reason and Message are the status reason and message of the pod when
	// it ends Failed (rules killPod.stopExitCode decides the phase).
	Reason, Message string
	// Condition is added to the terminal status whatever the phase: the
	// DisruptionTarget condition, reason TerminationByKubelet. None when
	// its Type is empty.
	Condition corev1.PodCondition
	// Failed keeps phase Failed with Reason and Message whatever the
	// containers' exit codes: a pod sync handler's ShouldEvict, which
	// generateAPIPodStatus applies to every status (the active deadline).
	Failed bool
}

// Evicted is the Termination of an evicted pod (row B6): the eviction
// manager's evictPod, killPodNow with gracePeriodOverride (rules killPod
// evictionGracePeriod for a hard threshold) and a status function that
// sets phase Failed, reason Evicted, the eviction message and the
// DisruptionTarget condition (reason TerminationByKubelet, same message).
func Evicted(r *rules.Rules, message string) Termination {
	grace := r.Runtime.KillPod.EvictionGracePeriod.Duration
	return Termination{
		GracePeriod: &grace,
		Reason:      resources.EvictedReason,
		Message:     message,
		Condition: corev1.PodCondition{
			Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue,
			Reason: resources.TerminationByKubelet, Message: message,
		},
	}
}

// EvictedLocalStorage is the Termination of a pod evicted for its local
// storage (issue 22): the eviction manager's localStorageEviction calls
// evictPod with immediateEvictionGracePeriodSeconds (1 s) and no
// condition, and its status function sets phase Failed, reason Evicted.
func EvictedLocalStorage(message string) Termination {
	grace := time.Second
	return Termination{GracePeriod: &grace, Reason: resources.EvictedReason, Message: message, Failed: true}
}

// ShutDown is the Termination of pod when its node shuts down (row B15,
// rules shutdown.yaml): the node shutdown manager's killPods, with the
// grace period of the pod's priority group among groups (the node's, from
// its pool's shutdownGracePeriod and shutdownGracePeriodCriticalPods;
// rules.NodeShutdown.DefaultGroups for facts' defaults).
func ShutDown(r *rules.Rules, groups []rules.ShutdownGroup, pod *corev1.Pod) Termination {
	s := &r.NodeShutdown
	grace := rules.PodGracePeriod(groups, pod)
	return Termination{GracePeriod: &grace, Reason: s.PodReason, Message: s.PodMessage, Condition: s.PodCondition}
}

// Terminate kills pod as the kubelet kills a pod on its own (t): its
// running containers get the Killing event and the stop signal, each exits
// with rules killPod.stopExitCode after the stop delay (or is killed at
// the end of the grace period when it ignores the signal), the sandbox goes
// and the terminal status (machine.go terminated: phase, reason, message,
// DisruptionTarget) is written to the API, which keeps the pod.
// Nothing of the pod runs any more: exec and attach answer as for a
// stopped container.
//
// The channel gets one value once that status is in the API: nil, or the
// error of the status update. A pod already terminal gets nil at once; a
// pod the node does not run gets a NotFound error. Eviction and node
// shutdown both end their pods through Terminate.
func (p *Provider) Terminate(pod *corev1.Pod, t Termination) <-chan error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.terminateLocked(pod, t)
}

// terminateLocked is Terminate with p.mu held.
func (p *Provider) terminateLocked(pod *corev1.Pod, t Termination) <-chan error {
	done := make(chan error, 1)
	key := podKey(pod)
	rec, ok := p.pods[key]
	if !ok || rec.uid != string(pod.UID) {
		done <- errdefs.NotFoundf("pod %s (uid %s) does not run on node %s", key, pod.UID, p.cfg.Node.Name)
		return done
	}
	switch rec.stage {
	case stageRejected, stageTerminated:
		done <- nil
		return done
	}
	rec.waiters = append(rec.waiters, done)
	if rec.ending == nil {
		tc := t
		rec.ending = &tc
	}
	if rec.stage == stageTerminating {
		// Already stopping (a deletion or an earlier kill): its end tells
		// the waiters.
		return done
	}
	now := p.cfg.Clock.Now()
	if rec.stage == stagePending {
		// No container has started; the sandbox is torn down.
		p.m.terminated(rec, now)
		p.finalize(rec)
		p.enqueue(key)
		return done
	}
	grace := gracePeriod(rec.pod)
	if t.GracePeriod != nil {
		grace = *t.GracePeriod
	}
	grace = max(grace, p.cfg.Rules.Runtime.KillPod.MinimumGracePeriod.Duration)
	code := p.cfg.Rules.Runtime.KillPod.StopExitCode[p.cfg.Node.OS]
	p.m.beginStop(rec, p.cfg.StopDelay, grace, code, func() { p.finalize(rec) })
	p.enqueue(key)
	return done
}

// FindContainer reports what the kubelet's server finds before it upgrades
// an exec or attach stream (server.go getExec, kubelet_pods.go GetExec
// findContainer): whether the node has the pod (the API's pods bound to it,
// terminal ones too) and whether container runs in it. An empty container
// is the pod's first regular container.
func (p *Provider) FindContainer(namespace, name, container string) (podFound, running bool) {
	key := namespace + "/" + name
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.pods[key]
	if !ok {
		api := p.apiPod(key)
		return api != nil && api.Spec.NodeName == p.cfg.Node.Name, false
	}
	for _, c := range rec.withEphemeral() {
		if c.name == container || (container == "" && !c.init && !c.sidecar) {
			return true, c.running() && c.env != nil
		}
	}
	return true, false
}

// lostOnReboot turns an adopted record into what the kubelet finds after
// its machine rebooted (row N3): the sandbox is gone and every container
// that was running has exited with the reboot rules' unknown status, so
// the next start re-creates the sandbox (SandboxChanged) and restarts the
// containers per restartPolicy. A pod that must not restart gets no new
// sandbox (kuberuntime_manager.go computePodActions) and ends with the
// phase of its containers. It reports whether the pod is to be started.
func (m *machine) lostOnReboot(rec *record, now time.Time) bool {
	r := m.rules.Reboot
	for _, c := range rec.containers {
		if c.running() {
			c.state = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
				ExitCode: r.LostContainerExitCode, Reason: r.LostContainerReason,
				StartedAt: c.state.Running.StartedAt, FinishedAt: metav1.NewTime(now), ContainerID: c.id,
			}}
			c.finishedAt = now
		}
		c.ready, c.started = false, false
	}
	rec.sandboxReady = false
	if restartPolicy(rec) == corev1.RestartPolicyNever {
		phase := corev1.PodSucceeded
		for _, c := range rec.containers {
			if c.init || c.sidecar {
				continue
			}
			if t := c.state.Terminated; t == nil || t.ExitCode != 0 {
				phase = corev1.PodFailed
			}
		}
		m.podDone(rec, phase, now)
		return false
	}
	rec.stage = stagePending
	rec.sandboxChanged = true
	rec.preferredIP = rec.podIP
	rec.podIP = ""
	m.refreshConditions(rec, now)
	return true
}

// sandboxChangedEvent is the Normal event of a sandbox re-created after a
// reboot (kuberuntime_manager.go SyncPod, events.SandboxChanged).
func (m *machine) sandboxChangedEvent(rec *record) {
	if !rec.sandboxChanged {
		return
	}
	rec.sandboxChanged = false
	m.recorder.Event(rec.pod, corev1.EventTypeNormal, m.rules.Reboot.SandboxChangedReason, m.rules.Reboot.SandboxChanged)
}

// shutdownRejection rejects a pod that reaches a node that shuts down
// (B15), after the B1-B3 checks.
func (m *machine) shutdownRejection(rec *record, now time.Time) bool {
	rej := m.rules.ShutdownRejection()
	rec.stage = stageRejected
	rec.phase = corev1.PodFailed
	rec.reason = rej.Reason
	rec.message = rej.StatusMessage
	rec.startTime = startTimeOf(rec.pod, now)
	m.recorder.Event(rec.pod, corev1.EventTypeWarning, rej.Reason, rej.EventMessage)
	return false
}
