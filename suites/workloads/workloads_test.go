package workloads

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// TestContainersRunTheirCommands checks rows A22 and E: a Job's Windows
// container exits with its command's code and the Job fails; a
// long-running entrypoint keeps running.
func TestContainersRunTheirCommands(t *testing.T) {
	f := suite.Feature("containers run their commands: output is the log, exit code the container's", "workloads", "any", "A22", "E").
		Assess("a Job whose container runs `cmd /c exit 3` fails with exit code 3", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "job-exit")
			tmpl := suite.WindowsPod("", suite.Build2022, "cmd", "/c", "exit 3")
			tmpl.Spec.RestartPolicy = corev1.RestartPolicyNever
			job := &batchv1.Job{
				ObjectMeta: metav1.ObjectMeta{Name: "exit3"},
				Spec: batchv1.JobSpec{
					BackoffLimit: ptr.To[int32](0),
					Template:     corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"job": "exit3"}}, Spec: tmpl.Spec},
				},
			}
			if _, err := cs.BatchV1().Jobs(ns).Create(ctx, job, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			var exit int32 = -1
			var terminated corev1.ContainerStatus
			err := wait.PollUntilContextTimeout(ctx, poll, time.Minute, true, func(ctx context.Context) (bool, error) {
				pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "job=exit3"})
				if err != nil || len(pods.Items) == 0 {
					return false, nil
				}
				for _, c := range pods.Items[0].Status.ContainerStatuses {
					if c.State.Terminated != nil {
						exit, terminated = c.State.Terminated.ExitCode, c
						return pods.Items[0].Status.Phase == corev1.PodFailed, nil
					}
				}
				return false, nil
			})
			if err != nil || exit != 3 {
				t.Fatalf("job pod: exit code %d, phase Failed not reached (%v); want exit code 3", exit, err)
			}
			suite.ObjectEvidence(t, fmt.Sprintf("[A22] Job exit3's pod Failed: container main terminated, exit code %d, reason %s", exit, terminated.State.Terminated.Reason), terminated)
			var failed *batchv1.Job
			err = wait.PollUntilContextTimeout(ctx, poll, time.Minute, true, func(ctx context.Context) (bool, error) {
				j, err := cs.BatchV1().Jobs(ns).Get(ctx, "exit3", metav1.GetOptions{})
				if err != nil {
					return false, nil
				}
				failed = j
				for _, c := range j.Status.Conditions {
					if c.Type == batchv1.JobFailed && c.Status == corev1.ConditionTrue {
						return true, nil
					}
				}
				return false, nil
			})
			if err != nil {
				t.Errorf("[A22] job exit3 never Failed: %v", err)
			} else {
				suite.ObjectEvidence(t, "[A22] Job exit3: Failed", failed.Status)
			}
			return ctx
		}).
		Assess("a long-running entrypoint keeps running", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "long-running")
			suite.RunPod(ctx, t, cs, ns, suite.WindowsPod("pinger", suite.Build2022, "ping", "-t", "localhost"))
			time.Sleep(3 * time.Second)
			p := suite.WaitPod(ctx, t, cs, ns, "pinger", 5*time.Second, "still Running", suite.Running)
			n := p.Status.ContainerStatuses[0].RestartCount
			suite.ObjectEvidence(t, fmt.Sprintf("[A22] pod pinger (ping -t localhost) after 3s: %s, restartCount %d", p.Status.Phase, n), p.Status.ContainerStatuses[0])
			if n != 0 {
				t.Errorf("[A22] ping -t restarted %d times", n)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// TestImageCompatibility checks row B4: process isolation needs the image's
// build to be the host's; a Hyper-V RuntimeClass relaxes it (N8).
func TestImageCompatibility(t *testing.T) {
	f := suite.Feature("image and host builds must match (B4, N8)", "workloads", "any", "B4", "N8").
		Assess("an ltsc2019 image on a Windows Server 2022 node: ErrImagePull then ImagePullBackOff", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "image-build")
			pod := suite.WindowsPod("mismatch", suite.Build2022, "ping", "-t", "localhost")
			pod.Spec.Containers[0].Image = "mcr.microsoft.com/windows/nanoserver:ltsc2019"
			suite.CreatePod(ctx, t, cs, ns, pod)
			p := suite.WaitPod(ctx, t, cs, ns, pod.Name, time.Minute, "ImagePullBackOff", suite.Waiting("ImagePullBackOff"))
			suite.ObjectEvidence(t, "[B4] pod mismatch: container main waiting ImagePullBackOff", p.Status.ContainerStatuses)
			ev := suite.WaitEvent(ctx, t, cs, ns, "Pod", pod.Name, "Failed", `Failed to pull image "mcr.microsoft.com/windows/nanoserver:ltsc2019"`, 10*time.Second)
			suite.EventEvidence(t, ev)
			return ctx
		}).
		Assess("a Linux-only image on a Windows node cannot be pulled", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "linux-image")
			pod := suite.WindowsPod("nginx", suite.Build2022)
			pod.Spec.Containers[0].Image = "nginx:1.27"
			suite.CreatePod(ctx, t, cs, ns, pod)
			p := suite.WaitPod(ctx, t, cs, ns, pod.Name, time.Minute, "ErrImagePull or ImagePullBackOff", func(p *corev1.Pod) bool {
				return suite.Waiting("ErrImagePull")(p) || suite.Waiting("ImagePullBackOff")(p)
			})
			suite.ObjectEvidence(t, "[B4] pod nginx (nginx:1.27) on a Windows node: "+p.Status.ContainerStatuses[0].State.Waiting.Reason, p.Status.ContainerStatuses)
			return ctx
		}).
		Assess("with the runhcs-wcow-hypervisor handler the ltsc2019 image runs on 2022", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "hyperv")
			rc := runtimeClass(ctx, t, cs, "runhcs-wcow-hypervisor")
			pod := suite.WindowsPod("hyperv", suite.Build2022, "ping", "-t", "localhost")
			pod.Spec.Containers[0].Image = "mcr.microsoft.com/windows/nanoserver:ltsc2019"
			pod.Spec.RuntimeClassName = &rc
			p := suite.RunPod(ctx, t, cs, ns, pod)
			suite.ObjectEvidence(t, fmt.Sprintf("[N8] pod hyperv (ltsc2019 image, handler runhcs-wcow-hypervisor) Running on %s", p.Spec.NodeName), p.Status)
			return ctx
		}).
		Assess("a handler containerd does not know fails sandbox creation", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "unknown-handler")
			rc := runtimeClass(ctx, t, cs, "no-such-handler")
			pod := suite.WindowsPod("sandbox", suite.Build2022, "ping", "-t", "localhost")
			pod.Spec.RuntimeClassName = &rc
			suite.CreatePod(ctx, t, cs, ns, pod)
			ev := suite.WaitEvent(ctx, t, cs, ns, "Pod", pod.Name, "FailedCreatePodSandBox", `no runtime for "no-such-handler" is configured`, time.Minute)
			suite.EventEvidence(t, ev)
			got, err := cs.CoreV1().Pods(ns).Get(ctx, pod.Name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Status.Phase != corev1.PodPending {
				t.Errorf("[N8] pod phase %s, want Pending", got.Status.Phase)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// runtimeClass creates a cluster-scoped RuntimeClass for handler and
// deletes it when the test ends.
func runtimeClass(ctx context.Context, t *testing.T, cs kubernetes.Interface, handler string) string {
	t.Helper()
	name := "wink-" + strings.ReplaceAll(handler, "_", "-")
	rc := &nodev1.RuntimeClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Handler: handler}
	if _, err := cs.NodeV1().RuntimeClasses().Create(ctx, rc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.NodeV1().RuntimeClasses().Delete(context.Background(), name, metav1.DeleteOptions{}) })
	return name
}
