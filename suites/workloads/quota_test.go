package workloads

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// TestResourceQuota checks row A24 for ResourceQuota: the quota admission
// plugin counts Windows pods and their requests like any others, refuses the
// one over quota with the apiserver's exact message, and stops counting a
// Windows pod once its node reports it Succeeded.
func TestResourceQuota(t *testing.T) {
	f := suite.Feature("a ResourceQuota counts Windows pods and refuses the one over quota", "workloads", "any", "A24").
		Assess("pods=2, requests.cpu=1: the apiserver's `exceeded quota` for CPU, then for the pod count", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "quota")
			const name = "windows-quota"
			rq := &corev1.ResourceQuota{
				ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec: corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{
					corev1.ResourcePods:        resource.MustParse("2"),
					corev1.ResourceRequestsCPU: resource.MustParse("1"),
				}},
			}
			if _, err := cs.CoreV1().ResourceQuotas(ns).Create(ctx, rq, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			// Admission refuses every pod ("status unknown for quota")
			// until the quota controller has filled in status.hard.
			waitQuota(ctx, t, cs, ns, name, "status.hard set by the quota controller", func(q *corev1.ResourceQuota) bool { return len(q.Status.Hard) == 2 })

			suite.RunPod(ctx, t, cs, ns, quotaPod("first", "600m"))
			q := waitQuota(ctx, t, cs, ns, name, "pods=1, requests.cpu=600m used", used("1", "600m"))
			suite.ObjectEvidence(t, fmt.Sprintf("[A24] ResourceQuota %s after the first Windows pod: used %s", name, quantities(q.Status.Used)), q.Status)

			// plugin/pkg/admission/resourcequota (k8s.io/apiserver
			// pkg/admission/plugin/resourcequota/controller.go:622) through
			// admission.NewForbidden: `pods "<name>" is forbidden: exceeded
			// quota: <quota>, requested: <r>, used: <u>, limited: <l>`.
			refused(ctx, t, cs, ns, quotaPod("too-much-cpu", "500m"),
				`pods "too-much-cpu" is forbidden: exceeded quota: windows-quota, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1`)

			// A Windows pod counts while it runs (ping -n 3 takes two
			// seconds) and no longer once it has Succeeded.
			done := quotaPod("done", "200m", "ping", "-n", "3", "127.0.0.1")
			done.Spec.RestartPolicy = corev1.RestartPolicyNever
			suite.CreatePod(ctx, t, cs, ns, done)
			waitQuota(ctx, t, cs, ns, name, "pods=2, requests.cpu=800m used while pod done runs", used("2", "800m"))
			suite.WaitPod(ctx, t, cs, ns, done.Name, time.Minute, "Succeeded", suite.Succeeded)
			q = waitQuota(ctx, t, cs, ns, name, "pods=1, requests.cpu=600m used once pod done Succeeded", used("1", "600m"))
			suite.ObjectEvidence(t, fmt.Sprintf("[A24] ResourceQuota %s after Windows pod done Succeeded: used %s", name, quantities(q.Status.Used)), q.Status)

			suite.RunPod(ctx, t, cs, ns, quotaPod("second", "300m"))
			q = waitQuota(ctx, t, cs, ns, name, "pods=2, requests.cpu=900m used", used("2", "900m"))
			suite.ObjectEvidence(t, fmt.Sprintf("[A24] ResourceQuota %s with two Running Windows pods: used %s", name, quantities(q.Status.Used)), q.Status)
			refused(ctx, t, cs, ns, quotaPod("third", "50m"),
				`pods "third" is forbidden: exceeded quota: windows-quota, requested: pods=1, used: pods=2, limited: pods=2`)
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// quotaPod is a Windows pod requesting cpu, running command (by default a
// long-running ping).
func quotaPod(name, cpu string, command ...string) *corev1.Pod {
	if len(command) == 0 {
		command = []string{"ping", "-t", "localhost"}
	}
	p := suite.WindowsPod(name, suite.Build2022, command...)
	p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}
	return p
}

// used is a waitQuota condition: status.used is pods and requests.cpu.
func used(pods, cpu string) func(*corev1.ResourceQuota) bool {
	return func(q *corev1.ResourceQuota) bool {
		p, c := q.Status.Used[corev1.ResourcePods], q.Status.Used[corev1.ResourceRequestsCPU]
		return p.Cmp(resource.MustParse(pods)) == 0 && c.Cmp(resource.MustParse(cpu)) == 0
	}
}

// waitQuota waits until a ResourceQuota satisfies done and returns it.
func waitQuota(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, name, what string, done func(*corev1.ResourceQuota) bool) *corev1.ResourceQuota {
	t.Helper()
	var q *corev1.ResourceQuota
	pollUntil(ctx, t, 30*time.Second, fmt.Sprintf("[A24] ResourceQuota %s/%s: %s", ns, name, what), func(ctx context.Context) bool {
		got, err := cs.CoreV1().ResourceQuotas(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false
		}
		q = got
		return done(got)
	}, func() string {
		if q == nil {
			return "not found"
		}
		return fmt.Sprintf("hard %s, used %s", quantities(q.Status.Hard), quantities(q.Status.Used))
	})
	return q
}

// refused creates pod and checks that the apiserver refuses it with 403
// Forbidden and exactly want, which it records as evidence.
func refused(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string, pod *corev1.Pod, want string) {
	t.Helper()
	_, err := cs.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
	if err == nil {
		t.Errorf("[A24] pod %s was admitted, want it refused with %q", pod.Name, want)
		return
	}
	suite.Evidence(t, suite.EvidenceObject, fmt.Sprintf("[A24] pod %s refused: %s", pod.Name, apierrors.ReasonForError(err)), err.Error())
	if !apierrors.IsForbidden(err) || err.Error() != want {
		t.Errorf("[A24] creating pod %s: %v, want 403 Forbidden %q", pod.Name, err, want)
	}
}

// quantities prints a resource list as the quota admission plugin does:
// name=quantity, sorted, comma-separated.
func quantities(l corev1.ResourceList) string {
	var parts []string
	for name, q := range l {
		parts = append(parts, string(name)+"="+q.String())
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}
