package resources

import (
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"wink.dev/wink/simnode/facts"
)

// Annotation prefixes a test sets on a pod to choose a container's demand;
// the container name follows the dot.
const (
	CPUUsageAnnotationPrefix    = "wink.dev/cpu-usage."
	MemoryUsageAnnotationPrefix = "wink.dev/memory-usage."
)

// Demand is what a container tries to use.
type Demand struct {
	MilliCPU int64
	Memory   int64 // bytes
}

// imageDefault is the steady demand of containers whose image reference
// contains Match (the first match wins).
type imageDefault struct {
	Match  string
	Demand Demand
}

const (
	mi = int64(1) << 20
	gi = int64(1) << 30
)

// Plausible idle footprints: a Windows container carries its own copy of
// the user-mode OS services (smss, csrss, lsass...), so even nanoserver
// starts around 30Mi; servercore and the full server image much more.
var imageDefaults = map[facts.OS][]imageDefault{
	facts.Windows: {
		{Match: "nanoserver", Demand: Demand{MilliCPU: 5, Memory: 30 * mi}},
		{Match: "servercore", Demand: Demand{MilliCPU: 5, Memory: 80 * mi}},
		{Match: "windows/server", Demand: Demand{MilliCPU: 10, Memory: 150 * mi}},
		{Match: "microsoft.com/windows:", Demand: Demand{MilliCPU: 10, Memory: 200 * mi}},
		{Match: "", Demand: Demand{MilliCPU: 5, Memory: 50 * mi}},
	},
	facts.Linux: {
		{Match: "", Demand: Demand{MilliCPU: 2, Memory: 10 * mi}},
	},
}

// System is the node's own footprint: OS, container runtime and kubelet.
type System struct {
	MilliCPU   int64
	WorkingSet int64
	// Commit is the system's share of the Windows commit charge.
	Commit int64
}

var systemDefaults = map[facts.OS]System{
	// A Windows Server node with containerd and the kubelet idles around
	// 1.5Gi in use and 2Gi committed (the docs recommend reserving at least
	// 2Gi for the system, N5).
	facts.Windows: {MilliCPU: 100, WorkingSet: 1536 * mi, Commit: 2 * gi},
	facts.Linux:   {MilliCPU: 50, WorkingSet: 512 * mi, Commit: 512 * mi},
}

// DefaultDemand is the demand of a container of image on os when no
// annotation says otherwise.
func DefaultDemand(os facts.OS, image string) Demand {
	list := imageDefaults[os]
	if list == nil {
		list = imageDefaults[facts.Linux]
	}
	for _, d := range list {
		if strings.Contains(image, d.Match) {
			return d.Demand
		}
	}
	return Demand{MilliCPU: 1, Memory: 10 * mi}
}

// SystemUsage is the node's own footprint on os.
func SystemUsage(os facts.OS) System {
	if s, ok := systemDefaults[os]; ok {
		return s
	}
	return systemDefaults[facts.Linux]
}

// annotatedDemand applies the pod's usage annotations for container to d.
// An unparsable value is ignored (the default stays) and reported in errs.
func annotatedDemand(annotations map[string]string, container string, d Demand) (Demand, []string) {
	var errs []string
	if v, ok := annotations[CPUUsageAnnotationPrefix+container]; ok {
		if q, err := resource.ParseQuantity(v); err == nil && q.Sign() >= 0 {
			d.MilliCPU = q.MilliValue()
		} else {
			errs = append(errs, CPUUsageAnnotationPrefix+container+"="+v)
		}
	}
	if v, ok := annotations[MemoryUsageAnnotationPrefix+container]; ok {
		if q, err := resource.ParseQuantity(v); err == nil && q.Sign() >= 0 {
			d.Memory = q.Value()
		} else {
			errs = append(errs, MemoryUsageAnnotationPrefix+container+"="+v)
		}
	}
	return d, errs
}
