package webhooks

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
	"wink.dev/wink/suites/webhooks/reference"
)

func scheduled(p *corev1.Pod) bool { return p.Spec.NodeName != "" }

// TestMutation: the mutating webhook applies the docs' practice (rows S1,
// S2) so that the scheduler, which ignores spec.os (A17), places Windows
// pods on the tainted Windows nodes and Linux pods stay off them.
func TestMutation(t *testing.T) {
	f := suite.Feature("the mutating webhook gives Windows pods the OS nodeSelector and the os=windows toleration", area, "simnode", "S1", "S2", "A17", "S4").
		Assess("a Windows pod with only spec.os gets both and runs on a Windows node", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "wh-mutate-win")
			pod := windowsOnlyOS("win-only-os")
			created, err := cs.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("creating %s: %v", pod.Name, err)
			}
			suite.ObjectEvidence(t, "the Windows pod as admitted", created.Spec)
			if !hasWindowsSelector(created) {
				suite.Fail(t, "S1", "nodeSelector of the admitted Windows pod", created.Spec.NodeSelector, "kubernetes.io/os: windows")
			}
			if !hasWindowsToleration(created) {
				suite.Fail(t, "S2", "tolerations of the admitted Windows pod", created.Spec.Tolerations, "os=windows:NoSchedule")
			}
			got := suite.WaitPod(ctx, t, cs, ns, pod.Name, time.Minute, "Running", suite.Running)
			if os := nodeOS(ctx, t, cs, got); os != "windows" {
				suite.Fail(t, "S2", "OS of the node the Windows pod runs on", os, "windows")
			}
			return ctx
		}).
		Assess("Linux pods are untouched and run on Linux", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "wh-mutate-linux")
			linux := suite.LinuxPod("linux", "sleep", "3600")
			// A pod saying no OS at all is not a Windows pod either (S1: it
			// may land anywhere; the taint keeps it off Windows, S2).
			bare := suite.LinuxPod("no-os", "sleep", "3600")
			bare.Spec.OS, bare.Spec.NodeSelector = nil, nil
			for _, pod := range []*corev1.Pod{linux, bare} {
				want := pod.Spec.DeepCopy()
				created, err := cs.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
				if err != nil {
					t.Fatalf("creating %s: %v", pod.Name, err)
				}
				if !reflect.DeepEqual(created.Spec.NodeSelector, want.NodeSelector) || hasWindowsToleration(created) {
					suite.ObjectEvidence(t, "the Linux pod as admitted", created.Spec)
					suite.Fail(t, "S2", fmt.Sprintf("pod %s after admission", pod.Name),
						fmt.Sprintf("nodeSelector %v, tolerations %v", created.Spec.NodeSelector, created.Spec.Tolerations),
						fmt.Sprintf("nodeSelector %v and no os=windows toleration", want.NodeSelector))
				}
				got := suite.WaitPod(ctx, t, cs, ns, pod.Name, time.Minute, "Running", suite.Running)
				if os := nodeOS(ctx, t, cs, got); os != "linux" {
					suite.Fail(t, "S2", fmt.Sprintf("OS of the node pod %s runs on", pod.Name), os, "linux")
				}
			}
			return ctx
		}).
		Assess("a pod selecting Windows by RuntimeClass gets both", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "wh-mutate-rc")
			suffix := rand.String(5)
			// The docs' RuntimeClass (S4) carries the nodeSelector but, as on
			// a cluster whose operator forgot them, no tolerations: the
			// RuntimeClass admission plugin merges the nodeSelector (A16)
			// before the webhook adds the toleration.
			withSelector := &nodev1.RuntimeClass{
				ObjectMeta: metav1.ObjectMeta{Name: "wh-windows-sched-" + suffix},
				Handler:    "runhcs-wcow-process",
				Scheduling: &nodev1.Scheduling{NodeSelector: map[string]string{reference.OSLabel: "windows"}},
			}
			// Only the handler says Windows: the reference webhook looks the
			// RuntimeClass up.
			handlerOnly := &nodev1.RuntimeClass{ObjectMeta: metav1.ObjectMeta{Name: "wh-windows-handler-" + suffix}, Handler: "runhcs-wcow-process"}
			cases := []*nodev1.RuntimeClass{withSelector}
			if target.reference {
				cases = append(cases, handlerOnly)
			}
			for _, rc := range cases {
				if _, err := cs.NodeV1().RuntimeClasses().Create(ctx, rc, metav1.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
				name := rc.Name
				t.Cleanup(func() { _ = cs.NodeV1().RuntimeClasses().Delete(context.Background(), name, metav1.DeleteOptions{}) })
				pod := windowsOnlyOS("rc-" + rc.Name[:len(rc.Name)-len(suffix)-1])
				pod.Spec.OS = nil
				pod.Spec.RuntimeClassName = ptr.To(rc.Name)
				created, err := cs.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
				if err != nil {
					t.Fatalf("creating %s: %v", pod.Name, err)
				}
				suite.ObjectEvidence(t, fmt.Sprintf("pod with runtimeClassName %s as admitted", rc.Name), created.Spec)
				if !hasWindowsSelector(created) || !hasWindowsToleration(created) {
					suite.Fail(t, "S4", fmt.Sprintf("pod with runtimeClassName %s after admission", rc.Name),
						fmt.Sprintf("nodeSelector %v, tolerations %v", created.Spec.NodeSelector, created.Spec.Tolerations),
						"kubernetes.io/os: windows and the os=windows toleration")
				}
				got := suite.WaitPod(ctx, t, cs, ns, pod.Name, time.Minute, "scheduled", scheduled)
				if os := nodeOS(ctx, t, cs, got); os != "windows" {
					suite.Fail(t, "S4", fmt.Sprintf("OS of the node pod %s is bound to", pod.Name), os, "windows")
				}
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
