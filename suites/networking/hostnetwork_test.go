package networking

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// TestHostNetworkWithoutHostProcess: row H7 — host networking is
// unavailable to regular Windows pods (only HostProcess). The apiserver
// accepts `hostNetwork: true` on a Windows pod without HostProcess (A8 only
// requires the converse), so the observable is inside the pod: its address
// (ipconfig) is not the node's, and a server it runs is not on the node's
// address but on the pod's own; a HostProcess pod on the same node, side by
// side, has the node's address.
func TestHostNetworkWithoutHostProcess(t *testing.T) {
	f := suite.Feature("hostNetwork without HostProcess gets no host networking on Windows (H7)", "networking", "simnode", "H7", "B10").
		Assess("ipconfig shows an address that is not the node's; its server is not on the node address", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			win := nwNodes(ctx, t, cs, "node.kubernetes.io/windows-build="+suite.Build2022, 2)
			x, y := win[0], win[1]
			xIP := nwNodeIP(ctx, t, cs, x)
			ns := suite.Namespace(ctx, t, cs, "h7")
			h7 := nwOnNode(nwIISPod("hostnet", map[string]string{"app": "hostnet"}), x)
			h7.Spec.HostNetwork = true
			pods := nwRun(ctx, t, cs, ns, h7,
				nwHostProcessPod("hostprocess", x),
				nwOnNode(suite.WindowsPod("pod-y", suite.Build2022, "ping", "-t", "localhost"), y))
			got := pods["hostnet"]
			suite.Evidence(t, suite.EvidenceObject, "status of the hostNetwork pod without HostProcess",
				fmt.Sprintf("node %s (%s)\nstatus.podIP %s\nstatus.hostIP %s", x, xIP, got.Status.PodIP, got.Status.HostIP))

			// HostProcess: the host compartment, the node's address (B10).
			res := nwExec(ctx, t, cfg, ns, "hostprocess", "ipconfig")
			if addrs := nwIPConfigAddrs(res.Stdout); !slices.Contains(addrs, xIP) {
				t.Errorf("[B10] ipconfig in the HostProcess pod lists %v, want the node's %s:\n%s", addrs, xIP, res.Stdout)
			}

			// hostNetwork without HostProcess: a compartment of its own.
			res = nwExec(ctx, t, cfg, ns, "hostnet", "ipconfig")
			addrs := nwIPConfigAddrs(res.Stdout)
			if len(addrs) == 0 {
				t.Fatalf("[H7] ipconfig in the hostNetwork pod lists no IPv4 address (exit %d):\n%s%s", res.ExitCode, res.Stdout, res.Stderr)
			}
			if slices.Contains(addrs, xIP) {
				t.Errorf("[H7] ipconfig in the hostNetwork pod without HostProcess lists the node's address %s (%v): host networking is not available to regular Windows pods", xIP, addrs)
			}
			// Its IIS listens in its compartment, not on the node.
			nwWantFail(t, "H7", "pod on "+y+" -> the node address "+xIP+":80", nwWindowsCurl(ctx, t, cfg, ns, "pod-y", "http://"+nwHostPort(xIP, 80), nwFailTimeout))
			if addrs[0] != xIP {
				nwWantOK(t, "H7", "pod on "+y+" -> the pod's own address "+addrs[0]+":80", nwWindowsCurl(ctx, t, cfg, ns, "pod-y", "http://"+nwHostPort(addrs[0], 80), nwConnectTimeout))
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
