package resources

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// TestTopAndHPA: B16 (`kubectl top`) and A24 (HPA with Windows pods),
// through the real metrics-server and the real HPA controller.
func TestTopAndHPA(t *testing.T) {
	t.Parallel() // see main_test.go
	f := suite.Feature("kubectl top and a CPU HPA work with Windows pods", "resources", "any", "B16", "A24").
		Assess("kubectl top nodes / top pod: metrics.k8s.io lists every Windows node and the pod", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "top")
			pod := suiteWindowsPod("top", "ping", "-t", "localhost")
			if cluster.Simulated {
				withUsage(pod, "main", "250m", "100Mi")
			}
			suite.RunPod(ctx, t, cs, ns, pod)

			nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: "kubernetes.io/os=windows"})
			if err != nil || len(nodes.Items) == 0 {
				t.Fatalf("no Windows nodes: %v", err)
			}
			var list metricsv1beta1.NodeMetricsList
			var missing []string
			var last error
			err = wait.PollUntilContextTimeout(ctx, time.Second, metricsWait, true, func(ctx context.Context) (bool, error) {
				if last = metricsGet(ctx, cs, &list, "nodes"); last != nil {
					return false, nil
				}
				have := map[string]bool{}
				for _, m := range list.Items {
					have[m.Name] = true
				}
				missing = missing[:0]
				for _, n := range nodes.Items {
					if !have[n.Name] {
						missing = append(missing, n.Name)
					}
				}
				return len(missing) == 0, nil
			})
			if err != nil {
				t.Fatalf("[B16] metrics.k8s.io/v1beta1/nodes after %s: missing Windows nodes %v (last error %v)", metricsWait, missing, last)
			}
			var rows []string
			for _, m := range list.Items {
				cpu, mem := m.Usage[corev1.ResourceCPU], m.Usage[corev1.ResourceMemory]
				rows = append(rows, fmt.Sprintf("%s\t%dm\t%dMi", m.Name, cpu.MilliValue(), mem.Value()>>20))
				if mem.IsZero() {
					suite.Fail(t, "B16", "memory of node "+m.Name+" in metrics.k8s.io", mem.String(), "> 0")
				}
			}
			sort.Strings(rows)
			suite.Evidence(t, suite.EvidenceObject, fmt.Sprintf("kubectl top nodes: %d nodes", len(list.Items)), fmt.Sprintf("NAME\tCPU\tMEMORY\n%s", joinLines(rows)))

			pm, c := waitPodMetrics(ctx, t, cs, ns, "top", "main")
			cpu, mem := c.Usage[corev1.ResourceCPU], c.Usage[corev1.ResourceMemory]
			suite.ObjectEvidence(t, fmt.Sprintf("kubectl top pod top --containers: main %dm %dMi", cpu.MilliValue(), mem.Value()>>20), pm)
			if mem.IsZero() {
				suite.Fail(t, "B16", "memory of top/main in metrics.k8s.io", mem.String(), "> 0")
			}
			if cluster.Simulated {
				// The pod's annotations: 250m and 100Mi.
				if m := cpu.MilliValue(); m < 240 || m > 260 {
					suite.Fail(t, "B16", "CPU of top/main in metrics.k8s.io (it uses 250m)", cpu.String(), "about 250m")
				}
				if want := int64(100 << 20); mem.Value() != want {
					suite.Fail(t, "B16", "memory of top/main in metrics.k8s.io (it uses 100Mi)", mem.String(), "100Mi")
				}
			}
			return ctx
		}).
		Assess("an HPA on CPU scales a Windows Deployment up under load", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t) // the load is a usage annotation
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "hpa")
			tmpl := suiteWindowsPod("", "ping", "-t", "localhost")
			tmpl.Labels = map[string]string{"app": "busy"}
			// 200m requested, 1 CPU used: 500% of the request against a
			// 50% target.
			withUsage(tmpl, "main", "1", "")
			tmpl.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: mustQuantity("200m")}
			dep := &appsv1.Deployment{
				ObjectMeta: metav1.ObjectMeta{Name: "busy"},
				Spec: appsv1.DeploymentSpec{
					Replicas: ptr.To[int32](1),
					Selector: &metav1.LabelSelector{MatchLabels: tmpl.Labels},
					Template: corev1.PodTemplateSpec{ObjectMeta: tmpl.ObjectMeta, Spec: tmpl.Spec},
				},
			}
			if _, err := cs.AppsV1().Deployments(ns).Create(ctx, dep, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			hpa := &autoscalingv2.HorizontalPodAutoscaler{
				ObjectMeta: metav1.ObjectMeta{Name: "busy"},
				Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
					ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "busy"},
					MinReplicas:    ptr.To[int32](1),
					MaxReplicas:    4,
					Metrics: []autoscalingv2.MetricSpec{{
						Type: autoscalingv2.ResourceMetricSourceType,
						Resource: &autoscalingv2.ResourceMetricSource{
							Name:   corev1.ResourceCPU,
							Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: ptr.To[int32](50)},
						},
					}},
				},
			}
			if _, err := cs.AutoscalingV2().HorizontalPodAutoscalers(ns).Create(ctx, hpa, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			const timeout = 90 * time.Second
			var got *autoscalingv2.HorizontalPodAutoscaler
			err := wait.PollUntilContextTimeout(ctx, time.Second, timeout, true, func(ctx context.Context) (bool, error) {
				h, err := cs.AutoscalingV2().HorizontalPodAutoscalers(ns).Get(ctx, "busy", metav1.GetOptions{})
				if err != nil {
					return false, nil
				}
				got = h
				return h.Status.DesiredReplicas > 1, nil
			})
			if got != nil {
				suite.ObjectEvidence(t, fmt.Sprintf("HPA busy: currentReplicas %d, desiredReplicas %d", got.Status.CurrentReplicas, got.Status.DesiredReplicas), got.Status)
			}
			if err != nil {
				var events []string
				if list, lerr := cs.CoreV1().Events(ns).List(ctx, metav1.ListOptions{}); lerr == nil {
					for _, e := range list.Items {
						if e.InvolvedObject.Kind == "HorizontalPodAutoscaler" {
							events = append(events, e.Reason+": "+e.Message)
						}
					}
				}
				desired := int32(0)
				if got != nil {
					desired = got.Status.DesiredReplicas
				}
				suite.Fail(t, "A24", fmt.Sprintf("HPA busy desiredReplicas after %s (HPA events %q)", timeout, events), desired, "> 1")
				return ctx
			}
			ev := suite.WaitEvent(ctx, t, cs, ns, "HorizontalPodAutoscaler", "busy", "SuccessfulRescale", "New size", 30*time.Second)
			suite.EventEvidence(t, ev)
			d, err := cs.AppsV1().Deployments(ns).Get(ctx, "busy", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if d.Spec.Replicas == nil || *d.Spec.Replicas <= 1 {
				suite.Fail(t, "A24", "spec.replicas of Deployment busy after the HPA scaled it", d.Spec.Replicas, "> 1")
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

func joinLines(rows []string) string {
	out := ""
	for i, r := range rows {
		if i > 0 {
			out += "\n"
		}
		out += r
	}
	return out
}
