package rules

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"wink.dev/wink/simnode/facts"
)

// admissionChecks are the predicates admission.yaml rules name. Each returns
// true when the pod must be rejected. They mirror pkg/kubelet/lifecycle/
// predicate.go with runtime.GOOS replaced by the simulated node's OS.
var admissionChecks = map[string]func(pod *corev1.Pod, node *corev1.Node, nodeOS facts.OS, active []*corev1.Pod) bool{
	// B2: rejectPodAdmissionBasedOnOSSelector. The kubelet compares the
	// pod's kubernetes.io/os label with its own OS (it overrides a missing or
	// wrong node label with runtime.GOOS).
	"osLabel": func(pod *corev1.Pod, _ *corev1.Node, nodeOS facts.OS, _ []*corev1.Pod) bool {
		v, ok := pod.Labels[corev1.LabelOSStable]
		return ok && facts.OS(v) != nodeOS
	},
	// B1: rejectPodAdmissionBasedOnOSField.
	"osField": func(pod *corev1.Pod, _ *corev1.Node, nodeOS facts.OS, _ []*corev1.Pod) bool {
		return pod.Spec.OS != nil && facts.SpecOS(&pod.Spec) != nodeOS
	},
	// B3: scheduler.AdmissionCheck's node affinity part:
	// nodeaffinity.GetRequiredNodeAffinity(pod).Match(node) covers both
	// spec.nodeSelector and requiredDuringSchedulingIgnoredDuringExecution.
	"nodeAffinity": func(pod *corev1.Pod, node *corev1.Node, _ facts.OS, _ []*corev1.Pod) bool {
		match, err := nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)
		return err != nil || !match
	},
	// B3: scheduler.AdmissionCheck's nodeports part: a host port (protocol,
	// port, host IP; 0.0.0.0 or "" overlaps every IP) already used by an
	// admitted, active pod of the node.
	"nodePorts": func(pod *corev1.Pod, _ *corev1.Node, _ facts.OS, active []*corev1.Pod) bool {
		used := map[hostPort]bool{}
		for _, o := range active {
			for _, hp := range hostPorts(o) {
				used[hp] = true
			}
		}
		for _, hp := range hostPorts(pod) {
			for u := range used {
				if u.proto == hp.proto && u.port == hp.port && (u.ip == hp.ip || u.ip == "0.0.0.0" || hp.ip == "0.0.0.0") {
					return true
				}
			}
		}
		return false
	},
}

type hostPort struct {
	proto, ip string
	port      int32
}

// hostPorts are the host ports of pod's containers and init containers
// (schedutil.GetContainerPorts), the host IP defaulting to 0.0.0.0 and the
// protocol to TCP.
func hostPorts(pod *corev1.Pod) []hostPort {
	var out []hostPort
	for _, cs := range [][]corev1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for _, c := range cs {
			for _, p := range c.Ports {
				if p.HostPort <= 0 {
					continue
				}
				hp := hostPort{proto: string(p.Protocol), ip: p.HostIP, port: p.HostPort}
				if hp.proto == "" {
					hp.proto = string(corev1.ProtocolTCP)
				}
				if hp.ip == "" {
					hp.ip = "0.0.0.0"
				}
				out = append(out, hp)
			}
		}
	}
	return out
}

// Rejection is the outcome of a failed kubelet admission.
type Rejection struct {
	// Rule is the admission rule that rejected the pod (its ID is the spec row).
	Rule *AdmissionRule
	// Reason is the pod status reason and the event reason.
	Reason string
	// EventMessage is the Warning event's message.
	EventMessage string
	// StatusMessage is the pod status message ("Pod was rejected: ...").
	StatusMessage string
}

// Admit evaluates the admission rules in table order for a node of os nodeOS
// running kubelet version v, whose admitted, active pods are active. It
// returns nil when the pod is admitted.
func (r *Rules) Admit(pod *corev1.Pod, node *corev1.Node, nodeOS facts.OS, v *version.Version, active []*corev1.Pod) *Rejection {
	for i := range r.Admission {
		a := &r.Admission[i]
		if !a.KubeletVersions.Contains(v) {
			continue
		}
		if admissionChecks[a.Check](pod, node, nodeOS, active) {
			return &Rejection{
				Rule:          a,
				Reason:        a.Reason,
				EventMessage:  a.Message,
				StatusMessage: r.StatusMessagePrefix + a.Message,
			}
		}
	}
	return nil
}

// ShutdownRejection is the rejection of a pod that reaches the kubelet
// while its node shuts down (B15, shutdown.yaml): the node shutdown
// manager's admit handler runs after B1-B3, so Admit comes first.
func (r *Rules) ShutdownRejection() *Rejection {
	s := &r.NodeShutdown
	return &Rejection{
		Reason:        s.AdmissionReason,
		EventMessage:  s.AdmissionMessage,
		StatusMessage: r.StatusMessagePrefix + s.AdmissionMessage,
	}
}
