package webhooks

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"wink.dev/wink/suites/suite"
	"wink.dev/wink/suites/webhooks/reference"
)

// namespace is suite.Namespace with labels set at creation (a webhook's
// namespaceSelector must see them on the first pod).
func namespace(ctx context.Context, t *testing.T, cs kubernetes.Interface, prefix string, labels map[string]string) string {
	t.Helper()
	ns, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix + "-", Labels: labels}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.CoreV1().Namespaces().Delete(context.Background(), ns.Name, metav1.DeleteOptions{}) })
	err = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := cs.CoreV1().ServiceAccounts(ns.Name).Get(ctx, "default", metav1.GetOptions{})
		return err == nil, nil
	})
	if err != nil {
		t.Fatalf("namespace %s: no default ServiceAccount: %v", ns.Name, err)
	}
	return ns.Name
}

// skipLabels label a namespace that the webhook under test leaves alone.
func skipLabels(extra ...string) map[string]string {
	l := map[string]string{target.skipKey: target.skipValue}
	for i := 0; i+1 < len(extra); i += 2 {
		l[extra[i]] = extra[i+1]
	}
	return l
}

// hasWindowsToleration and hasWindowsSelector read what the mutating webhook
// gave a pod.
func hasWindowsToleration(p *corev1.Pod) bool {
	for _, t := range p.Spec.Tolerations {
		if t.Key == reference.TaintKey && t.Value == reference.TaintValue && t.Effect == corev1.TaintEffectNoSchedule {
			return true
		}
	}
	return false
}

func hasWindowsSelector(p *corev1.Pod) bool {
	return p.Spec.NodeSelector[reference.OSLabel] == "windows"
}

// nodeOS is the kubernetes.io/os label of the node a pod runs on.
func nodeOS(ctx context.Context, t *testing.T, cs kubernetes.Interface, p *corev1.Pod) string {
	t.Helper()
	n, err := cs.CoreV1().Nodes().Get(ctx, p.Spec.NodeName, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("node %q of pod %s: %v", p.Spec.NodeName, p.Name, err)
	}
	return n.Labels[reference.OSLabel]
}

// expectDenied creates pod in ns and wants the apiserver to refuse it with a
// message containing every part of want; it records the message as
// evidence and returns it.
func expectDenied(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string, pod *corev1.Pod, row string, want ...string) string {
	t.Helper()
	_, err := cs.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
	if err == nil {
		_ = cs.CoreV1().Pods(ns).Delete(ctx, pod.Name, metav1.DeleteOptions{})
		suite.Fail(t, row, fmt.Sprintf("creating pod %s", pod.Name), "created", fmt.Sprintf("refused with %q", want))
		return ""
	}
	msg := err.Error()
	suite.Evidence(t, suite.EvidenceObject, fmt.Sprintf("pod %s refused (%s)", pod.Name, row), msg)
	for _, w := range want {
		if !strings.Contains(msg, w) {
			suite.Fail(t, row, fmt.Sprintf("pod %s refused with", pod.Name), msg, fmt.Sprintf("a message containing %q", w))
		}
	}
	return msg
}
