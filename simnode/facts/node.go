package facts

import (
	"maps"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/version"
)

// The graceful node shutdown (B15) of a pool that sets neither
// shutdownGracePeriod nor shutdownGracePeriodCriticalPods: the Kubernetes
// docs' example (concepts/cluster-administration/node-shutdown), 30s of
// which the last 10s are for critical pods. The kubelet's own defaults are
// 0s, which turns its node shutdown manager off ("no shutdown grace period
// is configured"); row B15 describes a node where graceful shutdown is on.
// wink.yaml's defaulting (harness/config/v1alpha1) and simnode's shutdown
// manager both resolve a pool's values with ShutdownGracePeriods.
const (
	DefaultShutdownGracePeriod             = 30 * time.Second
	DefaultShutdownGracePeriodCriticalPods = 10 * time.Second
)

// ShutdownGracePeriods resolves a pool's shutdownGracePeriod and
// shutdownGracePeriodCriticalPods (nil when unset) into the kubelet's
// configuration (B15, all kubelet versions): neither set, the defaults
// above; only shutdownGracePeriod set, critical pods get 0s (the kubelet's
// default); only shutdownGracePeriodCriticalPods set, the default total.
func ShutdownGracePeriods(gracePeriod, criticalPods *metav1.Duration) (total, critical time.Duration) {
	total, critical = DefaultShutdownGracePeriod, DefaultShutdownGracePeriodCriticalPods
	if gracePeriod != nil {
		total, critical = gracePeriod.Duration, 0
	}
	if criticalPods != nil {
		critical = criticalPods.Duration
	}
	return total, critical
}

// The eviction signals wink.yaml and the kubelet API name.
const (
	// EvictionMemoryAvailable is the evictionHard signal subtracted from
	// allocatable memory (N5).
	EvictionMemoryAvailable = "memory.available"
	// EvictionNodeFSAvailable is the evictionHard signal subtracted from
	// allocatable ephemeral-storage.
	EvictionNodeFSAvailable = "nodefs.available"
)

// windowsEvictionSince is the first kubelet whose Windows eviction
// defaults are Windows' own (PR 122922, pkg/kubelet/eviction/
// defaults_windows.go); before it Windows took defaults_others.go.
var windowsEvictionSince = version.MustParseGeneric("v1.31.0")

// The kubelet's evictionHard defaults (pkg/kubelet/eviction/
// defaults_{linux,windows,others}.go).
var (
	evictionLinux         = map[string]string{EvictionMemoryAvailable: "100Mi", EvictionNodeFSAvailable: "10%", "imagefs.available": "15%", "nodefs.inodesFree": "5%"}
	evictionWindows       = map[string]string{EvictionMemoryAvailable: "500Mi", EvictionNodeFSAvailable: "10%", "imagefs.available": "15%"}
	evictionWindowsBefore = map[string]string{EvictionMemoryAvailable: "100Mi", EvictionNodeFSAvailable: "10%", "imagefs.available": "15%"}
)

// EvictionHardDefault is the evictionHard of a kubelet of o at version
// kubelet (nil: the newest) whose configuration sets none (N5, B6, N7):
// memory.available 500Mi on Windows from v1.31 (100Mi before, as on
// Linux), nodefs.available 10%, imagefs.available 15%, and on Linux
// nodefs.inodesFree 5%. It is nil for an OS wink does not simulate. The
// map is the caller's.
func (o OS) EvictionHardDefault(kubelet *version.Version) map[string]string {
	switch {
	case o == Linux:
		return maps.Clone(evictionLinux)
	case o == Windows && kubelet != nil && kubelet.LessThan(windowsEvictionSince):
		return maps.Clone(evictionWindowsBefore)
	case o == Windows:
		return maps.Clone(evictionWindows)
	}
	return nil
}
