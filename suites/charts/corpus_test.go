package charts

import (
	"context"
	"embed"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/restmapper"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
	"sigs.k8s.io/yaml"

	"wink.dev/wink/suites/suite"
)

// corpus is testdata: one directory per case, chart/ and expect.yaml.
//
//go:embed testdata
var corpus embed.FS

// startWithin is how long after `helm install` returns every container of
// a Running workload must have started (the bar of a real cluster with the
// images already pulled).
const startWithin = 60 * time.Second

// expectation is a case's expect.yaml: what a real mixed cluster of wink's
// default shape does with the chart.
type expectation struct {
	// Pattern says what the chart reproduces.
	Pattern string `json:"pattern"`
	// Rows are the spec rows the case checks.
	Rows      []string    `json:"rows"`
	Workloads []workload  `json:"workloads"`
	Exists    []objectRef `json:"exists,omitempty"`
	Gone      []objectRef `json:"gone,omitempty"`
}

// workload is a controller of the chart and where its pods are.
type workload struct {
	Kind string `json:"kind"` // DaemonSet, Deployment, StatefulSet or Job
	Name string `json:"name"`
	// Placement: how many pods land on nodes of each OS and build, and in
	// which state. No group: no pod at all.
	Placement []group `json:"placement"`
}

// group is the pods of a workload on the nodes of one OS and build.
type group struct {
	OS    string `json:"os"`
	Build string `json:"build,omitempty"`
	Pods  int    `json:"pods"`
	// State: Running (every container started), Succeeded, or PullFails
	// (a container waiting in ErrImagePull or ImagePullBackOff).
	State string `json:"state"`
}

type objectRef struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
}

const (
	stateRunning   = "Running"
	stateSucceeded = "Succeeded"
	statePullFails = "PullFails"
)

func (g group) key() string { return g.OS + "/" + g.Build }

// loadExpectation reads and checks testdata/<name>/expect.yaml; errors
// name the file and field.
func loadExpectation(name string) (expectation, error) {
	file := path.Join("testdata", name, "expect.yaml")
	data, err := corpus.ReadFile(file)
	if err != nil {
		return expectation{}, err
	}
	var e expectation
	if err := yaml.UnmarshalStrict(data, &e); err != nil {
		return expectation{}, fmt.Errorf("%s: %w", file, err)
	}
	if len(e.Rows) == 0 || e.Pattern == "" {
		return expectation{}, fmt.Errorf("%s: pattern and rows: Required value: say what the chart reproduces and the rows it checks", file)
	}
	for i, w := range e.Workloads {
		if !slices.Contains([]string{"DaemonSet", "Deployment", "StatefulSet", "Job"}, w.Kind) {
			return expectation{}, fmt.Errorf("%s: workloads[%d].kind: Unsupported value: %q: supported values: DaemonSet, Deployment, StatefulSet, Job", file, i, w.Kind)
		}
		for j, g := range w.Placement {
			if !slices.Contains([]string{stateRunning, stateSucceeded, statePullFails}, g.State) {
				return expectation{}, fmt.Errorf("%s: workloads[%d].placement[%d].state: Unsupported value: %q: supported values: Running, Succeeded, PullFails", file, i, j, g.State)
			}
			if g.OS != "windows" && g.OS != "linux" {
				return expectation{}, fmt.Errorf("%s: workloads[%d].placement[%d].os: Unsupported value: %q: supported values: linux, windows", file, i, j, g.OS)
			}
		}
	}
	return e, nil
}

// TestCorpus installs every chart of the corpus with Helm, each in its own
// namespace, all at once, and checks each workload's placement and state
// against its expect.yaml.
func TestCorpus(t *testing.T) {
	cases, err := caseDirs(corpus)
	if err != nil {
		t.Fatal(err)
	}
	render := suite.Feature("the corpus renders for Kubernetes v1.35.4 and declares what it installs", "charts", "any", "A22").
		Assess("helm template --kube-version v1.35.4 of every chart names every workload its expect.yaml checks", func(ctx context.Context, t *testing.T, _ *envconf.Config) context.Context {
			if len(cases) < 12 {
				t.Errorf("the corpus has %d cases, want at least 12", len(cases))
			}
			for _, name := range cases {
				e, err := loadExpectation(name)
				if err != nil {
					t.Error(err)
					continue
				}
				ch, err := loadChart(corpus, path.Join("testdata", name, "chart"))
				if err != nil {
					t.Errorf("testdata/%s/chart: %v", name, err)
					continue
				}
				manifest, err := helmTemplate(ch)
				if err != nil {
					t.Errorf("testdata/%s/chart: helm template: %v", name, err)
					continue
				}
				for _, w := range e.Workloads {
					if !strings.Contains(manifest, "kind: "+w.Kind) || !strings.Contains(manifest, "name: "+w.Name) {
						t.Errorf("testdata/%s/expect.yaml: %s %s is not in the rendered chart", name, w.Kind, w.Name)
					}
				}
			}
			return ctx
		}).Feature()

	install := suite.Feature("Windows-targeted charts install with Helm and run as on a real mixed cluster", "charts", "any", "A22", "A16", "A23", "S1", "S2", "S3", "S4", "B4", "B10", "B12", "B13").
		Assess("helm install of each corpus chart: placement and state of every workload as its expect.yaml says", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			for _, name := range cases {
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					checkCase(ctx, t, cfg, name)
				})
			}
			return ctx
		}).Feature()
	testenv.Test(t, render, install)
}

// checkCase installs one chart and checks its expectation.
func checkCase(ctx context.Context, t *testing.T, cfg *envconf.Config, name string) {
	e, err := loadExpectation(name)
	if err != nil {
		t.Fatal(err)
	}
	rows := "[" + strings.Join(e.Rows, ",") + "]"
	ch, err := loadChart(corpus, path.Join("testdata", name, "chart"))
	if err != nil {
		t.Fatal(err)
	}
	cs := suite.Clientset(t, cfg)
	ns := suite.Namespace(ctx, t, cs, name)
	if err := helmInstall(ctx, cfg.KubeconfigFile(), ns, ch); err != nil {
		t.Fatalf("%s helm install %s (testdata/%s): %v", rows, releaseName, name, err)
	}
	installed := time.Now()

	nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	groupOf := map[string]string{}
	for _, n := range nodes.Items {
		groupOf[n.Name] = n.Labels[corev1.LabelOSStable] + "/" + n.Labels["node.kubernetes.io/windows-build"]
		if n.Labels[corev1.LabelOSStable] == "linux" {
			groupOf[n.Name] = "linux/"
		}
	}

	var problems []string
	for time.Since(installed) < startWithin {
		problems = problems[:0]
		for _, w := range e.Workloads {
			problems = append(problems, checkWorkload(ctx, cs, ns, w, groupOf)...)
		}
		if len(problems) == 0 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		case <-time.After(time.Second):
		}
	}
	for _, p := range problems {
		t.Errorf("%s testdata/%s, %s after helm install: %s", rows, name, startWithin, p)
	}
	if len(problems) == 0 {
		suite.Evidence(t, suite.EvidenceObject, fmt.Sprintf("%s %s: every workload placed and in its state %s after helm install", rows, name, time.Since(installed).Round(time.Second)), e.Pattern)
	}
	checkObjects(ctx, t, cfg, ns, rows, name, e)
	if len(problems) == 0 {
		checkSteady(ctx, t, cs, ns, rows, name)
	}
}

// checkWorkload compares a workload's pods with its placement; it returns
// what differs.
func checkWorkload(ctx context.Context, cs kubernetes.Interface, ns string, w workload, groupOf map[string]string) []string {
	selector, err := podSelector(ctx, cs, ns, w)
	if err != nil {
		return []string{fmt.Sprintf("%s %s: %v", w.Kind, w.Name, err)}
	}
	pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return []string{fmt.Sprintf("%s %s: %v", w.Kind, w.Name, err)}
	}
	byGroup := map[string][]corev1.Pod{}
	for _, p := range pods.Items {
		if p.DeletionTimestamp != nil {
			continue
		}
		g := "unscheduled"
		if p.Spec.NodeName != "" {
			g = groupOf[p.Spec.NodeName]
		}
		byGroup[g] = append(byGroup[g], p)
	}
	var out []string
	want := map[string]group{}
	for _, g := range w.Placement {
		want[g.key()] = g
	}
	keys := make([]string, 0, len(byGroup))
	for k := range byGroup {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := want[k]; !ok {
			out = append(out, fmt.Sprintf("%s %s: %d pod(s) on %s nodes, want none there: %s", w.Kind, w.Name, len(byGroup[k]), k, describe(byGroup[k])))
		}
	}
	for _, g := range w.Placement {
		got := byGroup[g.key()]
		if len(got) != g.Pods {
			out = append(out, fmt.Sprintf("%s %s: %d pod(s) on %s nodes, want %d: %s", w.Kind, w.Name, len(got), g.key(), g.Pods, describe(got)))
			continue
		}
		for _, p := range got {
			if !inState(&p, g.State) {
				out = append(out, fmt.Sprintf("%s %s: pod %s on %s (%s) is not %s: %s", w.Kind, w.Name, p.Name, p.Spec.NodeName, g.key(), g.State, describe([]corev1.Pod{p})))
			}
		}
	}
	return out
}

// podSelector is the label selector of a workload's pods.
func podSelector(ctx context.Context, cs kubernetes.Interface, ns string, w workload) (string, error) {
	var sel *metav1.LabelSelector
	switch w.Kind {
	case "DaemonSet":
		o, err := cs.AppsV1().DaemonSets(ns).Get(ctx, w.Name, metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		sel = o.Spec.Selector
	case "Deployment":
		o, err := cs.AppsV1().Deployments(ns).Get(ctx, w.Name, metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		sel = o.Spec.Selector
	case "StatefulSet":
		o, err := cs.AppsV1().StatefulSets(ns).Get(ctx, w.Name, metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		sel = o.Spec.Selector
	case "Job":
		o, err := cs.BatchV1().Jobs(ns).Get(ctx, w.Name, metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		sel = o.Spec.Selector
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return "", err
	}
	return s.String(), nil
}

// inState reports whether a pod is in an expected state.
func inState(p *corev1.Pod, state string) bool {
	switch state {
	case stateSucceeded:
		return p.Status.Phase == corev1.PodSucceeded
	case statePullFails:
		for _, s := range append(slices.Clone(p.Status.InitContainerStatuses), p.Status.ContainerStatuses...) {
			if w := s.State.Waiting; w != nil && (w.Reason == "ErrImagePull" || w.Reason == "ImagePullBackOff") {
				return true
			}
		}
		return false
	}
	if p.Status.Phase != corev1.PodRunning || len(p.Status.ContainerStatuses) != len(p.Spec.Containers) {
		return false
	}
	for _, s := range p.Status.ContainerStatuses {
		if s.State.Running == nil {
			return false
		}
	}
	return true
}

// describe is a pod's phase and each container's state, for failures.
func describe(pods []corev1.Pod) string {
	var b strings.Builder
	for _, p := range pods {
		fmt.Fprintf(&b, "[%s on %q: %s", p.Name, p.Spec.NodeName, p.Status.Phase)
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodScheduled && c.Status != corev1.ConditionTrue {
				fmt.Fprintf(&b, "; unscheduled: %s", c.Message)
			}
		}
		for _, s := range append(slices.Clone(p.Status.InitContainerStatuses), p.Status.ContainerStatuses...) {
			switch {
			case s.State.Waiting != nil:
				fmt.Fprintf(&b, "; %s waiting %s: %s", s.Name, s.State.Waiting.Reason, s.State.Waiting.Message)
				if last := s.LastTerminationState.Terminated; last != nil {
					fmt.Fprintf(&b, " (last: %s, exit %d: %s)", last.Reason, last.ExitCode, strings.TrimSpace(last.Message))
				}
			case s.State.Terminated != nil:
				fmt.Fprintf(&b, "; %s terminated %s (exit %d): %s", s.Name, s.State.Terminated.Reason, s.State.Terminated.ExitCode, strings.TrimSpace(s.State.Terminated.Message))
			case s.State.Running != nil:
				fmt.Fprintf(&b, "; %s running (restarts %d)", s.Name, s.RestartCount)
			}
		}
		b.WriteString("]")
	}
	return b.String()
}

// checkObjects checks the objects the release must have left, and those
// its hooks' delete policies must have removed.
func checkObjects(ctx context.Context, t *testing.T, cfg *envconf.Config, ns, rows, name string, e expectation) {
	if len(e.Exists)+len(e.Gone) == 0 {
		return
	}
	rc := cfg.Client().RESTConfig()
	dc, err := dynamic.NewForConfig(rc)
	if err != nil {
		t.Fatal(err)
	}
	cs := suite.Clientset(t, cfg)
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(cs.Discovery()))
	get := func(ref objectRef) error {
		gv, err := schema.ParseGroupVersion(ref.APIVersion)
		if err != nil {
			return err
		}
		m, err := mapper.RESTMapping(gv.WithKind(ref.Kind).GroupKind(), gv.Version)
		if err != nil {
			return err
		}
		_, err = dc.Resource(m.Resource).Namespace(ns).Get(ctx, ref.Name, metav1.GetOptions{})
		return err
	}
	for _, ref := range e.Exists {
		if err := get(ref); err != nil {
			t.Errorf("%s testdata/%s: %s %s after helm install: %v", rows, name, ref.Kind, ref.Name, err)
		}
	}
	for _, ref := range e.Gone {
		if err := get(ref); !apierrors.IsNotFound(err) {
			t.Errorf("%s testdata/%s: %s %s after helm install: want it deleted by its hook-delete-policy, got %v", rows, name, ref.Kind, ref.Name, err)
		}
	}
}
