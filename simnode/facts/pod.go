package facts

import corev1 "k8s.io/api/core/v1"

// HostProcess says whether a pod runs HostProcess containers (B10), as the
// kubelet decides it (kubecontainer.HasWindowsHostProcessContainer): some
// container, init or ephemeral included, whose effective
// windowsOptions.hostProcess is true, a container's value overriding the
// pod's. The apiserver makes them all agree (A6, A7) before a node sees
// the pod; a webhook may see one that does not.
func HostProcess(pod *corev1.Pod) bool {
	var podValue *bool
	if sc := pod.Spec.SecurityContext; sc != nil && sc.WindowsOptions != nil {
		podValue = sc.WindowsOptions.HostProcess
	}
	effective := func(sc *corev1.SecurityContext) bool {
		if sc != nil && sc.WindowsOptions != nil && sc.WindowsOptions.HostProcess != nil {
			return *sc.WindowsOptions.HostProcess
		}
		return podValue != nil && *podValue
	}
	for _, c := range pod.Spec.InitContainers {
		if effective(c.SecurityContext) {
			return true
		}
	}
	for _, c := range pod.Spec.Containers {
		if effective(c.SecurityContext) {
			return true
		}
	}
	for _, c := range pod.Spec.EphemeralContainers {
		if effective(c.SecurityContext) {
			return true
		}
	}
	return false
}
