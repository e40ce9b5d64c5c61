package suite

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/env"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite/undertest"
)

// targetScheduler is the spec.schedulerName of the pods and workloads this
// suite binary creates ("": the API server's default). See TargetScheduler.
var targetScheduler string

// SchedulerProbeTimeout is how long the probe pod of TargetScheduler waits
// for a node.
const SchedulerProbeTimeout = time.Minute

// TargetScheduler makes every pod and workload that CreatePod, RunPod, Apply
// and ApplyFS create in this suite binary name the scheduler of
// $WINK_SCHEDULER_NAME (`wink test --scheduler-name`), so that the suite
// certifies that scheduler. When one is named it also adds a setup step that
// fails the suite, naming the scheduler, when no scheduler of that name
// binds a probe pod: pods naming a scheduler that does not run stay Pending
// without a word. Call it in TestMain after Setup; it returns the name ("":
// the default scheduler).
func TargetScheduler(testenv env.Environment) string {
	targetScheduler = undertest.SchedulerName()
	if targetScheduler != "" {
		name := targetScheduler
		testenv.Setup(func(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
			cs, err := kubernetes.NewForConfig(cfg.Client().RESTConfig())
			if err != nil {
				return ctx, err
			}
			return ctx, ProbeScheduler(ctx, cs, name, SchedulerProbeTimeout)
		})
	}
	return targetScheduler
}

// Scheduler is the scheduler that binds the suite's pods: the one
// TargetScheduler targets, else default-scheduler.
func Scheduler() string {
	if targetScheduler != "" {
		return targetScheduler
	}
	return corev1.DefaultSchedulerName
}

// UseScheduler sets spec.schedulerName to the target scheduler on a pod or
// on the pod template of a workload (Deployment, ReplicaSet, StatefulSet,
// DaemonSet, Job, CronJob, ReplicationController, PodTemplate). Other
// objects, and every object of a suite that targets no scheduler, are left
// as they are.
func UseScheduler(obj runtime.Object) {
	if targetScheduler == "" {
		return
	}
	if spec := podSpecOf(obj); spec != nil {
		spec.SchedulerName = targetScheduler
	}
}

// podSpecOf is the pod spec of a pod or of a workload's pod template.
func podSpecOf(obj runtime.Object) *corev1.PodSpec {
	switch o := obj.(type) {
	case *corev1.Pod:
		return &o.Spec
	case *corev1.PodTemplate:
		return &o.Template.Spec
	case *corev1.ReplicationController:
		if o.Spec.Template != nil {
			return &o.Spec.Template.Spec
		}
	case *appsv1.Deployment:
		return &o.Spec.Template.Spec
	case *appsv1.ReplicaSet:
		return &o.Spec.Template.Spec
	case *appsv1.StatefulSet:
		return &o.Spec.Template.Spec
	case *appsv1.DaemonSet:
		return &o.Spec.Template.Spec
	case *batchv1.Job:
		return &o.Spec.Template.Spec
	case *batchv1.CronJob:
		return &o.Spec.JobTemplate.Spec.Template.Spec
	}
	return nil
}

// ProbeScheduler creates a pod in default that names scheduler and tolerates
// every taint, waits up to timeout for it to be bound, and deletes it. Its
// error names the scheduler and says whether none of that name runs (the
// pod never got a PodScheduled condition) or it runs but found no node.
func ProbeScheduler(ctx context.Context, cs kubernetes.Interface, scheduler string, timeout time.Duration) error {
	const image = "registry.k8s.io/e2e-test-images/agnhost:2.59" // Linux and Windows (fixtures/images.yaml)
	probe := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{GenerateName: "wink-scheduler-probe-", Labels: map[string]string{"app.kubernetes.io/name": "wink-scheduler-probe"}},
		Spec: corev1.PodSpec{
			SchedulerName:                 scheduler,
			Tolerations:                   []corev1.Toleration{{Operator: corev1.TolerationOpExists}},
			TerminationGracePeriodSeconds: ptr.To[int64](0),
			Containers:                    []corev1.Container{{Name: "pause", Image: image, Args: []string{"pause"}}},
		},
	}
	created, err := cs.CoreV1().Pods(metav1.NamespaceDefault).Create(ctx, probe, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("scheduler under test %q (%s): creating a probe pod that names it: %w", scheduler, undertest.SchedulerEnv, err)
	}
	defer func() {
		_ = cs.CoreV1().Pods(created.Namespace).Delete(context.Background(), created.Name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)})
	}()
	last := created
	err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		p, err := cs.CoreV1().Pods(created.Namespace).Get(ctx, created.Name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		last = p
		return p.Spec.NodeName != "", nil
	})
	if err == nil {
		fmt.Fprintf(os.Stderr, "scheduler under test: %q bound probe pod %s/%s to %s\n", scheduler, last.Namespace, last.Name, last.Spec.NodeName)
		return nil
	}
	return probeError(scheduler, last, timeout)
}

// probeError says why the probe pod p of scheduler is still unbound.
func probeError(scheduler string, p *corev1.Pod, timeout time.Duration) error {
	pod := p.Namespace + "/" + p.Name
	if c := podScheduled(p); c != nil {
		return fmt.Errorf("scheduler under test %q runs but bound no node to probe pod %s (it tolerates every taint) within %s: PodScheduled %s, %s: %s",
			scheduler, pod, timeout, c.Status, c.Reason, c.Message)
	}
	return fmt.Errorf("no scheduler named %q runs in the cluster: probe pod %s (spec.schedulerName %q) stayed Pending for %s and no scheduler ever looked at it (no PodScheduled condition). "+
		"Start the scheduler under test with a profile of that schedulerName, or name one that runs with --scheduler-name (%s); wink's embedded clusters run %s",
		scheduler, pod, scheduler, timeout, undertest.SchedulerEnv, strings.Join(undertest.EmbeddedSchedulers, " and "))
}

// podScheduled is the pod's PodScheduled condition, nil if it has none.
func podScheduled(p *corev1.Pod) *corev1.PodCondition {
	for i, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// SchedulingFailure says, for a failure message, why a pod is unbound: its
// PodScheduled condition, or that no scheduler has looked at it; "" when it
// is bound or cannot be read.
func SchedulingFailure(ctx context.Context, cs kubernetes.Interface, ns, name string) string {
	p, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil || p.Spec.NodeName != "" {
		return ""
	}
	if c := podScheduled(p); c != nil {
		return fmt.Sprintf("; PodScheduled %s, %s: %s", c.Status, c.Reason, c.Message)
	}
	return unscheduledHint(p)
}

// unscheduledHint completes WaitPod's timeout message for a pod that no
// scheduler has looked at: the likely cause is a scheduler name that no
// scheduler answers to.
func unscheduledHint(p *corev1.Pod) string {
	if p.Spec.NodeName != "" || podScheduled(p) != nil {
		return ""
	}
	name := p.Spec.SchedulerName
	if name == "" {
		name = corev1.DefaultSchedulerName
	}
	return fmt.Sprintf("; no scheduler has looked at it (no PodScheduled condition): does a scheduler named %q run?", name)
}
