package volumes

import (
	corev1 "k8s.io/api/core/v1"
)

// SetEphemeralContainers records the ephemeral containers added to the pod
// since it was mounted (the pods/ephemeralcontainers subresource): FS and
// ContainerError find them by name, with the volumes they mount.
func (p *Pod) SetEphemeralContainers(ecs []corev1.EphemeralContainer) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pod.Spec.EphemeralContainers = make([]corev1.EphemeralContainer, len(ecs))
	for i := range ecs {
		ecs[i].DeepCopyInto(&p.pod.Spec.EphemeralContainers[i])
	}
}
