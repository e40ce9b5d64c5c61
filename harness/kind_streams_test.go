package harness

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/httpstream"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/portforward"
	"k8s.io/client-go/tools/remotecommand"
	"k8s.io/client-go/transport/spdy"
	metricsclient "k8s.io/metrics/pkg/client/clientset/versioned"

	"wink.dev/wink/simnode/facts"
)

// topAnswers checks, as `kubectl top pods` and `kubectl top nodes` ask
// the metrics API, that the pod in ns and every node, simulated or not,
// have usage (B16, A24).
func topAnswers(ctx context.Context, t *testing.T, rc *rest.Config, cs kubernetes.Interface, ns, pod string) {
	t.Helper()
	mc := metricsclient.NewForConfigOrDie(rc)
	nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var why string
	start := time.Now()
	err = wait.PollUntilContextTimeout(ctx, 2*time.Second, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
		pm, err := mc.MetricsV1beta1().PodMetricses(ns).Get(ctx, pod, metav1.GetOptions{})
		if ctx.Err() != nil {
			return false, ctx.Err() // keep the last answer's why
		}
		if err != nil {
			why = fmt.Sprintf("top pod %s: %v", pod, err)
			return false, nil
		}
		if len(pm.Containers) == 0 {
			why = fmt.Sprintf("top pod %s: no containers", pod)
			return false, nil
		}
		nm, err := mc.MetricsV1beta1().NodeMetricses().List(ctx, metav1.ListOptions{})
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		if err != nil {
			why = fmt.Sprintf("top nodes: %v", err)
			return false, nil
		}
		have := map[string]bool{}
		for _, m := range nm.Items {
			have[m.Name] = true
		}
		for _, n := range nodes.Items {
			if !have[n.Name] {
				why = fmt.Sprintf("top nodes: no usage of %s (%s)", n.Name, n.Labels[facts.LabelOS])
				return false, nil
			}
		}
		t.Logf("kubectl top: pod %s uses %s CPU, %s memory; %d nodes have usage (after %s)", pod,
			pm.Containers[0].Usage.Cpu(), pm.Containers[0].Usage.Memory(), len(nm.Items), time.Since(start).Round(time.Second))
		return true, nil
	})
	if err != nil {
		t.Errorf("kubectl top through the kind apiserver: %s", why)
	}
}

// attachAnswers attaches to the pod's first container as `kubectl attach`
// does (websocket) and checks that its output from then on holds want (B16).
func attachAnswers(ctx context.Context, t *testing.T, rc *rest.Config, cs kubernetes.Interface, ns, pod, want string) {
	t.Helper()
	req := cs.CoreV1().RESTClient().Post().Resource("pods").Namespace(ns).Name(pod).SubResource("attach").
		VersionedParams(&corev1.PodAttachOptions{Stdout: true, Stderr: true}, scheme.ParameterCodec)
	ex, err := remotecommand.NewWebSocketExecutor(rc, "GET", req.URL().String())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out := &watchWriter{want: want, seen: cancel}
	err = ex.StreamWithContext(ctx, remotecommand.StreamOptions{Stdout: out, Stderr: out})
	if got := out.String(); !strings.Contains(got, want) {
		t.Errorf("attach to %s: %q (%v), want %q", pod, got, err, want)
	}
}

// watchWriter collects output and calls seen once it holds want.
type watchWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen func()
}

func (w *watchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.seen()
	}
	return len(p), nil
}

func (w *watchWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// portForwardAnswers forwards a local port to the pod's port as `kubectl
// port-forward` does (SPDY over websocket, falling back to SPDY) and checks
// that GET / there answers want (B16).
func portForwardAnswers(ctx context.Context, t *testing.T, rc *rest.Config, cs kubernetes.Interface, ns, pod string, port int, want string) {
	t.Helper()
	url := cs.CoreV1().RESTClient().Post().Resource("pods").Namespace(ns).Name(pod).SubResource("portforward").URL()
	transport, upgrader, err := spdy.RoundTripperFor(rc)
	if err != nil {
		t.Fatal(err)
	}
	tunnel, err := portforward.NewSPDYOverWebsocketDialer(url, rc)
	if err != nil {
		t.Fatal(err)
	}
	dialer := portforward.NewFallbackDialer(tunnel, spdy.NewDialer(upgrader, &http.Client{Transport: transport}, http.MethodPost, url),
		func(err error) bool { return httpstream.IsUpgradeFailure(err) || httpstream.IsHTTPSProxyError(err) })
	stop, ready := make(chan struct{}), make(chan struct{})
	var errOut bytes.Buffer
	fw, err := portforward.NewOnAddresses(dialer, []string{"127.0.0.1"}, []string{fmt.Sprintf("0:%d", port)}, stop, ready, io.Discard, &errOut)
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() { errc <- fw.ForwardPorts() }()
	defer func() {
		close(stop)
		<-errc
	}()
	select {
	case <-ready:
	case err := <-errc:
		errc <- err
		t.Errorf("port-forward %s %d: %v (%s)", pod, port, err, errOut.String())
		return
	case <-time.After(30 * time.Second):
		t.Errorf("port-forward %s %d: not ready after 30s (%s)", pod, port, errOut.String())
		return
	}
	ports, err := fw.GetPorts()
	if err != nil || len(ports) != 1 {
		t.Fatalf("port-forward ports: %v %v", ports, err)
	}
	client := &http.Client{Timeout: 20 * time.Second}
	resp, err := client.Get(fmt.Sprintf("http://127.0.0.1:%d/", ports[0].Local))
	if err != nil {
		t.Errorf("GET / through port-forward to %s:%d: %v (%s)", pod, port, err, errOut.String())
		return
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
		t.Errorf("GET / through port-forward to %s:%d: %s %q, want 200 %q", pod, port, resp.Status, body, want)
	}
}

// servePod is agnhost serve-hostname (port 9376) on a simulated Windows
// node: it answers its pod name.
func servePod(name string) *corev1.Pod {
	pod := windowsPod()
	pod.Name = name
	pod.Labels = map[string]string{"app": name}
	c := &pod.Spec.Containers[0]
	c.Image, c.Command, c.Args = "registry.k8s.io/e2e-test-images/agnhost:2.59", nil, []string{"serve-hostname"}
	c.Ports = []corev1.ContainerPort{{ContainerPort: 9376}}
	return pod
}

// waitRunning waits for the pod to run.
func waitRunning(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, name string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(ctx, time.Second, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
		p, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		return err == nil && p.Status.Phase == corev1.PodRunning, nil
	})
	if err != nil {
		t.Fatalf("pod %s not Running: %v", name, err)
	}
}
