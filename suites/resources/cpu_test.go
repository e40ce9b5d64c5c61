package resources

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

type cpuKey struct{}

// TestCPULimitCapsUsage: B7. A Windows CPU limit becomes the job object's
// CPU maximum: a container that tries to use 2 CPUs under a 500m limit
// reads at most 500m, in the Summary API and in metrics.k8s.io. A twin
// without a limit reads its whole demand, so the cap is the limit's.
func TestCPULimitCapsUsage(t *testing.T) {
	t.Parallel() // see main_test.go
	const (
		limit  = "500m"
		demand = "2"
	)
	lim := mustQuantity(limit)
	f := suite.Feature("a Windows container's CPU usage stays under its CPU limit", "resources", "simnode", "B7").
		Setup(func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "cpu-limit")
			capped := withUsage(withLimits(suiteWindowsPod("capped", "ping", "-t", "localhost"), corev1.ResourceList{corev1.ResourceCPU: lim}), "main", demand, "")
			free := withUsage(suiteWindowsPod("uncapped", "ping", "-t", "localhost"), "main", demand, "")
			suite.RunPod(ctx, t, cs, ns, capped)
			suite.RunPod(ctx, t, cs, ns, free)
			return context.WithValue(ctx, cpuKey{}, ns)
		}).
		Assess("/stats/summary: usageNanoCores of the capped container ≤ "+limit, func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := ctx.Value(cpuKey{}).(string)
			for _, tc := range []struct {
				pod      string
				min, max int64 // millicores
			}{
				// At the limit: it wants 2 CPUs and gets the CPU maximum's share.
				{"capped", lim.MilliValue() * 9 / 10, lim.MilliValue()},
				// No limit: the whole demand (requests never cap, B7).
				{"uncapped", 1900, 2000},
			} {
				p, err := cs.CoreV1().Pods(ns).Get(ctx, tc.pod, metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				s, _ := summary(ctx, t, cs, p.Spec.NodeName)
				c := containerStats(podStats(s, ns, tc.pod), "main")
				if c == nil || c.CPU == nil || c.CPU.UsageNanoCores == nil {
					t.Fatalf("[B7] /stats/summary of %s has no CPU usage for %s/main", p.Spec.NodeName, tc.pod)
				}
				got := int64(*c.CPU.UsageNanoCores) / 1e6
				suite.ObjectEvidence(t, fmt.Sprintf("stats/summary %s/main on %s: %dm CPU", tc.pod, p.Spec.NodeName, got), c.CPU)
				if got < tc.min || got > tc.max {
					suite.Fail(t, "B7", fmt.Sprintf("CPU usage of %s/main (demand %s) in /stats/summary", tc.pod, demand), fmt.Sprintf("%dm", got), fmt.Sprintf("between %dm and %dm", tc.min, tc.max))
				}
			}
			return ctx
		}).
		Assess("metrics.k8s.io: the capped container's CPU ≤ "+limit, func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := ctx.Value(cpuKey{}).(string)
			pm, c := waitPodMetrics(ctx, t, cs, ns, "capped", "main")
			cpu := c.Usage[corev1.ResourceCPU]
			suite.ObjectEvidence(t, fmt.Sprintf("PodMetrics capped: main %s CPU (window %s)", cpu.String(), pm.Window.Duration), pm)
			// metrics-server divides the cumulative CPU between two scrapes
			// by their interval; allow 1% for that rounding (upstream's
			// cpu_limits.go allows 8% over the limit on real nodes).
			if got, max := cpu.MilliValue(), lim.MilliValue()*101/100; got > max {
				suite.Fail(t, "B7", "CPU of capped/main in metrics.k8s.io", cpu.String(), "at most "+limit)
			}
			if cpu.MilliValue() < lim.MilliValue()*9/10 {
				suite.Fail(t, "B7", "CPU of capped/main in metrics.k8s.io (it wants "+demand+" CPUs)", cpu.String(), "close to the limit "+limit)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
