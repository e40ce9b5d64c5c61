package network_test

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"testing"

	"wink.dev/wink/simnode/network"
	"wink.dev/wink/simnode/shell"
)

// TestExchangeDNS: the cluster DNS's records as CoreDNS's kubernetes
// plugin serves them (A, SRV, CNAME, PTR; ttl 30), forwarded answers, and
// the path to the server (rows H1, H2), from a Windows and a Linux pod.
func TestExchangeDNS(t *testing.T) {
	c := newCluster()
	m := c.model()
	bing := network.ExternalAddr("www.bing.com").String()
	cases := []struct {
		name, qtype string
		want        string // "RCODE[ aa]: record; record"
	}{
		{"kubernetes.default.svc.cluster.local.", "A", "NOERROR aa: kubernetes.default.svc.cluster.local. 30 A 10.96.0.1"},
		{"kubernetes.default.svc.cluster.local", "AAAA", "NOERROR aa:"},
		{"nope.default.svc.cluster.local", "A", "NXDOMAIN aa:"},
		{"default.svc.cluster.local", "A", "NOERROR aa:"},
		// headless: every ready endpoint, and each endpoint's hostname
		{"headless.default.svc.cluster.local", "A", "NOERROR aa: headless.default.svc.cluster.local. 30 A 10.244.0.20; headless.default.svc.cluster.local. 30 A 10.244.1.10"},
		{"win-web.headless.default.svc.cluster.local", "A", "NOERROR aa: win-web.headless.default.svc.cluster.local. 30 A 10.244.1.10"},
		// SRV: the Service itself for a ClusterIP Service, the endpoints
		// (weight 100/n) for a headless one
		{"_http._tcp.nginx.default.svc.cluster.local", "SRV", "NOERROR aa: _http._tcp.nginx.default.svc.cluster.local. 30 SRV 0 100 80 nginx.default.svc.cluster.local."},
		{"_http._tcp.headless.default.svc.cluster.local", "SRV", "NOERROR aa: _http._tcp.headless.default.svc.cluster.local. 30 SRV 0 50 80 nginx.headless.default.svc.cluster.local.; _http._tcp.headless.default.svc.cluster.local. 30 SRV 0 50 80 win-web.headless.default.svc.cluster.local."},
		{"_http._udp.nginx.default.svc.cluster.local", "SRV", "NXDOMAIN aa:"},
		{"_dns._udp.kube-dns.kube-system.svc.cluster.local", "SRV", "NOERROR aa: _dns._udp.kube-dns.kube-system.svc.cluster.local. 30 SRV 0 100 53 kube-dns.kube-system.svc.cluster.local."},
		// ExternalName: the CNAME, and for A its target's records
		{"bing.default.svc.cluster.local", "CNAME", "NOERROR aa: bing.default.svc.cluster.local. 30 CNAME www.bing.com."},
		{"bing.default.svc.cluster.local", "A", "NOERROR aa: bing.default.svc.cluster.local. 30 CNAME www.bing.com.; www.bing.com. 30 A " + bing},
		// PTR of a ClusterIP and of a headless endpoint; others fall through
		{"20.0.96.10.in-addr.arpa.", "PTR", "NOERROR aa: 20.0.96.10.in-addr.arpa. 30 PTR nginx.default.svc.cluster.local."},
		{"10.1.244.10.in-addr.arpa", "PTR", "NOERROR aa: 10.1.244.10.in-addr.arpa. 30 PTR win-web.headless.default.svc.cluster.local."},
		{"99.0.96.10.in-addr.arpa.", "PTR", "NXDOMAIN:"},
		// pods insecure
		{"10-244-1-10.default.pod.cluster.local", "A", "NOERROR aa: 10-244-1-10.default.pod.cluster.local. 30 A 10.244.1.10"},
		// forwarded
		{"www.bing.com", "A", "NOERROR: www.bing.com. 30 A " + bing},
		{"no-such-host.invalid", "A", "NXDOMAIN:"},
	}
	show := func(r *shell.DNSReply) string {
		s := r.Rcode
		if r.Authoritative {
			s += " aa"
		}
		var recs []string
		for _, rr := range r.Answer {
			recs = append(recs, fmt.Sprintf("%s %d %s %s", rr.Name, rr.TTL, rr.Type, rr.Data))
		}
		return strings.TrimSpace(s + ": " + strings.Join(recs, "; "))
	}
	for _, who := range []string{"win-client", "linux-client"} {
		n := c.from(m, who).(shell.DNSClient)
		for _, tcp := range []bool{false, true} {
			for _, tc := range cases {
				r, err := n.ExchangeDNS(ctx, addr(kubeDNS), tcp, tc.name, tc.qtype)
				if err != nil {
					t.Errorf("H1 %s tcp=%v: %s %s: %v", who, tcp, tc.name, tc.qtype, err)
					continue
				}
				if got := show(r); got != strings.TrimSpace(tc.want) {
					t.Errorf("%s tcp=%v: %s %s\n got %s\nwant %s", who, tcp, tc.name, tc.qtype, got, tc.want)
				}
			}
		}
	}
	// H1: a server nothing answers on: UDP times out, TCP is refused.
	n := c.from(m, "win-client").(shell.DNSClient)
	if _, err := n.ExchangeDNS(ctx, addr("10.244.1.10"), false, "kubernetes", "A"); !errors.Is(err, shell.ErrTimeout) {
		t.Errorf("H1 UDP to a pod not serving DNS: %v, want a timeout", err)
	}
	if _, err := n.ExchangeDNS(ctx, addr("10.244.1.10"), true, "kubernetes", "A"); !errors.Is(err, shell.ErrRefused) {
		t.Errorf("H1 TCP to a pod not serving DNS: %v, want refused", err)
	}
	// A resolver beyond the cluster forwards: cluster names do not exist there.
	r, err := n.ExchangeDNS(ctx, netip.MustParseAddr("8.8.8.8"), false, "kubernetes.default.svc.cluster.local", "A")
	if err != nil || r.Rcode != shell.RcodeNXDomain {
		t.Errorf("8.8.8.8: %+v %v, want NXDOMAIN", r, err)
	}
}
