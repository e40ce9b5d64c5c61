package scheduling

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/fixtures"
	"wink.dev/wink/harness"
	"wink.dev/wink/harness/config"
	"wink.dev/wink/suites/suite"
	"wink.dev/wink/suites/suite/undertest"
)

// The docs' RuntimeClasses (fixtures/docs/runtimeClasses.yml) and the
// Windows builds their scheduling selects.
var docsRuntimeClasses = map[string]string{"windows-2019": suite.Build2019, "windows-2022": suite.Build2022}

const buildLabel = "node.kubernetes.io/windows-build"

// applyRuntimeClasses creates the docs' RuntimeClasses (cluster-scoped) and
// deletes, when the test ends, the ones that did not exist before.
func applyRuntimeClasses(ctx context.Context, t *testing.T, cs kubernetes.Interface) {
	t.Helper()
	var created []string
	for name := range docsRuntimeClasses {
		if _, err := cs.NodeV1().RuntimeClasses().Get(ctx, name, metav1.GetOptions{}); apierrors.IsNotFound(err) {
			created = append(created, name)
		}
	}
	applyDoc(ctx, t, cs, "runtimeClasses.yml", "")
	t.Cleanup(func() {
		for _, name := range created {
			_ = cs.NodeV1().RuntimeClasses().Delete(context.Background(), name, metav1.DeleteOptions{})
		}
	})
}

// nodesByName lists the cluster's nodes.
func nodesByName(ctx context.Context, t *testing.T, cs kubernetes.Interface) map[string]corev1.Node {
	t.Helper()
	list, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]corev1.Node{}
	for _, n := range list.Items {
		m[n.Name] = n
	}
	return m
}

// requireBuilds skips unless the cluster has Windows nodes of every build.
func requireBuilds(t *testing.T, nodes map[string]corev1.Node, builds ...string) {
	t.Helper()
	for _, b := range builds {
		found := false
		for _, n := range nodes {
			found = found || n.Labels[buildLabel] == b
		}
		if !found {
			t.Skipf("needs a Windows node of build %s", b)
		}
	}
}

func hasOSToleration(ts []corev1.Toleration) bool {
	want := corev1.Toleration{Key: "os", Operator: corev1.TolerationOpEqual, Value: "windows", Effect: corev1.TaintEffectNoSchedule}
	for _, tol := range ts {
		if tol.MatchToleration(&want) {
			return true
		}
	}
	return false
}

// TestRuntimeClassScheduling: row S4. A pod that names only a RuntimeClass
// of runtimeClasses.yml gets its nodeSelector and tolerations from the real
// RuntimeClass admission plugin (row A16) and lands on the class's build.
func TestRuntimeClassScheduling(t *testing.T) {
	b := suite.Feature("a pod naming only runtimeClassName lands on the RuntimeClass's build", "scheduling", "any", "S4", "A16")
	for _, rc := range []string{"windows-2019", "windows-2022"} {
		b = b.Assess(rc, func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			build := docsRuntimeClasses[rc]
			requireBuilds(t, nodesByName(ctx, t, cs), build)
			applyRuntimeClasses(ctx, t, cs)
			ns := suite.Namespace(ctx, t, cs, "s4-"+rc)
			tag := map[string]string{suite.Build2019: "ltsc2019", suite.Build2022: "ltsc2022"}[build]
			pod := &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{Name: "rc-" + rc},
				Spec: corev1.PodSpec{
					RuntimeClassName: &rc,
					Containers: []corev1.Container{{
						Name: "main", Image: "mcr.microsoft.com/windows/nanoserver:" + tag,
						Command: []string{"cmd", "/c", "ping -t localhost"},
					}},
				},
			}
			suite.UseScheduler(pod)
			created, err := cs.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("[S4] %v", err)
			}
			suite.ObjectEvidence(t, fmt.Sprintf("[S4] pod %s/%s as admitted (runtimeClassName %s)", ns, pod.Name, rc), created.Spec)
			want := map[string]string{"kubernetes.io/os": "windows", "kubernetes.io/arch": "amd64", buildLabel: build}
			if !maps.Equal(created.Spec.NodeSelector, want) {
				t.Errorf("[S4] admitted nodeSelector %v, want the RuntimeClass's %v", created.Spec.NodeSelector, want)
			}
			if !hasOSToleration(created.Spec.Tolerations) {
				t.Errorf("[S4] admitted tolerations %v lack os=windows:NoSchedule", created.Spec.Tolerations)
			}
			got := suite.WaitPod(ctx, t, cs, ns, pod.Name, 2*time.Minute, "Running", suite.Running)
			node, err := cs.CoreV1().Nodes().Get(ctx, got.Spec.NodeName, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if node.Labels[buildLabel] != build {
				t.Errorf("[S4] pod runs on %s of build %q, want %s", node.Name, node.Labels[buildLabel], build)
			}
			return ctx
		})
	}
	testenv.Test(t, b.Feature())
}

// TestIISExamples: row S5. The docs' iis-2019 and iis-2022 Deployments
// (runtimeClassName only) run on their builds, and their Services serve IIS's
// start page to another Windows pod (curl.exe, rows H1, H2).
func TestIISExamples(t *testing.T) {
	f := suite.Feature("the docs' iis-2019 and iis-2022 deploy on their builds and serve", "scheduling", "any", "S5", "S4", "S3").
		Assess("both run on their builds and answer curl.exe through their Services", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			requireBuilds(t, nodesByName(ctx, t, cs), suite.Build2019, suite.Build2022)
			applyRuntimeClasses(ctx, t, cs)
			ns := suite.Namespace(ctx, t, cs, "s5-iis")
			applyDoc(ctx, t, cs, "iis-2019.yaml", ns)
			applyDoc(ctx, t, cs, "iis-2022.yaml", ns)
			client := suite.WindowsPod("client", suite.Build2022, "cmd", "/c", "ping -t localhost")
			suite.CreatePod(ctx, t, cs, ns, client)
			for _, tc := range []struct{ app, service, build string }{
				{"iis-2019", "iis", suite.Build2019},
				{"iis-2022", "iis-2022", suite.Build2022},
			} {
				pods := waitPods(ctx, t, cs, ns, "app="+tc.app, 1)
				p := suite.WaitPod(ctx, t, cs, ns, pods[0].Name, 2*time.Minute, "Running", suite.Running)
				node, err := cs.CoreV1().Nodes().Get(ctx, p.Spec.NodeName, metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				suite.ObjectEvidence(t, fmt.Sprintf("[S5] %s pod %s on %s (build %s)", tc.app, p.Name, node.Name, node.Labels[buildLabel]), p.Spec)
				if node.Labels[buildLabel] != tc.build {
					t.Errorf("[S5] %s runs on %s of build %q, want %s", tc.app, node.Name, node.Labels[buildLabel], tc.build)
				}
			}
			suite.WaitPod(ctx, t, cs, ns, client.Name, 2*time.Minute, "Running", suite.Running)
			for _, svc := range []string{"iis", "iis-2022"} {
				argv := []string{"curl.exe", "-s", "--connect-timeout", "10", "--fail", "http://" + svc}
				var res suite.ExecResult
				// The Service's endpoints follow the pod's readiness by a moment.
				_ = wait.PollUntilContextTimeout(ctx, time.Second, 30*time.Second, true, func(ctx context.Context) (bool, error) {
					res = suite.Exec(ctx, t, cfg, ns, client.Name, "main", argv...)
					return res.ExitCode == 0, nil
				})
				suite.ExecEvidence(t, client.Name, argv, res)
				if res.ExitCode != 0 || !strings.Contains(res.Stdout, "<title>IIS Windows Server</title>") {
					t.Errorf("[S5] %s from a Windows pod: exit %d, stdout %q, stderr %q; want exit 0 and IIS's start page", strings.Join(argv, " "), res.ExitCode, res.Stdout, res.Stderr)
				}
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// TestNoOSSelector: row S1. Without a kubernetes.io/os selector the
// scheduler may use any node that the pod's tolerations allow.
func TestNoOSSelector(t *testing.T) {
	const image = "registry.k8s.io/e2e-test-images/agnhost:2.59" // Linux and Windows (fixtures/images.yaml)
	pod := func(name string, tolerate bool) *corev1.Pod {
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: image, Args: []string{"pause"}}}},
		}
		if tolerate {
			p.Spec.Tolerations = []corev1.Toleration{{Key: "os", Operator: corev1.TolerationOpEqual, Value: "windows", Effect: corev1.TaintEffectNoSchedule}}
		}
		return p
	}
	scheduled := func(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, name string) string {
		t.Helper()
		return suite.WaitPod(ctx, t, cs, ns, name, time.Minute, "scheduled", func(p *corev1.Pod) bool { return p.Spec.NodeName != "" }).Spec.NodeName
	}
	f := suite.Feature("a pod without an OS selector can land on any OS", "scheduling", "any", "S1", "S2").
		Assess("with every Windows node tainted and no toleration, it lands on Linux", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			nodes := nodesByName(ctx, t, cs)
			for _, n := range nodes {
				if n.Labels["kubernetes.io/os"] == "windows" && len(n.Spec.Taints) == 0 {
					t.Skipf("needs every Windows node tainted (S2): %s is not", n.Name)
				}
			}
			ns := suite.Namespace(ctx, t, cs, "s1-tainted")
			for i := range 4 {
				p := pod(fmt.Sprintf("no-selector-%d", i), false)
				suite.CreatePod(ctx, t, cs, ns, p)
				node := scheduled(ctx, t, cs, ns, p.Name)
				if osName := nodes[node].Labels["kubernetes.io/os"]; osName != "linux" {
					t.Errorf("[S1] pod %s without selector or toleration landed on %s (os %q), want a Linux node", p.Name, node, osName)
				}
			}
			return ctx
		}).
		Assess("with the toleration but no selector, it lands on either OS", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			nodes := nodesByName(ctx, t, cs)
			ns := suite.Namespace(ctx, t, cs, "s1-tolerating")
			// Left to its scores the scheduler keeps such pods together
			// (ImageLocality favours the nodes that already pulled the image),
			// so a hostname spread constraint, which selects no OS, makes one
			// pod per node: every node, Linux and Windows, must be feasible.
			seen := map[string][]string{}
			perNode := map[string]int{}
			for i := range len(nodes) {
				p := pod(fmt.Sprintf("tolerating-%d", i), true)
				p.Labels = map[string]string{"app": "tolerating"}
				p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
					MaxSkew: 1, TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: corev1.DoNotSchedule,
					LabelSelector:      &metav1.LabelSelector{MatchLabels: p.Labels},
					NodeTaintsPolicy:   ptr.To(corev1.NodeInclusionPolicyHonor),
					NodeAffinityPolicy: ptr.To(corev1.NodeInclusionPolicyHonor),
				}}
				suite.CreatePod(ctx, t, cs, ns, p)
				node := scheduled(ctx, t, cs, ns, p.Name)
				osName := nodes[node].Labels["kubernetes.io/os"]
				seen[osName] = append(seen[osName], p.Name+"→"+node)
				perNode[node]++
			}
			suite.Evidence(t, suite.EvidenceObject, "[S1] tolerating pods without an OS selector, by node OS", fmt.Sprint(seen))
			if len(seen["linux"]) == 0 || len(seen["windows"]) == 0 {
				t.Errorf("[S1] tolerating pods without selector landed only on %v; want both Linux and Windows nodes", seen)
			}
			for name := range nodes {
				if perNode[name] != 1 {
					t.Errorf("[S1] node %s (os %s) got %d of the spread pods, want 1", name, nodes[name].Labels["kubernetes.io/os"], perNode[name])
				}
			}
			return ctx
		}).
		Assess("with the kubernetes.io/os: windows selector and the toleration, only on Windows", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			nodes := nodesByName(ctx, t, cs)
			ns := suite.Namespace(ctx, t, cs, "s1-selector")
			for i := range 4 {
				p := pod(fmt.Sprintf("windows-selector-%d", i), true)
				p.Spec.NodeSelector = map[string]string{"kubernetes.io/os": "windows"}
				suite.CreatePod(ctx, t, cs, ns, p)
				node := scheduled(ctx, t, cs, ns, p.Name)
				if osName := nodes[node].Labels["kubernetes.io/os"]; osName != "windows" {
					t.Errorf("[S1] pod %s with the windows selector landed on %s (os %q)", p.Name, node, osName)
				}
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// TestMultiBuildSelector: row S3 with the docs' snippets
// (fixtures/docs/taint-toleration.yaml): the build in the nodeSelector keeps
// each image on hosts of its own build, where it runs (row B4).
func TestMultiBuildSelector(t *testing.T) {
	f := suite.Feature("the windows-build nodeSelector keeps each pod on its build", "scheduling", "any", "S3", "S2").
		Assess("taint-toleration-2019 and -2022 run on their builds", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			requireBuilds(t, nodesByName(ctx, t, cs), suite.Build2019, suite.Build2022)
			ns := suite.Namespace(ctx, t, cs, "s3-builds")
			applyDoc(ctx, t, cs, "taint-toleration.yaml", ns)
			for name, build := range map[string]string{"taint-toleration-2019": suite.Build2019, "taint-toleration-2022": suite.Build2022} {
				p := suite.WaitPod(ctx, t, cs, ns, name, 2*time.Minute, "Running", suite.Running)
				node, err := cs.CoreV1().Nodes().Get(ctx, p.Spec.NodeName, metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				suite.ObjectEvidence(t, fmt.Sprintf("[S3] %s Running on %s (build %s)", name, node.Name, node.Labels[buildLabel]), p.Status)
				if node.Labels[buildLabel] != build {
					t.Errorf("[S3] %s runs on %s of build %q, want %s", name, node.Name, node.Labels[buildLabel], build)
				}
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// TestEKSNodeGroupTaint: rows N4 and S2 with seed 002's EKS node group
// (fixtures/docs/eks-nodegroup-taint.yaml, a wink cluster of its own) and
// the pod that tolerates its taint (eks-nodegroup-pod.yaml).
func TestEKSNodeGroupTaint(t *testing.T) {
	const cfgName = "docs/eks-nodegroup-taint.yaml"
	cfgSource := "fixtures/" + cfgName
	f := suite.Feature("seed 002's EKS node-group taint as a wink pool", "scheduling", "simnode", "N4", "S2").
		Assess("the config parses to a tainted, labelled Windows Server 2022 pool", func(ctx context.Context, t *testing.T, _ *envconf.Config) context.Context {
			data, err := fs.ReadFile(fixtures.Docs, cfgName)
			if err != nil {
				t.Fatal(err)
			}
			c, err := config.Parse(data, cfgSource)
			if err != nil {
				t.Fatalf("%s: %v", cfgSource, err)
			}
			var pools []string
			for _, p := range c.NodePools {
				pools = append(pools, p.Name)
				if p.Name != "windows-ng" {
					continue
				}
				want := corev1.Taint{Key: "os", Value: "windows", Effect: corev1.TaintEffectNoSchedule}
				if !slices.ContainsFunc(p.Taints, func(t corev1.Taint) bool { return t.MatchTaint(&want) && t.Value == "windows" }) {
					t.Errorf("[N4] pool windows-ng taints %v, want os=windows:NoSchedule", p.Taints)
				}
				if p.Labels["nodeclass"] != "windows2022" || p.WindowsBuild != suite.Build2022 {
					t.Errorf("[N4] pool windows-ng labels %v build %q, want nodeclass=windows2022 and %s", p.Labels, p.WindowsBuild, suite.Build2022)
				}
				return ctx
			}
			t.Errorf("[N4] no windows-ng pool in %s: pools %v", cfgSource, pools)
			return ctx
		}).
		Assess("on that cluster the tolerating pod runs on windows-ng, an untolerating one stays off it", func(ctx context.Context, t *testing.T, _ *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			if s := suite.Scheduler(); !undertest.IsEmbeddedScheduler(s) {
				t.Skipf("the scheduler under test, %q, runs on the cluster under test, not on the wink-eks cluster this assessment brings up (whose schedulers are %v)", s, undertest.EmbeddedSchedulers)
			}
			data, err := fs.ReadFile(fixtures.Docs, cfgName)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := config.Parse(data, cfgSource)
			if err != nil {
				t.Fatalf("%s: %v", cfgSource, err)
			}
			opts := cluster.Options
			opts.Name = "wink-eks"
			if opts.Home == "" {
				if opts.Home, err = os.MkdirTemp("", "wink-eks-"); err != nil {
					t.Fatal(err)
				}
			}
			up, err := harness.Up(ctx, harness.UpOptions{Options: opts, Config: cfg, Fresh: true, Wait: 2 * time.Minute, Schedulable: true})
			t.Cleanup(func() { _ = harness.Delete(context.Background(), opts) })
			if err != nil {
				t.Fatalf("wink up --config %s: %v", cfgSource, err)
			}
			rc, err := clientcmd.BuildConfigFromFlags("", up.Kubeconfig)
			if err != nil {
				t.Fatal(err)
			}
			cs, err := kubernetes.NewForConfig(rc)
			if err != nil {
				t.Fatal(err)
			}
			nodes := nodesByName(ctx, t, cs)
			for _, n := range nodes {
				if n.Labels["kubernetes.io/os"] != "windows" {
					continue
				}
				suite.ObjectEvidence(t, "[N4] node "+n.Name+" labels and taints", map[string]any{"labels": n.Labels, "taints": n.Spec.Taints})
				if n.Labels["nodeclass"] != "windows2022" || !slices.ContainsFunc(n.Spec.Taints, func(tt corev1.Taint) bool {
					return tt.Key == "os" && tt.Value == "windows" && tt.Effect == corev1.TaintEffectNoSchedule
				}) {
					t.Errorf("[N4] node %s: labels %v taints %v, want nodeclass=windows2022 and os=windows:NoSchedule", n.Name, n.Labels, n.Spec.Taints)
				}
			}
			ns := suite.Namespace(ctx, t, cs, "eks")
			applyDoc(ctx, t, cs, "eks-nodegroup-pod.yaml", ns)
			p := suite.WaitPod(ctx, t, cs, ns, "eks-windows-pod", 2*time.Minute, "Running", suite.Running)
			if n := nodes[p.Spec.NodeName]; n.Labels["nodeclass"] != "windows2022" {
				t.Errorf("[S2] eks-windows-pod runs on %s, want a windows-ng node", p.Spec.NodeName)
			}
			// The same pod without the toleration: Pending, untolerated taint.
			bare := &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{Name: "untolerating"},
				Spec: corev1.PodSpec{
					NodeSelector: map[string]string{"kubernetes.io/os": "windows"},
					Containers:   []corev1.Container{{Name: "main", Image: "mcr.microsoft.com/windows/servercore:ltsc2022", Command: []string{"cmd", "/c", "ping -t localhost"}}},
				},
			}
			suite.CreatePod(ctx, t, cs, ns, bare)
			want := fmt.Sprintf("0/%d nodes are available: 1 node(s) didn't match Pod's node affinity/selector, %d node(s) had untolerated taint(s).", len(nodes), len(nodes)-1)
			ev := suite.WaitEvent(ctx, t, cs, ns, "Pod", bare.Name, "FailedScheduling", want, 30*time.Second)
			suite.EventEvidence(t, ev)
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
