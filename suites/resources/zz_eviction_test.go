package resources

// It runs alongside the other features (main_test.go): the node it leaves
// under memory pressure (the kubelet keeps the condition for its 5-minute
// pressure transition period) is the pressure pool's, which is tainted for
// this feature alone. (The zz_ prefix dates from when it had to run last.)

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	statsapi "k8s.io/kubelet/pkg/apis/stats/v1alpha1"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

type evictionKey struct{}

type evictionState struct {
	ns             string
	current, older *corev1.Node
	created        time.Time
}

const (
	poolLabel           = "wink.dev/pool"
	memoryPressureTaint = "node.kubernetes.io/memory-pressure"
	evictedMessage      = "The node was low on resource: memory."
)

// hog is a BestEffort pod on the node of pool that commits as much memory
// as the node has.
func hog(name, pool string, node *corev1.Node) *corev1.Pod {
	p := suite.WindowsPod(name, suite.Build2022, "ping", "-t", "localhost")
	p.Spec.NodeSelector[poolLabel] = pool
	p.Spec.Tolerations = append(p.Spec.Tolerations, corev1.Toleration{Key: poolLabel, Operator: corev1.TolerationOpEqual, Value: pool, Effect: corev1.TaintEffectNoSchedule})
	return withUsage(p, "main", "", node.Status.Capacity.Memory().String())
}

// TestMemoryPressureEviction: B6, A21, N7. A BestEffort pod committing more
// memory than a Windows node has: with kubelet v1.35 the node reports
// MemoryPressure, gets the memory-pressure taint and evicts the pod; with
// kubelet v1.30 nothing happens, whatever the usage.
func TestMemoryPressureEviction(t *testing.T) {
	t.Parallel() // see main_test.go
	f := suite.Feature("memory pressure evicts on Windows from kubelet v1.31, never before", "resources", "simnode", "B6", "A21", "N7").
		Setup(func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			st := &evictionState{
				current: nodeByLabel(ctx, t, cs, poolLabel, "pressure"),
				older:   nodeByLabel(ctx, t, cs, poolLabel, "legacy"),
			}
			for _, tc := range []struct {
				n        *corev1.Node
				from, to string
			}{{st.current, "v1.31.0", "v2.0.0"}, {st.older, "v1.0.0", "v1.31.0"}} {
				v, err := version.ParseGeneric(tc.n.Status.NodeInfo.KubeletVersion)
				if err != nil || !v.AtLeast(version.MustParseGeneric(tc.from)) || v.AtLeast(version.MustParseGeneric(tc.to)) {
					t.Fatalf("node %s reports kubelet %q, want [%s, %s) (testdata/cluster.yaml)", tc.n.Name, tc.n.Status.NodeInfo.KubeletVersion, tc.from, tc.to)
				}
				if c := condition(tc.n, corev1.NodeMemoryPressure); c != nil && c.Status == corev1.ConditionTrue {
					t.Fatalf("node %s already has MemoryPressure True before the test", tc.n.Name)
				}
			}
			st.ns = suite.Namespace(ctx, t, cs, "eviction")
			suite.CreatePod(ctx, t, cs, st.ns, hog("hog-v135", "pressure", st.current))
			suite.CreatePod(ctx, t, cs, st.ns, hog("hog-v130", "legacy", st.older))
			// The v1.35 pod may be evicted soon after it starts: wait for it
			// to have run, not to be running.
			suite.WaitPod(ctx, t, cs, st.ns, "hog-v135", time.Minute, "started", func(p *corev1.Pod) bool {
				return suite.Running(p) || p.Status.Phase == corev1.PodFailed
			})
			suite.WaitPod(ctx, t, cs, st.ns, "hog-v130", time.Minute, "Running", suite.Running)
			st.created = time.Now()
			return context.WithValue(ctx, evictionKey{}, st)
		}).
		Assess("kubelet v1.35: MemoryPressure True, memory-pressure:NoSchedule taint, the pod Evicted", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			st := ctx.Value(evictionKey{}).(*evictionState)
			name := st.current.Name
			const timeout = 60 * time.Second

			// N7: the condition.
			node := waitNode(ctx, t, cs, name, timeout, func(n *corev1.Node) bool {
				c := condition(n, corev1.NodeMemoryPressure)
				return c != nil && c.Status == corev1.ConditionTrue
			})
			if node == nil {
				n, _ := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
				c := condition(n, corev1.NodeMemoryPressure)
				suite.ObjectEvidence(t, "node "+name+" conditions", n.Status.Conditions)
				suite.Fail(t, "N7", fmt.Sprintf("MemoryPressure of %s (kubelet %s) %s after a pod committed its whole memory", name, n.Status.NodeInfo.KubeletVersion, timeout), c, "True")
			} else {
				c := condition(node, corev1.NodeMemoryPressure)
				suite.ObjectEvidence(t, fmt.Sprintf("node %s: MemoryPressure %s (%s)", name, c.Status, c.Reason), c)
				if c.Reason != "KubeletHasInsufficientMemory" {
					suite.Fail(t, "N7", "MemoryPressure reason on "+name, c.Reason, "KubeletHasInsufficientMemory")
				}
				if c.Message != "kubelet has insufficient memory available" {
					suite.Fail(t, "N7", "MemoryPressure message on "+name, c.Message, "kubelet has insufficient memory available")
				}
			}

			// A21: the node lifecycle controller's taint.
			if tainted := waitNode(ctx, t, cs, name, timeout, func(n *corev1.Node) bool {
				return hasTaint(n, memoryPressureTaint, corev1.TaintEffectNoSchedule)
			}); tainted == nil {
				n, _ := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
				suite.Fail(t, "A21", "taints of "+name+" under memory pressure", n.Spec.Taints, memoryPressureTaint+":NoSchedule")
			} else {
				suite.ObjectEvidence(t, "node "+name+" taints", tainted.Spec.Taints)
			}

			// B6: the pod is evicted.
			var pod *corev1.Pod
			err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
				p, err := cs.CoreV1().Pods(st.ns).Get(ctx, "hog-v135", metav1.GetOptions{})
				if err != nil {
					return false, nil
				}
				pod = p
				return p.Status.Phase == corev1.PodFailed, nil
			})
			if err != nil {
				suite.ObjectEvidence(t, "pod hog-v135", pod.Status)
				suite.Fail(t, "B6", fmt.Sprintf("phase of pod hog-v135 on %s after %s", name, timeout), pod.Status.Phase, "Failed (Evicted)")
				return ctx
			}
			suite.ObjectEvidence(t, fmt.Sprintf("pod hog-v135: %s, reason %s", pod.Status.Phase, pod.Status.Reason), pod.Status)
			if pod.Status.Reason != "Evicted" {
				suite.Fail(t, "B6", "status.reason of pod hog-v135", pod.Status.Reason, "Evicted")
			}
			if !strings.HasPrefix(pod.Status.Message, evictedMessage) {
				suite.Fail(t, "B6", "status.message of pod hog-v135", fmt.Sprintf("%q", pod.Status.Message), fmt.Sprintf("starting %q", evictedMessage))
			}
			ev := suite.WaitEvent(ctx, t, cs, st.ns, "Pod", "hog-v135", "Evicted", evictedMessage, 10*time.Second)
			suite.EventEvidence(t, ev)
			return ctx
		}).
		Assess("kubelet v1.30: no MemoryPressure, no taint, no eviction, whatever the usage", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			st := ctx.Value(evictionKey{}).(*evictionState)
			name := st.older.Name
			// At least three eviction-manager intervals (10 s) since the pod
			// started, and 10 s of watching whatever the other side took.
			until := st.created.Add(35 * time.Second)
			if min := time.Now().Add(10 * time.Second); until.Before(min) {
				until = min
			}
			for ; time.Now().Before(until); time.Sleep(500 * time.Millisecond) {
				n, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if c := condition(n, corev1.NodeMemoryPressure); c != nil && c.Status != corev1.ConditionFalse {
					suite.ObjectEvidence(t, "node "+name+" MemoryPressure", c)
					suite.Fail(t, "B6", fmt.Sprintf("MemoryPressure of %s (kubelet %s)", name, n.Status.NodeInfo.KubeletVersion), c.Status, "False")
					return ctx
				}
				if hasTaint(n, memoryPressureTaint, corev1.TaintEffectNoSchedule) {
					suite.Fail(t, "A21", "taints of "+name+" (kubelet before v1.31)", n.Spec.Taints, "no "+memoryPressureTaint)
					return ctx
				}
				p, err := cs.CoreV1().Pods(st.ns).Get(ctx, "hog-v130", metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if p.Status.Phase != corev1.PodRunning || p.Status.Reason == "Evicted" {
					suite.ObjectEvidence(t, "pod hog-v130", p.Status)
					suite.Fail(t, "B6", "pod hog-v130 on "+name+" (kubelet before v1.31)", fmt.Sprintf("phase %s reason %q message %q", p.Status.Phase, p.Status.Reason, p.Status.Message), "Running, never evicted")
					return ctx
				}
			}
			evs, err := cs.CoreV1().Events(st.ns).List(ctx, metav1.ListOptions{FieldSelector: fields.Set{"involvedObject.name": "hog-v130", "reason": "Evicted"}.AsSelector().String()})
			if err != nil {
				t.Fatal(err)
			}
			if len(evs.Items) > 0 {
				suite.EventEvidence(t, evs.Items[0])
				suite.Fail(t, "B6", "Evicted events for hog-v130 (kubelet before v1.31)", len(evs.Items), 0)
			}
			n, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			suite.ObjectEvidence(t, fmt.Sprintf("node %s (kubelet %s) after %s: conditions", name, n.Status.NodeInfo.KubeletVersion, time.Since(st.created).Round(time.Second)), n.Status.Conditions)
			// The usage was there: the node's commit charge exceeds its memory.
			s, _ := summary(ctx, t, cs, name)
			suite.ObjectEvidence(t, fmt.Sprintf("stats/summary of %s: node memory usage (commit) %s of %s capacity", name, mi(deref(s.Node.Memory.UsageBytes)), n.Status.Capacity.Memory()), s.Node.Memory)
			if int64(deref(s.Node.Memory.UsageBytes)) < n.Status.Capacity.Memory().Value() {
				t.Errorf("[B6] the v1.30 node %s commits %s, less than its capacity %s: the test did not pressure it", name, mi(deref(s.Node.Memory.UsageBytes)), n.Status.Capacity.Memory())
			}
			if systemContainer(s, statsapi.SystemContainerWindowsGlobalCommitMemory) != nil {
				suite.Fail(t, "B14", "system containers of "+name+" (kubelet before v1.31)", statsapi.SystemContainerWindowsGlobalCommitMemory, "absent")
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// waitNode polls a node until done; nil after timeout.
func waitNode(ctx context.Context, t *testing.T, cs kubernetes.Interface, name string, timeout time.Duration, done func(*corev1.Node) bool) *corev1.Node {
	t.Helper()
	var node *corev1.Node
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		n, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		node = n
		return done(n), nil
	})
	if err != nil {
		return nil
	}
	return node
}
