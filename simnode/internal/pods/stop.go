package pods

import (
	"time"

	"wink.dev/wink/simnode/rules"
)

// Stopping containers: the pod's graceful termination (B13) and the
// kubelet's own kills (probes, hooks).

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
