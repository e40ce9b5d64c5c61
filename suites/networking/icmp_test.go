package networking

import (
	"context"
	"testing"

	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// TestICMPLeavingTheCluster: row H4 — ping beyond the cluster network gets no
// reply from a Windows pod, while TCP to the same host works; Linux pods get
// replies.
func TestICMPLeavingTheCluster(t *testing.T) {
	f := suite.Feature("ICMP beyond the cluster network gets no reply from Windows pods (H4)", "networking", "any", "H4", "H1").
		Assess("Windows: ping 8.8.8.8 times out, curl to it succeeds; Linux: ping answers", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "icmp")
			suite.RunPod(ctx, t, cs, ns, suite.WindowsPod("win", suite.Build2022, "ping", "-t", "localhost"))
			suite.RunPod(ctx, t, cs, ns, suite.LinuxPod("linux", "sleep", "3600"))
			if res := suite.Exec(ctx, t, cfg, ns, "win", "main", "ping", "-n", "2", "-w", "1000", "8.8.8.8"); res.ExitCode == 0 {
				t.Errorf("[H4] Windows ping 8.8.8.8 exit 0, want no reply:\n%s", res.Stdout)
			}
			if res := suite.Exec(ctx, t, cfg, ns, "win", "main", "curl.exe", "-s", "-o", "NUL", "--connect-timeout", "10", "http://8.8.8.8:80"); res.ExitCode != 0 {
				t.Errorf("[H4] Windows curl to 8.8.8.8:80 exit %d, want 0 (%s)", res.ExitCode, res.Stderr)
			}
			if res := suite.Exec(ctx, t, cfg, ns, "linux", "main", "ping", "-c", "2", "8.8.8.8"); res.ExitCode != 0 {
				t.Errorf("[H4] Linux ping 8.8.8.8 exit %d, want replies:\n%s%s", res.ExitCode, res.Stdout, res.Stderr)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
