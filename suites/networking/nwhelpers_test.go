package networking

import (
	"context"
	"fmt"
	"net"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/suites/suite"
)

// Helpers shared by the H1, H5-H8 and A23 features (prefixed nw so that
// they do not collide with helpers other features of the package add).

const (
	// nwIISImage is the docs' IIS image (S5), serving port 80.
	nwIISImage = "mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022"
	// nwNginxImage is the e2e nginx image (hybrid_network.go's Linux side).
	nwNginxImage = "registry.k8s.io/e2e-test-images/nginx:1.14-4"
	// nwAgnhostImage is the e2e agnhost image (manifest.go Agnhost 2.59).
	nwAgnhostImage = "registry.k8s.io/e2e-test-images/agnhost:2.59"
	// nwConnectTimeout is hybrid_network.go's timeoutSeconds.
	nwConnectTimeout = 10
	// nwFailTimeout bounds the curls that are expected to fail (a timeout
	// then costs this many seconds, not ten).
	nwFailTimeout = 3
)

// nwIISPod is a Windows Server 2022 pod serving IIS on port 80.
func nwIISPod(name string, labels map[string]string) *corev1.Pod {
	pod := suite.WindowsPod(name, suite.Build2022)
	pod.Labels = labels
	pod.Spec.Containers[0].Image = nwIISImage
	pod.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 80}}
	return pod
}

// nwNginxPod is the Linux nginx pod of hybrid_network.go.
func nwNginxPod(name string, labels map[string]string) *corev1.Pod {
	pod := suite.LinuxPod(name)
	pod.Labels = labels
	pod.Spec.Containers[0].Image = nwNginxImage
	pod.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 80}}
	return pod
}

// nwServeHostnamePod is agnhost serve-hostname (port 9376) on a Windows
// Server 2022 node.
func nwServeHostnamePod(name string, labels map[string]string) *corev1.Pod {
	pod := suite.WindowsPod(name, suite.Build2022)
	pod.Labels = labels
	pod.Spec.Containers[0].Image = nwAgnhostImage
	pod.Spec.Containers[0].Args = []string{"serve-hostname"}
	pod.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 9376}}
	return pod
}

// nwHostProcessPod is a HostProcess pod (host network, B10) on node.
func nwHostProcessPod(name, node string) *corev1.Pod {
	pod := suite.WindowsPod(name, suite.Build2022, "ping", "-t", "localhost")
	pod.Spec.HostNetwork = true
	pod.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{
		HostProcess: ptr.To(true), RunAsUserName: ptr.To(`NT AUTHORITY\SYSTEM`),
	}}
	nwOnNode(pod, node)
	return pod
}

// nwOnNode pins a pod to one node by its hostname label.
func nwOnNode(pod *corev1.Pod, node string) *corev1.Pod {
	if pod.Spec.NodeSelector == nil {
		pod.Spec.NodeSelector = map[string]string{}
	}
	pod.Spec.NodeSelector[corev1.LabelHostname] = node
	return pod
}

// nwNodes returns the names of the Ready nodes whose labels hold sel, sorted.
func nwNodes(ctx context.Context, t *testing.T, cs kubernetes.Interface, sel string, want int) []string {
	t.Helper()
	list, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range list.Items {
		if facts.NodeReady(&n) {
			out = append(out, n.Name)
		}
	}
	sort.Strings(out)
	if len(out) < want {
		t.Skipf("needs %d Ready nodes with %s, the cluster has %d", want, sel, len(out))
	}
	return out
}

// nwNodeIP is a node's InternalIP.
func nwNodeIP(ctx context.Context, t *testing.T, cs kubernetes.Interface, name string) string {
	t.Helper()
	n, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range n.Status.Addresses {
		if a.Type == corev1.NodeInternalIP {
			return a.Address
		}
	}
	t.Fatalf("node %s has no InternalIP", name)
	return ""
}

// nwService creates a Service of typ selecting sel, port -> targetPort.
func nwService(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, name string, typ corev1.ServiceType, sel map[string]string, port, target int, mutate ...func(*corev1.Service)) *corev1.Service {
	t.Helper()
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: corev1.ServiceSpec{
			Type:     typ,
			Selector: sel,
			Ports:    []corev1.ServicePort{{Name: "http", Port: int32(port), TargetPort: intstr.FromInt32(int32(target)), Protocol: corev1.ProtocolTCP}},
		},
	}
	for _, m := range mutate {
		m(svc)
	}
	out, err := cs.CoreV1().Services(ns).Create(ctx, svc, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating service %s: %v", name, err)
	}
	return out
}

// nwWaitEndpoints waits until the EndpointSlices of service ns/name list
// exactly the ready addresses want, and returns the slices' addresses.
func nwWaitEndpoints(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, name string, want []string) []string {
	t.Helper()
	sort.Strings(want)
	var got []string
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		list, err := cs.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{LabelSelector: "kubernetes.io/service-name=" + name})
		if err != nil {
			return false, nil
		}
		got = got[:0]
		for _, s := range list.Items {
			for _, e := range s.Endpoints {
				if e.Conditions.Ready != nil && *e.Conditions.Ready {
					got = append(got, e.Addresses...)
				}
			}
		}
		sort.Strings(got)
		return strings.Join(got, ",") == strings.Join(want, ","), nil
	})
	if err != nil {
		t.Fatalf("EndpointSlices of service %s/%s list ready addresses %v, want %v", ns, name, got, want)
	}
	return got
}

// nwExec runs argv in the pod's container "main" and records it as evidence.
func nwExec(ctx context.Context, t *testing.T, cfg *envconf.Config, ns, pod string, argv ...string) suite.ExecResult {
	t.Helper()
	res := suite.Exec(ctx, t, cfg, ns, pod, "main", argv...)
	suite.ExecEvidence(t, pod, argv, res)
	return res
}

// nwCurlArgv is hybrid_network.go's windowsCheck: cmd /c curl.exe -4
// <target> --connect-timeout N --fail.
func nwCurlArgv(target string, timeout int) []string {
	return []string{"cmd", "/c", fmt.Sprintf("curl.exe -4 %s --connect-timeout %d --fail", target, timeout)}
}

// nwWindowsCurl runs windowsCheck from a Windows pod.
func nwWindowsCurl(ctx context.Context, t *testing.T, cfg *envconf.Config, ns, pod, target string, timeout int) suite.ExecResult {
	t.Helper()
	return nwExec(ctx, t, cfg, ns, pod, nwCurlArgv(target, timeout)...)
}

// nwLinuxNc is hybrid_network.go's linuxCheck: /bin/sh -c "nc -vz <ip> <port> -w N".
func nwLinuxNc(ctx context.Context, t *testing.T, cfg *envconf.Config, ns, pod, addr string, port, timeout int) suite.ExecResult {
	t.Helper()
	return nwExec(ctx, t, cfg, ns, pod, "/bin/sh", "-c", fmt.Sprintf("nc -vz %s %d -w %d", addr, port, timeout))
}

// nwLinuxCurl fetches a URL from a Linux pod (busybox wget, as the e2e
// busybox image has no curl).
func nwLinuxCurl(ctx context.Context, t *testing.T, cfg *envconf.Config, ns, pod, url string, timeout int) suite.ExecResult {
	t.Helper()
	return nwExec(ctx, t, cfg, ns, pod, "wget", "-q", "-O", "-", "-T", strconv.Itoa(timeout), url)
}

// nwWantOK and nwWantFail assert an exit code against a row.
func nwWantOK(t *testing.T, row, what string, res suite.ExecResult) {
	t.Helper()
	if res.ExitCode != 0 {
		t.Errorf("[%s] %s: exit %d, want 0\nstdout: %s\nstderr: %s", row, what, res.ExitCode, res.Stdout, res.Stderr)
	}
}

func nwWantFail(t *testing.T, row, what string, res suite.ExecResult) {
	t.Helper()
	if res.ExitCode == 0 {
		t.Errorf("[%s] %s: exit 0, want a failure\nstdout: %s\nstderr: %s", row, what, res.Stdout, res.Stderr)
	}
}

// nwHostPort joins an address and a port.
func nwHostPort(addr string, port int) string { return net.JoinHostPort(addr, strconv.Itoa(port)) }

var nwIPv4Line = regexp.MustCompile(`(?m)IPv4 Address[ .]*:\s*([0-9.]+)`)

// nwIPConfigAddrs are the IPv4 addresses `ipconfig` prints.
func nwIPConfigAddrs(out string) []string {
	var addrs []string
	for _, m := range nwIPv4Line.FindAllStringSubmatch(out, -1) {
		addrs = append(addrs, m[1])
	}
	return addrs
}

// nwRun creates pods concurrently-ish (all created, then each waited for)
// and returns them Running, so that image pulls overlap.
func nwRun(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string, pods ...*corev1.Pod) map[string]*corev1.Pod {
	t.Helper()
	for _, p := range pods {
		suite.CreatePod(ctx, t, cs, ns, p)
	}
	out := map[string]*corev1.Pod{}
	for _, p := range pods {
		out[p.Name] = suite.WaitPod(ctx, t, cs, ns, p.Name, 3*time.Minute, "Running", suite.Running)
	}
	return out
}

// metaSelector lists by a label set.
func metaSelector(set map[string]string) metav1.ListOptions {
	return metav1.ListOptions{LabelSelector: labels.SelectorFromSet(set).String()}
}
