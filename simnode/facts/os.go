package facts

import (
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// OS is a node's or an image's operating system (N1: the kubernetes.io/os
// label's value, nodeInfo.operatingSystem). Every layer's OS is this type:
// an OS read from the API (a label, spec.os.name, nodeInfo) is converted
// once, by the functions below.
type OS string

// The operating systems wink simulates nodes of.
const (
	Windows OS = "windows"
	Linux   OS = "linux"
)

// OSes are the operating systems wink simulates, in a stable order.
var OSes = []OS{Windows, Linux}

// The labels a node's OS is on (N1) and a pod selects it by (S1).
const (
	LabelOS     = corev1.LabelOSStable // kubernetes.io/os
	LabelBetaOS = "beta.kubernetes.io/os"
)

// Valid says whether o is an OS wink simulates.
func (o OS) Valid() bool { return o == Windows || o == Linux }

// IsWindows says whether o is Windows.
func (o OS) IsWindows() bool { return o == Windows }

// IsLinux says whether o is Linux.
func (o OS) IsLinux() bool { return o == Linux }

// String is the OS as the API writes it ("windows").
func (o OS) String() string { return string(o) }

// PodOS is the spec.os of a pod for o (S1).
func (o OS) PodOS() *corev1.PodOS { return &corev1.PodOS{Name: corev1.OSName(o)} }

// Check returns nil for an OS wink simulates and otherwise an error that
// names the value and what is supported (`unknown os "plan9": supported
// values: "windows", "linux"`), for the tables and files that name an OS.
func (o OS) Check() error {
	if o.Valid() {
		return nil
	}
	return fmt.Errorf("unknown os %q: supported values: %q, %q", string(o), Windows, Linux)
}

// ParseOS reads an OS that a file, flag or annotation names: "windows" or
// "linux"; anything else is Check's error.
func ParseOS(s string) (OS, error) {
	if err := OS(s).Check(); err != nil {
		return "", err
	}
	return OS(s), nil
}

// NodeOS is the OS of a node object (N1): its nodeInfo.operatingSystem,
// else its kubernetes.io/os label, in lower case; "" when it says
// neither.
func NodeOS(node *corev1.Node) OS {
	if node == nil {
		return ""
	}
	if os := node.Status.NodeInfo.OperatingSystem; os != "" {
		return OS(strings.ToLower(os))
	}
	return OS(strings.ToLower(node.Labels[LabelOS]))
}

// SpecOS is the OS a pod spec names in spec.os.name (S1), "" when it names
// none.
func SpecOS(spec *corev1.PodSpec) OS {
	if spec.OS == nil {
		return ""
	}
	return OS(spec.OS.Name)
}

// SelectorOS is the OS a node selector selects by kubernetes.io/os, else
// by beta.kubernetes.io/os; "" when it selects none.
func SelectorOS(selector map[string]string) OS {
	if v := selector[LabelOS]; v != "" {
		return OS(v)
	}
	return OS(selector[LabelBetaOS])
}

// SelectedOS is the OS a pod spec selects by itself (S1): spec.os.name,
// else its node selector (SelectorOS); "" when it says neither.
func SelectedOS(spec *corev1.PodSpec) OS {
	if os := SpecOS(spec); os != "" {
		return os
	}
	return SelectorOS(spec.NodeSelector)
}

// The taint windows pools register by default and its toleration (N4,
// the docs' recommended practice): os=windows:NoSchedule.
const (
	WindowsTaintKey   = "os"
	WindowsTaintValue = string(Windows)
)

// WindowsTaint is os=windows:NoSchedule (N4).
func WindowsTaint() corev1.Taint {
	return corev1.Taint{Key: WindowsTaintKey, Value: WindowsTaintValue, Effect: corev1.TaintEffectNoSchedule}
}

// WindowsToleration tolerates WindowsTaint (N4).
func WindowsToleration() corev1.Toleration {
	return corev1.Toleration{Key: WindowsTaintKey, Operator: corev1.TolerationOpEqual, Value: WindowsTaintValue, Effect: corev1.TaintEffectNoSchedule}
}

// NodeReady reports whether the node's Ready condition is True.
func NodeReady(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// NodeReadySince reports whether the node's Ready condition is True and was
// posted at or after since (a zero since takes any post). Every status a
// kubelet posts, its registration's included, carries its heartbeat
// (lastHeartbeatTime); a node whose heartbeat is older is Ready as a kubelet
// left it that has not posted since, which the apiserver shows until the
// node lifecycle controller's grace period has passed: its address and
// port are those of that kubelet, maybe gone. The API keeps the heartbeat
// to the second, so since is compared to the second.
func NodeReadySince(n *corev1.Node, since time.Time) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue && !c.LastHeartbeatTime.Time.Before(since.Truncate(time.Second))
		}
	}
	return false
}
