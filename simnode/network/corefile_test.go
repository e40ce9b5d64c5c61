package network_test

import (
	"io/fs"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/network"
	"wink.dev/wink/simnode/shell"
)

// TestPodCoreDNS (issue 21, H1, H2): a CoreDNS pod a test starts answers
// from its Corefile, not as a forwarder: hosts entries (upstream e2e
// network/dns.go "should support configurable pod resolv.conf": SERVFAIL
// for a name hosts lacks), a zone file, forward, fallthrough to the
// cluster's kubernetes plugin; the pod's resolver (Resolve) gets the same.
func TestPodCoreDNS(t *testing.T) {
	// The fixture's pod UIDs count up across tests, and TestPing's
	// addresses depend on them (h7Address): leave the count as it was.
	saved := uid
	t.Cleanup(func() { uid = saved })
	c := newCluster()
	dnsPod := c.addPod(pod("e2e", "e2e-configmap-dns-server", win0, "10.244.1.53", c.nodes, ports(53)))
	files := map[string]string{
		// generateCoreDNSConfigmap's Corefile, a second block with a
		// zone file and forward, and one for another port.
		"/etc/coredns/Corefile": ". {\n\thosts {\n\t\t1.1.1.1 notexistname.resolv.conf.local\n\t}\n\tlog\n}\n" +
			"example.org:53 {\n  file /etc/coredns/db.example.org\n}\n" +
			"fwd.test {\n  hosts {\n    10.0.0.9 nine.fwd.test\n    fallthrough\n  }\n  forward . 8.8.8.8\n}\n" +
			"cluster.local {\n  kubernetes cluster.local\n}\n" +
			".:5353 {\n  hosts {\n    9.9.9.9 other.port\n  }\n}\n",
		"/etc/coredns/db.example.org": "$ORIGIN example.org.\n@ 3600 IN SOA ns.example.org. admin.example.org. 1 7200 3600 1209600 3600\nwww IN A 192.0.2.10\n     IN A 192.0.2.11\nmail 300 A 192.0.2.25 ; a comment\n",
	}
	m := c.model(func(o *network.Options) {
		o.DNSServer = func(p *corev1.Pod) *network.DNSServer {
			if p.Name != dnsPod.Name {
				return nil
			}
			return &network.DNSServer{Corefile: files["/etc/coredns/Corefile"], ReadFile: func(path string) ([]byte, error) {
				if d, ok := files[path]; ok {
					return []byte(d), nil
				}
				return nil, fs.ErrNotExist
			}}
		}
	})
	show := func(r *shell.DNSReply) string {
		var recs []string
		for _, rr := range r.Answer {
			recs = append(recs, rr.Type+" "+rr.Data)
		}
		return r.Rcode + ": " + strings.Join(recs, "; ")
	}
	n := c.from(m, "win-client").(shell.DNSClient)
	for _, tc := range []struct{ name, want string }{
		{"notexistname.resolv.conf.local", "NOERROR: A 1.1.1.1"},
		{"NotExistName.resolv.conf.local.", "NOERROR: A 1.1.1.1"},
		{"notexistname", "SERVFAIL: "}, // hosts has it not, no fallthrough
		{"www.bing.com", "SERVFAIL: "}, // no forward in that block
		{"www.example.org", "NOERROR: A 192.0.2.10; A 192.0.2.11"},
		{"mail.example.org", "NOERROR: A 192.0.2.25"},
		{"nope.example.org", "NXDOMAIN: "},
		{"nine.fwd.test", "NOERROR: A 10.0.0.9"},
		{"other.fwd.test", "NXDOMAIN: "}, // forwarded: .test is no public TLD
		{"kubernetes.default.svc.cluster.local", "NOERROR: A 10.96.0.1"},
		{"other.port", "SERVFAIL: "},
	} {
		r, err := n.ExchangeDNS(ctx, addr("10.244.1.53"), false, tc.name, "A")
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := show(r); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	// A pod whose resolv.conf names the server (dnsPolicy None): its
	// resolver searches resolv.conf.local and gets the injected record.
	client := pod("e2e", "e2e-dns-utils", win0, "10.244.1.54", c.nodes)
	two := "2"
	client.Spec.DNSPolicy = corev1.DNSNone
	client.Spec.DNSConfig = &corev1.PodDNSConfig{Nameservers: []string{"10.244.1.53"}, Searches: []string{"resolv.conf.local"}, Options: []corev1.PodDNSConfigOption{{Name: "ndots", Value: &two}}}
	c.addPod(client)
	addrs, err := m.From(client).Resolve(ctx, "notexistname")
	if err != nil || len(addrs) != 1 || addrs[0].String() != "1.1.1.1" {
		t.Errorf("Resolve(notexistname) from a pod using the server: %v %v", addrs, err)
	}
}
