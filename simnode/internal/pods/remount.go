package pods

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// RemountInterval is how often the volumes of running pods are brought up
// to date with their ConfigMaps, Secrets and downward API fields: the
// kubelet's periodic sync (syncFrequency, 1m by default) remounts them,
// so an update shows in the files within about that time (B12; e2e's
// "updates should be reflected in volume" specs wait for it).
const RemountInterval = 30 * time.Second

// volumeRefresher is a PodVolumes that can be brought up to date
// (volumes.Pod.Refresh).
type volumeRefresher interface {
	Refresh(ctx context.Context, pod *corev1.Pod) error
}

// remountLoop refreshes the volumes of the node's started pods every
// RemountInterval until ctx is done.
func (p *Provider) remountLoop(ctx context.Context) {
	t := time.NewTicker(RemountInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		p.remount(ctx)
	}
}

// remount refreshes the volumes of every running pod once.
func (p *Provider) remount(ctx context.Context) {
	type job struct {
		v   volumeRefresher
		pod *corev1.Pod
	}
	var jobs []job
	p.mu.Lock()
	for _, rec := range p.pods {
		if rec.stage != stageRunning || rec.volumes == nil {
			continue
		}
		if v, ok := rec.volumes.(volumeRefresher); ok {
			jobs = append(jobs, job{v, p.podLocked(rec)})
		}
	}
	p.mu.Unlock()
	for _, j := range jobs {
		if err := j.v.Refresh(ctx, j.pod); err != nil {
			p.cfg.Log.Debug("volume refresh", "pod", podKey(j.pod), "err", err)
		}
	}
}
