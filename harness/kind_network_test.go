package harness

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	imageutils "k8s.io/kubernetes/test/utils/image"

	"wink.dev/wink/simnode/facts"
)

// kindNetworkAnswers checks, in a kind-backend cluster, that simulated
// nodes and pods are on kind's network as real ones are (the gateway,
// harness/internal/kindgateway): every simulated node has an InternalIP of
// its own with its kubelet API at 10250 (the apiserver's node proxy); the
// apiserver reaches a simulated pod behind a Service (services/proxy, the
// path of webhooks and APIServices); a real Linux pod reaches it at the
// Service's ClusterIP and is refused at a port nothing listens on; and a
// simulated pod reaches a real Linux pod and
// resolves names through kind's CoreDNS. serve is a running agnhost
// serve-hostname pod on a simulated node, linux a running real Linux pod
// with bash.
func kindNetworkAnswers(ctx context.Context, t *testing.T, rc *rest.Config, cs kubernetes.Interface, ns, serve, linux string) {
	t.Helper()
	nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[netip.Addr]string{}
	for _, n := range nodes.Items {
		ip := nodeInternalIP(&n)
		if other, ok := seen[ip]; ok || !ip.IsValid() {
			t.Errorf("node %s has InternalIP %v, as %s has", n.Name, ip, other)
		}
		seen[ip] = n.Name
		if n.Labels[facts.LabelOS] != "windows" {
			continue
		}
		if port := n.Status.DaemonEndpoints.KubeletEndpoint.Port; port != 10250 {
			t.Errorf("node %s: kubelet port %d, want 10250", n.Name, port)
		}
		// What e2e's summary stats ask: the node proxy at port 10250.
		raw, err := cs.CoreV1().RESTClient().Get().AbsPath("/api/v1/nodes/" + n.Name + ":10250/proxy/stats/summary").DoRaw(ctx)
		if err != nil || !strings.Contains(string(raw), `"nodeName"`) {
			t.Errorf("node %s: stats/summary through the node proxy at :10250: %v %.200s", n.Name, err, raw)
		}
	}

	svc, err := cs.CoreV1().Services(ns).Create(ctx, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: serve},
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{"app": serve},
			Ports:    []corev1.ServicePort{{Port: 80, TargetPort: intstr.FromInt32(9376)}},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// services/proxy: the apiserver dials the endpoint, a simulated pod.
	eventually(ctx, t, "the apiserver reaches the simulated pod behind Service "+serve, func() (string, error) {
		raw, err := cs.CoreV1().Services(ns).ProxyGet("http", serve, "80", "/", nil).DoRaw(ctx)
		return string(raw), err
	}, serve)
	// A real Linux pod at the ClusterIP, through kube-proxy's rules.
	eventually(ctx, t, "the real Linux pod reaches Service "+serve, func() (string, error) {
		return execIn(ctx, rc, cs, ns, linux, []string{"bash", "-c",
			fmt.Sprintf(`exec 3<>/dev/tcp/%s/80 && printf 'GET / HTTP/1.0\r\n\r\n' >&3 && timeout 10 cat <&3`, svc.Spec.ClusterIP)})
	}, serve)

	// A port nothing listens on is refused at once, as a node refuses it.
	sp, err := cs.CoreV1().Pods(ns).Get(ctx, serve, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eventually(ctx, t, "the real Linux pod is refused at a closed port of "+serve, func() (string, error) {
		return execIn(ctx, rc, cs, ns, linux, []string{"bash", "-c",
			fmt.Sprintf(`timeout 5 bash -c 'exec 3<>/dev/tcp/%s/81' 2>&1 && echo connected || echo closed`, sp.Status.PodIP)})
	}, "Connection refused")

	// Back: a real nginx on the kind node, from a simulated Windows pod,
	// by address and by name through kind's CoreDNS.
	nginx := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "real-nginx", Labels: map[string]string{"app": "real-nginx"}},
		Spec: corev1.PodSpec{
			NodeSelector: map[string]string{facts.LabelOS: "linux"},
			Tolerations:  []corev1.Toleration{{Operator: corev1.TolerationOpExists}},
			Containers: []corev1.Container{{
				Name: "nginx", Image: imageutils.GetE2EImage(imageutils.Nginx), ImagePullPolicy: corev1.PullNever,
				Ports:          []corev1.ContainerPort{{ContainerPort: 80}},
				ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(80)}}},
			}},
		},
	}
	if _, err := cs.CoreV1().Pods(ns).Create(ctx, nginx, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CoreV1().Services(ns).Create(ctx, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "real-nginx"},
		Spec:       corev1.ServiceSpec{Selector: map[string]string{"app": "real-nginx"}, Ports: []corev1.ServicePort{{Port: 80}}},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	var ip string
	if err := wait.PollUntilContextTimeout(ctx, time.Second, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
		p, err := cs.CoreV1().Pods(ns).Get(ctx, "real-nginx", metav1.GetOptions{})
		if err != nil || p.Status.PodIP == "" {
			return false, nil
		}
		ip = p.Status.PodIP
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
				return true, nil
			}
		}
		return false, nil
	}); err != nil {
		t.Fatalf("real-nginx not Ready: %v", err)
	}
	for _, target := range []string{ip, "real-nginx." + ns + ".svc.cluster.local"} {
		eventually(ctx, t, "the simulated pod reaches the real nginx at "+target, func() (string, error) {
			return execIn(ctx, rc, cs, ns, serve, []string{"cmd", "/c", "curl.exe -4 -s --fail --connect-timeout 10 http://" + target + "/"})
		}, "Welcome to nginx")
	}
}

// eventually retries get for up to a minute until its answer holds want.
func eventually(ctx context.Context, t *testing.T, what string, get func() (string, error), want string) {
	t.Helper()
	var out string
	var err error
	_ = wait.PollUntilContextTimeout(ctx, 2*time.Second, time.Minute, true, func(context.Context) (bool, error) {
		out, err = get()
		return err == nil && strings.Contains(out, want), nil
	})
	if err != nil || !strings.Contains(out, want) {
		t.Errorf("%s: %v %.300q, want %q in it", what, err, out, want)
	}
}

func nodeInternalIP(n *corev1.Node) netip.Addr {
	for _, a := range n.Status.Addresses {
		if ip, err := netip.ParseAddr(a.Address); err == nil && a.Type == corev1.NodeInternalIP {
			return ip
		}
	}
	return netip.Addr{}
}
