package harness

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/remotecommand"

	"wink.dev/wink/harness/config"
	"wink.dev/wink/simnode/facts"
)

// kindNodeImage is wink's kind node image at the Kubernetes version wink
// links (make kind-node-image).
var kindNodeImage = "wink.dev/kind-node:" + KubernetesVersion

// needKind skips unless a Docker engine answers and holds wink's kind node
// image, saying which is missing.
func needKind(t *testing.T) {
	t.Helper()
	if out, err := exec.Command("docker", "info", "--format", "{{.ID}}").CombinedOutput(); err != nil {
		t.Skipf("no Docker engine answers (%v: %s): the kind tests need one", err, bytes.TrimSpace(out))
	}
	if err := exec.Command("docker", "image", "inspect", kindNodeImage).Run(); err != nil {
		t.Skipf("%s is not in the Docker engine: build it with `make kind-node-image`", kindNodeImage)
	}
}

// TestUpKind: `wink up` with backend kind and wink's node image gives a
// mixed cluster: Ready simulated Windows nodes whose pods answer logs,
// exec, attach, port-forward and `kubectl top` (metrics-server, which the
// backend installs) through the kind apiserver (B16, A24), beside a real
// Linux pod running on the kind node. On this project's Docker engine (no --privileged,
// cgroup v1) it runs through the docker shim.
func TestUpKind(t *testing.T) {
	bin := winkBinary(t)
	needKind(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	opts := Options{Name: "kind-it", Home: shortHome(t), Binary: bin, Progress: os.Stderr}
	cfg, err := config.Parse([]byte(`apiVersion: wink.dev/v1alpha1
kind: Cluster
backend: kind
kindBackend: {nodeImage: `+kindNodeImage+`}
nodePools:
  - {name: win2022, os: windows, windowsBuild: `+facts.WindowsServer2022+`, count: 2}
`), "kind_test.go")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := Delete(context.Background(), opts); err != nil {
			t.Errorf("Delete: %v", err)
		}
		if out, err := exec.Command("docker", "ps", "-a", "--filter", "label=io.x-k8s.kind.cluster=wink-kind-it", "-q").Output(); err != nil || len(bytes.TrimSpace(out)) != 0 {
			t.Errorf("kind containers left after Delete: %q %v", out, err)
		}
	})
	start := time.Now()
	up, err := Up(ctx, UpOptions{Options: opts, Config: cfg, Fresh: true, Wait: 5 * time.Minute, Schedulable: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("wink up (backend kind) took %s", time.Since(start).Round(time.Second))
	rc, err := clientcmd.BuildConfigFromFlags("", up.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cs := kubernetes.NewForConfigOrDie(rc)
	ns := namespace(ctx, t, cs, "kind-it")

	// A real Linux pod on the kind node: kube-proxy's image of the node
	// image has a Debian userland.
	linux := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "real-linux"},
		Spec: corev1.PodSpec{
			NodeSelector: map[string]string{facts.LabelOS: "linux"},
			Tolerations:  []corev1.Toleration{{Operator: corev1.TolerationOpExists}},
			Containers: []corev1.Container{{
				Name: "main", Image: "registry.k8s.io/kube-proxy:" + KubernetesVersion, ImagePullPolicy: corev1.PullNever,
				Command: []string{"sh", "-c", "echo real linux on $(uname -s); sleep 3600"},
			}},
		},
	}
	podAnswers(ctx, t, rc, cs, ns, linux, "real linux on Linux", "sh", "-c", "echo exec reached $(hostname)")
	podAnswers(ctx, t, rc, cs, ns, windowsPod(), "hello from a simulated node", "cmd", "/c", "echo exec reached %COMPUTERNAME%")
	// Execs in a row each answer (B16).
	for i := range 20 {
		if out, err := execIn(ctx, rc, cs, ns, "sim-windows", []string{"cmd", "/c", "echo exec reached"}); err != nil || !strings.Contains(out, "exec reached") {
			t.Errorf("exec %d in sim-windows: %q, %v", i, out, err)
		}
	}
	attachAnswers(ctx, t, rc, cs, ns, "sim-windows", "Reply from")
	if _, err := cs.CoreV1().Pods(ns).Create(ctx, servePod("serve"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitRunning(ctx, t, cs, ns, "serve")
	portForwardAnswers(ctx, t, rc, cs, ns, "serve", 9376, "serve")
	kindNetworkAnswers(ctx, t, rc, cs, ns, "serve", "real-linux")
	topAnswers(ctx, t, rc, cs, ns, "sim-windows")
	p, err := cs.CoreV1().Pods(ns).Get(ctx, "real-linux", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Spec.NodeName != "wink-kind-it-control-plane" {
		t.Errorf("the real Linux pod runs on %q, want the kind node", p.Spec.NodeName)
	}

	// The kubeconfig is the admin's, private, in wink's context names.
	if fi, err := os.Stat(up.Kubeconfig); err != nil || fi.Mode() != 0o600 {
		t.Errorf("kubeconfig %s: %v %v, want mode 0600", up.Kubeconfig, fi, err)
	}
	if kc, err := clientcmd.LoadFromFile(up.Kubeconfig); err != nil || kc.CurrentContext != "wink-kind-it" {
		t.Errorf("kubeconfig context: %v %v, want wink-kind-it", kc, err)
	}
	// wink down and up keep the kind cluster and its pods.
	if err := Down(ctx, opts); err != nil {
		t.Fatal(err)
	}
	var progress strings.Builder
	opts.Progress = &progress
	if _, err := Up(ctx, UpOptions{Options: opts, Wait: 5 * time.Minute}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(progress.String(), "Reusing kind cluster") {
		t.Errorf("up after down did not reuse the kind cluster:\n%s", progress.String())
	}
	if _, err := cs.CoreV1().Pods(ns).Get(ctx, "real-linux", metav1.GetOptions{}); err != nil {
		t.Errorf("the real Linux pod after down and up: %v", err)
	}
}

// windowsPod is a Windows pod on a simulated node that logs a greeting
// and runs on.
func windowsPod() *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "sim-windows"},
		Spec: corev1.PodSpec{
			OS:           facts.Windows.PodOS(),
			NodeSelector: map[string]string{facts.LabelOS: "windows"},
			Tolerations:  []corev1.Toleration{facts.WindowsToleration()},
			Containers: []corev1.Container{{
				Name: "main", Image: "mcr.microsoft.com/windows/nanoserver:ltsc2022",
				Command: []string{"cmd", "/c", "echo hello from a simulated node && ping -t localhost"},
			}},
		},
	}
}

// podAnswers creates pod in ns and checks, through the apiserver as
// kubectl does, that its logs come to hold logs and that exec of argv in
// it answers "exec reached".
func podAnswers(ctx context.Context, t *testing.T, rc *rest.Config, cs kubernetes.Interface, ns string, pod *corev1.Pod, logs string, argv ...string) {
	t.Helper()
	if _, err := cs.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	var got string
	err := wait.PollUntilContextTimeout(ctx, time.Second, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
		data, err := cs.CoreV1().Pods(ns).GetLogs(pod.Name, &corev1.PodLogOptions{}).DoRaw(ctx)
		got = string(data)
		return err == nil && strings.Contains(got, logs), nil
	})
	if err != nil {
		p, _ := cs.CoreV1().Pods(ns).Get(ctx, pod.Name, metav1.GetOptions{})
		t.Fatalf("logs of %s: %q, want %q (pod status %+v)", pod.Name, got, logs, p.Status)
	}
	out, err := execIn(ctx, rc, cs, ns, pod.Name, argv)
	if err != nil || !strings.Contains(out, "exec reached") {
		t.Errorf("exec in %s: %q, %v", pod.Name, out, err)
	}
}

// execIn runs argv in the pod's first container through the apiserver,
// as kubectl exec does, and returns its output.
func execIn(ctx context.Context, rc *rest.Config, cs kubernetes.Interface, ns, pod string, argv []string) (string, error) {
	req := cs.CoreV1().RESTClient().Post().Resource("pods").Namespace(ns).Name(pod).SubResource("exec").
		VersionedParams(&corev1.PodExecOptions{Command: argv, Stdout: true, Stderr: true}, scheme.ParameterCodec)
	ex, err := remotecommand.NewWebSocketExecutor(rc, "GET", req.URL().String())
	if err != nil {
		return "", err
	}
	// One buffer each: io.Copy into a bytes.Buffer is its ReadFrom, which
	// truncates the buffer to its length at the start when the read ends,
	// so a stderr copy sharing stdout's buffer erased what stdout wrote
	// meanwhile (an exec "with no output").
	var stdout, stderr bytes.Buffer
	err = ex.StreamWithContext(ctx, remotecommand.StreamOptions{Stdout: &stdout, Stderr: &stderr})
	return stdout.String() + stderr.String(), err
}

// TestKindCLIRecipe is docs/kind.md's recipe as a user's CI runs it: the
// kind CLI (bin/tools/kind, `make tools`) creates a cluster from wink's
// node image through `wink kind shim-path`, the existing backend joins
// simulated Windows nodes to it whose pods answer logs and exec, and
// `wink check --kubeconfig` judges a chart there.
func TestKindCLIRecipe(t *testing.T) {
	bin := winkBinary(t)
	needKind(t)
	kindCLI, err := exec.LookPath("kind")
	if err != nil {
		t.Skip("no kind CLI on PATH: `make tools` builds bin/tools/kind")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	home := shortHome(t)
	shim, err := exec.CommandContext(ctx, bin, "kind", "shim-path", "--home", home).Output()
	if err != nil {
		t.Fatalf("wink kind shim-path: %v", err)
	}
	path := os.Getenv("PATH")
	if dir := strings.TrimSpace(string(shim)); dir != "" {
		path = dir + string(os.PathListSeparator) + path
	}
	kubeconfig := filepath.Join(home, "kind.kubeconfig")
	kind := func(ctx context.Context, args ...string) {
		t.Helper()
		cmd := exec.CommandContext(ctx, kindCLI, append(args, "--name", "wink-recipe", "--kubeconfig", kubeconfig)...)
		cmd.Env = append(os.Environ(), "PATH="+path)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("kind %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	start := time.Now()
	kind(ctx, "create", "cluster", "--image", kindNodeImage)
	t.Logf("kind create cluster took %s", time.Since(start).Round(time.Second))
	t.Cleanup(func() { kind(context.Background(), "delete", "cluster") })

	opts := Options{Name: "recipe", Home: home, Binary: bin, Progress: os.Stderr}
	cfg, err := config.Parse([]byte(`apiVersion: wink.dev/v1alpha1
kind: Cluster
backend: existing
kubeconfig: `+kubeconfig+`
nodePools:
  - {name: win2022, os: windows, windowsBuild: `+facts.WindowsServer2022+`, count: 2}
`), "kind_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Up(ctx, UpOptions{Options: opts, Config: cfg, Fresh: true, Wait: 2 * time.Minute, Schedulable: true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := Delete(context.Background(), opts); err != nil {
			t.Errorf("Delete: %v", err)
		}
	})
	rc, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cs := kubernetes.NewForConfigOrDie(rc)
	podAnswers(ctx, t, rc, cs, namespace(ctx, t, cs, "recipe"), windowsPod(), "hello from a simulated node", "cmd", "/c", "echo exec reached %COMPUTERNAME%")

	// A chart of Windows workloads only: a Linux image would be pulled on
	// the kind node, from a registry this machine does not reach.
	chart := filepath.Join("..", "suites", "charts", "testdata", "hostprocess-exporter", "chart")
	out, err := exec.CommandContext(ctx, bin, "check", chart, "--kubeconfig", kubeconfig, "--output", filepath.Join(home, "check")).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "workload(s) judged") {
		t.Errorf("wink check --kubeconfig on the kind cluster: %v\n%s", err, out)
	}
}

// namespace creates the namespace name.
func namespace(ctx context.Context, t *testing.T, cs kubernetes.Interface, name string) string {
	t.Helper()
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return name
}
