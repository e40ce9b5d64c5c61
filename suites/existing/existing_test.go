package existing

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/harness"
	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/suites/suite"
)

func TestNodesJoin(t *testing.T) {
	f := suite.Feature("simulated Windows nodes join a running cluster with backend existing", "existing", "simnode", "N1", "N2", "B16").
		Assess("the added nodes are Ready Windows nodes with their pool's labels", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			for _, name := range joinedNodes {
				n, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
				if err != nil {
					t.Fatalf("node %s: %v", name, err)
				}
				if !facts.NodeReady(n) {
					t.Errorf("node %s is not Ready: %+v", name, n.Status.Conditions)
				}
				for k, want := range map[string]string{
					corev1.LabelOSStable:     "windows",
					corev1.LabelWindowsBuild: suite.Build2022,
					corev1.LabelHostname:     name,
					joinedLabel:              "existing-suite",
				} {
					row := "N1"
					if k == corev1.LabelWindowsBuild {
						row = "N2"
					}
					if got := n.Labels[k]; got != want {
						suite.Fail(t, row, "node "+name+" label "+k, got, want)
					}
				}
				if n.Status.DaemonEndpoints.KubeletEndpoint.Port == 0 {
					t.Errorf("node %s reports no kubelet port", name)
				}
			}
			return ctx
		}).
		Assess("a Windows pod runs on an added node; logs and exec reach it through the apiserver", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "existing")
			pod := suite.WindowsPod("joined", suite.Build2022, "cmd", "/c", "echo hello from an added node && ping -t localhost")
			pod.Spec.NodeSelector[joinedLabel] = "existing-suite"
			p := suite.RunPod(ctx, t, cs, ns, pod)
			if !slices.Contains(joinedNodes, p.Spec.NodeName) {
				t.Fatalf("pod runs on %s, not on an added node %v", p.Spec.NodeName, joinedNodes)
			}
			var logs string
			err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 20*time.Second, true, func(ctx context.Context) (bool, error) {
				data, err := cs.CoreV1().Pods(ns).GetLogs(p.Name, &corev1.PodLogOptions{Container: "main"}).DoRaw(ctx)
				logs = string(data)
				return err == nil && strings.Contains(logs, "hello from an added node"), nil
			})
			if err != nil {
				suite.Fail(t, "B16", "kubectl logs of a pod on an added node", logs, "hello from an added node")
			}
			argv := []string{"cmd", "/c", "echo exec reached the added node"}
			res := suite.Exec(ctx, t, cfg, ns, p.Name, "main", argv...)
			suite.ExecEvidence(t, p.Name, argv, res)
			if res.ExitCode != 0 || !strings.Contains(res.Stdout, "exec reached the added node") {
				suite.Fail(t, "B16", "kubectl exec in a pod on an added node", res, "exit 0 and the echo")
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// joining is the options of a joining cluster called name with these pools,
// and its nodes' names; the test's end deletes the cluster and its nodes.
func joining(t *testing.T, name string, pools []v1alpha1.NodePool) (harness.Options, []string) {
	t.Helper()
	opts := joined
	opts.Name = name
	nodes := harness.NodeNames(&v1alpha1.Cluster{Name: name, NodePools: pools})
	t.Cleanup(func() {
		_ = harness.Delete(context.Background(), opts)
		_ = deleteNodes(context.Background(), joinConfig.Kubeconfig, nodes)
	})
	return opts, nodes
}

// upFails brings up a joining cluster of cfg that must fail, and returns
// the error and how long Up took to say it.
func upFails(ctx context.Context, t *testing.T, name string, cfg *v1alpha1.Cluster) (error, time.Duration) {
	t.Helper()
	opts, _ := joining(t, name, cfg.NodePools)
	start := time.Now()
	_, err := harness.Up(ctx, harness.UpOptions{Options: opts, Config: cfg, Fresh: true, Wait: time.Minute})
	took := time.Since(start)
	if err == nil {
		t.Fatalf("wink up of %s succeeded", name)
	}
	t.Logf("wink up of %s failed in %.1fs: %v", name, took.Seconds(), err)
	return err, took
}

// saysQuickly fails the test unless err says every one of wants within
// limit.
func saysQuickly(t *testing.T, err error, took, limit time.Duration, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("wink up's error does not say %q: %v", w, err)
		}
	}
	if took > limit {
		t.Errorf("wink up took %.1fs to fail, want at most %s", took.Seconds(), limit)
	}
}

// failing is joinConfig with one pool of one node, without the label the
// suite's pods select, and with change applied.
func failing(change func(*v1alpha1.Cluster)) *v1alpha1.Cluster {
	c := *joinConfig
	pool := c.NodePools[0]
	pool.Count = ptr.To(1)
	pool.Labels = nil
	c.NodePools = []v1alpha1.NodePool{pool}
	change(&c)
	return &c
}

func TestJoinFailuresAreSaid(t *testing.T) {
	f := suite.Feature("wink up says at once what keeps nodes from joining a cluster", "existing", "simnode").
		Assess("a kubeconfig whose user may not add nodes", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "no-rights")
			if _, err := cs.CoreV1().ServiceAccounts(ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "nobody"}}, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			tr, err := cs.CoreV1().ServiceAccounts(ns).CreateToken(ctx, "nobody", &authenticationv1.TokenRequest{}, metav1.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			kc := kubeconfigFor(t, cfg, &clientcmdapi.AuthInfo{Token: tr.Status.Token}, "")
			err, took := upFails(ctx, t, "wink-existing-norights", failing(func(c *v1alpha1.Cluster) { c.Kubeconfig = kc }))
			saysQuickly(t, err, took, 15*time.Second, "may not create", "nodes", "cluster-admin")
			return ctx
		}).
		Assess("an apiserver that does not answer", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			closed := "https://" + l.Addr().String()
			l.Close()
			kc := kubeconfigFor(t, cfg, nil, closed)
			err, took := upFails(ctx, t, "wink-existing-noapi", failing(func(c *v1alpha1.Cluster) { c.Kubeconfig = kc }))
			saysQuickly(t, err, took, 15*time.Second, "does not answer", closed)
			return ctx
		}).
		Assess("a kubelet port the apiserver cannot reach", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			// 198.51.100.0/24 (TEST-NET-2) is no machine's address.
			err, took := upFails(ctx, t, "wink-existing-noport", failing(func(c *v1alpha1.Cluster) { c.Networking.NodeAddressBase = "198.51.100.7" }))
			saysQuickly(t, err, took, 30*time.Second, "cannot reach the kubelet API of node wink-existing-noport-win2022-0 at 198.51.100.7:", "nodeAddressBase")
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// kubeconfigFor writes a kubeconfig for the suite's cluster with user (nil:
// the suite's own) and server ("" : the suite's), and returns its path.
func kubeconfigFor(t *testing.T, cfg *envconf.Config, user *clientcmdapi.AuthInfo, server string) string {
	t.Helper()
	kc, err := clientcmd.LoadFromFile(cfg.KubeconfigFile())
	if err != nil {
		t.Fatal(err)
	}
	if err := clientcmdapi.MinifyConfig(kc); err != nil {
		t.Fatal(err)
	}
	if err := clientcmdapi.FlattenConfig(kc); err != nil {
		t.Fatal(err)
	}
	kctx := kc.Contexts[kc.CurrentContext]
	if user != nil {
		kc.AuthInfos[kctx.AuthInfo] = user
	}
	if server != "" {
		kc.Clusters[kctx.Cluster].Server = server
	}
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*kc, path); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
