package resources

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/version"
	statsapi "k8s.io/kubelet/pkg/apis/stats/v1alpha1"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// TestStatsSummary: B14, as upstream's kubelet_stats.go: /stats/summary
// through the apiserver's node proxy answers within 10 s with per-pod and
// per-container CPU and working set, and the Windows system containers
// `pods` and, from kubelet v1.31, `windows-global-commit-memory`.
func TestStatsSummary(t *testing.T) {
	t.Parallel() // see main_test.go
	// No "/" in a feature's name: go test would make it a level of subtests,
	// and the reports would count a feature that does not exist.
	f := suite.Feature("the Summary API of a Windows node through the node proxy", "resources", "any", "B14").
		Assess("pods and containers have CPU and working set; system containers pods (and windows-global-commit-memory)", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "stats")
			const pods = 3
			for i := range pods {
				suite.RunPod(ctx, t, cs, ns, suiteWindowsPod(fmt.Sprintf("stats-%d", i), "ping", "-t", "localhost"))
			}
			checked := 0
			for i := range pods {
				name := fmt.Sprintf("stats-%d", i)
				p, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				s, took := summary(ctx, t, cs, p.Spec.NodeName)
				if took > 10*time.Second {
					suite.Fail(t, "B14", "time to GET /stats/summary of "+p.Spec.NodeName, took, "at most 10s")
				}
				ps := podStats(s, ns, name)
				if ps == nil {
					suite.Fail(t, "B14", "pod "+name+" in /stats/summary of "+p.Spec.NodeName, "absent", "present")
					continue
				}
				if i == 0 {
					suite.ObjectEvidence(t, fmt.Sprintf("stats/summary of %s: pod %s (took %s)", p.Spec.NodeName, name, took.Round(time.Millisecond)), ps)
				}
				if ps.CPU == nil || deref(ps.CPU.UsageCoreNanoSeconds) == 0 {
					suite.Fail(t, "B14", "pod "+name+" cpu.usageCoreNanoSeconds", ps.CPU, "> 0")
				}
				if ps.Memory == nil || deref(ps.Memory.WorkingSetBytes) == 0 {
					suite.Fail(t, "B14", "pod "+name+" memory.workingSetBytes", ps.Memory, "> 0")
				}
				c := containerStats(ps, "main")
				switch {
				case c == nil:
					suite.Fail(t, "B14", "container main of pod "+name, "absent", "present")
				case c.CPU == nil || c.CPU.UsageNanoCores == nil || deref(c.CPU.UsageCoreNanoSeconds) == 0:
					suite.Fail(t, "B14", "container "+name+"/main cpu (usageNanoCores, usageCoreNanoSeconds > 0)", c.CPU, "both set")
				case c.Memory == nil || deref(c.Memory.WorkingSetBytes) == 0:
					suite.Fail(t, "B14", "container "+name+"/main memory.workingSetBytes", c.Memory, "> 0")
				case c.Logs == nil || deref(c.Logs.AvailableBytes) == 0:
					// upstream kubelet_stats.go checks this too
					suite.Fail(t, "B14", "container "+name+"/main logs.availableBytes", c.Logs, "> 0")
				default:
					checked++
				}
			}
			if checked != pods {
				t.Errorf("[B14] complete stats for %d of %d pods", checked, pods)
			}
			return ctx
		}).
		Assess("every Windows node: system container pods; windows-global-commit-memory from kubelet v1.31", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: "kubernetes.io/os=windows"})
			if err != nil || len(nodes.Items) == 0 {
				t.Fatalf("no Windows nodes: %v", err)
			}
			v131 := version.MustParseGeneric("v1.31.0")
			for _, n := range nodes.Items {
				kv := n.Status.NodeInfo.KubeletVersion
				v, err := version.ParseGeneric(kv)
				if err != nil {
					t.Fatalf("node %s kubeletVersion %q: %v", n.Name, kv, err)
				}
				s, took := summary(ctx, t, cs, n.Name)
				var names []string
				for _, c := range s.Node.SystemContainers {
					names = append(names, c.Name)
				}
				suite.Evidence(t, suite.EvidenceObject, fmt.Sprintf("stats/summary of %s (kubelet %s, %s): system containers [%s]", n.Name, kv, took.Round(time.Millisecond), strings.Join(names, " ")), "")
				if took > 10*time.Second {
					suite.Fail(t, "B14", "time to GET /stats/summary of "+n.Name, took, "at most 10s")
				}
				if systemContainer(s, statsapi.SystemContainerPods) == nil {
					suite.Fail(t, "B14", "system containers of "+n.Name, names, "with "+statsapi.SystemContainerPods)
				}
				commit := systemContainer(s, statsapi.SystemContainerWindowsGlobalCommitMemory)
				wantCommit := v.AtLeast(v131)
				switch {
				case wantCommit && commit == nil:
					suite.Fail(t, "B14", fmt.Sprintf("system containers of %s (kubelet %s)", n.Name, kv), names, "with "+statsapi.SystemContainerWindowsGlobalCommitMemory)
				case wantCommit && (commit.Memory == nil || commit.Memory.AvailableBytes == nil || commit.Memory.UsageBytes == nil):
					suite.Fail(t, "B14", "windows-global-commit-memory of "+n.Name, commit.Memory, "availableBytes and usageBytes")
				case !wantCommit && commit != nil:
					suite.Fail(t, "B14", fmt.Sprintf("system containers of %s (kubelet %s, before v1.31)", n.Name, kv), names, "without "+statsapi.SystemContainerWindowsGlobalCommitMemory)
				}
				if s.Node.CPU == nil || s.Node.Memory == nil || deref(s.Node.Memory.WorkingSetBytes) == 0 {
					suite.Fail(t, "B14", "node CPU and memory stats of "+n.Name, fmt.Sprintf("cpu %v memory %v", s.Node.CPU, s.Node.Memory), "set")
				}
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
