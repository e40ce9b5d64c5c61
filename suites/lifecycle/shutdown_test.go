package lifecycle

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/remotecommand"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// The node annotation that shuts a simulated node's machine down (README,
// simulated behaviours): "now" until it is removed, "reboot" for a shutdown
// and a boot.
const (
	shutdownAnnotation = "wink.dev/shutdown"
	ignoreSigterm      = "wink.dev/ignore-sigterm"
)

// Row B15 and its sources' exact strings (pkg/kubelet/nodeshutdown,
// nodestatus/setters.go, kubelet.go rejectPod).
const (
	shutdownReason       = "Terminated"
	shutdownMessage      = "Pod was terminated in response to imminent node shutdown."
	shutdownEvent        = "Shutdown manager detected preshutdown event"
	shutdownNotReady     = "node is shutting down"
	shutdownRejected     = "NodeShutdown"
	shutdownRejectedText = "Pod was rejected: Pod was rejected as the node is shutting down."
)

// gracefulShutdownSince is the first Windows kubelet with a node shutdown
// manager on by default (B15: WindowsGracefulNodeShutdown beta in v1.34).
var gracefulShutdownSince = version.MustParseSemantic("v1.34.0")

func TestGracefulNodeShutdown(t *testing.T) {
	f := suite.Feature("a Windows node shut down through the API terminates its pods, then boots with the next bootID", "lifecycle", "simnode", "B15", "N3").
		Assess("kubelet >= v1.34: NotReady, pods Failed/Terminated with DisruptionTarget, new pods rejected; the reboot counts bootID up by one", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "shutdown")

			web := suite.RunPod(ctx, t, cs, ns, suite.WindowsPod("web", suite.Build2022, "ping", "-t", "localhost"))
			nodeName := web.Spec.NodeName
			before := getNode(ctx, t, cs, nodeName)
			kv := version.MustParseGeneric(before.Status.NodeInfo.KubeletVersion)
			if kv.LessThan(gracefulShutdownSince) {
				t.Skipf("node %s runs kubelet %s: B15 applies from v1.34 (see the next assessment)", nodeName, kv)
			}
			bootID := mustAtoi(t, before.Status.NodeInfo.BootID)
			restoreNode(t, cs, nodeName, before.Spec.Taints)

			// A pod that ignores the stop signal keeps the node shutting
			// down for its grace period (15 s, under its group's 20 s).
			stubborn := suite.WindowsPod("stubborn", suite.Build2022, "ping", "-t", "localhost")
			stubborn.Spec.NodeName = nodeName
			stubborn.Annotations = map[string]string{ignoreSigterm: "true"}
			grace := int64(15)
			stubborn.Spec.TerminationGracePeriodSeconds = &grace
			suite.RunPod(ctx, t, cs, ns, stubborn)

			annotateNode(ctx, t, cs, nodeName, "now")

			// The node: NotReady, with the shutdown manager's event.
			node := waitNode(ctx, t, cs, nodeName, 30*time.Second, "NotReady (shutting down)", func(n *corev1.Node) bool {
				c := readyOf(n)
				return c.Status == corev1.ConditionFalse && c.Message == shutdownNotReady
			})
			if c := readyOf(node); c.Reason != "KubeletNotReady" {
				suite.Fail(t, "B15", "Ready reason while shutting down", c.Reason, "KubeletNotReady")
			}
			suite.ObjectEvidence(t, "B15: node "+nodeName+" while shutting down", node.Status.Conditions)
			suite.EventEvidence(t, suite.WaitEvent(ctx, t, cs, "default", "Node", nodeName, "Shutdown", shutdownEvent, 30*time.Second))

			// The pods: Failed, Terminated, the message, DisruptionTarget.
			got := suite.WaitPod(ctx, t, cs, ns, "web", 30*time.Second, "Failed", suite.Failed)
			checkShutdownStatus(t, got)
			suite.ObjectEvidence(t, "B15: pod web after the node shutdown", got.Status)

			// Nothing of it runs: exec answers like the kubelet for a
			// container that is not there.
			if err := execError(ctx, t, cfg, ns, "web", "main", "cmd", "/c", "echo", "hi"); err == nil || !strings.Contains(err.Error(), `container not found ("main")`) {
				suite.Fail(t, "B15", "exec into the terminated pod web", err, `an error containing container not found ("main")`)
			} else {
				suite.Evidence(t, suite.EvidenceExec, "B15: exec into the terminated pod web", err.Error())
			}

			// A pod that reaches the node while it shuts down is rejected.
			late := suite.WindowsPod("late", suite.Build2022, "ping", "-t", "localhost")
			late.Spec.NodeName = nodeName
			suite.CreatePod(ctx, t, cs, ns, late)
			rejected := suite.WaitPod(ctx, t, cs, ns, "late", 30*time.Second, "Failed", suite.Failed)
			if rejected.Status.Reason != shutdownRejected || rejected.Status.Message != shutdownRejectedText {
				suite.Fail(t, "B15", "status of a pod bound to the node while it shuts down", fmt.Sprintf("%s %q", rejected.Status.Reason, rejected.Status.Message), fmt.Sprintf("%s %q", shutdownRejected, shutdownRejectedText))
			}
			suite.ObjectEvidence(t, "B15: pod late, admitted while the node shuts down", rejected.Status)

			got = suite.WaitPod(ctx, t, cs, ns, "stubborn", time.Minute, "Failed", suite.Failed)
			checkShutdownStatus(t, got)
			if term := got.Status.ContainerStatuses[0].State.Terminated; term == nil || term.ExitCode == 0 {
				suite.Fail(t, "B15", "stubborn's container, killed at the end of its grace period", got.Status.ContainerStatuses[0].State, "terminated with a non-zero exit code")
			}

			// The machine is off: the node stays NotReady.
			time.Sleep(3 * time.Second)
			if c := readyOf(getNode(ctx, t, cs, nodeName)); c.Status == corev1.ConditionTrue {
				suite.Fail(t, "B15", "Ready of the node that is off", c.Status, "False or Unknown")
			}

			// N3: power on; the next bootID, Ready again.
			annotateNode(ctx, t, cs, nodeName, "")
			node = waitNode(ctx, t, cs, nodeName, time.Minute, fmt.Sprintf("Ready with bootID %d", bootID+1), func(n *corev1.Node) bool {
				return readyOf(n).Status == corev1.ConditionTrue && n.Status.NodeInfo.BootID == strconv.Itoa(bootID+1)
			})
			suite.ObjectEvidence(t, "N3: node "+nodeName+" after the reboot", node.Status.NodeInfo)
			suite.EventEvidence(t, suite.WaitEvent(ctx, t, cs, "default", "Node", nodeName, "Rebooted",
				fmt.Sprintf("Node %s has been rebooted, boot id: %d", nodeName, bootID+1), 30*time.Second))
			// The terminated pods stay terminated.
			if p := getPod(ctx, t, cs, ns, "web"); p.Status.Phase != corev1.PodFailed {
				suite.Fail(t, "B15", "phase of web after the reboot", p.Status.Phase, corev1.PodFailed)
			}

			// "reboot": down and up again, the annotation removed by the node.
			annotateNode(ctx, t, cs, nodeName, "reboot")
			node = waitNode(ctx, t, cs, nodeName, time.Minute, fmt.Sprintf("rebooted with bootID %d", bootID+2), func(n *corev1.Node) bool {
				_, annotated := n.Annotations[shutdownAnnotation]
				return !annotated && readyOf(n).Status == corev1.ConditionTrue && n.Status.NodeInfo.BootID == strconv.Itoa(bootID+2)
			})
			suite.ObjectEvidence(t, "N3: node "+nodeName+" after a second reboot", node.Status.NodeInfo)

			// The node takes pods again once the node lifecycle controller
			// removed its not-ready taints.
			waitTaints(ctx, t, cs, nodeName, before.Spec.Taints)
			again := suite.WindowsPod("again", suite.Build2022, "ping", "-t", "localhost")
			again.Spec.NodeName = nodeName
			suite.RunPod(ctx, t, cs, ns, again)
			return ctx
		}).
		Assess("kubelet < v1.34: no graceful shutdown, the pod is left as it was and restarts after the reboot", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			old := olderWindowsNode(ctx, t, cs)
			if old == nil {
				t.Skip("the cluster has no Windows node with a kubelet before v1.34 (give a pool kubeletVersion: v1.33.x); simnode/rules golden b15-shutdown-windows-v1.33 covers it")
			}
			ns := suite.Namespace(ctx, t, cs, "shutdown-old")
			build := old.Labels["node.kubernetes.io/windows-build"]
			pod := suite.WindowsPod("web", build, "ping", "-t", "localhost")
			pod.Spec.NodeName = old.Name
			suite.RunPod(ctx, t, cs, ns, pod)
			bootID := mustAtoi(t, old.Status.NodeInfo.BootID)
			restoreNode(t, cs, old.Name, old.Spec.Taints)

			annotateNode(ctx, t, cs, old.Name, "now")
			time.Sleep(5 * time.Second)
			if p := getPod(ctx, t, cs, ns, "web"); p.Status.Phase != corev1.PodRunning || p.Status.Reason != "" {
				suite.Fail(t, "B15", "pod on a kubelet "+old.Status.NodeInfo.KubeletVersion+" node that shut down", p.Status.Phase, "Running: no graceful shutdown before v1.34")
			} else {
				suite.ObjectEvidence(t, "B15: pod web 5s after its kubelet "+old.Status.NodeInfo.KubeletVersion+" node shut down", p.Status)
			}
			if c := readyOf(getNode(ctx, t, cs, old.Name)); c.Message == shutdownNotReady {
				suite.Fail(t, "B15", "Ready message of a kubelet "+old.Status.NodeInfo.KubeletVersion+" node", c.Message, "not the shutdown manager's")
			}
			annotateNode(ctx, t, cs, old.Name, "")
			waitNode(ctx, t, cs, old.Name, time.Minute, fmt.Sprintf("Ready with bootID %d", bootID+1), func(n *corev1.Node) bool {
				return readyOf(n).Status == corev1.ConditionTrue && n.Status.NodeInfo.BootID == strconv.Itoa(bootID+1)
			})
			got := suite.WaitPod(ctx, t, cs, ns, "web", time.Minute, "restarted after the reboot", func(p *corev1.Pod) bool {
				cs := p.Status.ContainerStatuses
				return suite.Running(p) && len(cs) == 1 && cs[0].RestartCount == 1
			})
			suite.ObjectEvidence(t, "N3: pod web after its node rebooted without graceful shutdown", got.Status.ContainerStatuses)
			suite.EventEvidence(t, suite.WaitEvent(ctx, t, cs, ns, "Pod", "web", "SandboxChanged", "Pod sandbox changed, it will be killed and re-created.", 30*time.Second))
			waitTaints(ctx, t, cs, old.Name, old.Spec.Taints)
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// checkShutdownStatus checks a pod its node's shutdown manager terminated
// (B15).
func checkShutdownStatus(t *testing.T, p *corev1.Pod) {
	t.Helper()
	if p.Status.Phase != corev1.PodFailed || p.Status.Reason != shutdownReason || p.Status.Message != shutdownMessage {
		suite.Fail(t, "B15", "status of pod "+p.Name, fmt.Sprintf("%s %s %q", p.Status.Phase, p.Status.Reason, p.Status.Message), fmt.Sprintf("Failed %s %q", shutdownReason, shutdownMessage))
	}
	var dt *corev1.PodCondition
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == corev1.DisruptionTarget {
			dt = &p.Status.Conditions[i]
		}
	}
	if dt == nil || dt.Status != corev1.ConditionTrue || dt.Reason != "TerminationByKubelet" || dt.Message != shutdownMessage {
		suite.Fail(t, "B15", "DisruptionTarget condition of pod "+p.Name, dt, "True, TerminationByKubelet, "+shutdownMessage)
	}
	for _, c := range p.Status.ContainerStatuses {
		if c.State.Terminated == nil || c.Ready {
			suite.Fail(t, "B15", "container "+c.Name+" of pod "+p.Name, c.State, "terminated")
		}
	}
}

// restoreNode powers the node on again when the test ends, whatever
// happened, and waits until it is Ready with its own taints, so that the
// features after this one find the cluster as it was.
func restoreNode(t *testing.T, cs kubernetes.Interface, name string, taints []corev1.Taint) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		n, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Errorf("node %s: %v", name, err)
			return
		}
		if _, ok := n.Annotations[shutdownAnnotation]; ok {
			annotateNode(ctx, t, cs, name, "")
		}
		waitNode(ctx, t, cs, name, 2*time.Minute, "Ready", func(n *corev1.Node) bool { return readyOf(n).Status == corev1.ConditionTrue })
		waitTaints(ctx, t, cs, name, taints)
	})
}

// annotateNode sets the shutdown annotation to value, or removes it (""),
// as `kubectl annotate node` does.
func annotateNode(ctx context.Context, t *testing.T, cs kubernetes.Interface, name, value string) {
	t.Helper()
	v := "null"
	if value != "" {
		v = strconv.Quote(value)
	}
	patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%s}}}`, shutdownAnnotation, v)
	if _, err := cs.CoreV1().Nodes().Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatalf("annotating node %s: %v", name, err)
	}
	suite.Evidence(t, suite.EvidenceObject, fmt.Sprintf("kubectl annotate node %s %s", name, annotationArg(value)), patch)
}

func annotationArg(value string) string {
	if value == "" {
		return shutdownAnnotation + "-"
	}
	return shutdownAnnotation + "=" + value
}

func getNode(ctx context.Context, t *testing.T, cs kubernetes.Interface, name string) *corev1.Node {
	t.Helper()
	n, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func getPod(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, name string) *corev1.Pod {
	t.Helper()
	p, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// waitNode polls the node until ok says it is what, and fails the test with
// its conditions after timeout.
func waitNode(ctx context.Context, t *testing.T, cs kubernetes.Interface, name string, timeout time.Duration, what string, ok func(*corev1.Node) bool) *corev1.Node {
	t.Helper()
	var last *corev1.Node
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		n, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		last = n
		return ok(n), nil
	})
	if err != nil {
		if last == nil {
			t.Fatalf("node %s: never found (%v)", name, err)
		}
		t.Fatalf("node %s is not %s after %s: Ready %+v, bootID %s, annotations %v", name, what, timeout, readyOf(last), last.Status.NodeInfo.BootID, last.Annotations)
	}
	return last
}

// waitTaints waits until the node has exactly the taints it was registered
// with (the node lifecycle controller removes its not-ready taints once the
// node is Ready).
func waitTaints(ctx context.Context, t *testing.T, cs kubernetes.Interface, name string, want []corev1.Taint) {
	t.Helper()
	key := func(ts []corev1.Taint) string {
		var s []string
		for _, x := range ts {
			s = append(s, x.Key+"="+x.Value+":"+string(x.Effect))
		}
		return strings.Join(s, ",")
	}
	waitNode(ctx, t, cs, name, time.Minute, "tainted "+key(want), func(n *corev1.Node) bool { return key(n.Spec.Taints) == key(want) })
}

func readyOf(n *corev1.Node) corev1.NodeCondition {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c
		}
	}
	return corev1.NodeCondition{}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("[N3] bootID %q is not a decimal integer: %v", s, err)
	}
	return n
}

// olderWindowsNode is a Ready Windows node whose kubelet is older than
// v1.34, nil when the cluster has none.
func olderWindowsNode(ctx context.Context, t *testing.T, cs kubernetes.Interface) *corev1.Node {
	t.Helper()
	list, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: "kubernetes.io/os=windows"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range list.Items {
		n := &list.Items[i]
		v, err := version.ParseGeneric(n.Status.NodeInfo.KubeletVersion)
		if err == nil && v.LessThan(gracefulShutdownSince) && readyOf(n).Status == corev1.ConditionTrue {
			return n
		}
	}
	return nil
}

// execError runs argv in a container through the apiserver over SPDY, as
// `kubectl exec` falls back to, and returns the error the client gets
// (nil for exit 0).
func execError(ctx context.Context, t *testing.T, cfg *envconf.Config, ns, pod, container string, argv ...string) error {
	t.Helper()
	rc := cfg.Client().RESTConfig()
	cs, err := kubernetes.NewForConfig(rc)
	if err != nil {
		t.Fatal(err)
	}
	req := cs.CoreV1().RESTClient().Post().Resource("pods").Namespace(ns).Name(pod).SubResource("exec").
		VersionedParams(&corev1.PodExecOptions{Container: container, Command: argv, Stdout: true, Stderr: true}, scheme.ParameterCodec)
	ex, err := remotecommand.NewSPDYExecutor(rc, http.MethodPost, req.URL())
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return ex.StreamWithContext(ctx, remotecommand.StreamOptions{Stdout: &stdout, Stderr: &stderr})
}
