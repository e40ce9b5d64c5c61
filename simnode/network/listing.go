package network

import (
	"net/netip"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/egress"
)

// Listing is what the simulated network answers for (egress.Lister): the
// simulated nodes' podCIDRs and every address and TCP port a running
// container of a simulated pod listens on, a hostNetwork pod's at its
// node's address. A gateway from a real network relays those and refuses
// the rest, as a node's network refuses a port nothing listens on (row
// H1).
func (m *Model) Listing() egress.Listing {
	s := m.snapshot()
	var l egress.Listing
	simulated := func(n *corev1.Node) bool {
		return n != nil && (m.opts.SimulatedNode == nil || m.opts.SimulatedNode(n))
	}
	for _, n := range s.nodes {
		if !simulated(n) {
			continue
		}
		for _, c := range n.Spec.PodCIDRs {
			if p, err := netip.ParsePrefix(c); err == nil {
				l.Local = append(l.Local, p.Masked())
			}
		}
	}
	listen := func(p *corev1.Pod, addr netip.Addr) {
		for i := range p.Spec.Containers {
			if !containerRunning(p, i) {
				continue
			}
			for _, port := range m.listens(p, i) {
				if port > 0 && port < 1<<16 {
					l.Listening = append(l.Listening, netip.AddrPortFrom(addr, uint16(port)))
				}
			}
		}
	}
	for ip, p := range s.podByIP {
		if simulated(s.nodeByName[p.Spec.NodeName]) {
			listen(p, ip)
		}
	}
	for a, n := range s.nodeByAddr {
		if simulated(n) {
			for _, p := range s.hostPods[n.Name] {
				listen(p, a)
			}
		}
	}
	return l
}
