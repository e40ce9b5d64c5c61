package scheduling

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// TestKubeletAdmission binds pods straight to a Windows node (spec.nodeName
// skips the scheduler) that its kubelet must refuse: rows B1–B3, with the
// reasons and messages of pkg/kubelet/lifecycle/predicate.go.
func TestKubeletAdmission(t *testing.T) {
	tests := []struct {
		row, name, reason, message string
		mutate                     func(*corev1.Pod)
	}{
		{
			row: "B1", name: "os-field", reason: "PodOSNotSupported",
			message: "Pod was rejected: Failed to admit pod as the OS field doesn't match node OS",
			mutate:  func(p *corev1.Pod) { p.Spec.OS = &corev1.PodOS{Name: corev1.Linux} },
		},
		{
			row: "B2", name: "os-label", reason: "PodOSSelectorNodeLabelDoesNotMatch",
			message: "Pod was rejected: Failed to admit pod as the `kubernetes.io/os` label doesn't match node label",
			mutate:  func(p *corev1.Pod) { p.Labels = map[string]string{"kubernetes.io/os": "linux"} },
		},
		{
			row: "B3", name: "node-selector", reason: "NodeAffinity",
			message: "Pod was rejected: Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector",
			mutate:  func(p *corev1.Pod) { p.Spec.NodeSelector = map[string]string{"kubernetes.io/os": "linux"} },
		},
	}
	b := suite.Feature("the Windows kubelet refuses pods it cannot run", "scheduling", "any", "B1", "B2", "B3")
	for _, tt := range tests {
		b = b.Assess(tt.row+" "+tt.reason, func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			node := windowsNode(ctx, t, cfg)
			ns := suite.Namespace(ctx, t, cs, "admission-"+tt.name)
			pod := &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{Name: tt.name},
				Spec: corev1.PodSpec{
					NodeName:      node,
					RestartPolicy: corev1.RestartPolicyNever,
					Containers: []corev1.Container{{
						Name:    "c",
						Image:   "mcr.microsoft.com/windows/nanoserver:ltsc2022",
						Command: []string{"cmd", "/c", "ping -t localhost"},
					}},
				},
			}
			tt.mutate(pod)
			suite.UseScheduler(pod) // no scheduler binds it (spec.nodeName), but every pod of the suite names the one under test
			if _, err := cs.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			got := suite.WaitPod(ctx, t, cs, ns, tt.name, 30*time.Second, "Failed", suite.Failed)
			suite.ObjectEvidence(t, fmt.Sprintf("pod %s/%s status (%s): phase %s, reason %s", ns, tt.name, tt.row, got.Status.Phase, got.Status.Reason), got.Status)
			if got.Status.Reason != tt.reason || got.Status.Message != tt.message {
				t.Errorf("[%s] status reason %q message %q\nwant reason %q message %q", tt.row, got.Status.Reason, got.Status.Message, tt.reason, tt.message)
			}
			// The kubelet's event carries the message without the status'
			// "Pod was rejected: " prefix (pkg/kubelet/kubelet.go rejectPod).
			ev := suite.WaitEvent(ctx, t, cs, ns, "Pod", tt.name, tt.reason, strings.TrimPrefix(tt.message, "Pod was rejected: "), 10*time.Second)
			suite.EventEvidence(t, ev)
			if ev.Type != corev1.EventTypeWarning {
				t.Errorf("[%s] event type %s, want Warning", tt.row, ev.Type)
			}
			return ctx
		})
	}
	testenv.Test(t, b.Feature())
}

// windowsNode is a Windows node of the cluster.
func windowsNode(ctx context.Context, t *testing.T, cfg *envconf.Config) string {
	t.Helper()
	nodes, err := suite.Clientset(t, cfg).CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: "kubernetes.io/os=windows"})
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes.Items) == 0 {
		t.Skip("no Windows node in the cluster")
	}
	return nodes.Items[0].Name
}
