package facts

import corev1 "k8s.io/api/core/v1"

// HostProcess says whether a pod runs HostProcess containers (B10), as the
// kubelet decides it (kubecontainer.HasWindowsHostProcessContainer): some
// container, init or ephemeral included, whose effective
// windowsOptions.hostProcess is true, a container's value overriding the
// pod's. The apiserver makes them all agree (A6, A7) before a node sees
// the pod; a webhook may see one that does not.
func HostProcess(pod *corev1.Pod) bool {
	for _, c := range pod.Spec.InitContainers {
		if ContainerHostProcess(pod, c.SecurityContext) {
			return true
		}
	}
	for _, c := range pod.Spec.Containers {
		if ContainerHostProcess(pod, c.SecurityContext) {
			return true
		}
	}
	for _, c := range pod.Spec.EphemeralContainers {
		if ContainerHostProcess(pod, c.SecurityContext) {
			return true
		}
	}
	return false
}

// ContainerHostProcess is a container's effective
// windowsOptions.hostProcess (B10): its securityContext's (sc), else its
// pod's, else false.
func ContainerHostProcess(pod *corev1.Pod, sc *corev1.SecurityContext) bool {
	if sc != nil && sc.WindowsOptions != nil && sc.WindowsOptions.HostProcess != nil {
		return *sc.WindowsOptions.HostProcess
	}
	psc := pod.Spec.SecurityContext
	return psc != nil && psc.WindowsOptions != nil && psc.WindowsOptions.HostProcess != nil && *psc.WindowsOptions.HostProcess
}
