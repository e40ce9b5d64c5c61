package lifecycle

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"testing"
	"time"

	authv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/harness"
	"wink.dev/wink/suites/suite"
)

// TestKubeletAPIAuth calls a simulated kubelet's API directly, as a user
// could, and expects what a kubelet with webhook authentication and
// authorisation answers.
func TestKubeletAPIAuth(t *testing.T) {
	f := suite.Feature("the kubelet API authenticates and authorises every request", "lifecycle", "simnode").
		Assess("anonymous: 401; a ServiceAccount without nodes/proxy: 403; with it: 200", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
			if err != nil || len(nodes.Items) == 0 {
				t.Fatalf("no nodes: %v", err)
			}
			node := nodes.Items[0]
			addr := kubeletAddress(&node)
			ns := suite.Namespace(ctx, t, cs, "kubelet-auth")
			denied := token(ctx, t, cs, ns, "no-rights")
			allowed := token(ctx, t, cs, ns, "node-proxy")
			grantNodeProxy(ctx, t, cs, ns, "node-proxy")

			dial, err := harness.Dialer(cluster.Options)
			if err != nil {
				t.Fatal(err)
			}
			client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
				DialContext:     dial,
				TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // the test checks authn, not the serving certificate
			}}
			tests := []struct {
				name, token string
				want        int
			}{
				{"anonymous", "", http.StatusUnauthorized},
				{"a garbage token", "not-a-token", http.StatusUnauthorized},
				{"without nodes/proxy", denied, http.StatusForbidden},
				{"with nodes/proxy", allowed, http.StatusOK},
			}
			for _, tt := range tests {
				// The authoriser caches allow and deny decisions; the
				// RBAC grant above may take a moment to be seen.
				deadline := time.Now().Add(15 * time.Second)
				for {
					got, body := get(ctx, t, client, "https://"+addr+"/healthz", tt.token)
					if got == tt.want {
						break
					}
					if time.Now().After(deadline) {
						t.Errorf("%s: GET /healthz on %s = %d %q, want %d", tt.name, node.Name, got, body, tt.want)
						break
					}
					time.Sleep(500 * time.Millisecond)
				}
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

func kubeletAddress(n *corev1.Node) string {
	port := int(n.Status.DaemonEndpoints.KubeletEndpoint.Port)
	for _, a := range n.Status.Addresses {
		if a.Type == corev1.NodeInternalIP {
			return net.JoinHostPort(a.Address, strconv.Itoa(port))
		}
	}
	return ""
}

func get(ctx context.Context, t *testing.T, c *http.Client, url, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	return resp.StatusCode, string(body)
}

// token creates a ServiceAccount and returns a token for it.
func token(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, name string) string {
	t.Helper()
	if _, err := cs.CoreV1().ServiceAccounts(ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	tr, err := cs.CoreV1().ServiceAccounts(ns).CreateToken(ctx, name, &authv1.TokenRequest{}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr.Status.Token
}

// grantNodeProxy lets a ServiceAccount use nodes/proxy, the permission the
// kubelet checks for /healthz and most of its API.
func grantNodeProxy(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, sa string) {
	t.Helper()
	name := fmt.Sprintf("wink-test-%s-%s", ns, sa)
	_, err := cs.RbacV1().ClusterRoles().Create(ctx, &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Rules:      []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"nodes/proxy"}, Verbs: []string{"get", "create"}}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = cs.RbacV1().ClusterRoleBindings().Create(ctx, &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: name},
		Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Name: sa, Namespace: ns}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.RbacV1().ClusterRoleBindings().Delete(context.Background(), name, metav1.DeleteOptions{})
		_ = cs.RbacV1().ClusterRoles().Delete(context.Background(), name, metav1.DeleteOptions{})
	})
}
