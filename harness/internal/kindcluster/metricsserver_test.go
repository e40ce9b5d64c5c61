package kindcluster

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"wink.dev/wink/harness/config/v1alpha1"
)

// TestMetricsServerImage: the image is metrics-server's at the release
// go.mod requires, the one wink's binary links (B16, A24).
func TestMetricsServerImage(t *testing.T) {
	mod, err := os.ReadFile("../../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*sigs\.k8s\.io/metrics-server (v\S+)`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod requires no sigs.k8s.io/metrics-server")
	}
	if want := "registry.k8s.io/metrics-server/metrics-server:" + string(m[1]); MetricsServerImage != want {
		t.Errorf("MetricsServerImage = %s, want %s (go.mod)", MetricsServerImage, want)
	}
}

// TestMetricsServerObjects: metrics-server's objects for a kind cluster
// (B16, A24): the APIService names the Service in front of a Deployment on
// the kind control-plane node, which scrapes at wink's resolution.
func TestMetricsServerObjects(t *testing.T) {
	n := 3
	objs, err := metricsServerObjects(&v1alpha1.Cluster{NodePools: []v1alpha1.NodePool{{Count: &n}}})
	if err != nil {
		t.Fatal(err)
	}
	byKind := map[string]*unstructured.Unstructured{}
	for _, o := range objs {
		byKind[o.GetKind()] = o
	}
	api := byKind["APIService"]
	if api == nil || api.GetName() != "v1beta1.metrics.k8s.io" {
		t.Fatalf("no APIService v1beta1.metrics.k8s.io in %d objects", len(objs))
	}
	svc, _, _ := unstructured.NestedString(api.Object, "spec", "service", "name")
	if s := byKind["Service"]; s == nil || s.GetName() != svc || s.GetNamespace() != "kube-system" {
		t.Errorf("APIService names Service %q; have %v", svc, s)
	}
	d := byKind["Deployment"]
	if d == nil {
		t.Fatal("no Deployment")
	}
	containers, _, _ := unstructured.NestedSlice(d.Object, "spec", "template", "spec", "containers")
	c := containers[0].(map[string]any)
	if c["image"] != MetricsServerImage {
		t.Errorf("image %v, want %s", c["image"], MetricsServerImage)
	}
	var args []string
	for _, a := range c["args"].([]any) {
		args = append(args, a.(string))
	}
	for _, want := range []string{"--metric-resolution=10s", "--kubelet-request-timeout=5s", "--kubelet-use-node-status-port", "--kubelet-insecure-tls"} {
		if !slices.Contains(args, want) {
			t.Errorf("args %v lack %s", args, want)
		}
	}
	sel, _, _ := unstructured.NestedStringMap(d.Object, "spec", "template", "spec", "nodeSelector")
	if _, ok := sel["node-role.kubernetes.io/control-plane"]; !ok {
		t.Errorf("nodeSelector %v does not keep it on the kind control-plane node", sel)
	}
	sa, _, _ := unstructured.NestedString(d.Object, "spec", "template", "spec", "serviceAccountName")
	for _, o := range objs {
		if !strings.HasSuffix(o.GetKind(), "Binding") {
			continue
		}
		subjects, _, _ := unstructured.NestedSlice(o.Object, "subjects")
		if s := subjects[0].(map[string]any); s["name"] != sa || s["namespace"] != "kube-system" {
			t.Errorf("%s %s binds %v, not the Deployment's ServiceAccount %s", o.GetKind(), o.GetName(), s, sa)
		}
	}
}
