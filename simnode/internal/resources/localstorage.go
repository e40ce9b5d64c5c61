package resources

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	resourcehelper "k8s.io/component-helpers/resource"
)

// Local storage eviction messages, word for word the kubelet's
// (pkg/kubelet/eviction/helpers.go emptyDirMessageFmt,
// podEphemeralStorageMessageFmt, containerEphemeralStorageMessageFmt).
const (
	emptyDirMessageFmt                  = "Usage of EmptyDir volume %q exceeds the limit %q. "
	podEphemeralStorageMessageFmt       = "Pod ephemeral local storage usage exceeds the total limit of containers %s. "
	containerEphemeralStorageMessageFmt = "Container %s exceeded its local ephemeral storage limit %q. "
)

// PodStorage is a pod's local ephemeral storage as the kubelet's Summary
// stats count it (issue 22).
type PodStorage struct {
	// EmptyDirs is every emptyDir's usage by volume name (VolumeStats).
	EmptyDirs map[string]int64
	// Containers is each container's writable layer plus its logs
	// (Rootfs + Logs; a node without a dedicated image filesystem).
	Containers map[string]int64
	// Total is the pod's EphemeralStorage.UsedBytes.
	Total int64
}

// LocalStorageEvictor evicts a pod for its local storage: the
// eviction manager's evictPod with immediateEvictionGracePeriodSeconds
// (1 s) and no DisruptionTarget condition. An Evictor without it gets
// Evict.
type LocalStorageEvictor interface {
	EvictLocalStorage(pod *corev1.Pod, message string) error
}

// LocalStorageMessage is the kubelet's localStorageEviction verdict for
// pod with usage u (pkg/kubelet/eviction/eviction_manager.go:
// emptyDirLimitEviction, then podEphemeralStorageLimitEviction, then
// containerEphemeralStorageLimitEviction): the eviction message, or ""
// when the pod is within its limits.
func LocalStorageMessage(pod *corev1.Pod, u PodStorage) string {
	for _, v := range pod.Spec.Volumes {
		if v.EmptyDir == nil || v.EmptyDir.SizeLimit == nil {
			continue
		}
		size := v.EmptyDir.SizeLimit
		used, ok := u.EmptyDirs[v.Name]
		if ok && size.Sign() == 1 && resource.NewQuantity(used, resource.BinarySI).Cmp(*size) > 0 {
			return fmt.Sprintf(emptyDirMessageFmt, v.Name, size.String())
		}
	}
	limits := resourcehelper.PodLimits(pod, resourcehelper.PodResourcesOptions{})
	if limit, ok := limits[corev1.ResourceEphemeralStorage]; ok {
		if resource.NewQuantity(u.Total, resource.BinarySI).Cmp(limit) > 0 {
			return fmt.Sprintf(podEphemeralStorageMessageFmt, limit.String())
		}
	}
	for _, c := range pod.Spec.Containers {
		limit := c.Resources.Limits.StorageEphemeral()
		if limit == nil || limit.Value() == 0 {
			continue
		}
		used, ok := u.Containers[c.Name]
		if ok && limit.Cmp(*resource.NewQuantity(used, resource.BinarySI)) < 0 {
			return fmt.Sprintf(containerEphemeralStorageMessageFmt, c.Name, limit.String())
		}
	}
	return ""
}

// localStorageEviction evicts every active pod past one of its local
// storage limits; it returns those it evicted.
func (m *Manager) localStorageEviction() []*corev1.Pod {
	if m.cfg.LocalStorage == nil {
		return nil
	}
	var evicted []*corev1.Pod
	for _, pod := range m.cfg.ActivePods() {
		u, ok := m.cfg.LocalStorage(pod)
		if !ok {
			continue
		}
		msg := LocalStorageMessage(pod, u)
		if msg == "" {
			continue
		}
		if isCritical(pod) {
			m.cfg.Log.Info("eviction manager: cannot evict a critical pod", "pod", pod.Namespace+"/"+pod.Name)
			continue
		}
		if m.cfg.Recorder != nil {
			m.cfg.Recorder.AnnotatedEventf(pod, nil, corev1.EventTypeWarning, EvictedReason, "%s", msg)
		}
		var err error
		if ls, ok := m.cfg.Evictor.(LocalStorageEvictor); ok {
			err = ls.EvictLocalStorage(pod, msg)
		} else {
			err = m.cfg.Evictor.Evict(pod, msg)
		}
		if err != nil {
			m.cfg.Log.Warn("eviction manager: pod failed to evict", "pod", pod.Namespace+"/"+pod.Name, "err", err)
		} else {
			m.cfg.Log.Info("eviction manager: pod is evicted successfully", "pod", pod.Namespace+"/"+pod.Name, "message", msg)
		}
		evicted = append(evicted, pod)
	}
	return evicted
}
