package network

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/shell"
)

// Limits the kubelet applies to a pod's DNS configuration
// (pkg/apis/core/validation: MaxDNSNameservers, MaxDNSSearchPaths,
// MaxDNSSearchListChars).
const (
	maxDNSNameservers     = 3
	maxDNSSearchPaths     = 32
	maxDNSSearchListChars = 2048
)

// kubeletDNS is the CRI DNSConfig the kubelet builds for pod, a port of
// pkg/kubelet/network/dns/dns.go GetPodDNS (v1.35.4) for a node of os.
type kubeletDNS struct {
	Servers  []string
	Searches []string
	Options  []string
}

func omitDuplicates(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func addrStrings(as []netip.Addr) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.String())
	}
	return out
}

// hostResolvConf is getHostDNSConfig(--resolv-conf): a Linux kubelet reads
// the node's /etc/resolv.conf; a Windows kubelet reads nothing for
// --resolv-conf="" (resolverConfig "" below) or the adapter settings for
// "Host" (dns_windows.go).
func (m *Model) hostResolvConf(os facts.OS) (cfg kubeletDNS, resolverConfig string) {
	if os.IsWindows() && m.opts.WindowsResolvConf == "" {
		return kubeletDNS{}, ""
	}
	return kubeletDNS{Servers: addrStrings(m.opts.HostDNS), Searches: append([]string(nil), m.opts.HostSearch...)}, "host"
}

func (m *Model) kubeletDNS(s *snapshot, pod *corev1.Pod, os facts.OS) kubeletDNS {
	cfg, resolverConfig := m.hostResolvConf(os)
	const (
		typeCluster = iota
		typeHost
		typeNone
	)
	typ := typeCluster
	switch pod.Spec.DNSPolicy {
	case corev1.DNSNone:
		typ = typeNone
	case corev1.DNSClusterFirstWithHostNet:
		typ = typeCluster
	case corev1.DNSDefault:
		typ = typeHost
	default: // ClusterFirst, and "" (defaulted by the apiserver to ClusterFirst)
		if pod.Spec.HostNetwork {
			typ = typeHost // "Fallback to DNSDefault for pod on hostnetwork."
		}
	}
	if typ == typeCluster {
		if dns := s.clusterDNS(); len(dns) > 0 {
			cfg.Servers = addrStrings(dns)
			d := m.opts.ClusterDomain
			cfg.Searches = omitDuplicates(append([]string{pod.Namespace + ".svc." + d, "svc." + d, d}, cfg.Searches...))
			cfg.Options = []string{"ndots:5"}
		} else {
			typ = typeHost // MissingClusterDNS: "Falling back to "Default" policy."
		}
	}
	switch typ {
	case typeNone:
		cfg = kubeletDNS{}
	case typeHost:
		if resolverConfig == "" {
			cfg.Servers = []string{"127.0.0.1"}
			cfg.Searches = []string{"."}
		}
	}
	if dc := pod.Spec.DNSConfig; dc != nil {
		cfg.Servers = omitDuplicates(append(cfg.Servers, dc.Nameservers...))
		cfg.Searches = omitDuplicates(append(cfg.Searches, dc.Searches...))
		cfg.Options = mergeDNSOptions(cfg.Options, dc.Options)
	}
	if len(cfg.Servers) > maxDNSNameservers {
		cfg.Servers = cfg.Servers[:maxDNSNameservers]
	}
	cfg.Searches = fitSearches(cfg.Searches)
	return cfg
}

// mergeDNSOptions is the kubelet's: pod options override same-named ones.
// The order is kept stable here (the kubelet's is map order).
func mergeDNSOptions(existing []string, pod []corev1.PodDNSConfigOption) []string {
	var names []string
	vals := map[string]string{}
	set := func(name, val string) {
		if _, ok := vals[name]; !ok {
			names = append(names, name)
		}
		vals[name] = val
	}
	for _, op := range existing {
		name, val, _ := strings.Cut(op, ":")
		set(name, val)
	}
	for _, op := range pod {
		val := ""
		if op.Value != nil {
			val = *op.Value
		}
		set(op.Name, val)
	}
	var out []string
	for _, n := range names {
		if vals[n] != "" {
			out = append(out, n+":"+vals[n])
		} else {
			out = append(out, n)
		}
	}
	return out
}

// fitSearches is formDNSSearchFitsLimits: at most 32 paths, none longer
// than 253 characters, the line joined by spaces at most 2048 characters.
// (The kubelet also records a DNSConfigForming event; that is left to the
// provider.)
func fitSearches(in []string) []string {
	if len(in) > maxDNSSearchPaths {
		in = in[:maxDNSSearchPaths]
	}
	var out []string
	for _, s := range in {
		if len(s) <= 253 {
			out = append(out, s)
		}
	}
	for len(out) > 0 && len(strings.Join(out, " ")) > maxDNSSearchListChars {
		out = out[:len(out)-1]
	}
	return out
}

func ndotsOf(options []string) int {
	n := 1 // resolver default
	for _, op := range options {
		if v, ok := strings.CutPrefix(op, "ndots:"); ok {
			if x, err := strconv.Atoi(v); err == nil {
				n = min(max(x, 0), 15)
			}
		}
	}
	return n
}

// NetConfig is the network configuration a container of pod sees
// (ipconfig /all, /etc/resolv.conf): its address, gateway and prefix, and
// the DNS settings the kubelet configured for its dnsPolicy and dnsConfig
// (H3), reduced to the single DNS suffix a Windows pod gets (H2).
func (m *Model) NetConfig(pod *corev1.Pod) shell.NetConfig {
	s := m.nodeSnapshot()
	return m.viewOf(s, pod).netConfig(s)
}

// NodeNetConfig is the network configuration of node's host network.
func (m *Model) NodeNetConfig(node *corev1.Node) shell.NetConfig {
	s := m.snapshot()
	return m.FromNode(node).(*view).refresh(s).netConfig(s)
}

func (v *view) netConfig(s *snapshot) shell.NetConfig {
	var c shell.NetConfig
	c.IP = v.ip(s)
	if v.kind.Outcome == SrcHost || v.pod == nil {
		if c.IP.IsValid() {
			p, _ := c.IP.Prefix(v.m.opts.NodePrefixLen)
			c.PrefixLen = p.Bits()
			c.Gateway = p.Addr().Next()
		}
	} else if c.IP.IsValid() {
		p, _ := c.IP.Prefix(24)
		c.PrefixLen, c.Gateway = 24, p.Addr().Next()
		if v.node != nil {
			for _, cidr := range append([]string{v.node.Spec.PodCIDR}, v.node.Spec.PodCIDRs...) {
				if pp, err := netip.ParsePrefix(cidr); err == nil && pp.Contains(c.IP) {
					c.PrefixLen, c.Gateway = pp.Bits(), pp.Masked().Addr().Next()
					break
				}
			}
		}
	}

	var dns kubeletDNS
	switch {
	case v.pod == nil || (v.os.IsWindows() && v.kind.Outcome == SrcHost):
		// The node itself, and HostProcess containers (B10): they live in
		// the host compartment and use the host's adapter settings; the
		// sandbox DNS config the kubelet computes is not applied to them.
		dns = kubeletDNS{Servers: addrStrings(v.m.opts.HostDNS), Searches: v.m.opts.HostSearch}
	default:
		dns = v.m.kubeletDNS(s, v.pod, v.os)
	}
	for _, sv := range dns.Servers {
		if a, ok := parseAddr(sv); ok {
			c.DNSServers = append(c.DNSServers, a)
		}
	}
	if v.os.IsWindows() {
		if v.pod != nil && v.kind.Outcome == SrcPod {
			// H2: a Windows pod gets one DNS suffix, its namespace's
			// (the first entry of the kubelet's search list).
			for _, sfx := range dns.Searches {
				if sfx != "." && sfx != "" {
					c.DNSSuffixes = []string{sfx}
					break
				}
			}
		} else {
			c.DNSSuffixes = append([]string(nil), dns.Searches...)
		}
		c.Ndots = 0
	} else {
		c.DNSSuffixes = append([]string(nil), dns.Searches...)
		c.Ndots = ndotsOf(dns.Options)
	}
	return c
}

// ---- resolution ----

// hostname is the pod's hostname as the kubelet sets it.
func hostname(p *corev1.Pod) string {
	h := p.Spec.Hostname
	if h == "" {
		h = p.Name
	}
	if len(h) > 63 {
		h = strings.TrimRight(h[:63], "-.")
	}
	return h
}

// hosts is the container's hosts file: the kubelet-managed one for pods
// (also mounted into Windows pods that are not HostProcess,
// kubelet_pods.go shouldMountHostsFile), the node's own for host sources.
func (v *view) hosts(s *snapshot) map[string][]netip.Addr {
	h := map[string][]netip.Addr{"localhost": {netip.MustParseAddr("127.0.0.1")}}
	add := func(name string, a netip.Addr) {
		if name != "" && a.IsValid() {
			name = strings.ToLower(name)
			h[name] = append(h[name], a)
		}
	}
	if v.pod == nil || v.kind.Outcome == SrcHost {
		if v.node != nil {
			add(v.node.Name, nodeIP(v.node))
		}
		if v.pod != nil && v.os.IsLinux() {
			for _, ha := range v.pod.Spec.HostAliases {
				// hostNetwork pods get the node's /etc/hosts plus aliases.
				if a, ok := parseAddr(ha.IP); ok {
					for _, n := range ha.Hostnames {
						add(n, a)
					}
				}
			}
		}
		return h
	}
	ip := v.ip(s)
	hn := hostname(v.pod)
	add(hn, ip)
	if sub := v.pod.Spec.Subdomain; sub != "" {
		add(hn+"."+sub+"."+v.pod.Namespace+".svc."+v.m.opts.ClusterDomain, ip)
	}
	for _, ha := range v.pod.Spec.HostAliases {
		if a, ok := parseAddr(ha.IP); ok {
			for _, n := range ha.Hostnames {
				add(n, a)
			}
		}
	}
	return h
}

// candidates are the names a resolver queries, in order, for name.
func candidates(os facts.OS, name string, cfg shell.NetConfig) []string {
	if strings.HasSuffix(name, ".") {
		return []string{strings.TrimSuffix(name, ".")}
	}
	join := func(sfx string) string {
		if sfx == "." || sfx == "" {
			return name
		}
		return name + "." + strings.TrimSuffix(strings.ToLower(sfx), ".")
	}
	var out []string
	if os.IsWindows() {
		// H2: a name containing a dot is an FQDN to Windows; only
		// single-label names get the suffix (the pod's one).
		if strings.Contains(name, ".") {
			return []string{name}
		}
		for _, sfx := range cfg.DNSSuffixes {
			out = append(out, join(sfx))
		}
		return omitDuplicates(out)
	}
	// glibc res_search: as-is first when dots >= ndots, then the search
	// list, then as-is if not tried yet.
	dots := strings.Count(name, ".")
	if dots >= cfg.Ndots {
		out = append(out, name)
	}
	for _, sfx := range cfg.DNSSuffixes {
		out = append(out, join(sfx))
	}
	out = append(out, name)
	return omitDuplicates(out)
}

// Resolve implements shell.Network.
func (v *view) Resolve(ctx context.Context, name string) ([]netip.Addr, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name = strings.ToLower(strings.TrimSpace(name))
	if a, err := netip.ParseAddr(strings.Trim(name, "[]")); err == nil {
		return []netip.Addr{a.Unmap()}, nil
	}
	if name == "" || name == "." {
		return nil, fmt.Errorf("%w: %q", shell.ErrNameNotFound, name)
	}
	s := v.m.snapshot()
	w := v.refresh(s)
	if a, ok := w.hosts(s)[strings.TrimSuffix(name, ".")]; ok {
		return append([]netip.Addr(nil), a...), nil
	}
	cfg := w.netConfig(s)
	if len(cfg.DNSServers) == 0 {
		return nil, fmt.Errorf("%w: %s (no DNS servers configured)", shell.ErrNameNotFound, name)
	}
	for _, c := range candidates(w.os, name, cfg) {
		addrs, err := w.query(s, cfg.DNSServers, c)
		if err != nil {
			return nil, err
		}
		if len(addrs) > 0 {
			return addrs, nil
		}
	}
	return nil, fmt.Errorf("%w: %s", shell.ErrNameNotFound, name)
}

// query asks the first DNS server that answers for fqdn. A server that
// answers "no such name" ends the query (resolvers only fail over on
// timeouts). All servers unreachable is a timeout.
func (v *view) query(s *snapshot, servers []netip.Addr, fqdn string) ([]netip.Addr, error) {
	var last error
	for _, srv := range servers {
		t, err := v.connect(s, ProtoUDP, srv, 53)
		if err != nil {
			last = err
			continue
		}
		switch {
		case t.kind == "pod" && isClusterDNS(s, t.pod):
			return s.clusterLookup(fqdn, 0), nil
		case t.kind == "pod" && v.m.dnsServer(t.pod) != nil:
			var out []netip.Addr
			for _, r := range s.corefileAnswer(v.m.dnsServer(t.pod), fqdn, "A").Answer {
				if a, ok := parseAddr(r.Data); ok {
					out = append(out, a)
				}
			}
			return out, nil
		case t.kind == "pod", t.kind == "external":
			// A resolver outside the cluster, or a pod that is not the
			// cluster DNS: it forwards to the internet.
			return s.upstreamLookup(fqdn), nil
		}
		last = &RuleError{Err: shell.ErrRefused, Rule: "H1", Reason: srv.String() + " does not serve DNS"}
	}
	if last == nil {
		last = shell.ErrTimeout
	}
	var re *RuleError
	if errors.As(last, &re) && errors.Is(last, shell.ErrRefused) {
		return nil, &RuleError{Err: shell.ErrTimeout, Rule: re.Rule, Reason: "no DNS server answered: " + re.Reason}
	}
	return nil, last
}

// isClusterDNS reports whether p is a cluster DNS server (a CoreDNS pod of
// the kube-dns Service).
func isClusterDNS(s *snapshot, p *corev1.Pod) bool {
	if p == nil {
		return false
	}
	if p.Namespace == "kube-system" && p.Labels["k8s-app"] == "kube-dns" {
		return true
	}
	if svc := s.svcByKey["kube-system/kube-dns"]; svc != nil && p.Namespace == "kube-system" {
		for k, want := range svc.Spec.Selector {
			if p.Labels[k] != want {
				return false
			}
		}
		return len(svc.Spec.Selector) > 0
	}
	return false
}

// clusterLookup answers like CoreDNS with the kubernetes plugin
// ("pods insecure") and forwarding to upstream for other zones.
func (s *snapshot) clusterLookup(name string, depth int) []netip.Addr {
	name = strings.TrimSuffix(strings.ToLower(name), ".")
	d := s.opts.ClusterDomain
	if name != d && !strings.HasSuffix(name, "."+d) {
		return s.upstreamLookup(name)
	}
	rest := strings.TrimSuffix(strings.TrimSuffix(name, d), ".")
	if rest == "" {
		return nil
	}
	l := strings.Split(rest, ".")
	switch {
	case len(l) == 3 && l[2] == "svc":
		return s.serviceRecords(l[1], l[0], depth)
	case len(l) == 4 && l[3] == "svc":
		return s.endpointRecord(l[2], l[1], l[0])
	case len(l) == 3 && l[2] == "pod":
		if a, ok := parseAddr(strings.ReplaceAll(l[0], "-", ".")); ok && a.Is4() {
			return []netip.Addr{a}
		}
	}
	return nil
}

func (s *snapshot) serviceRecords(ns, name string, depth int) []netip.Addr {
	svc := s.svcByKey[key(ns, name)]
	if svc == nil {
		return nil
	}
	switch {
	case svc.Spec.Type == corev1.ServiceTypeExternalName:
		if depth > 8 {
			return nil
		}
		target := strings.TrimSuffix(strings.ToLower(svc.Spec.ExternalName), ".")
		if a, ok := parseAddr(target); ok {
			return []netip.Addr{a}
		}
		return s.clusterLookup(target, depth+1)
	case svc.Spec.ClusterIP == corev1.ClusterIPNone:
		var out []netip.Addr
		for _, e := range s.headlessEndpoints(svc) {
			out = append(out, e.addr)
		}
		return out
	}
	var out []netip.Addr
	for _, a := range clusterIPs(svc) {
		if a.Is4() {
			out = append(out, a)
		}
	}
	return out
}

type namedEndpoint struct {
	addr     netip.Addr
	hostname string
}

// headlessEndpoints are a headless Service's DNS records: its ready
// endpoints (all of them with publishNotReadyAddresses).
func (s *snapshot) headlessEndpoints(svc *corev1.Service) []namedEndpoint {
	seen := map[netip.Addr]bool{}
	var out []namedEndpoint
	for _, es := range s.slices[key(svc.Namespace, svc.Name)] {
		for _, ep := range es.Endpoints {
			if !svc.Spec.PublishNotReadyAddresses && ep.Conditions.Ready != nil && !*ep.Conditions.Ready {
				continue
			}
			hn := ""
			if ep.Hostname != nil {
				hn = strings.ToLower(*ep.Hostname)
			}
			for _, a := range ep.Addresses {
				if ip, ok := parseAddr(a); ok && ip.Is4() && !seen[ip] {
					seen[ip] = true
					out = append(out, namedEndpoint{addr: ip, hostname: hn})
				}
			}
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].addr.Less(out[j-1].addr); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func (s *snapshot) endpointRecord(ns, svcName, label string) []netip.Addr {
	svc := s.svcByKey[key(ns, svcName)]
	if svc == nil || svc.Spec.ClusterIP != corev1.ClusterIPNone {
		return nil
	}
	for _, e := range s.headlessEndpoints(svc) {
		if e.hostname == label || strings.ReplaceAll(e.addr.String(), ".", "-") == label {
			return []netip.Addr{e.addr}
		}
	}
	return nil
}

// publicTLDs are the top-level domains the simulated internet has, besides
// every two-letter country code.
var publicTLDs = map[string]bool{
	"com": true, "net": true, "org": true, "edu": true, "gov": true, "mil": true, "int": true,
	"io": true, "dev": true, "app": true, "ai": true, "info": true, "biz": true, "cloud": true,
	"xyz": true, "online": true, "site": true, "tech": true, "blog": true, "page": true,
}

// reservedTLDs never resolve on the internet (RFC 2606, 6761, 6762).
var reservedTLDs = map[string]bool{"local": true, "localhost": true, "invalid": true, "test": true, "example": true, "internal": true, "arpa": true}

// upstreamLookup answers like a public resolver: names under a public TLD
// resolve to a stable documentation address (203.0.113.0/24, RFC 5737)
// unless Options.ExternalHosts pins them; everything else does not exist.
func (s *snapshot) upstreamLookup(name string) []netip.Addr {
	name = strings.TrimSuffix(strings.ToLower(name), ".")
	if a, ok := s.opts.ExternalHosts[name]; ok {
		return []netip.Addr{a}
	}
	l := strings.Split(name, ".")
	if len(l) < 2 {
		return nil
	}
	for _, x := range l {
		if x == "" || len(x) > 63 {
			return nil
		}
	}
	tld := l[len(l)-1]
	if reservedTLDs[tld] || !(publicTLDs[tld] || (len(tld) == 2 && isAlpha(tld))) {
		return nil
	}
	return []netip.Addr{ExternalAddr(name)}
}

func isAlpha(s string) bool {
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// ExternalAddr is the stable address an internet name resolves to:
// 203.0.113.1-254, chosen by an FNV-1a hash of the lower-case name.
func ExternalAddr(name string) netip.Addr {
	h := hash32(strings.TrimSuffix(strings.ToLower(name), "."))
	return netip.AddrFrom4([4]byte{203, 0, 113, byte(1 + h%254)})
}
