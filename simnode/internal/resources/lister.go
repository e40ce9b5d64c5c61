package resources

import (
	corev1 "k8s.io/api/core/v1"
)

// FromLister is the stand-in for the runtime's Pods: the containers whose
// status says running, of the node's pods in phase Running, as list (the
// pods bound to the node, from the shared informer) returns them. The
// runtime replaces it with an adapter over its own container records, e.g.
//
//	resources.PodsFunc(func() []resources.Container { return provider.Running() })
func FromLister(list func() []*corev1.Pod) Pods {
	return PodsFunc(func() []Container {
		var out []Container
		for _, pod := range list() {
			if pod.Status.Phase != corev1.PodRunning {
				continue
			}
			for _, st := range pod.Status.ContainerStatuses {
				if st.State.Running == nil {
					continue
				}
				out = append(out, Container{Pod: pod, Name: st.Name, StartTime: st.State.Running.StartedAt.Time, ID: st.ContainerID})
			}
		}
		return out
	})
}
