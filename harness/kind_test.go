package harness

import (
	"bytes"
	"context"
	"os"
	"os/exec"
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
// mixed cluster: Ready simulated Windows nodes whose pods answer logs and
// exec through the kind apiserver (B16), beside a real Linux pod running
// on the kind node. On this project's Docker engine (no --privileged,
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
	ns := "kind-it"
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

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
	windows := &corev1.Pod{
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
	for _, p := range []*corev1.Pod{linux, windows} {
		if _, err := cs.CoreV1().Pods(ns).Create(ctx, p, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ pod, want string }{{"real-linux", "real linux on Linux"}, {"sim-windows", "hello from a simulated node"}} {
		var logs string
		err := wait.PollUntilContextTimeout(ctx, time.Second, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
			data, err := cs.CoreV1().Pods(ns).GetLogs(c.pod, &corev1.PodLogOptions{}).DoRaw(ctx)
			logs = string(data)
			return err == nil && strings.Contains(logs, c.want), nil
		})
		if err != nil {
			p, _ := cs.CoreV1().Pods(ns).Get(ctx, c.pod, metav1.GetOptions{})
			t.Fatalf("logs of %s: %q, want %q (pod status %+v)", c.pod, logs, c.want, p.Status)
		}
	}
	for pod, argv := range map[string][]string{
		"real-linux":  {"sh", "-c", "echo exec reached $(hostname)"},
		"sim-windows": {"cmd", "/c", "echo exec reached %COMPUTERNAME%"},
	} {
		out, err := execIn(ctx, rc, cs, ns, pod, argv)
		if err != nil || !strings.Contains(out, "exec reached") {
			t.Errorf("exec in %s: %q, %v", pod, out, err)
		}
	}
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

// execIn runs argv in the pod's first container through the apiserver,
// as kubectl exec does, and returns its output.
func execIn(ctx context.Context, rc *rest.Config, cs kubernetes.Interface, ns, pod string, argv []string) (string, error) {
	req := cs.CoreV1().RESTClient().Post().Resource("pods").Namespace(ns).Name(pod).SubResource("exec").
		VersionedParams(&corev1.PodExecOptions{Command: argv, Stdout: true, Stderr: true}, scheme.ParameterCodec)
	ex, err := remotecommand.NewWebSocketExecutor(rc, "GET", req.URL().String())
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	err = ex.StreamWithContext(ctx, remotecommand.StreamOptions{Stdout: &out, Stderr: &out})
	return out.String(), err
}
