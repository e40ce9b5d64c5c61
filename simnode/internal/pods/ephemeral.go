package pods

import (
	"time"

	corev1 "k8s.io/api/core/v1"
)

// Ephemeral containers (kubectl debug; upstream common/node/
// ephemeral_containers.go, conformance since v1.25): added to a running
// pod through the pods/ephemeralcontainers subresource, which
// virtual-kubelet delivers as a spec update (node/pod.go
// podsEffectivelyEqual compares spec.ephemeralContainers). The kubelet
// starts each one once (kuberuntime_manager.go computePodActions
// EphemeralContainersToStart), never restarts it, reports it in
// status.ephemeralContainerStatuses, and exec, attach and logs reach it by
// name. They have no probes, ports or resources and do not count for the
// pod's phase or readiness. Row B16 (exec, logs) for Windows nodes too.

// ephemeralVolumes is what PodVolumes may also do: learn the ephemeral
// containers added since the pod was mounted (volumes.Pod).
type ephemeralVolumes interface {
	SetEphemeralContainers(ecs []corev1.EphemeralContainer)
}

// withEphemeral is every container of rec: init, regular, then ephemeral.
func (rec *record) withEphemeral() []*container {
	if len(rec.ephemeral) == 0 {
		return rec.containers
	}
	out := make([]*container, 0, len(rec.containers)+len(rec.ephemeral))
	return append(append(out, rec.containers...), rec.ephemeral...)
}

// addEphemeral records the ephemeral containers of rec.pod not known yet
// (with p.mu held); the next sync starts them.
func (p *Provider) addEphemeral(rec *record) {
	added := false
	for _, ec := range rec.pod.Spec.EphemeralContainers {
		known := false
		for _, c := range rec.ephemeral {
			if c.name == ec.Name {
				known = true
				break
			}
		}
		if !known {
			rec.ephemeral = append(rec.ephemeral, &container{name: ec.Name, image: ec.Image, ephemeral: true})
			added = true
		}
	}
	if !added {
		return
	}
	if v, ok := rec.volumes.(ephemeralVolumes); ok {
		v.SetEphemeralContainers(rec.pod.Spec.EphemeralContainers)
	}
	p.after(rec, 0, nil)
}

// startEphemeral starts the ephemeral containers that never ran, once the
// pod runs (the sandbox is up).
func (m *machine) startEphemeral(rec *record, now time.Time) {
	if rec.stage != stageRunning {
		return
	}
	for _, c := range rec.ephemeral {
		if c.created || c.busy(now) || c.state.Terminated != nil {
			continue
		}
		m.startOrRestart(rec, c, false, now)
	}
}

// ephemeralSpec is the container of an ephemeral container's spec.
func ephemeralSpec(pod *corev1.Pod, name string) *corev1.Container {
	for i := range pod.Spec.EphemeralContainers {
		if pod.Spec.EphemeralContainers[i].Name == name {
			c := corev1.Container(pod.Spec.EphemeralContainers[i].EphemeralContainerCommon)
			return &c
		}
	}
	return nil
}
