package scheduling

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	resourcehelper "k8s.io/component-helpers/resource"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// TestAllocatableFit: row N5 as the scheduler under test sees it. A
// Windows node's allocatable is its capacity less kubeReserved,
// systemReserved and, for memory, the hard eviction threshold; pods fit
// into allocatable, not capacity: a request between the two stays Pending
// with Insufficient memory/cpu (A17's FailedScheduling), and what is left of
// allocatable after the node's pods fits.
func TestAllocatableFit(t *testing.T) {
	resources := []corev1.ResourceName{corev1.ResourceMemory, corev1.ResourceCPU}
	b := suite.Feature("pods fit a Windows node's allocatable, not its capacity", "scheduling", "any", "N5", "A17")
	for _, r := range resources {
		b = b.Assess(fmt.Sprintf("a %s request above allocatable but within capacity stays Pending (N5, A17)", r), func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			node := firstWindowsNode(ctx, t, cs)
			capacity, allocatable := node.Status.Capacity[r], node.Status.Allocatable[r]
			if capacity.Cmp(allocatable) <= 0 {
				t.Skipf("node %s reserves no %s: capacity %s, allocatable %s", node.Name, r, capacity.String(), allocatable.String())
			}
			// Halfway between allocatable and capacity.
			request := halfway(r, allocatable, capacity)
			ns := suite.Namespace(ctx, t, cs, "n5-above-"+string(r))
			pod := pinnedPod("above-allocatable", node.Name, corev1.ResourceList{r: request})
			suite.CreatePod(ctx, t, cs, ns, pod)
			nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf("0/%d nodes are available: 1 Insufficient %s", len(nodes.Items), r)
			ev := suite.WaitEvent(ctx, t, cs, ns, "Pod", pod.Name, "FailedScheduling", want, 30*time.Second)
			suite.EventEvidence(t, ev)
			suite.Evidence(t, suite.EvidenceObject, fmt.Sprintf("[N5] node %s %s: capacity %s, allocatable %s; pod requests %s", node.Name, r, capacity.String(), allocatable.String(), request.String()), "")
			got, err := cs.CoreV1().Pods(ns).Get(ctx, pod.Name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Spec.NodeName != "" {
				t.Errorf("[N5] pod requesting %s %s (node %s allocatable %s, capacity %s) was bound to %s", request.String(), r, node.Name, allocatable.String(), capacity.String(), got.Spec.NodeName)
			}
			return ctx
		})
	}
	b = b.Assess("what is left of allocatable after the node's pods fits (N5)", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
		cs := suite.Clientset(t, cfg)
		node := firstWindowsNode(ctx, t, cs)
		ns := suite.Namespace(ctx, t, cs, "n5-fits")
		// Features running beside this one (--parallel) may add pods to the
		// node between the sum and the binding: then the sum is taken again.
		for attempt := 1; ; attempt++ {
			used := requestedOn(ctx, t, cs, node.Name)
			left := corev1.ResourceList{}
			for _, r := range resources {
				q := node.Status.Allocatable[r].DeepCopy()
				q.Sub(used[r])
				if q.Sign() <= 0 {
					alloc, req := node.Status.Allocatable[r], used[r]
					t.Skipf("node %s has no %s left: allocatable %s, requested %s", node.Name, r, alloc.String(), req.String())
				}
				left[r] = q
			}
			pod := pinnedPod(fmt.Sprintf("rest-of-allocatable-%d", attempt), node.Name, left)
			suite.CreatePod(ctx, t, cs, ns, pod)
			bound, err := waitBound(ctx, cs, ns, pod.Name, 20*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			mem, cpu := left[corev1.ResourceMemory], left[corev1.ResourceCPU]
			if bound != "" {
				suite.Evidence(t, suite.EvidenceObject, fmt.Sprintf("[N5] pod requesting the rest of %s's allocatable (memory %s, cpu %s) bound to %s", node.Name, mem.String(), cpu.String(), bound), "")
				if bound != node.Name {
					t.Errorf("[N5] pod bound to %s, want %s", bound, node.Name)
				}
				// Give the node back to the features beside this one.
				_ = cs.CoreV1().Pods(ns).Delete(ctx, pod.Name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)})
				return ctx
			}
			if now := requestedOn(ctx, t, cs, node.Name); attempt == 3 || equalRequests(now, used, resources) {
				t.Fatalf("[N5] pod requesting the rest of %s's allocatable (memory %s, cpu %s; allocatable %v less the node's pods' requests %v) is not bound after 20s%s",
					node.Name, mem.String(), cpu.String(), node.Status.Allocatable, used, suite.SchedulingFailure(ctx, cs, ns, pod.Name))
			}
			_ = cs.CoreV1().Pods(ns).Delete(ctx, pod.Name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)})
		}
	})
	testenv.Test(t, b.Feature())
}

// firstWindowsNode is the Windows node whose name sorts first.
func firstWindowsNode(ctx context.Context, t *testing.T, cs kubernetes.Interface) corev1.Node {
	t.Helper()
	nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: "kubernetes.io/os=windows"})
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes.Items) == 0 {
		t.Skip("no Windows node in the cluster")
	}
	first := nodes.Items[0]
	for _, n := range nodes.Items[1:] {
		if n.Name < first.Name {
			first = n
		}
	}
	return first
}

// halfway is the quantity halfway between lo and hi, in the resource's
// unit (millicores for cpu, bytes otherwise).
func halfway(r corev1.ResourceName, lo, hi resource.Quantity) resource.Quantity {
	if r == corev1.ResourceCPU {
		return *resource.NewMilliQuantity((lo.MilliValue()+hi.MilliValue())/2, resource.DecimalSI)
	}
	return *resource.NewQuantity((lo.Value()+hi.Value())/2, resource.BinarySI)
}

// pinnedPod is a pod for node only (hostname selector, the os=windows
// toleration) that requests res.
func pinnedPod(name, node string, res corev1.ResourceList) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: corev1.PodSpec{
			NodeSelector: map[string]string{"kubernetes.io/hostname": node},
			Tolerations:  []corev1.Toleration{{Key: "os", Operator: corev1.TolerationOpEqual, Value: "windows", Effect: corev1.TaintEffectNoSchedule}},
			Containers: []corev1.Container{{
				Name: "main", Image: "registry.k8s.io/e2e-test-images/agnhost:2.59", Args: []string{"pause"},
				Resources: corev1.ResourceRequirements{Requests: res},
			}},
		},
	}
}

// requestedOn sums the requests of the pods bound to node that have not
// finished, the way the scheduler's NodeResourcesFit does
// (component-helpers' PodRequests).
func requestedOn(ctx context.Context, t *testing.T, cs kubernetes.Interface, node string) corev1.ResourceList {
	t.Helper()
	pods, err := cs.CoreV1().Pods("").List(ctx, metav1.ListOptions{FieldSelector: fields.OneTermEqualSelector("spec.nodeName", node).String()})
	if err != nil {
		t.Fatal(err)
	}
	sum := corev1.ResourceList{}
	for i := range pods.Items {
		p := &pods.Items[i]
		if p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
			continue
		}
		for r, q := range resourcehelper.PodRequests(p, resourcehelper.PodResourcesOptions{}) {
			total := sum[r]
			total.Add(q)
			sum[r] = total
		}
	}
	return sum
}

// waitBound waits up to timeout for the pod to be bound and returns its
// node, "" if it is still unbound.
func waitBound(ctx context.Context, cs kubernetes.Interface, ns, name string, timeout time.Duration) (string, error) {
	var node string
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		p, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		node = p.Spec.NodeName
		return node != "", nil
	})
	if err != nil && ctx.Err() != nil {
		return "", ctx.Err()
	}
	return node, nil
}

// equalRequests says whether a and b request the same of each resource.
func equalRequests(a, b corev1.ResourceList, resources []corev1.ResourceName) bool {
	for _, r := range resources {
		qa, qb := a[r], b[r]
		if qa.Cmp(qb) != 0 {
			return false
		}
	}
	return true
}
