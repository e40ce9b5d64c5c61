package network

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	discoverylisters "k8s.io/client-go/listers/discovery/v1"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/shell"
)

// Source is where the model reads the cluster from. The provider satisfies
// it with client-go listers (Listers); tests with plain slices (Objects).
// The returned objects are shared and must not be modified.
type Source interface {
	Pods() []*corev1.Pod
	Services() []*corev1.Service
	EndpointSlices() []*discoveryv1.EndpointSlice
	Nodes() []*corev1.Node
}

// Objects is a Source over fixed slices.
type Objects struct {
	PodList           []*corev1.Pod
	ServiceList       []*corev1.Service
	EndpointSliceList []*discoveryv1.EndpointSlice
	NodeList          []*corev1.Node
}

func (o *Objects) Pods() []*corev1.Pod                          { return o.PodList }
func (o *Objects) Services() []*corev1.Service                  { return o.ServiceList }
func (o *Objects) EndpointSlices() []*discoveryv1.EndpointSlice { return o.EndpointSliceList }
func (o *Objects) Nodes() []*corev1.Node                        { return o.NodeList }

// Listers is a Source over informer caches.
type Listers struct {
	PodLister           corelisters.PodLister
	ServiceLister       corelisters.ServiceLister
	EndpointSliceLister discoverylisters.EndpointSliceLister
	NodeLister          corelisters.NodeLister
}

// Listers never fail (they read a cache); errors are treated as empty.

func (l *Listers) Pods() []*corev1.Pod {
	out, _ := l.PodLister.List(labels.Everything())
	return out
}
func (l *Listers) Services() []*corev1.Service {
	out, _ := l.ServiceLister.List(labels.Everything())
	return out
}
func (l *Listers) EndpointSlices() []*discoveryv1.EndpointSlice {
	out, _ := l.EndpointSliceLister.List(labels.Everything())
	return out
}
func (l *Listers) Nodes() []*corev1.Node {
	out, _ := l.NodeLister.List(labels.Everything())
	return out
}

// HTTPRequest is what an HTTPHandler is asked to answer.
type HTTPRequest struct {
	Method string
	// Scheme is "http" or "https".
	Scheme string
	// Host is the host part of the URL as the client wrote it (name or IP).
	Host string
	// Path includes the query string, e.g. "/healthz?verbose".
	Path string
	// Addr and Port are where the connection landed (after Service load
	// balancing: the endpoint's address and target port).
	Addr netip.Addr
	Port int
	// From is the client's address.
	From netip.Addr
	// Body is the request's body (nil: none).
	Body []byte
	// Server is the network as the answering pod sees it (nil for
	// addresses beyond the cluster), for servers that make connections of
	// their own (agnhost netexec /dial).
	Server shell.Network
}

// APIServerRequest is a container's request to the apiserver, for
// Options.APIServer.
type APIServerRequest struct {
	Method string
	// Scheme is "https" (or "http", which the apiserver does not serve).
	Scheme string
	// ServerName is the host the client named (a name or an address): what
	// its TLS client verifies the certificate against.
	ServerName string
	// Path includes the query string.
	Path   string
	Header map[string]string
	// RootCAs are the PEM certificates the client trusts; empty: the
	// system's roots. Insecure: it verifies nothing (curl -k).
	RootCAs  []byte
	Insecure bool
}

// Options configure a Model. Zero values take the defaults documented on
// each field.
type Options struct {
	// ClusterDomain is the kubelet's --cluster-domain. Default cluster.local.
	ClusterDomain string
	// ClusterDNS is the kubelet's --cluster-dns. Default: the ClusterIPs of
	// Service kube-system/kube-dns, read at every call.
	ClusterDNS []netip.Addr
	// PodCIDRs is the cluster's pod network. Every node's spec.podCIDRs are
	// added to it. Default 10.244.0.0/16.
	PodCIDRs []netip.Prefix
	// ServiceCIDRs is the Service network. Default 10.96.0.0/12.
	ServiceCIDRs []netip.Prefix
	// NodePrefixLen is the prefix length of the nodes' own subnet (ipconfig
	// of HostProcess pods). Default 24.
	NodePrefixLen int
	// HostDNS and HostSearch are the nodes' own resolver configuration (a
	// Linux node's /etc/resolv.conf, a Windows node's adapter settings).
	// Default HostDNS 8.8.8.8, no search domains.
	HostDNS    []netip.Addr
	HostSearch []string
	// WindowsResolvConf is the Windows kubelets' --resolv-conf: "" (the
	// documented Windows setting, seed 003: dnsPolicy Default then gets
	// nameserver 127.0.0.1, i.e. no working DNS) or "Host" (the host's
	// adapter settings, HostDNS/HostSearch).
	WindowsResolvConf string
	// ExternalPorts are the TCP/UDP ports every address beyond the cluster
	// network answers on. Default 53, 80, 443 (e2e hybrid_network.go checks
	// 8.8.8.8:53 and www.google.com:80).
	ExternalPorts []int
	// ExternalHosts pins names of the outside world to addresses. Other
	// names under a public TLD resolve to a stable address of 203.0.113.0/24.
	ExternalHosts map[string]netip.Addr
	// HostServiceVIPs tells whether the host network of a Windows node can
	// reach Service VIPs (row H6). Default: rules.yaml's hostServiceVIPs
	// table, from the node's kubelet and containerd versions.
	HostServiceVIPs func(node *corev1.Node) bool
	// Listens reports the ports container (index into spec.containers) of
	// pod listens on (both TCP and UDP). Default: its containerPorts. It is
	// asked about pods of simulated nodes only (SimulatedNode).
	Listens func(pod *corev1.Pod, container int) []int
	// SimulatedNode reports whether a wink simnode (this process or another
	// of the cluster's) simulates node. The pods of any other node, a real
	// one (kind's own nodes, a cluster's Linux nodes), run for real: such a
	// pod is taken as listening on its declared containerPorts while it is
	// Ready (the cluster DNS on a real node answers from the model, row H1),
	// and TCP connections and HTTP requests to it go through ClusterDial.
	// Nil: every node is simulated.
	SimulatedNode func(node *corev1.Node) bool
	// ClusterDial dials a real address of the cluster network, "ip:port"
	// of a pod on a real node (SimulatedNode), as net.Dialer.DialContext
	// does; network is "tcp". The model closes every connection it dials.
	// Nil: real pods are out of reach, and a connection to one is refused
	// with a reason that says so (row H1).
	ClusterDial func(ctx context.Context, network, addr string) (net.Conn, error)
	// HTTPHandler answers an HTTP request that reached pod on port. pod is
	// nil for addresses beyond the cluster. A nil handler or a nil response
	// gives 200 with an empty body.
	HTTPHandler func(pod *corev1.Pod, port int, req *HTTPRequest) *shell.HTTPResponse
	// UDPHandler answers a datagram that reached pod on port from a client
	// (Exchange); ok false: no answer. Nil: nobody answers.
	UDPHandler func(pod *corev1.Pod, port int, payload string, from netip.Addr) (answer string, ok bool)
	// TCPHandler answers the bytes a client writes on a TCP connection to
	// pod's port (Converse, nc); ok false: the server writes nothing back.
	TCPHandler func(pod *corev1.Pod, port int, data string, from netip.Addr) (answer string, ok bool)
	// DNSServer is the DNS server a pod runs besides the cluster DNS (a
	// CoreDNS with its Corefile: corefile.go), nil when it runs none: such
	// a pod listening on 53 then forwards as a resolver of the internet.
	DNSServer func(pod *corev1.Pod) *DNSServer
	// APIServer sends a request that reached the apiserver (the kubernetes
	// Service or its endpoint) to the real one: the control plane is
	// never faked. Nil: the anonymous answers of apiserverResponse.
	APIServer func(ctx context.Context, req *APIServerRequest) (*shell.HTTPResponse, error)
	// KubernetesVersion is what the apiserver's /version reports. Default
	// v1.35.4.
	KubernetesVersion string
	// Now is the clock for session-affinity timeouts. Default time.Now.
	Now func() time.Time
}

// Model answers, from API objects, what a container observes of the
// cluster network. It is safe for concurrent use.
type Model struct {
	src   Source
	opts  Options
	rules *Table

	mu       sync.Mutex
	rr       map[string]int           // round-robin position per service port
	affinity map[string]affinityEntry // service port + client IP -> endpoint

	sockets sockets // real listeners of simulated servers (sockets.go)
}

type affinityEntry struct {
	endpoint string
	last     time.Time
}

// New returns a model over src.
func New(src Source, opts Options) *Model {
	if opts.ClusterDomain == "" {
		opts.ClusterDomain = "cluster.local"
	}
	opts.ClusterDomain = strings.TrimSuffix(strings.ToLower(opts.ClusterDomain), ".")
	if len(opts.PodCIDRs) == 0 {
		opts.PodCIDRs = []netip.Prefix{netip.MustParsePrefix("10.244.0.0/16")}
	}
	if len(opts.ServiceCIDRs) == 0 {
		opts.ServiceCIDRs = []netip.Prefix{netip.MustParsePrefix("10.96.0.0/12")}
	}
	if opts.NodePrefixLen == 0 {
		opts.NodePrefixLen = 24
	}
	if len(opts.HostDNS) == 0 {
		opts.HostDNS = []netip.Addr{netip.MustParseAddr("8.8.8.8")}
	}
	if len(opts.ExternalPorts) == 0 {
		opts.ExternalPorts = []int{53, 80, 443}
	}
	if opts.KubernetesVersion == "" {
		opts.KubernetesVersion = "v1.35.4"
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Model{src: src, opts: opts, rules: defaultTable, rr: map[string]int{}, affinity: map[string]affinityEntry{}}
}

// dnsServer is pod's own DNS server (Options.DNSServer), or nil.
func (m *Model) dnsServer(pod *corev1.Pod) *DNSServer {
	if m.opts.DNSServer == nil || pod == nil {
		return nil
	}
	return m.opts.DNSServer(pod)
}

// RuleError is a network error together with the table entry that caused
// it. errors.Is matches the shell error (shell.ErrTimeout, ...).
type RuleError struct {
	Err    error
	Rule   string
	Reason string
}

func (e *RuleError) Error() string { return fmt.Sprintf("%v (%s: %s)", e.Err, e.Rule, e.Reason) }
func (e *RuleError) Unwrap() error { return e.Err }

func outcomeError(d Decision, reason string) error {
	var err error
	switch d.Outcome {
	case OutcomeTimeout:
		err = shell.ErrTimeout
	case OutcomeRefused:
		err = shell.ErrRefused
	case OutcomeUnreachable:
		err = shell.ErrUnreachable
	default:
		return nil
	}
	return &RuleError{Err: err, Rule: d.ID, Reason: reason}
}

// ---- snapshot: one consistent reading of the Source per call ----

type endpoint struct {
	addr     netip.Addr
	port     int
	nodeName string
	pod      *corev1.Pod // nil for endpoints that are not pods (apiserver)
}

type snapshot struct {
	opts          *Options
	nodes         []*corev1.Node
	nodeByName    map[string]*corev1.Node
	nodeByAddr    map[netip.Addr]*corev1.Node
	podByIP       map[netip.Addr]*corev1.Pod
	podByKey      map[string]*corev1.Pod
	podByUID      map[string]*corev1.Pod
	hostPods      map[string][]*corev1.Pod // node name -> hostNetwork pods
	svcByIP       map[netip.Addr]*corev1.Service
	svcByKey      map[string]*corev1.Service
	slices        map[string][]*discoveryv1.EndpointSlice // ns/service -> slices
	apiserverAddr map[netip.Addr][]int
	podCIDRs      []netip.Prefix
	svcCIDRs      []netip.Prefix
}

func key(ns, name string) string { return ns + "/" + name }

func parseAddr(s string) (netip.Addr, bool) {
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap(), true
}

func isTerminal(p *corev1.Pod) bool {
	return p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed
}

func (m *Model) snapshot() *snapshot { return m.snapshotOf(true) }

// nodeSnapshot is a snapshot of the nodes and Services only: what a view's
// node and its DNS settings need (From, NetConfig), without the pods and
// EndpointSlices. Every container start asks for them; a full snapshot
// there cost O(pods) per start, O(pods²) per rollout (half of simnode's
// CPU in BenchmarkPodThroughput). A view's dials and lookups take a full
// snapshot of their own.
func (m *Model) nodeSnapshot() *snapshot { return m.snapshotOf(false) }

func (m *Model) snapshotOf(full bool) *snapshot {
	s := &snapshot{
		opts:          &m.opts,
		nodeByName:    map[string]*corev1.Node{},
		nodeByAddr:    map[netip.Addr]*corev1.Node{},
		podByIP:       map[netip.Addr]*corev1.Pod{},
		podByKey:      map[string]*corev1.Pod{},
		podByUID:      map[string]*corev1.Pod{},
		hostPods:      map[string][]*corev1.Pod{},
		svcByIP:       map[netip.Addr]*corev1.Service{},
		svcByKey:      map[string]*corev1.Service{},
		slices:        map[string][]*discoveryv1.EndpointSlice{},
		apiserverAddr: map[netip.Addr][]int{},
		podCIDRs:      append([]netip.Prefix(nil), m.opts.PodCIDRs...),
		svcCIDRs:      m.opts.ServiceCIDRs,
	}
	for _, n := range m.src.Nodes() {
		s.nodes = append(s.nodes, n)
		s.nodeByName[n.Name] = n
		for _, a := range n.Status.Addresses {
			if a.Type != corev1.NodeInternalIP && a.Type != corev1.NodeExternalIP {
				continue
			}
			if ip, ok := parseAddr(a.Address); ok {
				s.nodeByAddr[ip] = n
			}
		}
		cidrs := n.Spec.PodCIDRs
		if len(cidrs) == 0 && n.Spec.PodCIDR != "" {
			cidrs = []string{n.Spec.PodCIDR}
		}
		for _, c := range cidrs {
			if p, err := netip.ParsePrefix(c); err == nil {
				s.podCIDRs = append(s.podCIDRs, p.Masked())
			}
		}
	}
	for _, svc := range m.src.Services() {
		s.svcByKey[key(svc.Namespace, svc.Name)] = svc
		for _, c := range clusterIPs(svc) {
			s.svcByIP[c] = svc
		}
	}
	if !full {
		return s
	}
	for _, p := range m.src.Pods() {
		s.podByKey[key(p.Namespace, p.Name)] = p
		if p.UID != "" {
			s.podByUID[string(p.UID)] = p
		}
		if isTerminal(p) {
			continue
		}
		if p.Spec.HostNetwork {
			n := s.nodeByName[p.Spec.NodeName]
			if m.rules.SourceKind(podOS(p, n), true, facts.HostProcess(p)).Outcome == SrcHost {
				s.hostPods[p.Spec.NodeName] = append(s.hostPods[p.Spec.NodeName], p)
			} else if a := h7Address(p, n); a.IsValid() {
				// H7: not on the host; reachable at its own address only.
				s.podByIP[a] = p
			}
			continue
		}
		for _, ip := range podIPs(p) {
			s.podByIP[ip] = p
		}
	}
	for _, es := range m.src.EndpointSlices() {
		name := es.Labels[discoveryv1.LabelServiceName]
		if name == "" {
			continue
		}
		k := key(es.Namespace, name)
		s.slices[k] = append(s.slices[k], es)
		if k == "default/kubernetes" {
			for _, ep := range es.Endpoints {
				for _, a := range ep.Addresses {
					if ip, ok := parseAddr(a); ok {
						for _, p := range es.Ports {
							if p.Port != nil {
								s.apiserverAddr[ip] = append(s.apiserverAddr[ip], int(*p.Port))
							}
						}
					}
				}
			}
		}
	}
	return s
}

func podIPs(p *corev1.Pod) []netip.Addr {
	var out []netip.Addr
	for _, ip := range p.Status.PodIPs {
		if a, ok := parseAddr(ip.IP); ok {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		if a, ok := parseAddr(p.Status.PodIP); ok {
			out = append(out, a)
		}
	}
	return out
}

func clusterIPs(svc *corev1.Service) []netip.Addr {
	var out []netip.Addr
	ips := svc.Spec.ClusterIPs
	if len(ips) == 0 && svc.Spec.ClusterIP != "" {
		ips = []string{svc.Spec.ClusterIP}
	}
	for _, c := range ips {
		if a, ok := parseAddr(c); ok {
			out = append(out, a)
		}
	}
	return out
}

func (s *snapshot) inCluster(a netip.Addr) bool {
	for _, p := range s.podCIDRs {
		if p.Contains(a) {
			return true
		}
	}
	for _, p := range s.svcCIDRs {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// clusterDNS is the kubelet's --cluster-dns.
func (s *snapshot) clusterDNS() []netip.Addr {
	if len(s.opts.ClusterDNS) > 0 {
		return s.opts.ClusterDNS
	}
	if svc := s.svcByKey["kube-system/kube-dns"]; svc != nil {
		return clusterIPs(svc)
	}
	return nil
}

// ---- operating systems and builds ----

// nodeOS is n's OS (facts.NodeOS), Linux for a node that says none.
func nodeOS(n *corev1.Node) facts.OS {
	if os := facts.NodeOS(n); os != "" {
		return os
	}
	return facts.Linux
}

// windowsBuild is the build number of a Windows node (20348 for
// "10.0.20348"), 0 when unknown.
func windowsBuild(n *corev1.Node) int {
	if n == nil {
		return 0
	}
	for _, v := range []string{n.Labels[corev1.LabelWindowsBuild], n.Status.NodeInfo.KernelVersion} {
		parts := strings.Split(v, ".")
		if len(parts) >= 3 {
			if b, err := strconv.Atoi(parts[2]); err == nil {
				return b
			}
		}
	}
	return 0
}

// podOS is the OS p runs on: its node's, else what it selects
// (facts.SelectedOS), else Linux.
func podOS(p *corev1.Pod, n *corev1.Node) facts.OS {
	if n != nil {
		// The node decides what actually runs (a mismatching pod is
		// rejected at admission, B1).
		return nodeOS(n)
	}
	if os := facts.SelectedOS(&p.Spec); os != "" {
		return facts.OS(strings.ToLower(string(os)))
	}
	return facts.Linux
}

func nodeIP(n *corev1.Node) netip.Addr {
	if n == nil {
		return netip.Addr{}
	}
	for _, t := range []corev1.NodeAddressType{corev1.NodeInternalIP, corev1.NodeExternalIP} {
		for _, a := range n.Status.Addresses {
			if a.Type == t {
				if ip, ok := parseAddr(a.Address); ok && ip.Is4() {
					return ip
				}
			}
		}
	}
	return netip.Addr{}
}

// ---- views ----

// view is the network as seen from one container or one node.
type view struct {
	m        *Model
	os       facts.OS
	kind     Decision // source kind and the rule that decided it
	pod      *corev1.Pod
	nodeName string
	node     *corev1.Node
}

// From returns the network as seen from a container of pod.
func (m *Model) From(pod *corev1.Pod) shell.Network {
	s := m.nodeSnapshot()
	return m.viewOf(s, pod)
}

func (m *Model) viewOf(s *snapshot, pod *corev1.Pod) *view {
	n := s.nodeByName[pod.Spec.NodeName]
	os := podOS(pod, n)
	return &view{
		m:        m,
		os:       os,
		kind:     m.rules.SourceKind(os, pod.Spec.HostNetwork, facts.HostProcess(pod)),
		pod:      pod,
		nodeName: pod.Spec.NodeName,
		node:     n,
	}
}

// FromNode returns the network as seen from the host of node.
func (m *Model) FromNode(node *corev1.Node) shell.Network {
	return &view{m: m, os: nodeOS(node), kind: Decision{Outcome: SrcHost, ID: "H1", Note: "the node itself"}, nodeName: node.Name, node: node}
}

// refresh re-reads the view's pod and node from the snapshot (the pod IP
// may have been assigned since From).
func (v *view) refresh(s *snapshot) *view {
	c := *v
	if v.pod != nil {
		if p := s.podByUID[string(v.pod.UID)]; p != nil && v.pod.UID != "" {
			c.pod = p
		} else if p := s.podByKey[key(v.pod.Namespace, v.pod.Name)]; p != nil && v.pod.UID == "" {
			c.pod = p
		}
	}
	if n := s.nodeByName[v.nodeName]; n != nil {
		c.node = n
	}
	return &c
}

// ip is the source address of the view's traffic.
func (v *view) ip(s *snapshot) netip.Addr {
	if v.kind.Outcome == SrcHost || v.pod == nil {
		return nodeIP(v.node)
	}
	if ips := podIPs(v.pod); len(ips) > 0 && !v.pod.Spec.HostNetwork {
		return ips[0]
	}
	if v.pod.Spec.HostNetwork {
		// H7: a regular Windows pod asked for hostNetwork but got a
		// compartment of its own; the kubelet reports the node IP.
		return h7Address(v.pod, v.node)
	}
	return netip.Addr{}
}

// h7Address is the address the CNI gave a regular Windows pod that asked
// for hostNetwork (row H7): the kubelet reports the node IP in status, the
// container has an address of the node's podCIDR. simnode's IPAM never sees
// it, so it is taken from the top quarter of the range, which next-fit
// allocation reaches last.
func h7Address(p *corev1.Pod, n *corev1.Node) netip.Addr {
	if n == nil {
		return netip.Addr{}
	}
	prefix, err := netip.ParsePrefix(n.Spec.PodCIDR)
	if err != nil || !prefix.Addr().Is4() || prefix.Bits() > 28 {
		return nodeIP(n)
	}
	prefix = prefix.Masked()
	size := uint32(1) << (32 - prefix.Bits())
	quarter := size / 4
	off := size - 2 - hash32(string(p.UID)+p.Namespace+"/"+p.Name)%quarter
	b := prefix.Addr().As4()
	base := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	x := base + off
	return netip.AddrFrom4([4]byte{byte(x >> 24), byte(x >> 16), byte(x >> 8), byte(x)})
}

func hash32(s string) uint32 {
	// FNV-1a
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

func (v *view) hostServiceVIPs() bool {
	if v.node == nil {
		return false
	}
	if v.m.opts.HostServiceVIPs != nil {
		return v.m.opts.HostServiceVIPs(v.node)
	}
	return v.m.rules.nodeHostVIPs(v.node)
}
