package scheduling

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// TestSchedulerUnderTest shows which scheduler the suite's verdicts are
// about: a pod the suite creates names the scheduler under test
// ($WINK_SCHEDULER_NAME, `wink test --scheduler-name`; default
// default-scheduler), and that scheduler, not another, binds it: the
// Scheduled event's reporting controller is its name, as `kubectl describe
// pod` shows under From. It cites no catalog row: it certifies the run, the
// rows S1–S5, A17, N4 and N5 of the other features are what is certified.
func TestSchedulerUnderTest(t *testing.T) {
	f := suite.Feature("the scheduler under test binds the suite's pods", "scheduling", "any").
		Assess("a pod names it and its Scheduled event comes from it", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "scheduler-under-test")
			want := suite.Scheduler()
			pod := &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{Name: "bound"},
				Spec: corev1.PodSpec{
					// Any node will do: the image runs on Linux and Windows.
					Tolerations: []corev1.Toleration{{Key: "os", Operator: corev1.TolerationOpEqual, Value: "windows", Effect: corev1.TaintEffectNoSchedule}},
					Containers:  []corev1.Container{{Name: "main", Image: "registry.k8s.io/e2e-test-images/agnhost:2.59", Args: []string{"pause"}}},
				},
			}
			suite.CreatePod(ctx, t, cs, ns, pod)
			got := suite.WaitPod(ctx, t, cs, ns, pod.Name, time.Minute, "bound to a node", func(p *corev1.Pod) bool { return p.Spec.NodeName != "" })
			if got.Spec.SchedulerName != want {
				t.Errorf("pod %s/%s spec.schedulerName %q, want the scheduler under test %q", ns, pod.Name, got.Spec.SchedulerName, want)
			}
			ev := suite.WaitEvent(ctx, t, cs, ns, "Pod", pod.Name, "Scheduled", "Successfully assigned "+ns+"/"+pod.Name+" to "+got.Spec.NodeName, 30*time.Second)
			suite.EventEvidence(t, ev)
			from := ev.ReportingController
			if from == "" {
				from = ev.Source.Component // core/v1 event recorders
			}
			suite.Evidence(t, suite.EvidenceEvent, fmt.Sprintf("pod %s/%s (schedulerName %q) bound to %s by %q", ns, pod.Name, got.Spec.SchedulerName, got.Spec.NodeName, from), ev.Message)
			if from != want {
				t.Errorf("pod %s/%s was bound by %q (Scheduled event's reportingController %q, source %q), want the scheduler under test %q",
					ns, pod.Name, from, ev.ReportingController, ev.Source.Component, want)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
