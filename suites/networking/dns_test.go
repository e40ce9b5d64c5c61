package networking

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// TestSingleDNSSuffix follows upstream test/e2e/windows/dns.go and row H2:
// a Windows pod resolves its own namespace's bare service names and FQDNs
// only; a Linux pod uses the whole search list.
func TestSingleDNSSuffix(t *testing.T) {
	f := suite.Feature("Windows pods resolve with a single DNS suffix (H2)", "networking", "any", "H2").
		Assess("from namespace default: kubernetes and the FQDN resolve, kubernetes.default does not", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			win := suite.WindowsPod("h2-windows", suite.Build2022, "ping", "-t", "localhost")
			suite.RunPod(ctx, t, cs, "default", win)
			t.Cleanup(func() { _ = cs.CoreV1().Pods("default").Delete(context.Background(), win.Name, metav1.DeleteOptions{}) })
			tests := []struct {
				name     string
				wantExit int
			}{
				{"kubernetes", 0},
				{"kubernetes.default.svc.cluster.local", 0},
				{"kubernetes.default", 6}, // curl: (6) Could not resolve host
				{"kubernetes.default.svc", 6},
			}
			for _, tt := range tests {
				res := suite.Exec(ctx, t, cfg, "default", win.Name, "main", "curl.exe", "-k", "-s", "-o", "NUL", "https://"+tt.name+":443")
				if res.ExitCode != tt.wantExit {
					t.Errorf("[H2] curl.exe -k https://%s:443 exit %d (stderr %q), want %d", tt.name, res.ExitCode, res.Stderr, tt.wantExit)
				}
			}
			return ctx
		}).
		Assess("a Linux pod in default resolves kubernetes.default through its search list", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			lin := suite.LinuxPod("h2-linux", "sleep", "3600")
			suite.RunPod(ctx, t, cs, "default", lin)
			t.Cleanup(func() { _ = cs.CoreV1().Pods("default").Delete(context.Background(), lin.Name, metav1.DeleteOptions{}) })
			res := suite.Exec(ctx, t, cfg, "default", lin.Name, "main", "nslookup", "kubernetes.default")
			if res.ExitCode != 0 {
				t.Errorf("[H2] Linux nslookup kubernetes.default exit %d: %s%s", res.ExitCode, res.Stdout, res.Stderr)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// TestDNSPolicyNone: dnsConfig is honoured and shows in ipconfig /all (H3,
// upstream dns.go).
func TestDNSPolicyNone(t *testing.T) {
	f := suite.Feature("dnsPolicy None with dnsConfig is honoured (H3)", "networking", "any", "H3").
		Assess("ipconfig /all lists the configured nameserver", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "dns-none")
			pod := suite.WindowsPod("dns-none", suite.Build2022, "ping", "-t", "localhost")
			pod.Spec.DNSPolicy = corev1.DNSNone
			pod.Spec.DNSConfig = &corev1.PodDNSConfig{Nameservers: []string{"1.1.1.1"}, Searches: []string{"resolv.conf.local"}}
			suite.RunPod(ctx, t, cs, ns, pod)
			res := suite.Exec(ctx, t, cfg, ns, pod.Name, "main", "ipconfig", "/all")
			if !strings.Contains(res.Stdout, "1.1.1.1") {
				t.Errorf("[H3] ipconfig /all does not list 1.1.1.1:\n%s", res.Stdout)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
