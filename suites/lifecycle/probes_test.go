package lifecycle

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// probedPod is a Windows Server 2022 pod that runs until stopped.
func probedPod(name string) *corev1.Pod {
	return suite.WindowsPod(name, suite.Build2022, "ping", "-t", "localhost")
}

func execAction(argv ...string) corev1.ProbeHandler {
	return corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: argv}}
}

// TestProbes: B13, probes. Readiness by exec and by httpGet, and a failing
// liveness probe that restarts the container, read from the pod status and
// the kubelet's events.
func TestProbes(t *testing.T) {
	f := suite.Feature("readiness and liveness probes work on Windows pods", "lifecycle", "any", "B13").
		Assess("readiness exec `cmd /c exit 0`: the pod becomes Ready", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "ready-exec")
			pod := probedPod("ready-exec")
			pod.Spec.Containers[0].ReadinessProbe = &corev1.Probe{ProbeHandler: execAction("cmd", "/c", "exit 0"), PeriodSeconds: 1}
			p := suite.RunPod(ctx, t, cs, ns, pod)
			suite.ObjectEvidence(t, "pod ready-exec: Ready", p.Status.Conditions)
			if cs := p.Status.ContainerStatuses; len(cs) != 1 || !cs[0].Ready {
				suite.Fail(t, "B13", "containerStatuses[main].ready with a passing readiness probe", cs, "true")
			}
			return ctx
		}).
		Assess("readiness httpGet on a port nothing listens on: Running, not Ready, `Readiness probe failed:`", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "ready-http")
			pod := probedPod("ready-http")
			pod.Spec.Containers[0].ReadinessProbe = &corev1.Probe{
				ProbeHandler:  corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/", Port: intstr.FromInt32(8080)}},
				PeriodSeconds: 1,
			}
			suite.CreatePod(ctx, t, cs, ns, pod)
			ev := suite.WaitEvent(ctx, t, cs, ns, "Pod", "ready-http", "Unhealthy", "Readiness probe failed:", time.Minute)
			suite.EventEvidence(t, ev)
			// The kubelet's events and its status updates go out apart: the
			// first probe's event may come before the Running status.
			suite.WaitPod(ctx, t, cs, ns, "ready-http", 30*time.Second, "Running", func(p *corev1.Pod) bool { return p.Status.Phase == corev1.PodRunning })
			// It stays Running and not Ready while the probe fails.
			for range 6 {
				p, err := cs.CoreV1().Pods(ns).Get(ctx, "ready-http", metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if p.Status.Phase != corev1.PodRunning || suite.Running(p) {
					suite.ObjectEvidence(t, "pod ready-http", p.Status)
					suite.Fail(t, "B13", "pod with a failing readiness probe", fmt.Sprintf("phase %s, ready %t", p.Status.Phase, suite.Running(p)), "phase Running, not Ready")
					return ctx
				}
				time.Sleep(500 * time.Millisecond)
			}
			p, _ := cs.CoreV1().Pods(ns).Get(ctx, "ready-http", metav1.GetOptions{})
			suite.ObjectEvidence(t, "pod ready-http: Running, not Ready", p.Status.Conditions)
			return ctx
		}).
		Assess("a failing liveness probe restarts the container", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "liveness")
			pod := probedPod("live")
			pod.Spec.Containers[0].LivenessProbe = &corev1.Probe{ProbeHandler: execAction("cmd", "/c", "exit 1"), PeriodSeconds: 1, FailureThreshold: 1}
			suite.CreatePod(ctx, t, cs, ns, pod)
			unhealthy := suite.WaitEvent(ctx, t, cs, ns, "Pod", "live", "Unhealthy", "Liveness probe failed", time.Minute)
			suite.EventEvidence(t, unhealthy)
			killing := suite.WaitEvent(ctx, t, cs, ns, "Pod", "live", "Killing", "Container main failed liveness probe, will be restarted", 30*time.Second)
			suite.EventEvidence(t, killing)
			p := suite.WaitPod(ctx, t, cs, ns, "live", time.Minute, "restarted", func(p *corev1.Pod) bool {
				return len(p.Status.ContainerStatuses) == 1 && p.Status.ContainerStatuses[0].RestartCount >= 1
			})
			suite.ObjectEvidence(t, fmt.Sprintf("pod live: restartCount %d", p.Status.ContainerStatuses[0].RestartCount), p.Status.ContainerStatuses[0])
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// TestHooksAndGracePeriod: B13, hooks and termination. A postStart exec
// hook writes a file the main container reads; a failing preStop hook is
// reported, a slow one delays the stop; terminationGracePeriodSeconds is
// honoured for a container that ignores the stop signal.
func TestHooksAndGracePeriod(t *testing.T) {
	f := suite.Feature("postStart and preStop hooks and the termination grace period on Windows pods", "lifecycle", "any", "B13").
		Assess("postStart exec hook writes C:\\hook.txt; the main container reads it with `type`", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "poststart")
			pod := probedPod("hooked")
			pod.Spec.Containers[0].Lifecycle = &corev1.Lifecycle{PostStart: &corev1.LifecycleHandler{
				Exec: &corev1.ExecAction{Command: []string{"cmd", "/c", `echo written by postStart> C:\hook.txt`}},
			}}
			suite.RunPod(ctx, t, cs, ns, pod)
			argv := []string{"cmd", "/c", `type C:\hook.txt`}
			var res suite.ExecResult
			// The kubelet reports the container running once postStart
			// is done; allow a moment all the same.
			deadline := time.Now().Add(10 * time.Second)
			for {
				res = suite.Exec(ctx, t, cfg, ns, "hooked", "main", argv...)
				if res.ExitCode == 0 && strings.Contains(res.Stdout, "written by postStart") || time.Now().After(deadline) {
					break
				}
				time.Sleep(500 * time.Millisecond)
			}
			suite.ExecEvidence(t, "hooked", argv, res)
			if res.ExitCode != 0 || strings.TrimSpace(res.Stdout) != "written by postStart" {
				suite.Fail(t, "B13", "`type C:\\hook.txt` in the main container after the postStart hook", fmt.Sprintf("exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.Stderr), `exit 0, "written by postStart"`)
			}
			if evs := events(ctx, t, cs, ns, "hooked", "FailedPostStartHook"); len(evs) > 0 {
				suite.Fail(t, "B13", "FailedPostStartHook events of a passing hook", evs, "none")
			}
			return ctx
		}).
		Assess("preStop: a failing hook gives FailedPreStopHook; a 3 s hook delays the stop by 3 s", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "prestop")
			failing := probedPod("prestop-fails")
			failing.Spec.Containers[0].Lifecycle = &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{
				Exec: &corev1.ExecAction{Command: []string{"cmd", "/c", "exit 3"}},
			}}
			slow := probedPod("prestop-slow")
			slow.Spec.Containers[0].Lifecycle = &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{
				Exec: &corev1.ExecAction{Command: []string{"cmd", "/c", "ping -n 4 127.0.0.1 > nul"}},
			}}
			suite.RunPod(ctx, t, cs, ns, failing)
			suite.RunPod(ctx, t, cs, ns, slow)

			if err := cs.CoreV1().Pods(ns).Delete(ctx, "prestop-fails", metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
			ev := suite.WaitEvent(ctx, t, cs, ns, "Pod", "prestop-fails", "FailedPreStopHook", "PreStopHook failed", 30*time.Second)
			suite.EventEvidence(t, ev)

			took, _ := deleteAndWait(ctx, t, cs, ns, "prestop-slow", time.Minute)
			suite.Evidence(t, suite.EvidenceObject, fmt.Sprintf("pod prestop-slow (preStop `ping -n 4`, about 3 s) gone %s after its deletion", took.Round(10*time.Millisecond)), "")
			if took < 3*time.Second {
				suite.Fail(t, "B13", "time from deletion to removal of a pod whose preStop hook runs ~3 s", took, "≥ 3s")
			}
			if evs := events(ctx, t, cs, ns, "prestop-slow", "FailedPreStopHook"); len(evs) > 0 {
				suite.Fail(t, "B13", "FailedPreStopHook events of a passing hook", evs, "none")
			}
			return ctx
		}).
		Assess("terminationGracePeriodSeconds 5: a container ignoring the stop signal takes ≥ 5 s to go; one that stops takes much less", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "grace")
			grace := int64(5)
			stubborn := probedPod("stubborn")
			stubborn.Annotations = map[string]string{"wink.dev/ignore-sigterm": "true"}
			stubborn.Spec.TerminationGracePeriodSeconds = &grace
			polite := probedPod("polite")
			polite.Spec.TerminationGracePeriodSeconds = &grace
			suite.RunPod(ctx, t, cs, ns, stubborn)
			suite.RunPod(ctx, t, cs, ns, polite)

			slowTook, slowLast := deleteAndWait(ctx, t, cs, ns, "stubborn", time.Minute)
			fastTook, _ := deleteAndWait(ctx, t, cs, ns, "polite", time.Minute)
			if slowLast != nil {
				suite.ObjectEvidence(t, fmt.Sprintf("pod stubborn as last seen before it was gone: deletionTimestamp %v, deletionGracePeriodSeconds %v", slowLast.DeletionTimestamp, ptrString(slowLast.DeletionGracePeriodSeconds)), map[string]any{
					"metadata": map[string]any{"deletionTimestamp": slowLast.DeletionTimestamp, "deletionGracePeriodSeconds": slowLast.DeletionGracePeriodSeconds},
					"status":   slowLast.Status,
				})
			}
			suite.Evidence(t, suite.EvidenceObject, fmt.Sprintf("grace 5 s: stubborn (ignores the stop signal) gone after %s, polite after %s", slowTook.Round(10*time.Millisecond), fastTook.Round(10*time.Millisecond)), "")
			if slowTook < time.Duration(grace)*time.Second {
				suite.Fail(t, "B13", "time from deletion to removal of a pod ignoring the stop signal, grace 5 s", slowTook, "≥ 5s")
			}
			if fastTook > 3*time.Second {
				suite.Fail(t, "B13", "time from deletion to removal of a pod that stops when asked, grace 5 s", fastTook, "well under 5s (≤ 3s)")
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// deleteAndWait deletes a pod with its own grace period and returns how
// long it took to be gone from the API, and the last state of it seen.
func deleteAndWait(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, name string, timeout time.Duration) (time.Duration, *corev1.Pod) {
	t.Helper()
	start := time.Now()
	if err := cs.CoreV1().Pods(ns).Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	var last *corev1.Pod
	err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		p, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err == nil {
			last = p
		}
		return apierrors.IsNotFound(err), nil
	})
	if err != nil {
		t.Fatalf("pod %s/%s still there %s after its deletion", ns, name, timeout)
	}
	return time.Since(start), last
}

// events lists the messages of a pod's events with reason.
func events(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, pod, reason string) []string {
	t.Helper()
	list, err := cs.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: fields.Set{"involvedObject.name": pod, "reason": reason}.AsSelector().String()})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range list.Items {
		out = append(out, e.Message)
	}
	return out
}

func ptrString(p *int64) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}
