package pods

import (
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
)

// statusLog is what the node last handed virtual-kubelet for each pod, so
// that a pod's status is written once per real transition, as the
// kubelet's status manager does (status_manager.go updateStatusInternal:
// a status equal to the cached one is not queued for the API). Every
// timer of the simulated runtime (a probe's period, a back-off, a
// container's exit) asks for the pod's status again; virtual-kubelet
// would PUT each of them (node/pod.go updatePodStatus compares nothing).
// Only NotifyPods' goroutine uses it.
type statusLog map[string]sentStatus

type sentStatus struct {
	uid    string
	status corev1.PodStatus
}

// changed reports whether pod (the current status of key; nil when the
// pod is gone) is to be written, and records it as written.
func (l statusLog) changed(key string, pod *corev1.Pod) bool {
	if pod == nil {
		delete(l, key)
		return false
	}
	if last, ok := l[key]; ok && last.uid == string(pod.UID) && apiequality.Semantic.DeepEqual(last.status, pod.Status) {
		return false
	}
	l[key] = sentStatus{uid: string(pod.UID), status: *pod.Status.DeepCopy()}
	return true
}
