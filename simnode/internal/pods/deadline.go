package pods

import (
	"time"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/rules"
)

// DeadlineExceeded is the Termination of a pod past its
// activeDeadlineSeconds (row B13, rules runtime activeDeadline;
// pkg/kubelet/active_deadline.go): phase Failed with its reason and message
// whatever the containers' exit codes, no DisruptionTarget condition, and
// the pod's own grace period.
func DeadlineExceeded(r *rules.Rules) Termination {
	d := r.Runtime.ActiveDeadline
	return Termination{Reason: d.Reason, Message: d.Message, Failed: true}
}

// armDeadline schedules the active deadline check of rec (with p.mu held):
// at startTime + activeDeadlineSeconds, if the pod still has that deadline,
// it is killed as DeadlineExceeded (with the kubelet's Normal event). It
// is armed again on every spec update (UpdatePod), so a deadline set or
// shortened on a running pod is used at once; a check for a deadline that
// changed in between does nothing.
func (p *Provider) armDeadline(rec *record) {
	ads := rec.pod.Spec.ActiveDeadlineSeconds
	if ads == nil || rec.startTime == nil {
		return
	}
	switch rec.stage {
	case stageRejected, stageTerminating, stageTerminated:
		return
	}
	secs := *ads
	deadline := rec.startTime.Add(time.Duration(secs) * time.Second)
	if rec.deadline != nil {
		rec.deadline.Stop() // one check per pod: the latest deadline's
	}
	rec.deadline = p.cfg.Clock.AfterFunc(max(0, deadline.Sub(p.cfg.Clock.Now())), func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if !p.currentLocked(rec) {
			return
		}
		cur := rec.pod.Spec.ActiveDeadlineSeconds
		if cur == nil || *cur != secs || rec.ending != nil {
			return
		}
		switch rec.stage {
		case stageRejected, stageTerminating, stageTerminated:
			return
		}
		t := DeadlineExceeded(p.cfg.Rules)
		p.m.recorder.Event(rec.pod, corev1.EventTypeNormal, t.Reason, t.Message)
		p.terminateLocked(rec.pod, t)
	})
}
