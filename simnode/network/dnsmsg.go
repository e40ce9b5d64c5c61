package network

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/shell"
)

// This file answers DNS messages (shell.DNSClient, for dig): the
// records the cluster DNS serves, as CoreDNS's kubernetes plugin does with
// the Corefile wink deploys (harness/internal/embedded/addons/coredns.yaml:
// `kubernetes <domain> in-addr.arpa ip6.arpa`, `pods insecure`,
// `fallthrough in-addr.arpa ip6.arpa`, `ttl 30`, `forward .`), and those
// of the simulated internet behind it. Rows H1 (the path to the server),
// H2 (what a pod's resolver then asks is the client's concern).

// clusterTTL is the Corefile's `ttl 30`; forwarded answers are cached for
// at most 30 s (`cache 30`), which is what a client sees.
const clusterTTL, upstreamTTL = 30, 30

// ExchangeDNS implements shell.DNSClient: the question goes to server
// port 53 over the container's network path (rows H1, H4–H6 as for any
// connection); the cluster DNS answers for the cluster's zones and
// forwards the rest, another listening pod or an address beyond the
// cluster answers as a forwarding resolver.
func (v *view) ExchangeDNS(ctx context.Context, server netip.Addr, tcp bool, name, qtype string) (*shell.DNSReply, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	proto := ProtoUDP
	if tcp {
		proto = ProtoTCP
	}
	s := v.m.snapshot()
	w := v.refresh(s)
	t, err := w.connect(s, proto, server.Unmap(), 53)
	if err != nil {
		var re *RuleError
		if !tcp && errors.As(err, &re) && errors.Is(err, shell.ErrRefused) {
			// A UDP question to a closed port gets no answer.
			return nil, &RuleError{Err: shell.ErrTimeout, Rule: re.Rule, Reason: "no DNS server answered: " + re.Reason}
		}
		return nil, err
	}
	qtype = strings.ToUpper(qtype)
	switch {
	case t.real && isClusterDNS(s, t.pod) && !realListens(t.pod, t.port):
		// The cluster DNS on a real node answers from the model, over TCP
		// as over UDP, only while it is Ready with the port declared.
		return nil, realNotListening(t.pod, t.port, t.rule)
	case t.real && !isClusterDNS(s, t.pod):
		// A real pod that is not the cluster DNS: the connection is real,
		// the answer that of a forwarding resolver as below (row H1).
		if err := v.m.probeReal(ctx, t); err != nil {
			return nil, err
		}
	}
	switch {
	case t.kind == "pod" && isClusterDNS(s, t.pod):
		return s.clusterAnswer(name, qtype), nil
	case t.kind == "pod" && v.m.dnsServer(t.pod) != nil:
		return s.corefileAnswer(v.m.dnsServer(t.pod), name, qtype), nil
	case t.kind == "pod", t.kind == "external":
		return s.upstreamAnswer(name, qtype), nil
	}
	if tcp {
		return nil, &RuleError{Err: shell.ErrRefused, Rule: "H1", Reason: server.String() + " does not serve DNS"}
	}
	return nil, &RuleError{Err: shell.ErrTimeout, Rule: "H1", Reason: server.String() + " does not serve DNS"}
}

func fqdnOf(name string) string { return strings.TrimSuffix(strings.ToLower(name), ".") + "." }

func nxdomain(authoritative bool) *shell.DNSReply {
	return &shell.DNSReply{Rcode: shell.RcodeNXDomain, Authoritative: authoritative}
}

// clusterAnswer is CoreDNS's reply to a question for name of type qtype.
func (s *snapshot) clusterAnswer(name, qtype string) *shell.DNSReply {
	name = strings.TrimSuffix(strings.ToLower(name), ".")
	d := s.opts.ClusterDomain
	if strings.HasSuffix(name, ".in-addr.arpa") {
		if r := s.reverseAnswer(name, qtype); r != nil {
			return r
		}
		return s.upstreamAnswer(name, qtype) // fallthrough in-addr.arpa
	}
	if name != d && !strings.HasSuffix(name, "."+d) {
		return s.upstreamAnswer(name, qtype)
	}
	owner := name + "."
	reply := &shell.DNSReply{Rcode: shell.RcodeNoError, Authoritative: true}
	addA := func(addrs []netip.Addr) {
		if qtype != "A" && qtype != "ANY" {
			return
		}
		for _, a := range addrs {
			reply.Answer = append(reply.Answer, shell.DNSRecord{Name: owner, TTL: clusterTTL, Type: "A", Data: a.String()})
		}
	}
	rest := strings.TrimSuffix(strings.TrimSuffix(name, d), ".")
	var l []string
	if rest != "" {
		l = strings.Split(rest, ".")
	}
	switch {
	case len(l) == 0, len(l) == 1 && l[0] == "svc", len(l) == 2 && l[1] == "svc":
		// The zone, svc and a namespace: names without records of their own.
	case len(l) == 3 && l[2] == "svc":
		svc := s.svcByKey[key(l[1], l[0])]
		if svc == nil {
			return nxdomain(true)
		}
		if svc.Spec.Type == corev1.ServiceTypeExternalName {
			target := fqdnOf(svc.Spec.ExternalName)
			if qtype == "A" || qtype == "CNAME" || qtype == "ANY" || qtype == "AAAA" {
				reply.Answer = append(reply.Answer, shell.DNSRecord{Name: owner, TTL: clusterTTL, Type: "CNAME", Data: target})
			}
			if qtype == "A" {
				// CoreDNS looks the target up itself and adds its records.
				next := s.clusterAnswer(target, "A")
				reply.Answer = append(reply.Answer, next.Answer...)
			}
			break
		}
		addA(s.serviceRecords(l[1], l[0], 0))
	case len(l) == 4 && l[3] == "svc":
		addrs := s.endpointRecord(l[2], l[1], l[0])
		if len(addrs) == 0 {
			return nxdomain(true)
		}
		addA(addrs)
	case len(l) == 5 && l[4] == "svc" && strings.HasPrefix(l[0], "_") && strings.HasPrefix(l[1], "_"):
		recs := s.srvRecords(l[3], l[2], strings.TrimPrefix(l[0], "_"), strings.TrimPrefix(l[1], "_"))
		if recs == nil {
			return nxdomain(true)
		}
		if qtype == "SRV" || qtype == "ANY" {
			for _, r := range recs {
				reply.Answer = append(reply.Answer, shell.DNSRecord{Name: owner, TTL: clusterTTL, Type: "SRV", Data: r})
			}
		}
	case len(l) == 3 && l[2] == "pod":
		a, ok := parseAddr(strings.ReplaceAll(l[0], "-", "."))
		if !ok || !a.Is4() {
			return nxdomain(true)
		}
		addA([]netip.Addr{a})
	default:
		return nxdomain(true)
	}
	return reply
}

// srvRecords are the SRV data of _port._proto.<svc>.<ns>.svc: one per
// Service port of that name and protocol (target the Service) for a
// ClusterIP Service, one per ready endpoint (target its hostname or dashed
// address) for a headless one; CoreDNS weighs records of equal priority
// 100/n. nil: no such Service or port.
func (s *snapshot) srvRecords(ns, name, portName, proto string) []string {
	svc := s.svcByKey[key(ns, name)]
	if svc == nil || svc.Spec.Type == corev1.ServiceTypeExternalName {
		return nil
	}
	d := s.opts.ClusterDomain
	var out []string
	if svc.Spec.ClusterIP != corev1.ClusterIPNone {
		for _, sp := range svc.Spec.Ports {
			if strings.EqualFold(sp.Name, portName) && strings.EqualFold(protoOf(sp.Protocol), proto) {
				out = append(out, fmt.Sprintf("0 100 %d %s.%s.svc.%s.", sp.Port, name, ns, d))
			}
		}
		return out
	}
	type rec struct {
		port   int32
		target string
	}
	var recs []rec
	seen := map[string]bool{}
	for _, es := range s.slices[key(ns, name)] {
		var port *int32
		for _, p := range es.Ports {
			pp := corev1.ProtocolTCP
			if p.Protocol != nil {
				pp = *p.Protocol
			}
			if p.Name != nil && strings.EqualFold(*p.Name, portName) && strings.EqualFold(protoOf(pp), proto) && p.Port != nil {
				port = p.Port
			}
		}
		if port == nil {
			continue
		}
		for _, ep := range es.Endpoints {
			if !svc.Spec.PublishNotReadyAddresses && ep.Conditions.Ready != nil && !*ep.Conditions.Ready {
				continue
			}
			for _, a := range ep.Addresses {
				ip, ok := parseAddr(a)
				if !ok || !ip.Is4() {
					continue
				}
				label := strings.ReplaceAll(ip.String(), ".", "-")
				if ep.Hostname != nil && *ep.Hostname != "" {
					label = strings.ToLower(*ep.Hostname)
				}
				target := fmt.Sprintf("%s.%s.%s.svc.%s.", label, name, ns, d)
				if !seen[target+strconv.Itoa(int(*port))] {
					seen[target+strconv.Itoa(int(*port))] = true
					recs = append(recs, rec{*port, target})
				}
			}
		}
	}
	if len(recs) == 0 {
		return nil
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].target < recs[j].target })
	weight := 100 / len(recs)
	for _, r := range recs {
		out = append(out, fmt.Sprintf("0 %d %d %s", weight, r.port, r.target))
	}
	return out
}

// reverseAnswer is the kubernetes plugin's PTR for a Service ClusterIP
// (its name) or a headless Service's endpoint (hostname or dashed address
// under the Service); nil when the address is neither (fallthrough).
func (s *snapshot) reverseAnswer(name, qtype string) *shell.DNSReply {
	labels := strings.Split(strings.TrimSuffix(name, ".in-addr.arpa"), ".")
	if len(labels) != 4 {
		return nil
	}
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	ip, ok := parseAddr(strings.Join(labels, "."))
	if !ok || !ip.Is4() {
		return nil
	}
	d := s.opts.ClusterDomain
	var targets []string
	if svc := s.svcByIP[ip]; svc != nil {
		targets = append(targets, fmt.Sprintf("%s.%s.svc.%s.", svc.Name, svc.Namespace, d))
	}
	for _, svc := range s.svcByKey {
		if svc.Spec.ClusterIP != corev1.ClusterIPNone {
			continue
		}
		for _, e := range s.headlessEndpoints(svc) {
			if e.addr == ip {
				label := e.hostname
				if label == "" {
					label = strings.ReplaceAll(ip.String(), ".", "-")
				}
				targets = append(targets, fmt.Sprintf("%s.%s.%s.svc.%s.", label, svc.Name, svc.Namespace, d))
			}
		}
	}
	if len(targets) == 0 {
		return nil
	}
	sort.Strings(targets)
	reply := &shell.DNSReply{Rcode: shell.RcodeNoError, Authoritative: true}
	if qtype == "PTR" || qtype == "ANY" {
		for _, t := range targets {
			reply.Answer = append(reply.Answer, shell.DNSRecord{Name: name + ".", TTL: clusterTTL, Type: "PTR", Data: t})
		}
	}
	return reply
}

// upstreamAnswer is a public resolver's reply (upstreamLookup): A records
// of the simulated internet, NXDOMAIN for the rest.
func (s *snapshot) upstreamAnswer(name, qtype string) *shell.DNSReply {
	addrs := s.upstreamLookup(name)
	if len(addrs) == 0 {
		return nxdomain(false)
	}
	reply := &shell.DNSReply{Rcode: shell.RcodeNoError}
	if qtype == "A" || qtype == "ANY" {
		for _, a := range addrs {
			reply.Answer = append(reply.Answer, shell.DNSRecord{Name: fqdnOf(name), TTL: upstreamTTL, Type: "A", Data: a.String()})
		}
	}
	return reply
}

var _ shell.DNSClient = (*view)(nil)
