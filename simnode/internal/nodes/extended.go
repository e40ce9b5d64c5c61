package nodes

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation"
)

// SyncClientAllocatable brings node's allocatable in line with the
// extended resources a client advertised in the API's node status
// (server), as the kubelet's MachineInfo status setter does on every
// status update (k8s.io/kubernetes@v1.35.4 pkg/kubelet/nodestatus/
// setters.go): the kubelet keeps the capacity others set, sets
// allocatable to it (no reservation applies to an extended resource) and
// drops from allocatable an extended resource that is gone from capacity.
// Resources the node reports itself (its own capacity) are left alone.
// It reports whether node changed (issue 21; row N5).
func SyncClientAllocatable(node, server *corev1.Node) bool {
	own := node.Status.Capacity
	want := corev1.ResourceList{}
	for k, v := range server.Status.Capacity {
		if _, mine := own[k]; !mine && isExtendedResourceName(k) {
			want[k] = v.DeepCopy()
		}
	}
	have := corev1.ResourceList{}
	for k, v := range node.Status.Allocatable {
		if _, mine := own[k]; !mine && isExtendedResourceName(k) {
			have[k] = v
		}
	}
	if equality.Semantic.DeepEqual(want, have) {
		return false
	}
	if node.Status.Allocatable == nil {
		node.Status.Allocatable = corev1.ResourceList{}
	}
	for k := range have {
		delete(node.Status.Allocatable, k)
	}
	for k, v := range want {
		node.Status.Allocatable[k] = v
	}
	return true
}

// isExtendedResourceName is the kubelet's test of an extended resource
// (k8s.io/kubernetes@v1.35.4 pkg/apis/core/v1/helper IsExtendedResourceName,
// which simnode may not link: only harness/controlplane links
// k8s.io/kubernetes): a name with a domain outside kubernetes.io, not a
// requests. quota name, that is a qualified name once prefixed with
// "requests.".
func isExtendedResourceName(name corev1.ResourceName) bool {
	n := string(name)
	native := !strings.Contains(n, "/") || strings.Contains(n, corev1.ResourceDefaultNamespacePrefix)
	if native || strings.HasPrefix(n, corev1.DefaultResourceRequestsPrefix) {
		return false
	}
	return len(validation.IsQualifiedName(corev1.DefaultResourceRequestsPrefix+n)) == 0
}
