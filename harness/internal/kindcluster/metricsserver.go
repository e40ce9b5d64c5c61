package kindcluster

import (
	"context"
	_ "embed" // metrics-server.yaml
	"fmt"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/kind/pkg/exec"

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

// metricsServerResources maps the kinds of metrics-server.yaml.
var metricsServerResources = apply.Resources{
	"ServiceAccount":     {Version: "v1", Resource: "serviceaccounts"},
	"Service":            {Version: "v1", Resource: "services"},
	"ClusterRole":        {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"},
	"ClusterRoleBinding": {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterrolebindings"},
	"RoleBinding":        {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings"},
	"Deployment":         {Group: "apps", Version: "v1", Resource: "deployments"},
	"APIService":         {Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"},
}

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
	return apply.Render("metrics-server.yaml", metricsServerManifest, values, metricsServerResources)
}

// installMetricsServer applies metrics-server's objects to the kind
// cluster of kubeconfig (again on every `wink up`, which converges), whose
// control-plane node container is node. The APIService comes last, once
// kube-proxy on the node has programmed the Service's ClusterIP: until
// then a connection to it leaves the node by its default route, and the
// aggregator keeps the connection it made for the APIService. Where the
// host answers HTTPS to any address (an intercepting egress proxy), that
// connection stays on the wrong server for the apiserver's life and the
// metrics API answers 404.
func installMetricsServer(ctx context.Context, kubeconfig, node string, cfg *v1alpha1.Cluster) error {
	objs, err := metricsServerObjects(cfg)
	if err != nil {
		return err
	}
	var apiService, rest []*unstructured.Unstructured
	var clusterIP string
	for _, o := range objs {
		if o.GetKind() == "APIService" {
			apiService = append(apiService, o)
		} else {
			rest = append(rest, o)
		}
	}
	if err := apply.Objects(ctx, kubeconfig, metricsServerResources, rest); err != nil {
		return err
	}
	cs, err := clientFor(kubeconfig)
	if err != nil {
		return err
	}
	err = wait.PollUntilContextTimeout(ctx, 500*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		if clusterIP == "" {
			svc, err := cs.CoreV1().Services("kube-system").Get(ctx, "metrics-server", metav1.GetOptions{})
			if err != nil {
				return false, nil
			}
			clusterIP = svc.Spec.ClusterIP
		}
		lines, err := exec.OutputLines(dockerCommand(ctx, "exec", node, "iptables-save"))
		return err == nil && slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "-d "+clusterIP+"/32") }), nil
	})
	if err != nil {
		return fmt.Errorf("kube-proxy on %s has not programmed metrics-server's ClusterIP %q: %w", node, clusterIP, err)
	}
	return apply.Objects(ctx, kubeconfig, metricsServerResources, apiService)
}

// clientFor is a clientset for kubeconfig.
func clientFor(kubeconfig string) (kubernetes.Interface, error) {
	rc, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, err
	}
	return kubernetes.NewForConfig(rc)
}
