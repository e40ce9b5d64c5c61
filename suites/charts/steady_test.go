package charts

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"wink.dev/wink/suites/suite"
)

// Bounds of the window a started chart is watched for: long enough for
// every probe of its pods to have run and failed once if it fails
// (initialDelaySeconds + periodSeconds + timeoutSeconds), short enough for
// a suite.
const (
	minSteady = 5 * time.Second
	maxSteady = 45 * time.Second
)

// checkSteady watches the pods of a started chart for the time its probes
// need to have run, then reports the containers that restarted or whose
// probes failed: a chart whose pods start and then crash-loop (a liveness
// probe that times out, a process that exits) runs on a real node, and
// must run on wink.
func checkSteady(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, rows, name string) {
	pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	restarts := map[string]int32{}
	window := minSteady
	for _, p := range pods.Items {
		if p.Status.Phase != corev1.PodRunning {
			continue
		}
		for _, s := range p.Status.ContainerStatuses {
			restarts[p.Name+"/"+s.Name] = s.RestartCount
		}
		for _, c := range p.Spec.Containers {
			for _, pr := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
				window = max(window, probeWindow(pr))
			}
		}
	}
	window = min(window, maxSteady)
	select {
	case <-ctx.Done():
		t.Fatal(ctx.Err())
	case <-time.After(window):
	}

	var problems []string
	pods, err = cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pods.Items {
		for _, s := range p.Status.ContainerStatuses {
			before, ok := restarts[p.Name+"/"+s.Name]
			if ok && s.RestartCount > before {
				problems = append(problems, fmt.Sprintf("%s/%s restarted %d times in %s (%s)", p.Name, s.Name, s.RestartCount-before, window, describe([]corev1.Pod{p})))
			}
		}
	}
	events, err := cs.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: "reason=Unhealthy"})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events.Items {
		problems = append(problems, fmt.Sprintf("%s %s: %s", e.InvolvedObject.Name, e.Reason, e.Message))
	}
	for _, p := range problems {
		t.Errorf("%s testdata/%s, running for %s: %s", rows, name, window, p)
	}
	if len(problems) == 0 {
		suite.Evidence(t, suite.EvidenceObject, fmt.Sprintf("%s %s: no restart and no failed probe in %s of running", rows, name, window),
			strings.Join(slices.Sorted(maps.Keys(restarts)), " "))
	}
}

// probeWindow is the time by which a probe has run once and, if it
// fails, failed.
func probeWindow(p *corev1.Probe) time.Duration {
	if p == nil {
		return 0
	}
	period, timeout := p.PeriodSeconds, p.TimeoutSeconds
	if period == 0 {
		period = 10 // the API's defaults, as the kubelet applies them
	}
	if timeout == 0 {
		timeout = 1
	}
	return time.Duration(p.InitialDelaySeconds+period+timeout) * time.Second
}
