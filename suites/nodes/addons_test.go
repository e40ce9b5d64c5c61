package nodes

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// TestKubeSystem: the embedded cluster looks like a kubeadm cluster to the
// workloads users apply: CoreDNS behind kube-dns at the tenth Service address,
// kube-proxy on the Linux nodes (N9: the control plane and its addons are
// Linux-only).
func TestKubeSystem(t *testing.T) {
	f := suite.Feature("kube-system holds CoreDNS and kube-proxy on the Linux nodes", "nodes", "simnode", "N9").
		Assess("CoreDNS available behind kube-dns, kube-proxy ready on every Linux node", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
				d, err := cs.AppsV1().Deployments("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
				if err != nil {
					return false, nil
				}
				ds, err := cs.AppsV1().DaemonSets("kube-system").Get(ctx, "kube-proxy", metav1.GetOptions{})
				if err != nil {
					return false, nil
				}
				return d.Status.AvailableReplicas == 2 && ds.Status.NumberReady == ds.Status.DesiredNumberScheduled && ds.Status.DesiredNumberScheduled > 0, nil
			})
			if err != nil {
				t.Fatalf("CoreDNS or kube-proxy not ready: %v", err)
			}
			svc, err := cs.CoreV1().Services("kube-system").Get(ctx, "kube-dns", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if svc.Spec.ClusterIP != "10.96.0.10" {
				t.Errorf("kube-dns clusterIP %s, want 10.96.0.10", svc.Spec.ClusterIP)
			}
			pods, err := cs.CoreV1().Pods("kube-system").List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range pods.Items {
				node, err := cs.CoreV1().Nodes().Get(ctx, p.Spec.NodeName, metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if os := node.Labels["kubernetes.io/os"]; os != "linux" {
					t.Errorf("[N9] kube-system pod %s runs on %s node %s", p.Name, os, node.Name)
				}
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
