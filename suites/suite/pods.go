package suite

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"wink.dev/wink/simnode/facts"
)

// Builds of the default cluster's Windows nodes (row N2).
const (
	Build2019 = facts.WindowsServer2019
	Build2022 = facts.WindowsServer2022
)

// WindowsPod is a pod that the docs' practice puts on a Windows node of
// build: spec.os, the OS and build selectors and the os=windows toleration
// (rows S2, S3). Its image is nanoserver of that build.
func WindowsPod(name, build string, command ...string) *corev1.Pod {
	tag := map[string]string{Build2019: "ltsc2019", Build2022: "ltsc2022"}[build]
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: corev1.PodSpec{
			OS: facts.Windows.PodOS(),
			NodeSelector: map[string]string{
				facts.LabelOS:            facts.Windows.String(),
				corev1.LabelWindowsBuild: build,
			},
			Tolerations: []corev1.Toleration{facts.WindowsToleration()},
			Containers: []corev1.Container{{
				Name:    "main",
				Image:   "mcr.microsoft.com/windows/nanoserver:" + tag,
				Command: command,
			}},
		},
	}
}

// LinuxPod is the Linux counterpart of WindowsPod, for side-by-side cases.
func LinuxPod(name string, command ...string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: corev1.PodSpec{
			OS:           facts.Linux.PodOS(),
			NodeSelector: map[string]string{facts.LabelOS: facts.Linux.String()},
			Containers: []corev1.Container{{
				Name:    "main",
				Image:   "registry.k8s.io/e2e-test-images/busybox:1.37.0-1",
				Command: command,
			}},
		},
	}
}

// CreatePod creates a pod, naming the suite's target scheduler
// (UseScheduler), and fails the test on error.
func CreatePod(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string, pod *corev1.Pod) {
	t.Helper()
	UseScheduler(pod)
	if _, err := cs.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating pod %s: %v", pod.Name, err)
	}
}

// RunPod creates a pod and waits until it is Running and Ready.
func RunPod(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string, pod *corev1.Pod) *corev1.Pod {
	t.Helper()
	CreatePod(ctx, t, cs, ns, pod)
	return WaitPod(ctx, t, cs, ns, pod.Name, time.Minute, "Running", Running)
}

// Logs returns a container's log through the apiserver (`kubectl logs`).
func Logs(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, pod, container string) string {
	t.Helper()
	data, err := cs.CoreV1().Pods(ns).GetLogs(pod, &corev1.PodLogOptions{Container: container}).DoRaw(ctx)
	if err != nil {
		t.Fatalf("logs of %s/%s: %v", ns, pod, err)
	}
	return string(data)
}

// Succeeded is a WaitPod condition: phase Succeeded.
func Succeeded(p *corev1.Pod) bool { return p.Status.Phase == corev1.PodSucceeded }

// Waiting is a WaitPod condition maker: a container waiting with reason.
func Waiting(reason string) func(*corev1.Pod) bool {
	return func(p *corev1.Pod) bool {
		for _, c := range append(p.Status.InitContainerStatuses, p.Status.ContainerStatuses...) {
			if c.State.Waiting != nil && c.State.Waiting.Reason == reason {
				return true
			}
		}
		return false
	}
}
