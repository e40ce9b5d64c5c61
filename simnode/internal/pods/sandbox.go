package pods

import (
	"context"
	"strings"
	"time"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/rules"
)

// The pod sandbox (kuberuntime_sandbox.go): the node's image host, the
// sandbox's creation and its failures.

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
