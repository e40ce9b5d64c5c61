package kindcluster

import (
	"context"
	_ "embed" // metrics-server.yaml

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/harness/internal/apply"
	"wink.dev/wink/harness/internal/cluster"
)

// MetricsServerImage is metrics-server's image at the release go.mod
// requires (sigs.k8s.io/metrics-server), the one its manifests name. kind's
// own node images pull it; wink's node image (make kind-node-image) holds
// it preloaded under this name, built from wink's binary, which runs
// metrics-server when started by that name.
const MetricsServerImage = "registry.k8s.io/metrics-server/metrics-server:v0.7.2"

//go:embed metrics-server.yaml
var metricsServerManifest string

// metricsServerObjects renders metrics-server.yaml for cfg: the resolution
// every backend uses for its node count.
func metricsServerObjects(cfg *v1alpha1.Cluster) ([]*unstructured.Unstructured, error) {
	values := struct {
		Image, Resolution, KubeletTimeout string
	}{
		Image:          MetricsServerImage,
		Resolution:     cluster.MetricsResolutionFor(v1alpha1.NodeCount(cfg.NodePools)).String(),
		KubeletTimeout: cluster.MetricsKubeletTimeout.String(),
	}
	return apply.Render("metrics-server.yaml", metricsServerManifest, values)
}

// installMetricsServer applies metrics-server's objects to the kind
// cluster of kubeconfig (again on every `wink up`, which converges).
func installMetricsServer(ctx context.Context, kubeconfig string, cfg *v1alpha1.Cluster) error {
	objs, err := metricsServerObjects(cfg)
	if err != nil {
		return err
	}
	return apply.Objects(ctx, kubeconfig, objs)
}
