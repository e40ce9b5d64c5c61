package network_test

import (
	"fmt"
	"net/netip"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/network"
	"wink.dev/wink/simnode/shell"
)

// H2: name resolution, Windows and Linux side by side. Both clients run in
// namespace default (win-client on win-0, linux-client on linux-0).
func TestResolveH2(t *testing.T) {
	c := newCluster()
	m := c.model()
	bing := network.ExternalAddr("www.bing.com").String()
	google := network.ExternalAddr("google.com").String()
	cases := []struct {
		name         string
		windows, lin string // comma-separated addresses, or "notfound"
	}{
		// seed 003 DNS limitations: "kubernetes.default.svc.cluster.local 및
		// kubernetes를 모두 확인할 수 있지만 kubernetes.default 또는
		// kubernetes.default.svc와 같은 중간 항목은 확인할 수 없다."
		{"kubernetes", kubeAPI, kubeAPI},
		{"kubernetes.default", "notfound", kubeAPI},
		{"kubernetes.default.svc", "notfound", kubeAPI},
		{"kubernetes.default.svc.cluster.local", kubeAPI, kubeAPI},
		{"kubernetes.default.svc.cluster.local.", kubeAPI, kubeAPI},
		{"KUBERNETES", kubeAPI, kubeAPI},
		{"nginx", "10.96.0.20", "10.96.0.20"},
		{"kube-dns", "notfound", "notfound"}, // another namespace's bare name
		{"kube-dns.kube-system", "notfound", kubeDNS},
		{"kube-dns.kube-system.svc.cluster.local", kubeDNS, kubeDNS},
		{"kubernetezzzzzzzz", "notfound", "notfound"}, // dns.go:107
		{"svc.cluster.local", "notfound", "notfound"},
		// headless: the ready endpoints; endpoint names are the hostnames
		{"headless", "10.244.0.20,10.244.1.10", "10.244.0.20,10.244.1.10"},
		{"win-web.headless", "notfound", "10.244.1.10"},
		{"win-web.headless.default.svc.cluster.local", "10.244.1.10", "10.244.1.10"},
		{"10-244-0-20.headless.default.svc.cluster.local", "10.244.0.20", "10.244.0.20"},
		// pod A records (CoreDNS "pods insecure")
		{"10-244-1-10.default.pod.cluster.local", "10.244.1.10", "10.244.1.10"},
		// ExternalName: CNAME, then whatever the target resolves to
		{"bing", bing, bing},
		{"nginx-alias", "10.96.0.20", "10.96.0.20"},
		{"www.bing.com", bing, bing},
		{"google.com", google, google},
		{"localhost", "127.0.0.1", "127.0.0.1"},
		{"8.8.8.8", "8.8.8.8", "8.8.8.8"},
		{"no-such-host.invalid", "notfound", "notfound"},
	}
	win, lin := c.from(m, "win-client"), c.from(m, "linux-client")
	res := func(n shell.Network, name string) string {
		as, err := n.Resolve(ctx, name)
		if err != nil {
			return outcome(err)
		}
		var s []string
		for _, a := range as {
			s = append(s, a.String())
		}
		return strings.Join(s, ",")
	}
	for _, tc := range cases {
		if got := res(win, tc.name); got != tc.windows {
			t.Errorf("H2 windows pod: Resolve(%q) = %s, want %s", tc.name, got, tc.windows)
		}
		if got := res(lin, tc.name); got != tc.lin {
			t.Errorf("H2 linux pod: Resolve(%q) = %s, want %s", tc.name, got, tc.lin)
		}
	}

	// The bare name is the pod's own namespace's only (H2).
	other := c.from(m, "win-other-ns")
	for name, want := range map[string]string{"kubernetes": "notfound", "nginx": "notfound", "kubernetes.default.svc.cluster.local": kubeAPI} {
		if got := res(other, name); got != want {
			t.Errorf("H2 windows pod in namespace other: Resolve(%q) = %s, want %s", name, got, want)
		}
	}
	// The hosts file: own hostname (not for HostProcess, B10).
	if got := res(win, "win-client"); got != "10.244.1.11" {
		t.Errorf("own hostname = %s", got)
	}
	// dns.go:56-61,122: dnsPolicy None, searches [default.svc.cluster.local]
	// in another namespace: "kubernetes" resolves through that suffix.
	e2e := c.from(m, "e2e-dns-utils")
	if got := res(e2e, "kubernetes"); got != kubeAPI {
		t.Errorf("dns.go:122 kubernetes from e2e-dns-utils = %s", got)
	}
	if got := res(e2e, "kubernetezzzzzzzz"); got != "notfound" {
		t.Errorf("dns.go:107 kubernetezzzzzzzz from e2e-dns-utils = %s", got)
	}
	// HostProcess (B10): the host's resolver (Options.HostDNS), no cluster
	// names, the node's own name.
	hpc := c.from(m, "hpc")
	for name, want := range map[string]string{
		"kubernetes":                           "notfound",
		"kubernetes.default.svc.cluster.local": "notfound",
		"www.bing.com":                         bing,
		"win-0":                                c.nodeIP(win0),
	} {
		if got := res(hpc, name); got != want {
			t.Errorf("B10 HostProcess: Resolve(%q) = %s, want %s", name, got, want)
		}
	}
}

// H3: the DNS configuration the kubelet gives each dnsPolicy.
func TestNetConfigH3(t *testing.T) {
	c := newCluster()
	N := c.nodes
	ip := func(s ...string) []netip.Addr {
		var out []netip.Addr
		for _, x := range s {
			out = append(out, addr(x))
		}
		return out
	}
	ndots := func(n string) *corev1.PodDNSConfig {
		return &corev1.PodDNSConfig{Searches: []string{"a.example", "b.example"}, Options: []corev1.PodDNSConfigOption{{Name: "ndots", Value: &n}, {Name: "edns0"}}}
	}
	clusterSearch := []string{"default.svc.cluster.local", "svc.cluster.local", "cluster.local"}
	cases := []struct {
		row  string
		pod  *corev1.Pod
		opts func(*network.Options)
		want shell.NetConfig
	}{
		{"H2/H3 windows ClusterFirst", c.pods["win-client"], nil, shell.NetConfig{IP: addr("10.244.1.11"), Gateway: addr("10.244.1.1"), PrefixLen: 24, DNSServers: ip(kubeDNS), DNSSuffixes: []string{"default.svc.cluster.local"}}},
		{"H3 linux ClusterFirst", c.pods["linux-client"], nil, shell.NetConfig{IP: addr("10.244.0.21"), Gateway: addr("10.244.0.1"), PrefixLen: 24, DNSServers: ip(kubeDNS), DNSSuffixes: clusterSearch, Ndots: 5}},
		// dns.go:57-61,94: "1.1.1.1" must show in ipconfig /all.
		{"H3 windows None+dnsConfig (dns.go:57)", c.pods["e2e-dns-utils"], nil, shell.NetConfig{IP: addr("10.244.1.12"), Gateway: addr("10.244.1.1"), PrefixLen: 24, DNSServers: ip(kubeDNS, "1.1.1.1"), DNSSuffixes: []string{"default.svc.cluster.local"}}},
		{"H3 linux None+dnsConfig ndots", pod("default", "l-none", linux0, "10.244.0.40", N, dnsPolicy(corev1.DNSNone, ndots("2"))), nil, shell.NetConfig{IP: addr("10.244.0.40"), Gateway: addr("10.244.0.1"), PrefixLen: 24, DNSSuffixes: []string{"a.example", "b.example"}, Ndots: 2}},
		// ClusterFirstWithHostNet on a regular Windows pod: the kubelet
		// treats it as ClusterFirst (getPodDNSType); it is "unsupported"
		// only because there is no host networking to combine it with.
		{"H3 windows ClusterFirstWithHostNet", pod("default", "w-cfwhn", win0, "10.244.1.40", N, dnsPolicy(corev1.DNSClusterFirstWithHostNet, nil)), nil, shell.NetConfig{IP: addr("10.244.1.40"), Gateway: addr("10.244.1.1"), PrefixLen: 24, DNSServers: ip(kubeDNS), DNSSuffixes: []string{"default.svc.cluster.local"}}},
		// Windows ClusterFirst + extra searches: still one suffix (H2).
		{"H2 windows ClusterFirst+searches", pod("default", "w-extra", win0, "10.244.1.41", N, dnsPolicy(corev1.DNSClusterFirst, &corev1.PodDNSConfig{Searches: []string{"corp.example"}})), nil, shell.NetConfig{IP: addr("10.244.1.41"), Gateway: addr("10.244.1.1"), PrefixLen: 24, DNSServers: ip(kubeDNS), DNSSuffixes: []string{"default.svc.cluster.local"}}},
		// Default with --resolv-conf="" (seed 003 kubelet flags): nameserver
		// 127.0.0.1, i.e. no working DNS in the pod.
		{"H3 windows Default, --resolv-conf=\"\"", pod("default", "w-default", win0, "10.244.1.42", N, dnsPolicy(corev1.DNSDefault, nil)), nil, shell.NetConfig{IP: addr("10.244.1.42"), Gateway: addr("10.244.1.1"), PrefixLen: 24, DNSServers: ip("127.0.0.1")}},
		{"H3 windows Default, --resolv-conf=Host", pod("default", "w-default-host", win0, "10.244.1.43", N, dnsPolicy(corev1.DNSDefault, nil)), func(o *network.Options) {
			o.WindowsResolvConf, o.HostSearch = "Host", []string{"corp.example"}
		}, shell.NetConfig{IP: addr("10.244.1.43"), Gateway: addr("10.244.1.1"), PrefixLen: 24, DNSServers: ip("8.8.8.8"), DNSSuffixes: []string{"corp.example"}}},
		{"H3 linux Default", pod("default", "l-default", linux0, "10.244.0.41", N, dnsPolicy(corev1.DNSDefault, nil)), func(o *network.Options) { o.HostSearch = []string{"corp.example"} }, shell.NetConfig{IP: addr("10.244.0.41"), Gateway: addr("10.244.0.1"), PrefixLen: 24, DNSServers: ip("8.8.8.8"), DNSSuffixes: []string{"corp.example"}, Ndots: 1}},
		// B10: HostProcess sees the host: node IP, the host's resolver,
		// whatever the dnsPolicy.
		{"B10 HostProcess ClusterFirst", c.pods["hpc"], nil, shell.NetConfig{IP: addr(c.nodeIP(win0)), Gateway: addr("127.10.0.1"), PrefixLen: 24, DNSServers: ip("8.8.8.8")}},
		{"B10/H3 HostProcess ClusterFirstWithHostNet", pod("default", "hpc-cfwhn", win0, "", N, hostProcess(), dnsPolicy(corev1.DNSClusterFirstWithHostNet, nil)), nil, shell.NetConfig{IP: addr(c.nodeIP(win0)), Gateway: addr("127.10.0.1"), PrefixLen: 24, DNSServers: ip("8.8.8.8")}},
		// Linux hostNetwork: ClusterFirst falls back to Default;
		// ClusterFirstWithHostNet gets the cluster DNS.
		{"H3 linux hostNetwork ClusterFirst", c.pods["linux-hostnet"], nil, shell.NetConfig{IP: addr(c.nodeIP(linux0)), Gateway: addr("127.10.0.1"), PrefixLen: 24, DNSServers: ip("8.8.8.8"), Ndots: 1}},
		{"H3 linux hostNetwork ClusterFirstWithHostNet", pod("default", "l-hn-cfwhn", linux0, "", N, hostNetwork(), dnsPolicy(corev1.DNSClusterFirstWithHostNet, nil)), nil, shell.NetConfig{IP: addr(c.nodeIP(linux0)), Gateway: addr("127.10.0.1"), PrefixLen: 24, DNSServers: ip(kubeDNS), DNSSuffixes: clusterSearch, Ndots: 5}},
		// The kubelet keeps at most 3 nameservers.
		{"H3 nameserver limit", pod("default", "l-many", linux0, "10.244.0.42", N, dnsPolicy(corev1.DNSNone, &corev1.PodDNSConfig{Nameservers: []string{"1.1.1.1", "1.0.0.1", "8.8.8.8", "8.8.4.4"}})), nil, shell.NetConfig{IP: addr("10.244.0.42"), Gateway: addr("10.244.0.1"), PrefixLen: 24, DNSServers: ip("1.1.1.1", "1.0.0.1", "8.8.8.8"), Ndots: 1}},
	}
	for _, tc := range cases {
		m := c.model()
		if tc.opts != nil {
			m = c.model(tc.opts)
		}
		got := m.NetConfig(tc.pod)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.row, got, tc.want)
		}
	}

	// H7: hostNetwork on a regular Windows pod gives no host networking:
	// an address of the node's podCIDR (not the node IP the kubelet
	// reports), and ClusterFirst+hostNetwork falls back to Default, which
	// with --resolv-conf="" is 127.0.0.1.
	h7 := c.model().NetConfig(c.pods["win-hostnet"])
	if pfx := netip.MustParsePrefix("10.244.1.192/26"); !pfx.Contains(h7.IP) || h7.PrefixLen != 24 || !reflect.DeepEqual(h7.DNSServers, ip("127.0.0.1")) {
		t.Errorf("H7 windows hostNetwork without HostProcess: %+v", h7)
	}
	// Its ports are not on the node's address, only on its own.
	m := c.model()
	if err := c.from(m, "win-client").Dial(ctx, "tcp", addr(c.nodeIP(win0)), 9000); outcome(err) != "refused" {
		t.Errorf("H7 pod's port on the node IP: %v", err)
	}
	if err := c.from(m, "win-client").Dial(ctx, "tcp", h7.IP, 9000); err != nil {
		t.Errorf("H7 pod's port on its own address: %v", err)
	}

	// Without a kube-dns Service nor --cluster-dns the kubelet falls back to
	// Default ("MissingClusterDNS").
	bare := &network.Objects{NodeList: c.objs.NodeList}
	got := network.New(bare, network.Options{}).NetConfig(c.pods["win-client"])
	if !reflect.DeepEqual(got.DNSServers, ip("127.0.0.1")) {
		t.Errorf("MissingClusterDNS fallback: %+v", got)
	}
	got = network.New(bare, network.Options{ClusterDNS: ip("10.96.0.99")}).NetConfig(c.pods["linux-client"])
	if !reflect.DeepEqual(got.DNSServers, ip("10.96.0.99")) {
		t.Errorf("--cluster-dns option: %+v", got)
	}
}

// H1, H5, H6, H7, H8, H9: TCP and UDP.
func TestDial(t *testing.T) {
	c := newCluster()
	m := c.model()
	cases := []struct {
		row, from, proto, to string
		port                 int
		want                 string
	}{
		// H1 pod <-> pod across OSes: hybrid_network.go:68 (Linux nc -vz
		// <windows pod IP> 80) and :71 (Windows curl <linux pod IP>).
		{"H1 hybrid_network.go:68", "linux-client", "tcp", "10.244.1.10", 80, "ok"},
		{"H1 hybrid_network.go:71", "win-client", "tcp", "10.244.0.20", 80, "ok"},
		{"H1 pod->pod other node", "win-client", "tcp", "10.244.2.20", 80, "ok"},
		{"H1 pod->pod udp", "win-client", "udp", "10.244.2.20", 80, "ok"},
		{"H1 nobody listens", "linux-client", "tcp", "10.244.1.10", 81, "refused"},
		{"H1 container not running", "win-client", "tcp", "10.244.1.30", 80, "refused"},
		{"H1 finished pod's IP is free", "win-client", "tcp", "10.244.1.31", 80, "timeout"},
		{"H1 unassigned pod IP", "win-client", "tcp", "10.244.1.200", 80, "timeout"},
		{"H1 unassigned service IP", "linux-client", "tcp", "10.100.0.1", 80, "timeout"},
		{"H1 self", "win-web", "tcp", "127.0.0.1", 80, "ok"},
		{"H1 self own IP", "win-web", "tcp", "10.244.1.10", 80, "ok"},
		{"H1 self nothing", "win-client", "tcp", "127.0.0.1", 80, "refused"},
		// H1 pod -> Service
		{"H1 windows pod->ClusterIP", "win-client", "tcp", "10.96.0.20", 80, "ok"},
		{"H1 linux pod->ClusterIP", "linux-client", "tcp", "10.96.0.30", 80, "ok"},
		{"H1 kube-dns udp", "win-client", "udp", kubeDNS, 53, "ok"},
		{"H1 windows: port not on service", "win-client", "tcp", "10.96.0.20", 81, "timeout"},
		{"H1 linux: port not on service", "linux-client", "tcp", "10.96.0.20", 81, "timeout"},
		{"H1 windows proxy: no endpoints", "win-client", "tcp", "10.96.0.40", 80, "timeout"},
		{"H1 linux proxy: no endpoints", "linux-client", "tcp", "10.96.0.40", 80, "refused"},
		{"H1 endpoint not listening", "win-client", "tcp", "10.96.0.41", 80, "refused"},
		// H1 pod -> external: hybrid_network.go:83 (nc -vz 8.8.8.8 53)
		{"H1 hybrid_network.go:83", "linux-client", "tcp", "8.8.8.8", 53, "ok"},
		{"H1 windows pod->external", "win-client", "tcp", "8.8.8.8", 53, "ok"},
		{"H4 windows pod->external udp", "win-client", "udp", "1.1.1.1", 53, "ok"},
		{"H1 external closed port", "win-client", "tcp", "203.0.113.5", 8080, "timeout"},
		// H1 node <-> pod
		{"H1 node->pod (HostProcess)", "hpc", "tcp", "10.244.1.10", 80, "ok"},
		{"H1 node->pod (node itself)", win0, "tcp", "10.244.2.20", 80, "ok"},
		{"H1 pod->own node kubelet", "win-client", "tcp", "127.10.0.3", 10250, "ok"},
		{"H1 pod->other node kubelet", "win-client", "tcp", "127.10.0.4", 10250, "ok"},
		{"H1 pod->node closed port", "win-client", "tcp", "127.10.0.4", 9999, "refused"},
		{"H1 pod->apiserver host", "win-client", "tcp", apiIP, 6443, "ok"},
		// H5 NodePort: service.go:261 curls <nodeIP>:<nodePort> from a
		// Windows pod; PickIP may pick the pod's own node.
		{"H5 service.go:261 own node", "win-client", "tcp", "127.10.0.3", nodePort, "ok"},
		{"H5 service.go:261 other windows node", "win-client", "tcp", "127.10.0.4", nodePort, "ok"},
		{"H5 service.go:261 linux node", "win-client", "tcp", "127.10.0.2", nodePort, "ok"},
		{"H5 HostProcess -> own node", "hpc", "tcp", "127.10.0.3", nodePort, "refused"},
		{"H5 windows node itself -> own node", win0, "tcp", "127.10.0.3", nodePort, "refused"},
		{"H5 HostProcess -> other node", "hpc", "tcp", "127.10.0.4", nodePort, "ok"},
		{"H5 linux hostNetwork -> own node", "linux-hostnet", "tcp", "127.10.0.2", nodePort, "ok"},
		{"H5 linux node itself -> own node", linux0, "tcp", "127.10.0.2", nodePort, "ok"},
		// H6 Service VIPs from the host network: current nodes (kubelet
		// v1.35, containerd 1.7) reach them (host_process.go:675).
		{"H6 HostProcess -> ClusterIP", "hpc", "tcp", "10.96.0.20", 80, "ok"},
		{"H6 windows node -> kubernetes", win0, "tcp", kubeAPI, 443, "ok"},
		{"H6 windows pod -> ClusterIP", "win-client", "tcp", "10.96.0.20", 80, "ok"},
		{"H6 linux hostNetwork -> ClusterIP", "linux-hostnet", "tcp", "10.96.0.20", 80, "ok"},
		// H7 a regular Windows pod with hostNetwork is still a pod.
		{"H7 windows hostNetwork pod -> ClusterIP", "win-hostnet", "tcp", "10.96.0.20", 80, "ok"},
		// H8 externalTrafficPolicy Local (only endpoint on win-1)
		{"H8 ETP Local ignored on windows", "win-client", "tcp", "127.10.0.3", 30081, "ok"},
		{"H8 ETP Local, local endpoint", "win-client", "tcp", "127.10.0.4", 30081, "ok"},
		{"H8 ETP Local honoured on linux", "linux-client", "tcp", "127.10.0.2", 30081, "timeout"},
		// H9 IPv4 only
		{"H9 windows ipv6", "win-client", "tcp", "fd00::1", 80, "unreachable"},
		{"H9 linux ipv6", "linux-client", "tcp", "2001:db8::1", 80, "unreachable"},
		{"H9 ::1 is loopback", "win-client", "tcp", "::1", 80, "refused"},
	}
	for _, tc := range cases {
		err := c.from(m, tc.from).Dial(ctx, tc.proto, addr(tc.to), tc.port)
		if got := outcome(err); got != tc.want {
			t.Errorf("%s: %s Dial(%s, %s:%d) = %s (%v), want %s", tc.row, tc.from, tc.proto, tc.to, tc.port, got, err, tc.want)
		}
	}

	// H6 on a node older than HostProcess support (containerd < 1.6):
	// the seed's behaviour, and the error says which rule decided.
	old := newCluster()
	old.nodes[win0].Status.NodeInfo.ContainerRuntimeVersion = "containerd://1.5.18"
	mOld := old.model()
	for _, to := range []string{"10.96.0.20:80", kubeAPI + ":443"} {
		host, port, _ := strings.Cut(to, ":")
		p, _ := strconv.Atoi(port)
		err := old.from(mOld, "hpc").Dial(ctx, "tcp", addr(host), p)
		if outcome(err) != "timeout" || !strings.Contains(err.Error(), "H6") {
			t.Errorf("H6 containerd 1.5 HostProcess -> %s: %v, want a timeout citing H6", to, err)
		}
	}
	if err := old.from(mOld, "win-client").Dial(ctx, "tcp", addr("10.96.0.20"), 80); err != nil {
		t.Errorf("H6 containerd 1.5 pod -> ClusterIP: %v", err)
	}
	// The Options knob still overrides the table; H5 does not depend on it.
	m2 := c.model(func(o *network.Options) { o.HostServiceVIPs = func(*corev1.Node) bool { return false } })
	if err := c.from(m2, "hpc").Dial(ctx, "tcp", addr(kubeAPI), 443); outcome(err) != "timeout" {
		t.Errorf("H6 with HostServiceVIPs false: %v", err)
	}
	if err := c.from(m2, "hpc").Dial(ctx, "tcp", addr("127.10.0.3"), nodePort); outcome(err) != "refused" {
		t.Errorf("H5 is independent of HostServiceVIPs: %v", err)
	}
	if err := c.from(m, "win-client").Dial(ctx, "sctp", addr("10.96.0.20"), 80); err == nil {
		t.Error("sctp accepted")
	}
}

// H4: ICMP.
func TestPing(t *testing.T) {
	c := newCluster()
	m := c.model()
	cases := []struct {
		row, from, to, want string
	}{
		{"H4 windows pod -> pod", "win-client", "10.244.0.20", "ok"},
		{"H4 windows pod -> pod same node", "win-client", "10.244.1.10", "ok"},
		{"H4 windows pod -> node", "win-client", "127.10.0.4", "ok"},
		{"H4 windows pod -> internet", "win-client", "8.8.8.8", "timeout"},
		{"H4 linux pod -> internet", "linux-client", "8.8.8.8", "ok"},
		{"H4 HostProcess -> internet", "hpc", "8.8.8.8", "ok"},
		{"H4 windows node -> internet", win0, "8.8.8.8", "ok"},
		{"H4 windows pod -> service VIP", "win-client", "10.96.0.20", "timeout"},
		{"H4 linux pod -> service VIP", "linux-client", "10.96.0.20", "timeout"},
		{"H4 unassigned", "linux-client", "10.244.1.200", "timeout"},
		{"H4 self", "win-client", "127.0.0.1", "ok"},
		{"H9 ipv6", "win-client", "fd00::1", "unreachable"},
	}
	for _, tc := range cases {
		rtt, err := c.from(m, tc.from).Ping(ctx, addr(tc.to))
		if got := outcome(err); got != tc.want {
			t.Errorf("%s: %s Ping(%s) = %s (%v), want %s", tc.row, tc.from, tc.to, got, err, tc.want)
		}
		if err == nil && (rtt <= 0 || rtt > 50*time.Millisecond) {
			t.Errorf("%s: rtt %v", tc.row, rtt)
		}
	}
	// H4: "ping 8.8.8.8 times out; curl.exe to the same host succeeds".
	w := c.from(m, "win-client")
	if _, err := w.Ping(ctx, addr("8.8.8.8")); outcome(err) != "timeout" {
		t.Error("H4 ping")
	}
	if r, err := w.HTTP(ctx, "GET", "http://8.8.8.8", false); err != nil || r.Status != 200 {
		t.Errorf("H4 curl to the same host: %v %v", r, err)
	}
}

// HTTP, with the upstream tests' exact requests.
func TestHTTP(t *testing.T) {
	c := newCluster()
	m := c.model()
	cases := []struct {
		row, from, url string
		insecure       bool
		want           string // outcome, or the status code
		body           string // substring of the body
	}{
		// dns.go:107-119: curl.exe -k https://kubernetezzzzzzzz:443 must fail.
		{"H2 dns.go:107", "e2e-dns-utils", "https://kubernetezzzzzzzz:443", true, "notfound", ""},
		// dns.go:122-136: curl.exe -k https://kubernetes:443 must exit 0:
		// any HTTP answer does (no --fail). Anonymous: 403 Status.
		{"H2 dns.go:122", "e2e-dns-utils", "https://kubernetes:443", true, "403", `"message": "forbidden: User \"system:anonymous\" cannot get path \"/\""`},
		{"H2 spec observable", "win-client", "https://kubernetes:443", true, "403", `"reason": "Forbidden"`},
		{"H2 spec observable", "win-client", "https://kubernetes.default:443", true, "notfound", ""},
		{"H2 linux search list", "linux-client", "https://kubernetes.default:443/healthz", true, "200", "ok"},
		{"H1 without -k", "win-client", "https://kubernetes:443", false, "untrusted", ""},
		{"H1 resource path", "linux-client", "https://kubernetes/api/v1/namespaces/default/pods", true, "403", `pods is forbidden: User \"system:anonymous\" cannot list resource \"pods\" in API group \"\" in the namespace \"default\"`},
		{"H1 version", "linux-client", "https://10.96.0.1/version", true, "200", `"gitVersion": "v1.35.4"`},
		// hybrid_network.go:71: curl.exe -4 <linux pod IP> --connect-timeout 10 --fail
		{"H1 hybrid_network.go:71", "win-client", "10.244.0.20", false, "200", "nginx"},
		// hybrid_network.go:94: curl.exe -4 www.google.com ... --fail
		{"H1 hybrid_network.go:94", "win-client", "www.google.com", false, "200", "internet www.google.com"},
		{"H1 external https is trusted", "win-client", "https://www.bing.com/", false, "200", "internet"},
		// service.go:261: curl http://<nodeIP>:<nodePort> from a Windows pod
		{"H5 service.go:261", "win-client", fmt.Sprintf("http://%s:%d", c.nodeIP(win0), nodePort), false, "200", "netexec-0"},
		{"H5 service.go:261", "win-client", fmt.Sprintf("http://%s:%d", c.nodeIP(linux0), nodePort), false, "200", "netexec-0"},
		{"H5 HostProcess own nodePort", "hpc", fmt.Sprintf("http://%s:%d", c.nodeIP(win0), nodePort), false, "refused", ""},
		{"H1 service by name", "win-client", "http://win-web", false, "200", "win-web"},
		{"H1 service FQDN", "linux-client", "http://win-web.default.svc.cluster.local/", false, "200", "win-web"},
		{"H1 kubelet", "win-client", "https://127.10.0.4:10250/pods", true, "401", "Unauthorized"},
		{"B10 HostProcess no cluster DNS", "hpc", "https://kubernetes.default.svc.cluster.local", true, "notfound", ""},
		// host_process.go:675: the in-cluster client of a HostProcess pod
		// calls KUBERNETES_SERVICE_HOST (the ClusterIP): H6 says no.
		{"H6 host_process.go:675 (current node)", "hpc", "https://" + kubeAPI + ":443/healthz", true, "200", ""},
	}
	for _, tc := range cases {
		r, err := c.from(m, tc.from).HTTP(ctx, "GET", tc.url, tc.insecure)
		got := outcome(err)
		if err == nil {
			got = fmt.Sprint(r.Status)
		}
		if got != tc.want {
			t.Errorf("%s: %s GET %s = %s (%v), want %s", tc.row, tc.from, tc.url, got, err, tc.want)
			continue
		}
		if tc.body != "" && !strings.Contains(string(r.Body), tc.body) {
			t.Errorf("%s: body %s, want it to contain %s", tc.row, r.Body, tc.body)
		}
	}
}

// H8: session affinity and its timeout.
func TestSessionAffinityH8(t *testing.T) {
	c := newCluster()
	m := c.model()
	backends := func(from, url string, n int) []string {
		var out []string
		for i := 0; i < n; i++ {
			r, err := c.from(m, from).HTTP(ctx, "GET", url, false)
			if err != nil {
				t.Fatalf("%s %s: %v", from, url, err)
			}
			out = append(out, string(r.Body))
		}
		return out
	}
	distinct := func(s []string) int {
		m := map[string]bool{}
		for _, x := range s {
			m[x] = true
		}
		return len(m)
	}
	if got := backends("win-client", "http://spread", 4); distinct(got) != 2 {
		t.Errorf("no affinity spreads over both endpoints: %v", got)
	}
	sticky := backends("win-client", "http://sticky", 4)
	if distinct(sticky) != 1 {
		t.Errorf("H8 ClientIP affinity on Windows Server 2022: %v", sticky)
	}
	// timeoutSeconds (60) is not honoured on Windows: still sticky later.
	c.now = c.now.Add(2 * time.Hour)
	if later := backends("win-client", "http://sticky", 2); later[0] != sticky[0] || later[1] != sticky[0] {
		t.Errorf("H8 Windows ignores timeoutSeconds: %v then %v", sticky, later)
	}
	// Windows Server 2019 (17763 < 19551): no session affinity (seed 003).
	if got := backends("win2019-client", "http://sticky-2019", 4); distinct(got) != 2 {
		t.Errorf("H8 affinity on Windows Server 2019 is not supported: %v", got)
	}
	// Linux honours timeoutSeconds.
	lin := backends("linux-client", "http://sticky-linux", 3)
	if distinct(lin) != 1 {
		t.Errorf("H8 Linux affinity: %v", lin)
	}
	c.now = c.now.Add(61 * time.Second)
	if later := backends("linux-client", "http://sticky-linux", 1); later[0] == lin[0] {
		t.Errorf("H8 Linux affinity should expire after timeoutSeconds: %v then %v", lin, later)
	}
}

// B10: a HostProcess pod's IP is its node's.
func TestHostProcessB10(t *testing.T) {
	c := newCluster()
	m := c.model()
	if got := m.NetConfig(c.pods["hpc"]).IP.String(); got != c.nodeIP(win0) {
		t.Errorf("HostProcess IP %s, want node IP %s", got, c.nodeIP(win0))
	}
	// Its listeners are the node's: a pod reaches a port a HostProcess
	// container listens on through the node IP.
	hp := pod("default", "hpc-web", win1, "", c.nodes, hostProcess(), ports(8443))
	c.addPod(hp)
	if err := c.from(m, "win-client").Dial(ctx, "tcp", addr(c.nodeIP(win1)), 8443); err != nil {
		t.Errorf("pod -> HostProcess listener: %v", err)
	}
	if got := m.NodeNetConfig(c.nodes[win1]).IP.String(); got != c.nodeIP(win1) {
		t.Errorf("NodeNetConfig IP %s", got)
	}
}

// DNS servers: failover only on timeouts; an unreachable cluster DNS.
func TestDNSServers(t *testing.T) {
	c := newCluster()
	m := c.model()
	N := c.nodes
	// First server does not exist: the resolver times out and asks the
	// second (a public resolver: no cluster names).
	p := pod("default", "fallback", linux0, "10.244.0.50", N, dnsPolicy(corev1.DNSNone, &corev1.PodDNSConfig{Nameservers: []string{"10.244.9.9", "1.1.1.1"}}))
	n := m.From(p)
	if _, err := n.Resolve(ctx, "www.bing.com"); err != nil {
		t.Errorf("failover to 1.1.1.1: %v", err)
	}
	if _, err := n.Resolve(ctx, "kubernetes.default.svc.cluster.local"); outcome(err) != "notfound" {
		t.Errorf("public resolver knows no cluster names: %v", err)
	}
	// Windows Default with --resolv-conf="": 127.0.0.1 has no DNS server.
	w := m.From(pod("default", "w-default", win0, "10.244.1.60", N, dnsPolicy(corev1.DNSDefault, nil)))
	if _, err := w.Resolve(ctx, "www.bing.com"); outcome(err) != "timeout" {
		t.Errorf("nameserver 127.0.0.1: %v", err)
	}
	// No CoreDNS endpoint: cluster DNS times out (Windows proxy: no LB).
	c.objs.EndpointSliceList = nil
	if _, err := c.from(m, "win-client").Resolve(ctx, "kubernetes"); outcome(err) != "timeout" {
		t.Errorf("without CoreDNS endpoints: %v", err)
	}
}
