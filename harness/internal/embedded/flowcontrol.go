package embedded

import (
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap"

	"wink.dev/wink/harness/internal/simnodeplan"
)

// simnodeFlowSchemas are API Priority and Fairness' FlowSchemas for the
// kubelets of a real cluster (group system:nodes: their nodes and leases at
// priority level node-high, everything else at system), given to simnode's
// one identity. Without them every simulated kubelet's request falls to
// the global-default level, the one for requests nobody classified, where
// a thousand nodes registering at once are answered 429 (queue-full) and
// retry: at 1,000 nodes, 517 node registrations, 397 lease creations and
// 256 renewals more than the nodes' own. They are upstream's
// (k8s.io/apiserver flowcontrol bootstrap, the apiserver's own defaults)
// with only the subjects replaced.
func simnodeFlowSchemas() ([]*unstructured.Unstructured, error) {
	var out []*unstructured.Unstructured
	for _, upstream := range []*flowcontrolv1.FlowSchema{bootstrap.SuggestedFlowSchemaSystemNodeHigh, bootstrap.SuggestedFlowSchemaSystemNodes} {
		fs := upstream.DeepCopy()
		fs.TypeMeta.APIVersion = flowcontrolv1.SchemeGroupVersion.String()
		fs.TypeMeta.Kind = "FlowSchema"
		fs.Name = "wink-simnode-" + upstream.Name
		fs.Annotations = nil // not the apiserver's to keep up to date
		for i := range fs.Spec.Rules {
			fs.Spec.Rules[i].Subjects = []flowcontrolv1.Subject{{
				Kind: flowcontrolv1.SubjectKindUser,
				User: &flowcontrolv1.UserSubject{Name: simnodeplan.SimnodeUser},
			}}
		}
		obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(fs)
		if err != nil {
			return nil, err
		}
		u := &unstructured.Unstructured{Object: obj}
		unstructured.RemoveNestedField(u.Object, "status")
		unstructured.RemoveNestedField(u.Object, "metadata", "creationTimestamp")
		out = append(out, u)
	}
	return out, nil
}
