package workloads

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"wink.dev/wink/suites/suite"
)

// poll is how often the workload features look at the API: the controllers
// and simnode act within milliseconds, so tight polls keep the suite fast.
const poll = 100 * time.Millisecond

// Build image tags the suite knows (suite.WindowsPod's images).
var knownBuilds = []string{suite.Build2022, suite.Build2019}

// windowsTemplate is a pod template of Windows pods of build, labelled
// app=app, whose container runs command: spec.os, the OS and build
// nodeSelector and the os=windows toleration, as the docs write them (S2, S3).
func windowsTemplate(app, build string, command ...string) corev1.PodTemplateSpec {
	p := suite.WindowsPod("", build, command...)
	p.Spec.TerminationGracePeriodSeconds = ptr.To[int64](1)
	return corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": app}}, Spec: p.Spec}
}

// live is true for a pod that is not being deleted.
func live(p *corev1.Pod) bool { return p.DeletionTimestamp == nil }

// waitPods waits until exactly n live pods match selector in ns and each
// satisfies done, and returns them sorted by name. what names done in the
// failure message.
func waitPods(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, selector string, n int, what string, done func(*corev1.Pod) bool) []corev1.Pod {
	t.Helper()
	var pods []corev1.Pod
	err := wait.PollUntilContextTimeout(ctx, poll, time.Minute, true, func(ctx context.Context) (bool, error) {
		list, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			return false, nil
		}
		pods = pods[:0]
		ok := true
		for i := range list.Items {
			p := &list.Items[i]
			if !live(p) {
				continue
			}
			pods = append(pods, *p)
			ok = ok && done(p)
		}
		return ok && len(pods) == n, nil
	})
	if err != nil {
		t.Fatalf("%s: want %d pods matching %q, all %s; have %s", ns, n, selector, what, describePods(pods))
	}
	sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	return pods
}

// describePods is one line per pod: name, phase, node and waiting reasons.
func describePods(pods []corev1.Pod) string {
	if len(pods) == 0 {
		return "none"
	}
	var b strings.Builder
	for _, p := range pods {
		fmt.Fprintf(&b, "\n  %s: %s on %q", p.Name, p.Status.Phase, p.Spec.NodeName)
		for _, c := range p.Status.ContainerStatuses {
			if c.State.Waiting != nil {
				fmt.Fprintf(&b, " (%s waiting: %s)", c.Name, c.State.Waiting.Reason)
			}
		}
	}
	return b.String()
}

// ownedBy fails the test unless every pod's controller is a kind object.
func ownedBy(t *testing.T, row string, pods []corev1.Pod, kind string) {
	t.Helper()
	for _, p := range pods {
		ref := metav1.GetControllerOf(&p)
		if ref == nil || ref.Kind != kind {
			suite.Fail(t, row, "controller of pod "+p.Name, ref, kind)
		}
	}
}

// allows reports whether the scheduler may put pod on node by the pod's
// nodeSelector and the node's NoSchedule and NoExecute taints (S1, S2), and
// why not.
func allows(pod *corev1.Pod, node *corev1.Node) (bool, string) {
	if !labels.SelectorFromSet(pod.Spec.NodeSelector).Matches(labels.Set(node.Labels)) {
		return false, fmt.Sprintf("nodeSelector %v does not match the node's labels", pod.Spec.NodeSelector)
	}
	for _, taint := range node.Spec.Taints {
		if taint.Effect == corev1.TaintEffectPreferNoSchedule {
			continue
		}
		tolerated := false
		for _, tol := range pod.Spec.Tolerations {
			if tol.ToleratesTaint(klog.Background(), &taint, false) {
				tolerated = true
				break
			}
		}
		if !tolerated {
			return false, "taint " + taint.ToString() + " is not tolerated"
		}
	}
	return true, ""
}

// checkPlacement checks that every pod is on a node its nodeSelector and
// tolerations allow, and records the placement as evidence of row. It
// returns the pods' nodes.
func checkPlacement(ctx context.Context, t *testing.T, cs kubernetes.Interface, row, what string, pods []corev1.Pod) []string {
	t.Helper()
	nodes := map[string]*corev1.Node{}
	var lines, names []string
	for i := range pods {
		p := &pods[i]
		n, ok := nodes[p.Spec.NodeName]
		if !ok {
			got, err := cs.CoreV1().Nodes().Get(ctx, p.Spec.NodeName, metav1.GetOptions{})
			if err != nil {
				t.Fatalf("node %q of pod %s: %v", p.Spec.NodeName, p.Name, err)
			}
			n, nodes[p.Spec.NodeName] = got, got
		}
		names = append(names, n.Name)
		lines = append(lines, fmt.Sprintf("%s\t%s\t%s\tos=%s build=%s taints=%s", p.Name, p.Status.Phase, n.Name,
			n.Labels["kubernetes.io/os"], n.Labels["node.kubernetes.io/windows-build"], taints(n)))
		if ok, why := allows(p, n); !ok {
			t.Errorf("[%s] pod %s is on node %s, where it may not be scheduled: %s", row, p.Name, n.Name, why)
		}
	}
	suite.Evidence(t, suite.EvidenceObject, fmt.Sprintf("[%s] %s: %d pods placed", row, what, len(pods)),
		"POD\tPHASE\tNODE\tNODE LABELS AND TAINTS\n"+strings.Join(lines, "\n"))
	return names
}

// taints prints a node's taints as kubectl does.
func taints(n *corev1.Node) string {
	if len(n.Spec.Taints) == 0 {
		return "<none>"
	}
	var s []string
	for _, t := range n.Spec.Taints {
		s = append(s, t.ToString())
	}
	return strings.Join(s, ",")
}

// windowsNodes lists the Windows nodes by build.
func windowsNodes(ctx context.Context, t *testing.T, cs kubernetes.Interface) map[string][]corev1.Node {
	t.Helper()
	list, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: "kubernetes.io/os=windows"})
	if err != nil {
		t.Fatal(err)
	}
	byBuild := map[string][]corev1.Node{}
	for _, n := range list.Items {
		b := n.Labels["node.kubernetes.io/windows-build"]
		byBuild[b] = append(byBuild[b], n)
	}
	return byBuild
}

// pollUntil polls cond every poll for up to timeout and fails the test with
// what and the last state last() describes.
func pollUntil(ctx context.Context, t *testing.T, timeout time.Duration, what string, cond func(ctx context.Context) bool, last func() string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(ctx, poll, timeout, true, func(ctx context.Context) (bool, error) {
		return cond(ctx), nil
	})
	if err != nil {
		t.Fatalf("%s: not reached within %s; last: %s", what, timeout, last())
	}
}
