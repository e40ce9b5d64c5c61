package scheduling

import (
	"context"
	"embed"
	"fmt"
	"net/netip"
	"path"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/fixtures"
	"wink.dev/wink/suites/suite"
)

// testdata is this package's testdata directory, embedded like the docs'
// manifests (fixtures.Docs) so that a prebuilt suite binary needs no checkout.
//
//go:embed testdata
var testdata embed.FS

// applyDoc applies one of the docs' manifests, fixtures/docs/<name>, as
// written, except that its pods name the scheduler under test.
func applyDoc(ctx context.Context, t *testing.T, cs kubernetes.Interface, name, ns string) {
	t.Helper()
	suite.ApplyFS(ctx, t, cs, fixtures.Docs, path.Join("docs", name), ns)
}

func TestWinWebserver(t *testing.T) {
	f := suite.Feature("the docs' win-webserver on a cluster whose Windows nodes are tainted", "scheduling", "any", "S2", "S3", "A17").
		Assess("as the docs wrote it, its pods stay Pending: untolerated taint (S2, A17)", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "win-webserver")
			applyDoc(ctx, t, cs, "win-webserver.yaml", ns)
			pods := waitPods(ctx, t, cs, ns, "app=win-webserver", 2)
			nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			windows, tainted := 0, 0
			for _, n := range nodes.Items {
				if n.Labels["beta.kubernetes.io/os"] == "windows" {
					windows++
					if len(n.Spec.Taints) > 0 {
						tainted++
					}
				}
			}
			if tainted == 0 || tainted != windows {
				t.Skipf("needs every Windows node tainted (S2): %d of %d are", tainted, windows)
			}
			want := fmt.Sprintf("0/%d nodes are available: %d node(s) didn't match Pod's node affinity/selector, %d node(s) had untolerated taint(s).",
				len(nodes.Items), len(nodes.Items)-windows, windows)
			for _, p := range pods {
				ev := suite.WaitEvent(ctx, t, cs, ns, "Pod", p.Name, "FailedScheduling", want, 30*time.Second)
				suite.EventEvidence(t, ev) // A17
				got, _ := cs.CoreV1().Pods(ns).Get(ctx, p.Name, metav1.GetOptions{})
				if got.Spec.NodeName != "" || got.Status.Phase != corev1.PodPending {
					t.Errorf("[S2] pod %s: node %q phase %s, want Pending and unbound", p.Name, got.Spec.NodeName, got.Status.Phase)
				}
			}
			return ctx
		}).
		Assess("with the toleration and the ltsc2019 build selector it runs on Windows Server 2019 (S2, S3)", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "win-webserver-2019")
			applyDoc(ctx, t, cs, "win-webserver-2019.yaml", ns)
			pods := waitPods(ctx, t, cs, ns, "app=win-webserver", 2)
			for _, p := range pods {
				p := suite.WaitPod(ctx, t, cs, ns, p.Name, time.Minute, "Running", suite.Running)
				node, err := cs.CoreV1().Nodes().Get(ctx, p.Spec.NodeName, metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if b := node.Labels["node.kubernetes.io/windows-build"]; b != "10.0.17763" {
					t.Errorf("[S3] pod %s runs on %s of build %q, want 10.0.17763", p.Name, node.Name, b)
				}
				cidr, err := netip.ParsePrefix(node.Spec.PodCIDR)
				if err != nil {
					t.Fatalf("node %s podCIDR %q: %v", node.Name, node.Spec.PodCIDR, err)
				}
				ip, err := netip.ParseAddr(p.Status.PodIP)
				if err != nil || !cidr.Contains(ip) {
					t.Errorf("pod %s IP %q is not in its node's podCIDR %s", p.Name, p.Status.PodIP, cidr)
				}
				if p.Status.HostIP != internalIP(node) {
					t.Errorf("pod %s hostIP %q, want its node's InternalIP %q", p.Name, p.Status.HostIP, internalIP(node))
				}
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

func TestDaemonSetStaysOffTaintedWindowsNodes(t *testing.T) {
	f := suite.Feature("a Linux DaemonSet without tolerations stays off tainted Windows nodes", "scheduling", "any", "S2").
		Assess("its pods run on the Linux nodes only", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "daemonset")
			suite.ApplyFS(ctx, t, cs, testdata, "testdata/daemonset.yaml", ns)
			nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var linux []string
			for _, n := range nodes.Items {
				if n.Labels["kubernetes.io/os"] == "linux" && len(n.Spec.Taints) == 0 {
					linux = append(linux, n.Name)
				}
			}
			pods := waitPods(ctx, t, cs, ns, "app=node-agent", len(linux))
			// Give the controller time to (wrongly) add pods for Windows nodes.
			time.Sleep(2 * time.Second)
			pods = waitPods(ctx, t, cs, ns, "app=node-agent", len(linux))
			for _, p := range pods {
				if !slices.Contains(linux, p.Spec.NodeName) {
					t.Errorf("[S2] DaemonSet pod %s is on node %q, want one of the untainted Linux nodes %v", p.Name, p.Spec.NodeName, linux)
				}
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// waitPods waits until exactly n pods match selector in ns.
func waitPods(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, selector string, n int) []corev1.Pod {
	t.Helper()
	var pods []corev1.Pod
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		list, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			return false, nil
		}
		pods = list.Items
		return len(pods) == n, nil
	})
	if err != nil {
		t.Fatalf("%d pods match %s in %s, want %d", len(pods), selector, ns, n)
	}
	return pods
}

func internalIP(n *corev1.Node) string {
	for _, a := range n.Status.Addresses {
		if a.Type == corev1.NodeInternalIP {
			return a.Address
		}
	}
	return ""
}
