package resources

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"
	resourcehelper "k8s.io/component-helpers/resource"
)

// defaultEphemeralCapacity is a node's ephemeral-storage capacity when
// its Node says none (wink.yaml's default, 100Gi).
const defaultEphemeralCapacity = 100 << 30

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
	// Logs is each container's logs, part of Containers.
	Logs map[string]int64
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

// storage measures the local storage of pods (LocalStorage); pods it
// cannot measure are left out.
func (m *Manager) storage(pods []*corev1.Pod) map[*corev1.Pod]PodStorage {
	out := map[*corev1.Pod]PodStorage{}
	if m.cfg.LocalStorage == nil {
		return out
	}
	for _, p := range pods {
		if u, ok := m.cfg.LocalStorage(p); ok {
			out[p] = u
		}
	}
	return out
}

// observeDisk evaluates nodefs.available against the node's threshold
// (issue 22): the node's ephemeral-storage capacity less the OS, runtime
// and images (nodeFsBaseUsed) and what the pods wrote, as the Summary
// API's node fs shows it. ok is false on a
// node without the signal (DiskPressure unset, N7) or the threshold.
func (m *Manager) observeDisk(snap *Snapshot, storage map[*corev1.Pod]PodStorage) (Observation, bool, error) {
	v, ok := m.cfg.EvictionHard["nodefs.available"]
	if !m.cfg.DiskPressure || m.cfg.LocalStorage == nil || !ok || v == "" {
		return Observation{}, false, nil
	}
	capacity := snap.EphemeralCapacity
	if capacity <= 0 {
		capacity = defaultEphemeralCapacity
	}
	// As the Summary API counts it (nodeFsUsed).
	snap.Disk = map[types.UID]PodStorage{}
	for p, u := range storage {
		snap.Disk[p.UID] = u
	}
	return observe(v, max(capacity-snap.nodeFsUsed(), 0), capacity)
}

// RankDiskPressure orders pods for eviction under nodefs pressure as the
// kubelet's rankDiskPressureFunc on a node without an image filesystem
// (pkg/kubelet/eviction/helpers.go): pods without stats first, then pods
// whose usage (layers, logs, emptyDirs) exceeds their ephemeral-storage
// request, then lower priority, then larger usage above the request.
func RankDiskPressure(pods []*corev1.Pod, storage map[*corev1.Pod]PodStorage) {
	rankByUsage(pods, corev1.ResourceEphemeralStorage, func(p *corev1.Pod) (int64, bool) {
		u, found := storage[p]
		return u.Total, found
	})
}

// DiskEvictionMessage is the kubelet's evictionMessage for
// ephemeral-storage: "The node was low on resource: ephemeral-storage.
// Threshold quantity: <q>, available: <a>. " and a "Container <c> was
// using <rootfs+logs>, request is <req>, has larger consumption of
// ephemeral-storage. " for each container above its request.
func DiskEvictionMessage(pod *corev1.Pod, u PodStorage, obs Observation) (string, map[string]string) {
	return evictionMessage(pod, corev1.ResourceEphemeralStorage, obs, func(name string) (int64, bool) {
		used, ok := u.Containers[name]
		return used, ok
	})
}

// localStorageEviction evicts every active pod past one of its local
// storage limits; it returns those it evicted.
func (m *Manager) localStorageEviction(pods []*corev1.Pod, storage map[*corev1.Pod]PodStorage) []*corev1.Pod {
	var evicted []*corev1.Pod
	for _, pod := range pods {
		u, ok := storage[pod]
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
