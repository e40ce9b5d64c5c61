package networking

import (
	"context"
	"strings"
	"testing"

	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// TestSingleStackIPv4: row H9 — IPv6-only single stack is unsupported on
// Windows and dual stack exists only on l2bridge; on a single-stack IPv4
// cluster a Windows pod has no IPv6 address but its link-local one and
// reaches no IPv6 destination.
func TestSingleStackIPv4(t *testing.T) {
	f := suite.Feature("no IPv6 on a single-stack cluster (H9)", "networking", "simnode", "H9").
		Assess("only a link-local IPv6 address; IPv6 destinations unreachable, IPv4 fine", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "ipv6")
			pod := suite.RunPod(ctx, t, cs, ns, suite.WindowsPod("win", suite.Build2022, "ping", "-t", "localhost"))
			if len(pod.Status.PodIPs) != 1 || strings.Contains(pod.Status.PodIP, ":") {
				t.Errorf("[H9] podIPs %v, want one IPv4 address", pod.Status.PodIPs)
			}
			res := suite.Exec(ctx, t, cfg, ns, "win", "main", "ipconfig")
			if strings.Contains(res.Stdout, "   IPv6 Address") {
				t.Errorf("[H9] ipconfig shows a global IPv6 address:\n%s", res.Stdout)
			}
			if !strings.Contains(res.Stdout, "Link-local IPv6 Address") {
				t.Errorf("[H9] ipconfig shows no link-local IPv6 address:\n%s", res.Stdout)
			}
			if res := suite.Exec(ctx, t, cfg, ns, "win", "main", "curl.exe", "-s", "-o", "NUL", "--connect-timeout", "5", "http://[2001:db8::1]:80"); res.ExitCode == 0 {
				t.Errorf("[H9] curl.exe to an IPv6 address succeeded, want a failure")
			}
			if res := suite.Exec(ctx, t, cfg, ns, "win", "main", "curl.exe", "-s", "-o", "NUL", "--connect-timeout", "5", "http://8.8.8.8:80"); res.ExitCode != 0 {
				t.Errorf("[H9] curl.exe to an IPv4 address: exit %d, want 0", res.ExitCode)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
