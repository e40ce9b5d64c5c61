package networking

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// TestHybridConnectivity follows upstream test/e2e/windows/hybrid_network.go
// and row H1: pod -> pod by IP (Windows and Linux both ways), pod ->
// Service (ClusterIP, bare name, FQDN) and pod -> external (name and IP),
// each read through exec the way the upstream checks do (windowsCheck:
// `cmd /c curl.exe -4 <addr> --connect-timeout 10 --fail`; linuxCheck:
// `/bin/sh -c "nc -vz <ip> 80 -w 10"`).
func TestHybridConnectivity(t *testing.T) {
	var ns string
	var iis, client, nginx *corev1.Pod
	var svc *corev1.Service
	f := suite.Feature("Windows and Linux pods reach pods, Services and the outside (H1)", "networking", "any", "H1").
		Setup(func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns = suite.Namespace(ctx, t, cs, "hybrid")
			web := map[string]string{"app": "iis"}
			client = suite.WindowsPod("win-client", suite.Build2022, "ping", "-t", "localhost")
			pods := nwRun(ctx, t, cs, ns, nwIISPod("iis", web), client, nwNginxPod("nginx", map[string]string{"app": "nginx"}))
			iis, client, nginx = pods["iis"], pods["win-client"], pods["nginx"]
			svc = nwService(ctx, t, cs, ns, "iis", corev1.ServiceTypeClusterIP, web, 80, 80)
			nwWaitEndpoints(ctx, t, cs, ns, svc.Name, []string{iis.Status.PodIP})
			suite.ObjectEvidence(t, "Service "+ns+"/iis", svc)
			return ctx
		}).
		Assess("Windows pod -> Windows pod by IP: curl.exe succeeds and IIS answers", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			res := nwWindowsCurl(ctx, t, cfg, ns, client.Name, iis.Status.PodIP, nwConnectTimeout)
			nwWantOK(t, "H1", "curl.exe to the IIS pod "+iis.Status.PodIP, res)
			if res.ExitCode == 0 && !strings.Contains(res.Stdout, "IIS Windows Server") {
				t.Errorf("[H1] curl.exe to the IIS pod: the body is not IIS's start page:\n%s", res.Stdout)
			}
			return ctx
		}).
		Assess("Windows pod -> Service by ClusterIP, bare name and FQDN", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			for _, target := range []string{svc.Spec.ClusterIP, "http://" + svc.Name, "http://" + svc.Name + "." + ns + ".svc.cluster.local"} {
				res := nwWindowsCurl(ctx, t, cfg, ns, client.Name, target, nwConnectTimeout)
				nwWantOK(t, "H1", "curl.exe to the Service at "+target, res)
				if res.ExitCode == 0 && !strings.Contains(res.Stdout, "IIS Windows Server") {
					t.Errorf("[H1] curl.exe to %s: the body is not IIS's start page:\n%s", target, res.Stdout)
				}
			}
			return ctx
		}).
		Assess("Linux pod -> Windows pod: nc -vz <ip> 80 succeeds (hybrid_network.go linuxCheck)", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			res := nwLinuxNc(ctx, t, cfg, ns, nginx.Name, iis.Status.PodIP, 80, nwConnectTimeout)
			nwWantOK(t, "H1", "nc -vz from Linux to the Windows pod "+iis.Status.PodIP+":80", res)
			return ctx
		}).
		Assess("Windows pod -> Linux nginx pod: curl.exe succeeds (hybrid_network.go windowsCheck)", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			res := nwWindowsCurl(ctx, t, cfg, ns, client.Name, nginx.Status.PodIP, nwConnectTimeout)
			nwWantOK(t, "H1", "curl.exe to the Linux nginx pod "+nginx.Status.PodIP, res)
			if res.ExitCode == 0 && !strings.Contains(res.Stdout, "Welcome to nginx!") {
				t.Errorf("[H1] curl.exe to nginx: the body is not nginx's welcome page:\n%s", res.Stdout)
			}
			return ctx
		}).
		Assess("pod -> node: the kubelet port of the pod's own node answers (Windows curl.exe, Linux nc)", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			// The kubelet answers 401 to an anonymous request: curl.exe without
			// --fail exits 0 once it has an HTTP answer.
			url := "https://" + nwHostPort(client.Status.HostIP, 10250) + "/healthz"
			nwWantOK(t, "H1", "curl.exe -k to the node's kubelet "+url, nwExec(ctx, t, cfg, ns, client.Name, "curl.exe", "-k", "-s", "-o", "NUL", "--connect-timeout", "10", url))
			nwWantOK(t, "H1", "nc -vz to the node's kubelet port", nwLinuxNc(ctx, t, cfg, ns, nginx.Name, nginx.Status.HostIP, 10250, nwConnectTimeout))
			return ctx
		}).
		Assess("Windows pod -> external by name and IP; Linux pod -> 8.8.8.8:53", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			// hybrid_network.go: windowsCheck("www.google.com") and linuxCheck("8.8.8.8", 53).
			nwWantOK(t, "H1", "curl.exe to www.google.com", nwWindowsCurl(ctx, t, cfg, ns, client.Name, "www.google.com", nwConnectTimeout))
			nwWantOK(t, "H1", "curl.exe to http://8.8.8.8", nwWindowsCurl(ctx, t, cfg, ns, client.Name, "http://8.8.8.8", nwConnectTimeout))
			nwWantOK(t, "H1", "nc -vz 8.8.8.8 53 from Linux", nwLinuxNc(ctx, t, cfg, ns, nginx.Name, "8.8.8.8", 53, nwConnectTimeout))
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
