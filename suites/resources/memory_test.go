package resources

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

type memoryKey struct{}

// TestNoOOMKillOnWindows: B5. A memory limit on Windows is a job object
// limit: a container that wants three times its limit pages and keeps
// running. The same pod on Linux is OOM killed, side by side.
func TestNoOOMKillOnWindows(t *testing.T) {
	t.Parallel() // see main_test.go
	const (
		limit  = "200Mi"
		demand = "600Mi"
		watch  = 15 * time.Second
	)
	limits := corev1.ResourceList{corev1.ResourceMemory: mustQuantity(limit)}
	f := suite.Feature("a container above its memory limit pages on Windows and is OOM killed on Linux", "resources", "simnode", "B5").
		Setup(func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t) // the usage annotations are wink's
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "no-oom")
			win := withUsage(withLimits(suiteWindowsPod("pager", "ping", "-t", "localhost"), limits), "main", "", demand)
			lin := withUsage(withLimits(suite.LinuxPod("oom", "sh", "-c", "while true; do sleep 1; done"), limits), "main", "", demand)
			suite.CreatePod(ctx, t, cs, ns, lin)
			suite.RunPod(ctx, t, cs, ns, win)
			return context.WithValue(ctx, memoryKey{}, ns)
		}).
		Assess(fmt.Sprintf("Windows: limit %s, using %s: Running, restartCount 0, never OOMKilled for %s", limit, demand, watch), func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := ctx.Value(memoryKey{}).(string)
			var pod *corev1.Pod
			for deadline := time.Now().Add(watch); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
				p, err := cs.CoreV1().Pods(ns).Get(ctx, "pager", metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				pod = p
				if p.Status.Phase != corev1.PodRunning {
					suite.ObjectEvidence(t, "pod pager", p.Status)
					suite.Fail(t, "B5", "phase of the Windows pod over its memory limit", p.Status.Phase, corev1.PodRunning)
					return ctx
				}
				for _, c := range p.Status.ContainerStatuses {
					if c.RestartCount != 0 || oomKilled(c.State.Terminated) || oomKilled(c.LastTerminationState.Terminated) {
						suite.ObjectEvidence(t, "pod pager container status", c)
						suite.Fail(t, "B5", "Windows container over its memory limit: restartCount / OOMKilled", fmt.Sprintf("restartCount %d, state %+v, lastState %+v", c.RestartCount, c.State, c.LastTerminationState), "restartCount 0, never OOMKilled")
						return ctx
					}
				}
			}
			suite.ObjectEvidence(t, fmt.Sprintf("pod pager after %s: Running, restartCount 0", watch), pod.Status)

			// It pages: the working set stays at the limit while the
			// commit charge (usageBytes) holds the whole demand.
			s, _ := summary(ctx, t, cs, pod.Spec.NodeName)
			c := containerStats(podStats(s, ns, "pager"), "main")
			if c == nil || c.Memory == nil {
				t.Fatalf("[B5] /stats/summary of %s has no memory stats for pager/main", pod.Spec.NodeName)
			}
			ws, usage := deref(c.Memory.WorkingSetBytes), deref(c.Memory.UsageBytes)
			suite.ObjectEvidence(t, fmt.Sprintf("stats/summary pager/main: workingSet %s, usage %s", mi(ws), mi(usage)), c.Memory)
			lim, dem := mustQuantity(limit), mustQuantity(demand)
			if int64(ws) > lim.Value() {
				suite.Fail(t, "B5", "working set of the Windows container (stats/summary)", mi(ws), "at most the limit "+limit)
			}
			if int64(usage) < dem.Value() {
				suite.Fail(t, "B5", "commit (usageBytes) of the Windows container (stats/summary)", mi(usage), "the whole demand "+demand)
			}
			return ctx
		}).
		Assess(fmt.Sprintf("Linux: limit %s, using %s: OOMKilled (exit 137) and restarted", limit, demand), func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := ctx.Value(memoryKey{}).(string)
			const timeout = 45 * time.Second
			var last corev1.ContainerStatus
			done := func(p *corev1.Pod) bool {
				for _, c := range p.Status.ContainerStatuses {
					last = c
					if oomKilled(c.LastTerminationState.Terminated) && c.LastTerminationState.Terminated.ExitCode == 137 && c.RestartCount >= 1 {
						return true
					}
				}
				return false
			}
			deadline := time.Now().Add(timeout)
			for {
				p, err := cs.CoreV1().Pods(ns).Get(ctx, "oom", metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if done(p) {
					suite.ObjectEvidence(t, "Linux pod oom: OOMKilled, exit 137, restarted", last)
					return ctx
				}
				if time.Now().After(deadline) {
					suite.ObjectEvidence(t, "Linux pod oom: container status", p.Status)
					suite.Fail(t, "B5", fmt.Sprintf("Linux container over its memory limit after %s (phase %s): restartCount, lastState.terminated", timeout, p.Status.Phase),
						fmt.Sprintf("restartCount %d, state %s, lastState %s", last.RestartCount, stateString(last.State), stateString(last.LastTerminationState)),
						"lastState.terminated reason OOMKilled exit 137, restartCount ≥ 1")
					return ctx
				}
				time.Sleep(500 * time.Millisecond)
			}
		}).Feature()
	testenv.Test(t, f)
}

func oomKilled(t *corev1.ContainerStateTerminated) bool {
	return t != nil && t.Reason == "OOMKilled"
}

func stateString(s corev1.ContainerState) string {
	switch {
	case s.Running != nil:
		return "running since " + s.Running.StartedAt.UTC().Format(time.RFC3339)
	case s.Terminated != nil:
		return fmt.Sprintf("terminated (reason %q, exit %d)", s.Terminated.Reason, s.Terminated.ExitCode)
	case s.Waiting != nil:
		return fmt.Sprintf("waiting (reason %q)", s.Waiting.Reason)
	}
	return "none"
}
