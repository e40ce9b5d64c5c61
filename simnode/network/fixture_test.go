package network_test

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"wink.dev/wink/simnode/network"
	"wink.dev/wink/simnode/shell"
)

// The test cluster. Node InternalIPs are loopback addresses, as in wink's
// embedded backend, so classification must not mistake them for "self".
//
//	linux-0    127.10.0.2  10.244.0.0/24  Linux
//	win-0      127.10.0.3  10.244.1.0/24  Windows Server 2022 (20348)
//	win-1      127.10.0.4  10.244.2.0/24  Windows Server 2022 (20348)
//	win2019-0  127.10.0.5  10.244.3.0/24  Windows Server 2019 (17763)
//	apiserver  192.168.49.2:6443 (the kubernetes Service's endpoint)
const (
	linux0   = "linux-0"
	win0     = "win-0"
	win1     = "win-1"
	win2019  = "win2019-0"
	apiIP    = "192.168.49.2"
	kubeDNS  = "10.96.0.10"
	kubeAPI  = "10.96.0.1"
	nodePort = 30080
)

func node(name, os, ip, cidr, build string) *corev1.Node {
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{corev1.LabelOSStable: os, corev1.LabelHostname: name}},
		Spec:       corev1.NodeSpec{PodCIDR: cidr, PodCIDRs: []string{cidr}},
		Status: corev1.NodeStatus{
			Addresses: []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: ip}, {Type: corev1.NodeHostName, Address: name}},
			NodeInfo:  corev1.NodeSystemInfo{OperatingSystem: os, KubeletVersion: "v1.35.4"},
			DaemonEndpoints: corev1.NodeDaemonEndpoints{
				KubeletEndpoint: corev1.DaemonEndpoint{Port: 10250},
			},
		},
	}
	if build != "" {
		n.Labels[corev1.LabelWindowsBuild] = build
		n.Status.NodeInfo.KernelVersion = build + ".1607"
		n.Status.NodeInfo.ContainerRuntimeVersion = "containerd://1.7.27"
	}
	return n
}

type podOpt func(*corev1.Pod)

func ports(ps ...int32) podOpt {
	return func(p *corev1.Pod) {
		for _, x := range ps {
			p.Spec.Containers[0].Ports = append(p.Spec.Containers[0].Ports, corev1.ContainerPort{ContainerPort: x})
		}
	}
}

func labels(kv ...string) podOpt {
	return func(p *corev1.Pod) {
		p.Labels = map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			p.Labels[kv[i]] = kv[i+1]
		}
	}
}

func hostProcess() podOpt {
	return func(p *corev1.Pod) {
		t := true
		p.Spec.HostNetwork = true
		p.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{HostProcess: &t}}
	}
}

func hostNetwork() podOpt { return func(p *corev1.Pod) { p.Spec.HostNetwork = true } }

func dnsPolicy(pol corev1.DNSPolicy, cfg *corev1.PodDNSConfig) podOpt {
	return func(p *corev1.Pod) { p.Spec.DNSPolicy, p.Spec.DNSConfig = pol, cfg }
}

var uid int

func pod(ns, name, nodeName, ip string, nodes map[string]*corev1.Node, opts ...podOpt) *corev1.Pod {
	uid++
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID(fmt.Sprintf("00000000-0000-0000-0000-%012d", uid))},
		Spec: corev1.PodSpec{
			NodeName:   nodeName,
			DNSPolicy:  corev1.DNSClusterFirst,
			Containers: []corev1.Container{{Name: "c", Image: "img"}},
		},
		Status: corev1.PodStatus{Phase: corev1.PodRunning},
	}
	for _, o := range opts {
		o(p)
	}
	n := nodes[nodeName]
	os := n.Status.NodeInfo.OperatingSystem
	p.Spec.OS = &corev1.PodOS{Name: corev1.OSName(os)}
	p.Spec.NodeSelector = map[string]string{corev1.LabelOSStable: os}
	if p.Spec.HostNetwork {
		ip = n.Status.Addresses[0].Address
	}
	p.Status.PodIP, p.Status.PodIPs = ip, []corev1.PodIP{{IP: ip}}
	p.Status.HostIP = n.Status.Addresses[0].Address
	return p
}

func svc(ns, name, clusterIP string, sps ...corev1.ServicePort) *corev1.Service {
	s := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, ClusterIP: clusterIP, ClusterIPs: []string{clusterIP}, Ports: sps},
	}
	if clusterIP == corev1.ClusterIPNone {
		s.Spec.ClusterIPs = nil
	}
	return s
}

func sport(name string, port int32, proto corev1.Protocol) corev1.ServicePort {
	return corev1.ServicePort{Name: name, Port: port, Protocol: proto, TargetPort: intstr.FromInt32(port)}
}

// slice builds the EndpointSlice of a Service: one ready endpoint per pod.
func slice(s *corev1.Service, targetPort int32, pods ...*corev1.Pod) *discoveryv1.EndpointSlice {
	es := &discoveryv1.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Namespace: s.Namespace, Name: s.Name + "-abcde", Labels: map[string]string{discoveryv1.LabelServiceName: s.Name}},
		AddressType: discoveryv1.AddressTypeIPv4,
	}
	for _, sp := range s.Spec.Ports {
		name, proto, port := sp.Name, sp.Protocol, targetPort
		if port == 0 {
			port = sp.TargetPort.IntVal
		}
		es.Ports = append(es.Ports, discoveryv1.EndpointPort{Name: &name, Protocol: &proto, Port: &port})
	}
	ready := true
	for _, p := range pods {
		nodeName, hn := p.Spec.NodeName, p.Name
		es.Endpoints = append(es.Endpoints, discoveryv1.Endpoint{
			Addresses:  []string{p.Status.PodIP},
			Conditions: discoveryv1.EndpointConditions{Ready: &ready},
			Hostname:   &hn,
			NodeName:   &nodeName,
			TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: p.Namespace, Name: p.Name},
		})
	}
	return es
}

type cluster struct {
	objs  *network.Objects
	nodes map[string]*corev1.Node
	pods  map[string]*corev1.Pod // by name (namespaces are unique enough here)
	svcs  map[string]*corev1.Service
	now   time.Time
}

func (c *cluster) addPod(p *corev1.Pod) *corev1.Pod {
	c.objs.PodList = append(c.objs.PodList, p)
	c.pods[p.Name] = p
	return p
}

func (c *cluster) addSvc(s *corev1.Service, es ...*discoveryv1.EndpointSlice) *corev1.Service {
	c.objs.ServiceList = append(c.objs.ServiceList, s)
	c.objs.EndpointSliceList = append(c.objs.EndpointSliceList, es...)
	c.svcs[s.Namespace+"/"+s.Name] = s
	return s
}

func newCluster() *cluster {
	c := &cluster{objs: &network.Objects{}, nodes: map[string]*corev1.Node{}, pods: map[string]*corev1.Pod{}, svcs: map[string]*corev1.Service{}, now: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)}
	for _, n := range []*corev1.Node{
		node(linux0, "linux", "127.10.0.2", "10.244.0.0/24", ""),
		node(win0, "windows", "127.10.0.3", "10.244.1.0/24", "10.0.20348"),
		node(win1, "windows", "127.10.0.4", "10.244.2.0/24", "10.0.20348"),
		node(win2019, "windows", "127.10.0.5", "10.244.3.0/24", "10.0.17763"),
	} {
		c.nodes[n.Name] = n
		c.objs.NodeList = append(c.objs.NodeList, n)
	}
	N := c.nodes

	coredns := c.addPod(pod("kube-system", "coredns-0", linux0, "10.244.0.10", N, ports(53, 9153), labels("k8s-app", "kube-dns")))
	nginx := c.addPod(pod("default", "nginx", linux0, "10.244.0.20", N, ports(80), labels("app", "nginx")))
	c.addPod(pod("default", "linux-client", linux0, "10.244.0.21", N))
	winWeb := c.addPod(pod("default", "win-web", win0, "10.244.1.10", N, ports(80), labels("app", "win-web")))
	winClient := c.addPod(pod("default", "win-client", win0, "10.244.1.11", N))
	c.addPod(pod("default", "win-client-1", win1, "10.244.2.11", N))
	c.addPod(pod("default", "win2019-client", win2019, "10.244.3.11", N))
	c.addPod(pod("other", "win-other-ns", win0, "10.244.1.13", N))
	c.addPod(pod("default", "hpc", win0, "", N, hostProcess()))
	c.addPod(pod("default", "hpc-1", win1, "", N, hostProcess()))
	c.addPod(pod("default", "linux-hostnet", linux0, "", N, hostNetwork()))
	c.addPod(pod("default", "win-hostnet", win0, "", N, hostNetwork(), ports(9000)))
	netexec := c.addPod(pod("default", "netexec-0", win1, "10.244.2.20", N, ports(80)))
	webA := c.addPod(pod("default", "web-a", win0, "10.244.1.20", N, ports(8080)))
	webB := c.addPod(pod("default", "web-b", win1, "10.244.2.21", N, ports(8080)))
	old1 := c.addPod(pod("default", "old-a", win2019, "10.244.3.20", N, ports(8080)))
	old2 := c.addPod(pod("default", "old-b", win2019, "10.244.3.21", N, ports(8080)))
	linWeb := c.addPod(pod("default", "lin-web", linux0, "10.244.0.30", N, ports(8080)))
	crashed := c.addPod(pod("default", "crashed", win0, "10.244.1.30", N, ports(80)))
	crashed.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "c", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}}}
	done := c.addPod(pod("default", "done", win0, "10.244.1.31", N, ports(80)))
	done.Status.Phase = corev1.PodSucceeded

	// dns.go:56-61: a Windows agnhost pod with dnsPolicy None, nameservers
	// [kube-dns ClusterIP, 1.1.1.1] and searches [default.svc.cluster.local],
	// in the test's own namespace.
	c.addPod(pod("dns-5912", "e2e-dns-utils", win0, "10.244.1.12", N, dnsPolicy(corev1.DNSNone, &corev1.PodDNSConfig{
		Nameservers: []string{kubeDNS, "1.1.1.1"},
		Searches:    []string{"default.svc.cluster.local"},
	})))

	kubernetes := svc("default", "kubernetes", kubeAPI, sport("https", 443, corev1.ProtocolTCP))
	apiPort, apiName, tcp := int32(6443), "https", corev1.ProtocolTCP
	c.addSvc(kubernetes, &discoveryv1.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Namespace: "default", Name: "kubernetes", Labels: map[string]string{discoveryv1.LabelServiceName: "kubernetes"}},
		AddressType: discoveryv1.AddressTypeIPv4,
		Endpoints:   []discoveryv1.Endpoint{{Addresses: []string{apiIP}}},
		Ports:       []discoveryv1.EndpointPort{{Name: &apiName, Protocol: &tcp, Port: &apiPort}},
	})
	dns := svc("kube-system", "kube-dns", kubeDNS, sport("dns", 53, corev1.ProtocolUDP), sport("dns-tcp", 53, corev1.ProtocolTCP))
	dns.Spec.Selector = map[string]string{"k8s-app": "kube-dns"}
	c.addSvc(dns, slice(dns, 53, coredns))
	s := svc("default", "nginx", "10.96.0.20", sport("http", 80, corev1.ProtocolTCP))
	c.addSvc(s, slice(s, 80, nginx))
	s = svc("default", "win-web", "10.96.0.30", sport("http", 80, corev1.ProtocolTCP))
	c.addSvc(s, slice(s, 80, winWeb))
	s = svc("default", "nodeport-test", "10.96.0.31", sport("http", 80, corev1.ProtocolTCP))
	s.Spec.Type = corev1.ServiceTypeNodePort
	s.Spec.Ports[0].NodePort = nodePort
	c.addSvc(s, slice(s, 80, netexec))
	c.addSvc(svc("default", "empty", "10.96.0.40", sport("http", 80, corev1.ProtocolTCP)))
	s = svc("default", "refuser", "10.96.0.41", sport("http", 80, corev1.ProtocolTCP))
	c.addSvc(s, slice(s, 8080, winClient))
	s = svc("default", "headless", corev1.ClusterIPNone, sport("http", 80, corev1.ProtocolTCP))
	c.addSvc(s, slice(s, 80, winWeb, nginx))
	s = svc("default", "bing", "")
	s.Spec.Type, s.Spec.ExternalName, s.Spec.ClusterIPs = corev1.ServiceTypeExternalName, "www.bing.com", nil
	c.addSvc(s)
	s = svc("default", "nginx-alias", "")
	s.Spec.Type, s.Spec.ExternalName, s.Spec.ClusterIPs = corev1.ServiceTypeExternalName, "nginx.default.svc.cluster.local", nil
	c.addSvc(s)
	for _, a := range []struct {
		name, ip string
		aff      bool
		eps      []*corev1.Pod
	}{
		{"sticky", "10.96.0.50", true, []*corev1.Pod{webA, webB}},
		{"spread", "10.96.0.51", false, []*corev1.Pod{webA, webB}},
		{"sticky-2019", "10.96.0.52", true, []*corev1.Pod{old1, old2}},
		{"sticky-linux", "10.96.0.53", true, []*corev1.Pod{linWeb, webA}},
	} {
		s = svc("default", a.name, a.ip, sport("http", 80, corev1.ProtocolTCP))
		if a.aff {
			ttl := int32(60)
			s.Spec.SessionAffinity = corev1.ServiceAffinityClientIP
			s.Spec.SessionAffinityConfig = &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: &ttl}}
		}
		c.addSvc(s, slice(s, 8080, a.eps...))
	}
	// externalTrafficPolicy Local, the only endpoint on win-1.
	s = svc("default", "local-np", "10.96.0.60", sport("http", 8080, corev1.ProtocolTCP))
	s.Spec.Type, s.Spec.ExternalTrafficPolicy = corev1.ServiceTypeNodePort, corev1.ServiceExternalTrafficPolicyLocal
	s.Spec.Ports[0].NodePort = 30081
	c.addSvc(s, slice(s, 8080, webB))
	return c
}

func (c *cluster) model(mod ...func(*network.Options)) *network.Model {
	o := network.Options{
		Now: func() time.Time { return c.now },
		HTTPHandler: func(p *corev1.Pod, port int, req *network.HTTPRequest) *shell.HTTPResponse {
			if p == nil {
				return &shell.HTTPResponse{Status: 200, Body: []byte("internet " + req.Host)}
			}
			return &shell.HTTPResponse{Status: 200, Body: []byte(p.Name)}
		},
	}
	for _, f := range mod {
		f(&o)
	}
	return network.New(c.objs, o)
}

// want is an expected outcome: "ok", "refused", "timeout", "unreachable",
// "notfound", "untrusted".
func outcome(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, shell.ErrRefused):
		return "refused"
	case errors.Is(err, shell.ErrTimeout):
		return "timeout"
	case errors.Is(err, shell.ErrUnreachable):
		return "unreachable"
	case errors.Is(err, shell.ErrNameNotFound):
		return "notfound"
	case errors.Is(err, shell.ErrUntrustedCert):
		return "untrusted"
	}
	return "error: " + err.Error()
}

func addr(s string) netip.Addr { return netip.MustParseAddr(s) }

var ctx = context.Background()

func (c *cluster) from(m *network.Model, who string) shell.Network {
	if n, ok := c.nodes[who]; ok {
		return m.FromNode(n)
	}
	p, ok := c.pods[who]
	if !ok {
		panic("no pod or node " + who)
	}
	return m.From(p)
}

func (c *cluster) nodeIP(name string) string { return c.nodes[name].Status.Addresses[0].Address }

// sanity check of the fixture itself
func TestFixture(t *testing.T) {
	c := newCluster()
	if len(c.objs.PodList) == 0 || c.pods["hpc"].Status.PodIP != c.nodeIP(win0) {
		t.Fatal("fixture broken")
	}
}
