package workloads

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// The scheduler's strings for a preemption (k8s.io/kubernetes v1.35.4,
// pkg/scheduler/framework/preemption/preemption.go:191 and 216): the
// message of the victim's DisruptionTarget condition, after the preemptor's
// spec.schedulerName, and the victim's Normal event Preempted.
const (
	preemptionMessage = "%s: preempting to accommodate a higher priority pod"
	preemptedEvent    = "Preempted by pod %s on node %s"
)

// TestPreemption checks row A24 for scheduler preemption: on a Windows node
// whose free CPU two low-priority Windows pods take, a high-priority Windows
// pod that only fits by preemption is nominated to the node, one victim gets
// the DisruptionTarget condition (reason PreemptionByScheduler) and is
// deleted, the other stays, and the preemptor runs on the node. The node and
// the requests come from the node's allocatable CPU and the pods on it, so
// the feature holds on any cluster with a Windows Server 2022 node.
func TestPreemption(t *testing.T) {
	f := suite.Feature("the scheduler preempts a low-priority Windows pod for a high-priority one", "workloads", "any", "A24").
		Assess("victim DisruptionTarget/PreemptionByScheduler and deleted; preemptor nominated, then Running on the node", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "preemption")
			node, free := freestNode(ctx, t, cs, suite.Build2022)
			half := resource.NewMilliQuantity(free/2, resource.DecimalSI)
			t.Logf("node %s: %dm CPU free; each pod requests %s", node, free, half)
			// The victims' class is below that of pods without one (0), so
			// that on a shared cluster the scheduler picks them first.
			low := priorityClass(ctx, t, cs, ns+"-low", -100)
			high := priorityClass(ctx, t, cs, ns+"-high", 1000)

			victims := []string{"victim-0", "victim-1"}
			for _, name := range victims {
				suite.RunPod(ctx, t, cs, ns, pinnedPod(name, node, low, half))
			}
			list, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			w, err := cs.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Stop()
			preemptor := pinnedPod("preemptor", node, high, half)
			suite.CreatePod(ctx, t, cs, ns, preemptor)
			seen := watchPreemption(ctx, t, w, node, 90*time.Second)

			if seen.nominated != node {
				suite.Fail(t, "A24", "preemptor's status.nominatedNodeName while Pending", seen.nominated, node)
			}
			suite.ObjectEvidence(t, fmt.Sprintf("[A24] preemptor Pending: nominatedNodeName %s", seen.nominated), seen.pending.Status)
			if len(seen.deleted) != 1 {
				suite.Fail(t, "A24", "victims deleted", seen.deleted, "exactly one of "+fmt.Sprint(victims))
			}
			for _, v := range seen.deleted {
				c, ok := seen.disrupted[v]
				if !ok {
					t.Errorf("[A24] victim %s was deleted without a DisruptionTarget condition", v)
					continue
				}
				suite.ObjectEvidence(t, fmt.Sprintf("[A24] victim %s: %s %s, reason %s", v, c.Type, c.Status, c.Reason), c)
				msg := fmt.Sprintf(preemptionMessage, seen.running.Spec.SchedulerName)
				if c.Status != corev1.ConditionTrue || c.Reason != corev1.PodReasonPreemptionByScheduler || c.Message != msg {
					suite.Fail(t, "A24", "DisruptionTarget condition of "+v, fmt.Sprintf("%s %s %q", c.Status, c.Reason, c.Message),
						fmt.Sprintf("True %s %q", corev1.PodReasonPreemptionByScheduler, msg))
				}
				ev := suite.WaitEvent(ctx, t, cs, ns, "Pod", v, "Preempted", fmt.Sprintf(preemptedEvent, seen.running.UID, node), 30*time.Second)
				suite.EventEvidence(t, ev)
			}
			for _, v := range victims {
				if slices.Contains(seen.deleted, v) {
					continue
				}
				p := suite.WaitPod(ctx, t, cs, ns, v, 5*time.Second, "still Running", suite.Running)
				if p.DeletionTimestamp != nil {
					t.Errorf("[A24] victim %s is being deleted too: one victim frees enough CPU", v)
				}
			}
			suite.ObjectEvidence(t, fmt.Sprintf("[A24] preemptor Running on %s (nominatedNodeName now %q)", seen.running.Spec.NodeName, seen.running.Status.NominatedNodeName), seen.running.Status)
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// preemptionSeen is what a watch saw of a preemption.
type preemptionSeen struct {
	nominated string                         // the preemptor's nominatedNodeName while Pending
	pending   *corev1.Pod                    // the preemptor when nominated
	disrupted map[string]corev1.PodCondition // victim → its DisruptionTarget condition
	deleted   []string                       // victims deleted
	running   *corev1.Pod                    // the preemptor, Running on the node
}

// watchPreemption follows w until the preemptor runs on node and a victim
// is gone. The watch sees the victim's condition, which is gone with the pod
// once its node has stopped it, and the preemptor's nominatedNodeName,
// which the scheduler clears once the pod is bound
// (ClearingNominatedNodeNameAfterBinding, beta in v1.35).
func watchPreemption(ctx context.Context, t *testing.T, w watch.Interface, node string, timeout time.Duration) preemptionSeen {
	t.Helper()
	seen := preemptionSeen{disrupted: map[string]corev1.PodCondition{}}
	var last *corev1.Pod
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for seen.running == nil || len(seen.deleted) == 0 {
		select {
		case <-timer.C:
			t.Fatalf("[A24] within %s: nominated %q, victims deleted %v, preemptor last %s on %q (nominated %q)", timeout, seen.nominated, seen.deleted,
				last.Status.Phase, last.Spec.NodeName, last.Status.NominatedNodeName)
		case ev, ok := <-w.ResultChan():
			if !ok {
				t.Fatalf("[A24] the pod watch closed before the preemption was over")
			}
			p, ok := ev.Object.(*corev1.Pod)
			if !ok {
				continue
			}
			if p.Name == "preemptor" {
				last = p
				if p.Status.NominatedNodeName != "" && p.Spec.NodeName == "" && seen.nominated == "" {
					seen.nominated, seen.pending = p.Status.NominatedNodeName, p
				}
				if p.Spec.NodeName == node && suite.Running(p) {
					seen.running = p
				}
				continue
			}
			for _, c := range p.Status.Conditions {
				if c.Type == corev1.DisruptionTarget {
					seen.disrupted[p.Name] = c
				}
			}
			if ev.Type == watch.Deleted {
				seen.deleted = append(seen.deleted, p.Name)
			}
		}
	}
	return seen
}

// pinnedPod is a Windows pod of build 2022 with priorityClass, requesting
// cpu, that only node's name lets it run on (node affinity on metadata.name,
// as upstream test/e2e/scheduling/preemption.go pins its pods).
func pinnedPod(name, node, priorityClass string, cpu *resource.Quantity) *corev1.Pod {
	p := suite.WindowsPod(name, suite.Build2022, "ping", "-t", "localhost")
	p.Spec.PriorityClassName = priorityClass
	p.Spec.TerminationGracePeriodSeconds = ptr.To[int64](1)
	p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: *cpu}
	p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
			MatchFields: []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{node}}},
		}}},
	}}
	return p
}

// priorityClass creates a PriorityClass and deletes it when the test ends.
func priorityClass(ctx context.Context, t *testing.T, cs kubernetes.Interface, name string, value int32) string {
	t.Helper()
	pc := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Value: value}
	if _, err := cs.SchedulingV1().PriorityClasses().Create(ctx, pc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.SchedulingV1().PriorityClasses().Delete(context.Background(), name, metav1.DeleteOptions{})
	})
	return name
}

// freestNode is the schedulable Windows node of build with the most free
// CPU: allocatable minus the requests of the pods bound to it, as the
// scheduler counts them. It waits until no pod on the node is being deleted,
// so that no CPU comes free behind the test's back.
func freestNode(ctx context.Context, t *testing.T, cs kubernetes.Interface, build string) (string, int64) {
	t.Helper()
	var best string
	var bestFree int64
	var why string
	pollUntil(ctx, t, time.Minute, "[A24] a Windows node of build "+build+" with free CPU and no pod being deleted", func(ctx context.Context) bool {
		best, bestFree, why = "", 0, ""
		for _, n := range windowsNodes(ctx, t, cs)[build] {
			if n.Spec.Unschedulable {
				continue
			}
			pods, err := cs.CoreV1().Pods("").List(ctx, metav1.ListOptions{FieldSelector: fields.OneTermEqualSelector("spec.nodeName", n.Name).String()})
			if err != nil {
				return false
			}
			free := n.Status.Allocatable.Cpu().MilliValue()
			for i := range pods.Items {
				p := &pods.Items[i]
				if p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
					continue
				}
				if p.DeletionTimestamp != nil {
					why = fmt.Sprintf("pod %s/%s on %s is being deleted", p.Namespace, p.Name, n.Name)
					return false
				}
				free -= cpuRequest(p)
			}
			if free > bestFree {
				best, bestFree = n.Name, free
			}
		}
		return bestFree >= 200
	}, func() string { return fmt.Sprintf("best %q with %dm free; %s", best, bestFree, why) })
	return best, bestFree
}

// cpuRequest is a pod's CPU request as the scheduler sums it for pods
// without sidecars: the larger of its containers' sum and any init
// container's, plus the pod overhead.
func cpuRequest(p *corev1.Pod) int64 {
	var sum, init int64
	for _, c := range p.Spec.Containers {
		sum += c.Resources.Requests.Cpu().MilliValue()
	}
	for _, c := range p.Spec.InitContainers {
		init = max(init, c.Resources.Requests.Cpu().MilliValue())
	}
	return max(sum, init) + p.Spec.Overhead.Cpu().MilliValue()
}
