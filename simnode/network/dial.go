package network

import (
	"context"
	"fmt"
	"net/netip"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/shell"
)

// dest is a classified destination address.
type dest struct {
	kind string
	addr netip.Addr
	node *corev1.Node // node-*, nodeport-*
	pod  *corev1.Pod  // pod
	svc  *corev1.Service
	sp   *corev1.ServicePort
}

// classify turns an address (and, for nodePorts, a port) into a destination
// kind of the path table.
func (v *view) classify(s *snapshot, addr netip.Addr, port int, proto string) dest {
	addr = addr.Unmap()
	d := dest{addr: addr}
	switch {
	case addr.Is6() && addr.IsLoopback():
		d.kind = DstSelf
	case addr.Is6():
		d.kind = DstIPv6
	case s.nodeByAddr[addr] != nil:
		n := s.nodeByAddr[addr]
		d.node = n
		own := n.Name == v.nodeName
		d.kind = DstNodeOther
		if own {
			d.kind = DstNodeOwn
		}
		if proto != ProtoICMP {
			if svc, sp := s.nodePort(port, proto); svc != nil {
				d.svc, d.sp = svc, sp
				d.kind = DstNodePortOther
				if own {
					d.kind = DstNodePortOwn
				}
			}
		}
	case addr == v.ip(s) || addr.IsUnspecified():
		d.kind = DstSelf
	case s.podByIP[addr] != nil:
		d.kind, d.pod = DstPod, s.podByIP[addr]
	case s.svcByIP[addr] != nil:
		d.kind, d.svc = DstServiceVIP, s.svcByIP[addr]
	case addr.IsLoopback():
		d.kind = DstSelf
	case len(s.apiserverAddr[addr]) > 0:
		// The apiserver's host belongs to the cluster network like a node.
		d.kind = DstNodeOther
	case s.inCluster(addr):
		d.kind = DstClusterUnassigned
	default:
		d.kind = DstExternal
	}
	return d
}

func (s *snapshot) nodePort(port int, proto string) (*corev1.Service, *corev1.ServicePort) {
	if port <= 0 {
		return nil, nil
	}
	for _, svc := range s.svcByKey {
		if svc.Spec.Type != corev1.ServiceTypeNodePort && svc.Spec.Type != corev1.ServiceTypeLoadBalancer {
			continue
		}
		for i := range svc.Spec.Ports {
			sp := &svc.Spec.Ports[i]
			if int(sp.NodePort) == port && protoOf(sp.Protocol) == proto {
				return svc, sp
			}
		}
	}
	return nil, nil
}

func protoOf(p corev1.Protocol) string {
	if p == "" {
		return ProtoTCP
	}
	return strings.ToLower(string(p))
}

// target is whoever accepted a connection.
type target struct {
	kind string // "pod", "apiserver", "kubelet", "external"
	pod  *corev1.Pod
	node *corev1.Node
	addr netip.Addr
	port int
	// real: pod runs on a real node and the connection is TCP; whether it
	// is accepted is the real server's to say (dialReal), under rule.
	real bool
	rule string
}

// Dial implements shell.Network. A TCP connection to a real pod is made
// for real (row H1).
func (v *view) Dial(ctx context.Context, proto string, addr netip.Addr, port int) error {
	t, err := v.dial(ctx, proto, addr, port)
	if err == nil && t.real {
		return v.m.probeReal(ctx, t)
	}
	return err
}

func (v *view) dial(ctx context.Context, proto string, addr netip.Addr, port int) (*target, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	proto = strings.ToLower(proto)
	if proto != ProtoTCP && proto != ProtoUDP {
		return nil, fmt.Errorf("unsupported protocol %q (tcp or udp)", proto)
	}
	if port < 1 || port > 65535 {
		return nil, fmt.Errorf("invalid port %d", port)
	}
	if !addr.IsValid() {
		return nil, fmt.Errorf("invalid address")
	}
	s := v.m.snapshot()
	w := v.refresh(s)
	return w.connect(s, proto, addr, port)
}

func (v *view) connect(s *snapshot, proto string, addr netip.Addr, port int) (*target, error) {
	d := v.classify(s, addr, port, proto)
	dec := v.m.rules.DecidePath(v.os, v.kind.Outcome, d.kind, proto, v.hostServiceVIPs())
	if dec.Outcome != OutcomeDeliver {
		return nil, outcomeError(dec, fmt.Sprintf("%s %s from a %s %s to %s %s:%d", dec.Outcome, proto, v.os, v.kind.Outcome, d.kind, d.addr, port))
	}
	switch d.kind {
	case DstSelf:
		if v.kind.Outcome == SrcHost || v.pod == nil {
			return v.m.hostListener(s, v.node, d.addr, port, dec)
		}
		return v.m.podListener(s, v.pod, d.addr, port, proto, dec)
	case DstPod:
		return v.m.podListener(s, d.pod, d.addr, port, proto, dec)
	case DstNodeOwn, DstNodeOther:
		return v.m.hostListener(s, d.node, d.addr, port, dec)
	case DstNodePortOwn, DstNodePortOther:
		return v.serviceConnect(s, d.svc, d.sp, proto, d.node, true)
	case DstServiceVIP:
		sp := servicePort(d.svc, port, proto)
		if sp == nil {
			p := v.m.rules.DecideProxy(nodeOS(v.node), AspectUnknownPort, windowsBuild(v.node))
			return nil, outcomeError(p, fmt.Sprintf("Service %s/%s has no %s port %d", d.svc.Namespace, d.svc.Name, proto, port))
		}
		return v.serviceConnect(s, d.svc, sp, proto, v.node, false)
	case DstExternal:
		for _, p := range v.m.opts.ExternalPorts {
			if p == port {
				return &target{kind: "external", addr: d.addr, port: port}, nil
			}
		}
		return nil, &RuleError{Err: shell.ErrTimeout, Rule: dec.ID, Reason: fmt.Sprintf("nothing beyond the cluster network answers on %s port %d (Options.ExternalPorts)", proto, port)}
	}
	// cluster-unassigned and ipv6 never deliver; a table change that makes
	// them deliver finds nobody there.
	return nil, &RuleError{Err: shell.ErrTimeout, Rule: dec.ID, Reason: "nobody has " + d.addr.String()}
}

func servicePort(svc *corev1.Service, port int, proto string) *corev1.ServicePort {
	for i := range svc.Spec.Ports {
		sp := &svc.Spec.Ports[i]
		if int(sp.Port) == port && protoOf(sp.Protocol) == proto {
			return sp
		}
	}
	return nil
}

// ---- listeners ----

func (m *Model) listens(p *corev1.Pod, i int) []int {
	if m.opts.Listens != nil {
		return m.opts.Listens(p, i)
	}
	var out []int
	for _, cp := range p.Spec.Containers[i].Ports {
		out = append(out, int(cp.ContainerPort))
	}
	return out
}

func containerRunning(p *corev1.Pod, i int) bool {
	if len(p.Status.ContainerStatuses) == 0 {
		return true // no statuses reported: trust the phase
	}
	name := p.Spec.Containers[i].Name
	for _, cs := range p.Status.ContainerStatuses {
		if cs.Name == name {
			return cs.State.Running != nil
		}
	}
	return false
}

// podListening reports whether a running container of p listens on port;
// a pod on a real node, when it is Ready and declares the port
// (realListens).
func (m *Model) podListening(s *snapshot, p *corev1.Pod, port int) bool {
	if m.realPod(s, p) {
		return realListens(p, port)
	}
	if p.Status.Phase != corev1.PodRunning {
		return false
	}
	for i := range p.Spec.Containers {
		if !containerRunning(p, i) {
			continue
		}
		for _, lp := range m.listens(p, i) {
			if lp == port {
				return true
			}
		}
	}
	return false
}

// podListener is the pod p when it accepts a proto connection on port. A
// TCP connection to a pod on a real node is accepted here and made for
// real by whoever uses it (target.real): the real server decides.
func (m *Model) podListener(s *snapshot, p *corev1.Pod, addr netip.Addr, port int, proto string, dec Decision) (*target, error) {
	real := m.realPod(s, p)
	if real && proto == ProtoTCP {
		return &target{kind: "pod", pod: p, addr: addr, port: port, real: true, rule: dec.ID}, nil
	}
	if m.podListening(s, p, port) {
		return &target{kind: "pod", pod: p, addr: addr, port: port, rule: dec.ID}, nil
	}
	if real {
		return nil, realNotListening(p, port, dec.ID)
	}
	return nil, &RuleError{Err: shell.ErrRefused, Rule: dec.ID, Reason: fmt.Sprintf("no container of pod %s/%s listens on port %d", p.Namespace, p.Name, port)}
}

func kubeletPort(n *corev1.Node) int {
	if n != nil && n.Status.DaemonEndpoints.KubeletEndpoint.Port != 0 {
		return int(n.Status.DaemonEndpoints.KubeletEndpoint.Port)
	}
	return 10250
}

// hostListener finds what answers on a node's address: the apiserver (on
// its own host), the kubelet, or a hostNetwork pod.
func (m *Model) hostListener(s *snapshot, n *corev1.Node, addr netip.Addr, port int, dec Decision) (*target, error) {
	for _, p := range s.apiserverAddr[addr] {
		if p == port {
			return &target{kind: "apiserver", node: n, addr: addr, port: port}, nil
		}
	}
	if n != nil {
		if port == kubeletPort(n) {
			return &target{kind: "kubelet", node: n, addr: addr, port: port}, nil
		}
		for _, p := range s.hostPods[n.Name] {
			if m.podListening(s, p, port) {
				return &target{kind: "pod", pod: p, node: n, addr: addr, port: port}, nil
			}
		}
	}
	name := addr.String()
	if n != nil {
		name = "node " + n.Name
	}
	return nil, &RuleError{Err: shell.ErrRefused, Rule: dec.ID, Reason: fmt.Sprintf("nothing listens on %s port %d", name, port)}
}

// ---- services ----

func (s *snapshot) readyEndpoints(svc *corev1.Service, sp *corev1.ServicePort, proto string) []endpoint {
	seen := map[string]bool{}
	var out []endpoint
	for _, es := range s.slices[key(svc.Namespace, svc.Name)] {
		if es.AddressType != discoveryv1.AddressTypeIPv4 {
			continue
		}
		port := -1
		for _, p := range es.Ports {
			name := ""
			if p.Name != nil {
				name = *p.Name
			}
			pp := corev1.ProtocolTCP
			if p.Protocol != nil {
				pp = *p.Protocol
			}
			if name == sp.Name && protoOf(pp) == proto && p.Port != nil {
				port = int(*p.Port)
			}
		}
		if port < 0 {
			continue
		}
		for _, ep := range es.Endpoints {
			if ep.Conditions.Ready != nil && !*ep.Conditions.Ready {
				continue
			}
			var pod *corev1.Pod
			if ep.TargetRef != nil && ep.TargetRef.Kind == "Pod" {
				ns := ep.TargetRef.Namespace
				if ns == "" {
					ns = es.Namespace
				}
				pod = s.podByKey[key(ns, ep.TargetRef.Name)]
			}
			node := ""
			if ep.NodeName != nil {
				node = *ep.NodeName
			} else if pod != nil {
				node = pod.Spec.NodeName
			}
			for _, a := range ep.Addresses {
				ip, ok := parseAddr(a)
				if !ok {
					continue
				}
				k := fmt.Sprintf("%s:%d", ip, port)
				if seen[k] {
					continue
				}
				seen[k] = true
				p := pod
				if p == nil {
					p = s.podByIP[ip]
				}
				out = append(out, endpoint{addr: ip, port: port, nodeName: node, pod: p})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].addr != out[j].addr {
			return out[i].addr.Less(out[j].addr)
		}
		return out[i].port < out[j].port
	})
	return out
}

func onNode(eps []endpoint, node string) []endpoint {
	var out []endpoint
	for _, e := range eps {
		if e.nodeName == node {
			out = append(out, e)
		}
	}
	return out
}

// serviceConnect load-balances a connection to a Service port the way the
// proxy of proxyNode does (the source's node for ClusterIPs, the receiving
// node for nodePorts).
func (v *view) serviceConnect(s *snapshot, svc *corev1.Service, sp *corev1.ServicePort, proto string, proxyNode *corev1.Node, viaNodePort bool) (*target, error) {
	pos, build := nodeOS(proxyNode), windowsBuild(proxyNode)
	name := fmt.Sprintf("Service %s/%s port %s", svc.Namespace, svc.Name, portName(sp))
	eps := s.readyEndpoints(svc, sp, proto)
	if viaNodePort && svc.Spec.ExternalTrafficPolicy == corev1.ServiceExternalTrafficPolicyLocal && proxyNode != nil {
		if d := v.m.rules.DecideProxy(pos, AspectETPLocal, build); d.Outcome == OutcomeHonoured && len(eps) > 0 {
			eps = onNode(eps, proxyNode.Name)
			if len(eps) == 0 {
				return nil, &RuleError{Err: shell.ErrTimeout, Rule: d.ID, Reason: name + ": externalTrafficPolicy Local and no ready endpoint on node " + proxyNode.Name}
			}
		}
	}
	if !viaNodePort && svc.Spec.InternalTrafficPolicy != nil && *svc.Spec.InternalTrafficPolicy == corev1.ServiceInternalTrafficPolicyLocal && len(eps) > 0 {
		eps = onNode(eps, v.nodeName)
		if len(eps) == 0 {
			return nil, &RuleError{Err: shell.ErrTimeout, Rule: "H1", Reason: name + ": internalTrafficPolicy Local and no ready endpoint on node " + v.nodeName}
		}
	}
	if len(eps) == 0 {
		d := v.m.rules.DecideProxy(pos, AspectNoEndpoints, build)
		return nil, outcomeError(d, name+" has no ready endpoints")
	}
	ep := v.m.pick(svc, sp, eps, v.ip(s), pos, build)
	dec := Decision{Outcome: OutcomeDeliver, ID: "H1"}
	switch {
	case ep.pod != nil && ep.pod.Spec.HostNetwork:
		return v.m.hostListener(s, s.nodeByName[ep.pod.Spec.NodeName], ep.addr, ep.port, dec)
	case ep.pod != nil:
		return v.m.podListener(s, ep.pod, ep.addr, ep.port, proto, dec)
	case len(s.apiserverAddr[ep.addr]) > 0 || s.nodeByAddr[ep.addr] != nil:
		return v.m.hostListener(s, s.nodeByAddr[ep.addr], ep.addr, ep.port, dec)
	}
	return nil, &RuleError{Err: shell.ErrTimeout, Rule: "H1", Reason: fmt.Sprintf("%s: endpoint %s:%d belongs to nobody", name, ep.addr, ep.port)}
}

func portName(sp *corev1.ServicePort) string {
	if sp.Name != "" {
		return sp.Name
	}
	return fmt.Sprint(sp.Port)
}

// pick chooses an endpoint: sticky per client IP when the Service asks for
// ClientIP affinity and the proxy honours it (H8), round-robin otherwise.
func (m *Model) pick(svc *corev1.Service, sp *corev1.ServicePort, eps []endpoint, client netip.Addr, proxyOS facts.OS, build int) endpoint {
	svcKey := key(svc.Namespace, svc.Name) + "/" + portName(sp)
	m.mu.Lock()
	defer m.mu.Unlock()
	next := func() endpoint {
		i := m.rr[svcKey] % len(eps)
		m.rr[svcKey] = i + 1
		return eps[i]
	}
	if svc.Spec.SessionAffinity != corev1.ServiceAffinityClientIP || m.rules.DecideProxy(proxyOS, AspectAffinity, build).Outcome != OutcomeHonoured {
		return next()
	}
	now := m.opts.Now()
	ttl := time.Duration(corev1.DefaultClientIPServiceAffinitySeconds) * time.Second
	if c := svc.Spec.SessionAffinityConfig; c != nil && c.ClientIP != nil && c.ClientIP.TimeoutSeconds != nil {
		ttl = time.Duration(*c.ClientIP.TimeoutSeconds) * time.Second
	}
	expires := m.rules.DecideProxy(proxyOS, AspectAffinityTTL, build).Outcome == OutcomeHonoured
	akey := svcKey + "|" + client.String()
	if e, ok := m.affinity[akey]; ok && (!expires || now.Sub(e.last) <= ttl) {
		for _, ep := range eps {
			if fmt.Sprintf("%s:%d", ep.addr, ep.port) == e.endpoint {
				m.affinity[akey] = affinityEntry{endpoint: e.endpoint, last: now}
				return ep
			}
		}
	}
	ep := next()
	m.affinity[akey] = affinityEntry{endpoint: fmt.Sprintf("%s:%d", ep.addr, ep.port), last: now}
	return ep
}

// ---- ICMP ----

// Ping implements shell.Network.
func (v *view) Ping(ctx context.Context, addr netip.Addr) (time.Duration, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if !addr.IsValid() {
		return 0, fmt.Errorf("invalid address")
	}
	s := v.m.snapshot()
	w := v.refresh(s)
	d := w.classify(s, addr, 0, ProtoICMP)
	dec := v.m.rules.DecidePath(w.os, w.kind.Outcome, d.kind, ProtoICMP, w.hostServiceVIPs())
	if dec.Outcome != OutcomeDeliver {
		return 0, outcomeError(dec, fmt.Sprintf("no echo reply from %s (%s) to a %s %s", d.addr, d.kind, w.os, w.kind.Outcome))
	}
	switch d.kind {
	case DstSelf:
		return 40 * time.Microsecond, nil
	case DstPod:
		if d.pod.Spec.NodeName == w.nodeName {
			return 300 * time.Microsecond, nil
		}
		return 900 * time.Microsecond, nil
	case DstNodeOwn:
		return 200 * time.Microsecond, nil
	case DstNodeOther:
		return 700 * time.Microsecond, nil
	case DstExternal:
		return 12 * time.Millisecond, nil
	}
	return 0, &RuleError{Err: shell.ErrTimeout, Rule: dec.ID, Reason: "nobody answers at " + d.addr.String()}
}
