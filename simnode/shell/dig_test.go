package shell

import (
	"context"
	"net/netip"
	"strings"
	"testing"
)

// dnsNet is fakeNet with a DNS server table (process.DNSClient): name and
// type → reply; a name it does not know is NXDOMAIN; a server other than
// the cluster DNS does not answer.
type dnsNet struct {
	*fakeNet
	records map[string][]DNSRecord // "name. TYPE"
	asked   []string
}

func (n *dnsNet) ExchangeDNS(ctx context.Context, server netip.Addr, tcp bool, name, qtype string) (*DNSReply, error) {
	proto := "udp"
	if tcp {
		proto = "tcp"
	}
	n.asked = append(n.asked, proto+" "+server.String()+" "+name+" "+qtype)
	if server != kubeDNS {
		if tcp {
			return nil, ErrRefused
		}
		return nil, ErrTimeout
	}
	name = strings.ToLower(strings.TrimSuffix(name, ".")) + "."
	if rs, ok := n.records[name+" "+qtype]; ok {
		return &DNSReply{Rcode: RcodeNoError, Authoritative: true, Answer: rs}, nil
	}
	for k := range n.records {
		if strings.HasPrefix(k, name+" ") {
			return &DNSReply{Rcode: RcodeNoError, Authoritative: true}, nil
		}
	}
	return &DNSReply{Rcode: RcodeNXDomain, Authoritative: true}, nil
}

func withDNS(f *fixture) *dnsNet {
	n := &dnsNet{fakeNet: f.net, records: map[string][]DNSRecord{
		"kubernetes.default.svc.cluster.local. A": {{Name: "kubernetes.default.svc.cluster.local.", TTL: 30, Type: "A", Data: "10.96.0.1"}},
		"_http._tcp.web.default.svc.cluster.local. SRV": {{Name: "_http._tcp.web.default.svc.cluster.local.", TTL: 30, Type: "SRV",
			Data: "0 100 80 web.default.svc.cluster.local."}},
		"ext.default.svc.cluster.local. CNAME": {{Name: "ext.default.svc.cluster.local.", TTL: 30, Type: "CNAME", Data: "foo.example.com."}},
		"20.0.96.10.in-addr.arpa. PTR":         {{Name: "20.0.96.10.in-addr.arpa.", TTL: 30, Type: "PTR", Data: "web.default.svc.cluster.local."}},
		"example.com. A":                       {{Name: "example.com.", TTL: 30, Type: "A", Data: "93.184.216.34"}},
	}}
	f.env.Net = n
	return n
}

// TestDig covers dig as the e2e images ship it (BIND 9.14.10 on Windows):
// the forms upstream's DNS specs run (dns_common.go createProbeCommand,
// createTargetedProbeCommand), dig's column layout, +search with the
// Windows pod's single suffix (row H2) and unreachable servers (H1).
func TestDig(t *testing.T) {
	runCases(t, []tcase{
		{name: "noall answer (createProbeCommand)", argv: []string{"dig", "+notcp", "+noall", "+answer", "+search", "kubernetes.default.svc.cluster.local", "A"},
			setup: func(f *fixture) { withDNS(f) },
			out:   "kubernetes.default.svc.cluster.local. 30 IN A\t10.96.0.1\r\n"},
		{name: "SRV over tcp", argv: []string{"dig", "+tcp", "+noall", "+answer", "+search", "_http._tcp.web.default.svc.cluster.local", "SRV"},
			setup: func(f *fixture) { withDNS(f) },
			out:   "_http._tcp.web.default.svc.cluster.local. 30 IN\tSRV 0 100 80 web.default.svc.cluster.local.\r\n",
			check: func(t *testing.T, f *fixture, r result) {
				if got := f.env.Net.(*dnsNet).asked; len(got) != 1 || got[0] != "tcp 10.96.0.10 _http._tcp.web.default.svc.cluster.local. SRV" {
					t.Errorf("asked %q", got)
				}
			}},
		{name: "short CNAME (createTargetedProbeCommand)", argv: []string{"dig", "+short", "ext.default.svc.cluster.local", "CNAME"},
			setup: func(f *fixture) { withDNS(f) }, out: "foo.example.com.\r\n"},
		{name: "PTR of a ClusterIP", argv: []string{"dig", "+noall", "+answer", "+search", "20.0.96.10.in-addr.arpa.", "PTR"},
			setup: func(f *fixture) { withDNS(f) }, out: "20.0.96.10.in-addr.arpa. 30\tIN\tPTR\tweb.default.svc.cluster.local.\r\n"},
		{name: "-x", argv: []string{"dig", "+short", "-x", "10.96.0.20"},
			setup: func(f *fixture) { withDNS(f) }, out: "web.default.svc.cluster.local.\r\n"},
		{name: "short name column", argv: []string{"dig", "+noall", "+answer", "example.com"},
			setup: func(f *fixture) { withDNS(f) }, out: "example.com.\t\t30\tIN\tA\t93.184.216.34\r\n"},
		{name: "nxdomain prints no answer", argv: []string{"dig", "+noall", "+answer", "+search", "nope.default.svc.cluster.local", "A"},
			setup: func(f *fixture) { withDNS(f) }, out: "-"},
		{name: "search: the single suffix (H2)", argv: []string{"dig", "+short", "+search", "kubernetes"},
			setup: func(f *fixture) {
				withDNS(f).records["kubernetes.default.svc.cluster.local. A"] = []DNSRecord{{Name: "kubernetes.default.svc.cluster.local.", TTL: 30, Type: "A", Data: "10.96.0.1"}}
			},
			out: "10.96.0.1\r\n",
			check: func(t *testing.T, f *fixture, r result) {
				want := []string{"udp 10.96.0.10 kubernetes.default.svc.cluster.local. A"}
				if got := f.env.Net.(*dnsNet).asked; strings.Join(got, "|") != strings.Join(want, "|") {
					t.Errorf("asked %q, want %q", got, want)
				}
			}},
		{name: "search: a dotted name as is first, then the suffix (H2: PQDN fails)", argv: []string{"dig", "+short", "+search", "kubernetes.default"},
			setup: func(f *fixture) { withDNS(f) }, out: "-",
			check: func(t *testing.T, f *fixture, r result) {
				want := []string{"udp 10.96.0.10 kubernetes.default. A", "udp 10.96.0.10 kubernetes.default.default.svc.cluster.local. A"}
				if got := f.env.Net.(*dnsNet).asked; strings.Join(got, "|") != strings.Join(want, "|") {
					t.Errorf("asked %q, want %q", got, want)
				}
			}},
		{name: "nosearch asks the name as is", argv: []string{"dig", "+short", "kubernetes"},
			setup: func(f *fixture) { withDNS(f) }, out: "-",
			check: func(t *testing.T, f *fixture, r result) {
				if got := f.env.Net.(*dnsNet).asked; len(got) != 1 || got[0] != "udp 10.96.0.10 kubernetes. A" {
					t.Errorf("asked %q", got)
				}
			}},
		{name: "full output", argv: []string{"dig", "kubernetes.default.svc.cluster.local"},
			setup: func(f *fixture) { withDNS(f) },
			outHas: []string{"\r\n; <<>> DiG 9.14.10 <<>> kubernetes.default.svc.cluster.local\r\n;; global options: +cmd\r\n;; Got answer:\r\n",
				";; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: ",
				";; flags: qr aa rd; QUERY: 1, ANSWER: 1, AUTHORITY: 0, ADDITIONAL: 1\r\n;; WARNING: recursion requested but not available\r\n",
				";; QUESTION SECTION:\r\n;kubernetes.default.svc.cluster.local. IN A\r\n\r\n",
				";; ANSWER SECTION:\r\nkubernetes.default.svc.cluster.local. 30 IN A\t10.96.0.1\r\n\r\n",
				";; SERVER: 10.96.0.10#53(10.96.0.10)\r\n", ";; WHEN: Tue Apr 23 10:00:00 UTC 2024\r\n"}},
		{name: "server that does not answer", argv: []string{"dig", "@8.8.8.8", "+noall", "+answer", "example.com"},
			setup: func(f *fixture) { withDNS(f) }, out: ";; connection timed out; no servers could be reached\r\n", code: 9},
		{name: "tcp refused", argv: []string{"dig", "@8.8.8.8", "+tcp", "+short", "example.com"},
			setup: func(f *fixture) { withDNS(f) }, out: ";; Connection to 8.8.8.8#53(8.8.8.8) for example.com failed: connection refused.\r\n", code: 9},
		{name: "linux dig", os: Linux, argv: []string{"dig", "+noall", "+answer", "kubernetes.default.svc.cluster.local"},
			setup: func(f *fixture) { withDNS(f) }, out: "kubernetes.default.svc.cluster.local. 30 IN A\t10.96.0.1\n"},
		{name: "linux search uses ndots and the search list", os: Linux, argv: []string{"dig", "+short", "+search", "kubernetes.default"},
			setup: func(f *fixture) {
				withDNS(f).records["kubernetes.default.svc.cluster.local. A"] = []DNSRecord{{Name: "kubernetes.default.svc.cluster.local.", TTL: 30, Type: "A", Data: "10.96.0.1"}}
			},
			out: "10.96.0.1\n",
			check: func(t *testing.T, f *fixture, r result) {
				want := []string{"udp 10.96.0.10 kubernetes.default.default.svc.cluster.local. A", "udp 10.96.0.10 kubernetes.default.svc.cluster.local. A"}
				if got := f.env.Net.(*dnsNet).asked; strings.Join(got, "|") != strings.Join(want, "|") {
					t.Errorf("asked %q, want %q", got, want)
				}
			}},
		{name: "no DNS client: no server answers", argv: []string{"dig", "+short", "example.com"}, out: ";; connection timed out; no servers could be reached\r\n", code: 9},
	})
}

// TestDNSProbeScripts runs upstream's DNS probe loops (dns_common.go
// createProbeCommand, v1.35.4, after the kubelet's $$ expansion) in the
// Windows busybox sh: seq, dig, test, grep of the hosts file, results
// written to the volume.
func TestDNSProbeScripts(t *testing.T) {
	const hosts = "# Kubernetes-managed hosts file.\r\n127.0.0.1\tlocalhost\r\n10.244.1.5\tdns-querier-1.dns-test-service.default.svc.cluster.local\tdns-querier-1\r\n"
	script := "for i in `seq 1 600`; do " +
		`check="$(dig +notcp +noall +answer +search kubernetes.default.svc.cluster.local A)" && test -n "$check" && echo OK > /results/agnhost_udp@kubernetes.default.svc.cluster.local;` +
		`check="$(dig +tcp +noall +answer +search _http._tcp.web.default.svc.cluster.local SRV)" && test -n "$check" && echo OK > /results/agnhost_tcp@_http._tcp.web.default.svc.cluster.local;` +
		`check="$(dig +tcp +noall +answer +search nope.default.svc.cluster.local A)" && test -n "$check" && echo OK > /results/agnhost_tcp@nope;` +
		`test -n "$(grep 'dns-querier-1.dns-test-service.default.svc.cluster.local' C:/Windows/System32/drivers/etc/hosts)" && echo OK > /results/agnhost_hosts@dns-querier-1.dns-test-service.default.svc.cluster.local;` +
		`test -n "$(grep 'dns-querier-2' C:/Windows/System32/drivers/etc/hosts)" && echo OK > /results/agnhost_hosts@dns-querier-2;` +
		"sleep 1; done"
	targeted := "for i in `seq 1 30`; do dig +short ext.default.svc.cluster.local CNAME > /results/agnhost_udp@ext.default.svc.cluster.local; sleep 1; done"
	runCases(t, []tcase{
		{name: "probe loop", argv: []string{"sh", "-c", script}, setup: func(f *fixture) {
			withDNS(f)
			f.fs.mkdir(`C:\results`)
			f.fs.add(`C:\Windows\System32\drivers\etc\hosts`, hosts)
		}, code: 0, check: func(t *testing.T, f *fixture, r result) {
			for file, want := range map[string]bool{
				"agnhost_udp@kubernetes.default.svc.cluster.local":                       true,
				"agnhost_tcp@_http._tcp.web.default.svc.cluster.local":                   true,
				"agnhost_hosts@dns-querier-1.dns-test-service.default.svc.cluster.local": true,
				"agnhost_tcp@nope":            false,
				"agnhost_hosts@dns-querier-2": false,
			} {
				got, ok := f.fs.get(`C:\results\` + file)
				if ok != want || (ok && strings.TrimSpace(got) != "OK") {
					t.Errorf("%s: %q %v, want present %v", file, got, ok, want)
				}
			}
			if f.clock.slept < 600e9 {
				t.Errorf("slept %v, want the 600 iterations' seconds", f.clock.slept)
			}
		}},
		{name: "targeted probe", argv: []string{"sh", "-c", targeted}, setup: func(f *fixture) {
			withDNS(f)
			f.fs.mkdir(`C:\results`)
		}, check: func(t *testing.T, f *fixture, r result) {
			if got, _ := f.fs.get(`C:\results\agnhost_udp@ext.default.svc.cluster.local`); strings.TrimSpace(got) != "foo.example.com." {
				t.Errorf("result file %q", got)
			}
		}},
	})
}

// TestTextTools covers seq, grep and getent as busybox and glibc print
// them.
func TestTextTools(t *testing.T) {
	hostsLinux := "# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n10.244.1.5\tweb-0.web.default.svc.cluster.local\tweb-0\n"
	runCases(t, []tcase{
		{name: "seq", argv: []string{"seq", "3"}, out: "1\n2\n3\n"},
		{name: "seq first last", argv: []string{"seq", "9", "11"}, out: "9\n10\n11\n"},
		{name: "seq inc -w", argv: []string{"seq", "-w", "1", "4", "9"}, out: "1\n5\n9\n"},
		{name: "seq -w pads", argv: []string{"seq", "-w", "8", "10"}, out: "08\n09\n10\n"},
		{name: "seq -s", argv: []string{"seq", "-s", ",", "3"}, out: "1,2,3\n"},
		{name: "seq empty range", argv: []string{"seq", "3", "1"}, out: "-"},
		{name: "seq bad number", argv: []string{"seq", "x"}, errOut: "seq: invalid number 'x'\r\n", code: 1},
		{name: "grep match", argv: []string{"grep", "b.r", `C:\data\f.txt`}, setup: func(f *fixture) { f.fs.add(`C:\data\f.txt`, "foo\nbar\nbaz\n") }, out: "bar\n"},
		{name: "grep no match", argv: []string{"grep", "qux", `C:\data\f.txt`}, setup: func(f *fixture) { f.fs.add(`C:\data\f.txt`, "foo\n") }, out: "-", code: 1},
		{name: "grep -c -i", argv: []string{"grep", "-ci", "BA", `C:\data\f.txt`}, setup: func(f *fixture) { f.fs.add(`C:\data\f.txt`, "foo\nbar\nbaz\n") }, out: "2\n"},
		{name: "grep -v -n", argv: []string{"grep", "-vn", "ba", `C:\data\f.txt`}, setup: func(f *fixture) { f.fs.add(`C:\data\f.txt`, "foo\nbar\nbaz\n") }, out: "1:foo\n"},
		{name: "grep BRE literal +", argv: []string{"grep", "a+b", `C:\data\f.txt`}, setup: func(f *fixture) { f.fs.add(`C:\data\f.txt`, "aab\na+b\n") }, out: "a+b\n"},
		{name: "grep -E +", argv: []string{"grep", "-E", "a+b", `C:\data\f.txt`}, setup: func(f *fixture) { f.fs.add(`C:\data\f.txt`, "aab\nb\n") }, out: "aab\n"},
		{name: "grep stdin -q", argv: []string{"grep", "-q", "x"}, stdin: "axb\n", out: "-"},
		{name: "grep missing file", argv: []string{"grep", "x", `C:\nope`}, errOut: "grep: C:\\nope: No such file or directory\r\n", code: 2},
		{name: "getent from the hosts file", os: Linux, argv: []string{"getent", "hosts", "web-0"}, setup: func(f *fixture) { f.fs.add("/etc/hosts", hostsLinux) },
			out: "10.244.1.5      web-0.web.default.svc.cluster.local web-0\n"},
		{name: "getent from DNS", os: Linux, argv: []string{"getent", "hosts", "kubernetes"}, setup: func(f *fixture) { f.fs.add("/etc/hosts", hostsLinux) },
			out: "10.96.0.1       kubernetes.default.svc.cluster.local\n"},
		{name: "getent not found", os: Linux, argv: []string{"getent", "hosts", "nope"}, setup: func(f *fixture) { f.fs.add("/etc/hosts", hostsLinux) }, out: "-", code: 2},
	})
}
