package networking

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// TestServiceSelectsWindowsPods: row A23 — Services of type ClusterIP,
// NodePort and headless select Windows pods (their EndpointSlices list the
// Windows pod IPs, filled by the real EndpointSlice controller), and the
// kubelet injects the service environment variables into a Windows pod
// created after the Service (read with `set`, Linux side by side with `env`).
func TestServiceSelectsWindowsPods(t *testing.T) {
	f := suite.Feature("Services select Windows pods and inject their variables (A23)", "networking", "any", "A23").
		Assess("EndpointSlices list the Windows pod IPs; <NAME>_SERVICE_HOST is set in Windows and Linux pods", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "a23")
			web := map[string]string{"app": "web"}
			backends := nwRun(ctx, t, cs, ns, nwIISPod("web-0", web), nwIISPod("web-1", web))
			var ips []string
			for _, p := range backends {
				ips = append(ips, p.Status.PodIP)
			}
			cip := nwService(ctx, t, cs, ns, "web-svc", corev1.ServiceTypeClusterIP, web, 80, 80)
			np := nwService(ctx, t, cs, ns, "web-np", corev1.ServiceTypeNodePort, web, 80, 80)
			headless := nwService(ctx, t, cs, ns, "web-headless", corev1.ServiceTypeClusterIP, web, 80, 80, func(s *corev1.Service) { s.Spec.ClusterIP = corev1.ClusterIPNone })
			for _, s := range []*corev1.Service{cip, np, headless} {
				got := nwWaitEndpoints(ctx, t, cs, ns, s.Name, ips)
				suite.Evidence(t, suite.EvidenceObject, fmt.Sprintf("EndpointSlices of %s/%s (%s)", ns, s.Name, s.Spec.Type), strings.Join(got, "\n"))
			}

			// Created after the Services: the kubelet's service env (docker links style).
			nwRun(ctx, t, cs, ns, suite.WindowsPod("env-win", suite.Build2022, "ping", "-t", "localhost"), suite.LinuxPod("env-linux", "sleep", "3600"))
			want := map[string]string{
				"WEB_SVC_SERVICE_HOST": cip.Spec.ClusterIP,
				"WEB_SVC_SERVICE_PORT": "80",
				"WEB_NP_SERVICE_HOST":  np.Spec.ClusterIP,
			}
			check := func(pod, out string) {
				vars := map[string]string{}
				for _, line := range strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n") {
					if k, v, ok := strings.Cut(line, "="); ok {
						vars[strings.ToUpper(k)] = v
					}
				}
				keys := make([]string, 0, len(want))
				for k := range want {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				for _, k := range keys {
					if vars[k] != want[k] {
						t.Errorf("[A23] %s: %s=%q, want %q", pod, k, vars[k], want[k])
					}
				}
				// A headless Service has no ClusterIP, so no variables (kubelet_pods.go getServiceEnvVarMap skips it).
				if v, ok := vars["WEB_HEADLESS_SERVICE_HOST"]; ok {
					t.Errorf("[A23] %s: WEB_HEADLESS_SERVICE_HOST=%q is set for a headless Service", pod, v)
				}
			}
			res := nwExec(ctx, t, cfg, ns, "env-win", "cmd", "/c", "set")
			nwWantOK(t, "A23", "cmd /c set", res)
			check("env-win (cmd /c set)", res.Stdout)
			res = nwExec(ctx, t, cfg, ns, "env-linux", "env")
			nwWantOK(t, "A23", "env", res)
			check("env-linux (env)", res.Stdout)
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// TestNodePortFromTheNode follows upstream test/e2e/windows/service.go and
// row H5: a NodePort Service of Windows pods answers on every node's
// address from pods, but from a HostProcess pod (the node itself) the
// node's own InternalIP:nodePort fails while another node's works. Linux
// side by side: a Linux hostNetwork pod reaches its own node's nodePort.
func TestNodePortFromTheNode(t *testing.T) {
	f := suite.Feature("NodePort is not reachable from the node itself on Windows (H5)", "networking", "simnode", "H5", "H1").
		Assess("HostProcess pod on X: X's IP:nodePort fails, Y's works; a pod on Y reaches X's IP:nodePort", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			win := nwNodes(ctx, t, cs, "node.kubernetes.io/windows-build="+suite.Build2022, 2)
			linux := nwNodes(ctx, t, cs, "kubernetes.io/os=linux", 1)
			x, y := win[0], win[1]
			xIP, yIP, lIP := nwNodeIP(ctx, t, cs, x), nwNodeIP(ctx, t, cs, y), nwNodeIP(ctx, t, cs, linux[0])
			ns := suite.Namespace(ctx, t, cs, "h5")
			web := map[string]string{"app": "web"}
			hostLinux := nwOnNode(suite.LinuxPod("host-linux", "sleep", "3600"), linux[0])
			hostLinux.Spec.HostNetwork = true
			pods := nwRun(ctx, t, cs, ns,
				nwOnNode(nwIISPod("web", web), x),
				nwHostProcessPod("host-x", x),
				nwOnNode(suite.WindowsPod("pod-y", suite.Build2022, "ping", "-t", "localhost"), y),
				hostLinux)
			if hp := pods["host-x"]; hp.Status.PodIP != xIP {
				t.Fatalf("[B10] HostProcess pod on %s has podIP %q, want the node's %q", x, hp.Status.PodIP, xIP)
			}
			svc := nwService(ctx, t, cs, ns, "web-np", corev1.ServiceTypeNodePort, web, 80, 80)
			nodePort := int(svc.Spec.Ports[0].NodePort)
			nwWaitEndpoints(ctx, t, cs, ns, svc.Name, []string{pods["web"].Status.PodIP})
			suite.ObjectEvidence(t, "NodePort Service "+ns+"/web-np", svc)

			own := "http://" + nwHostPort(xIP, nodePort)
			other := "http://" + nwHostPort(yIP, nodePort)
			nwWantFail(t, "H5", fmt.Sprintf("HostProcess pod on %s -> its own node %s", x, own), nwWindowsCurl(ctx, t, cfg, ns, "host-x", own, nwFailTimeout))
			nwWantOK(t, "H5", fmt.Sprintf("HostProcess pod on %s -> the other node %s", x, other), nwWindowsCurl(ctx, t, cfg, ns, "host-x", other, nwConnectTimeout))
			// service.go: a Windows pod curls http://<nodeIP>:<nodePort>.
			nwWantOK(t, "H5", fmt.Sprintf("pod on %s -> %s", y, own), nwWindowsCurl(ctx, t, cfg, ns, "pod-y", own, nwConnectTimeout))
			nwWantOK(t, "H5", fmt.Sprintf("pod on %s -> its own node %s", y, other), nwWindowsCurl(ctx, t, cfg, ns, "pod-y", other, nwConnectTimeout))
			// Linux: kube-proxy serves nodePorts on the node's own addresses.
			nwWantOK(t, "H5", "Linux hostNetwork pod -> its own node's nodePort", nwLinuxCurl(ctx, t, cfg, ns, "host-linux", "http://"+nwHostPort(lIP, nodePort), nwConnectTimeout))
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// TestServiceVIPFromTheHost: row H6 (revised) — on a current node
// (kubelet v1.35, containerd 1.7, the default cluster's) the host network
// of a Windows node (a HostProcess pod) reaches a Service ClusterIP, as a
// normal Windows pod on the same node does (upstream
// test/e2e/windows/host_process.go:675, in-cluster config through the
// kubernetes ClusterIP); the host reaches the pod itself (H1 node -> pod).
// Linux side by side: a hostNetwork pod reaches the ClusterIP. Nodes older
// than HostProcess support (kubelet < v1.22 or containerd < 1.6) keep the
// seed's behaviour, a timeout: simnode/network's TestDial covers them, and
// rules.yaml's hostServiceVIPs table decides.
func TestServiceVIPFromTheHost(t *testing.T) {
	f := suite.Feature("Service VIPs are reachable from a current Windows node's host network (H6)", "networking", "simnode", "H6", "H1").
		Assess("HostProcess pod -> ClusterIP works, normal pod -> ClusterIP works, HostProcess -> pod IP works", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			x := nwNodes(ctx, t, cs, "node.kubernetes.io/windows-build="+suite.Build2022, 1)[0]
			linux := nwNodes(ctx, t, cs, "kubernetes.io/os=linux", 1)[0]
			ns := suite.Namespace(ctx, t, cs, "h6")
			web := map[string]string{"app": "web"}
			hostLinux := nwOnNode(suite.LinuxPod("host-linux", "sleep", "3600"), linux)
			hostLinux.Spec.HostNetwork = true
			pods := nwRun(ctx, t, cs, ns,
				nwOnNode(nwIISPod("web", web), x),
				nwHostProcessPod("host-x", x),
				nwOnNode(suite.WindowsPod("pod-x", suite.Build2022, "ping", "-t", "localhost"), x),
				hostLinux)
			svc := nwService(ctx, t, cs, ns, "web", corev1.ServiceTypeClusterIP, web, 80, 80)
			nwWaitEndpoints(ctx, t, cs, ns, svc.Name, []string{pods["web"].Status.PodIP})
			vip := svc.Spec.ClusterIP

			nwWantOK(t, "H6", "HostProcess pod on "+x+" (kubelet v1.35, containerd 1.7) -> ClusterIP "+vip, nwWindowsCurl(ctx, t, cfg, ns, "host-x", vip, nwConnectTimeout))
			nwWantOK(t, "H6", "normal Windows pod on "+x+" -> ClusterIP "+vip, nwWindowsCurl(ctx, t, cfg, ns, "pod-x", vip, nwConnectTimeout))
			nwWantOK(t, "H1", "HostProcess pod on "+x+" -> the backend pod IP (node -> pod)", nwWindowsCurl(ctx, t, cfg, ns, "host-x", pods["web"].Status.PodIP, nwConnectTimeout))
			nwWantOK(t, "H6", "Linux hostNetwork pod -> ClusterIP "+vip, nwLinuxCurl(ctx, t, cfg, ns, "host-linux", "http://"+vip, nwConnectTimeout))
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// TestSessionAffinity: row H8 — a Service with sessionAffinity ClientIP
// keeps a client on one endpoint across requests (agnhost serve-hostname
// answers with the pod name), from a Windows Server 2022 pod and from a
// Linux pod; without affinity the same client is balanced over several
// endpoints (the control that makes the first assertion mean something).
func TestSessionAffinity(t *testing.T) {
	const requests = 8
	f := suite.Feature("Session affinity ClientIP keeps a client on one endpoint (H8)", "networking", "simnode", "H8").
		Assess("ClientIP: one backend for every request; None: several", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "h8")
			sel := map[string]string{"app": "hostnames"}
			nwRun(ctx, t, cs, ns,
				nwServeHostnamePod("hostname-0", sel), nwServeHostnamePod("hostname-1", sel), nwServeHostnamePod("hostname-2", sel),
				suite.WindowsPod("win-client", suite.Build2022, "ping", "-t", "localhost"),
				suite.WindowsPod("win2019-client", suite.Build2019, "ping", "-t", "localhost"),
				suite.LinuxPod("linux-client", "sleep", "3600"))
			sticky := nwService(ctx, t, cs, ns, "sticky", corev1.ServiceTypeClusterIP, sel, 80, 9376, func(s *corev1.Service) {
				s.Spec.SessionAffinity = corev1.ServiceAffinityClientIP
				s.Spec.SessionAffinityConfig = &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: ptr.To(int32(10800))}}
			})
			plain := nwService(ctx, t, cs, ns, "plain", corev1.ServiceTypeClusterIP, sel, 80, 9376)
			ips := []string{}
			pods, err := cs.CoreV1().Pods(ns).List(ctx, metaSelector(sel))
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range pods.Items {
				ips = append(ips, p.Status.PodIP)
			}
			nwWaitEndpoints(ctx, t, cs, ns, sticky.Name, ips)
			nwWaitEndpoints(ctx, t, cs, ns, plain.Name, ips)
			suite.ObjectEvidence(t, "Service "+ns+"/sticky", sticky)

			answers := func(client string, linux bool, vip string) map[string]int {
				seen := map[string]int{}
				for i := 0; i < requests; i++ {
					var res suite.ExecResult
					if linux {
						res = suite.Exec(ctx, t, cfg, ns, client, "main", "wget", "-q", "-O", "-", "-T", "10", "http://"+vip)
					} else {
						res = suite.Exec(ctx, t, cfg, ns, client, "main", nwCurlArgv(vip, nwConnectTimeout)...)
					}
					if res.ExitCode != 0 {
						t.Errorf("[H8] %s -> %s request %d: exit %d (%s)", client, vip, i, res.ExitCode, res.Stderr)
						continue
					}
					seen[strings.TrimSpace(res.Stdout)]++
				}
				suite.Evidence(t, suite.EvidenceExec, fmt.Sprintf("%s: %d requests to %s answered by %d backend(s)", client, requests, vip, len(seen)), fmt.Sprint(seen))
				return seen
			}
			if seen := answers("win-client", false, sticky.Spec.ClusterIP); len(seen) != 1 {
				t.Errorf("[H8] Windows Server 2022 client with sessionAffinity ClientIP was answered by %d backends %v, want 1", len(seen), seen)
			}
			if seen := answers("linux-client", true, sticky.Spec.ClusterIP); len(seen) != 1 {
				t.Errorf("[H8] Linux client with sessionAffinity ClientIP was answered by %d backends %v, want 1", len(seen), seen)
			}
			if seen := answers("win-client", false, plain.Spec.ClusterIP); len(seen) < 2 {
				t.Errorf("[H8] control: without session affinity the Windows client was answered by %d backend(s) %v, want several", len(seen), seen)
			}
			// Windows Server 2019 (build 17763 < 19551): seed 003's load-balancing
			// table has no session affinity there; recorded, not asserted (the
			// row itself does not name builds).
			seen := answers("win2019-client", false, sticky.Spec.ClusterIP)
			t.Logf("[H8] Windows Server 2019 client with sessionAffinity ClientIP: %d backend(s) %v (simnode/network rules.yaml: ignored below build 19551)", len(seen), seen)
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
