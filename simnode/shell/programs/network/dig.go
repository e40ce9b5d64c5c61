package network

import (
	"errors"
	"fmt"
	"hash/fnv"
	"net/netip"
	"strings"
	"time"

	"wink.dev/wink/simnode/shell/process"
)

// This file is dig, ISC BIND's DNS lookup utility, as the e2e images ship
// it: the Windows builds of agnhost and jessie-dnsutils (busybox base,
// test/images/busybox/Dockerfile_windows: BIND 9.14.10's dig.exe in C:\dig)
// and the Linux agnhost (alpine bind-tools). Upstream's DNS conformance
// specs run it in loops (test/e2e/network/dns_common.go createProbeCommand:
// `dig +notcp +noall +answer +search NAME A`, `+tcp`, SRV and PTR forms;
// createTargetedProbeCommand: `dig +short NAME CNAME`). The questions go
// through the container's network path to its DNS servers (rows H1, H2,
// every kubelet version: the image's program does not depend on the
// node's): the answers are the cluster DNS's records (simnode/network
// dnsmsg.go).

// digVersion is the BIND release of each OS's dig: Windows 9.14.10
// (Dockerfile_windows's BIND9.14.10.x64.zip); Linux: agnhost's alpine 3.21
// bind-tools are the 9.18 series (the patch level here is not checked
// against the image). Only dig's first output line shows it.
var digVersion = map[bool]string{true: "9.14.10", false: "9.18.41"}

// digTypes are the record types dig takes as the type operand.
var digTypes = map[string]bool{"A": true, "AAAA": true, "CNAME": true, "SRV": true, "PTR": true, "MX": true,
	"TXT": true, "NS": true, "SOA": true, "ANY": true, "CAA": true}

// digOpts are dig's command line.
type digOpts struct {
	server                 string
	name, qtype            string
	tcp, search, short     bool
	cmd, comments, stats   bool
	question, answer, auth bool
}

// reverseName is the in-addr.arpa name of an IPv4 address (dig -x).
func reverseName(a netip.Addr) string {
	b := a.As4()
	return fmt.Sprintf("%d.%d.%d.%d.in-addr.arpa.", b[3], b[2], b[1], b[0])
}

func parseDig(argv []string) (*digOpts, string) {
	o := &digOpts{cmd: true, comments: true, stats: true, question: true, answer: true, auth: true}
	setAll := func(v bool) {
		o.cmd, o.comments, o.stats, o.question, o.answer, o.auth = v, v, v, v, v, v
	}
	var operands []string
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case strings.HasPrefix(a, "@"):
			o.server = a[1:]
		case strings.HasPrefix(a, "+"):
			opt, on := strings.ToLower(a[1:]), true
			if strings.HasPrefix(opt, "no") {
				opt, on = opt[2:], false
			}
			opt, _, _ = strings.Cut(opt, "=")
			switch opt {
			case "tcp", "vc":
				o.tcp = on
			case "search":
				o.search = on
			case "short":
				o.short = on
			case "all":
				setAll(on)
			case "cmd":
				o.cmd = on
			case "comments":
				o.comments = on
			case "stats":
				o.stats = on
			case "question":
				o.question = on
			case "answer":
				o.answer = on
			case "authority", "additional":
				o.auth = on
			}
			// Other options (+time, +tries, +retry, +dnssec ...) change
			// nothing the simulated server answers.
		case a == "-x" && i+1 < len(argv):
			i++
			ip, err := netip.ParseAddr(argv[i])
			if err != nil || !ip.Is4() {
				return nil, fmt.Sprintf("Invalid IP address %s", argv[i])
			}
			o.name, o.qtype = reverseName(ip), "PTR"
		case (a == "-t" || a == "-q" || a == "-p" || a == "-c" || a == "-b" || a == "-f" || a == "-k" || a == "-y") && i+1 < len(argv):
			i++
			switch a {
			case "-t":
				o.qtype = strings.ToUpper(argv[i])
			case "-q":
				o.name = argv[i]
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			// -4, -6, -m, -u, -v ...: no effect on the answer.
		default:
			operands = append(operands, a)
		}
	}
	for _, op := range operands {
		switch u := strings.ToUpper(op); {
		case o.name == "":
			o.name = op
		case digTypes[u] && (o.qtype == "" || o.qtype == "A"):
			o.qtype = u
		case u == "IN":
		default:
			// A second name starts a second lookup; one is what the
			// e2e probes use.
		}
	}
	if o.qtype == "" {
		o.qtype = "A"
	}
	return o, ""
}

// digCandidates are the names dig asks, in order (BIND dighost.c
// setup_lookup/next_origin): an absolute name as is; with +search, the
// name as is first when it has at least ndots dots, then each search
// domain, then as is if not yet asked; without +search the name as is.
func digCandidates(name string, search bool, suffixes []string, ndots int) []string {
	if strings.HasSuffix(name, ".") {
		return []string{name}
	}
	if !search || len(suffixes) == 0 {
		return []string{name + "."}
	}
	var out []string
	asIs := strings.Count(name, ".") >= ndots
	if asIs {
		out = append(out, name+".")
	}
	for _, s := range suffixes {
		s = strings.Trim(s, ".")
		if s == "" {
			continue
		}
		out = append(out, name+"."+s+".")
	}
	if !asIs {
		out = append(out, name+".")
	}
	return out
}

// Dig is dig: one lookup of -t/type for a name (or -x ADDR), to @server or
// the container's DNS servers, printed as dig prints it; exit 0 on any
// reply, 9 when no server answered.
func Dig(p *process.Proc, argv []string) int {
	o, bad := parseDig(argv)
	if bad != "" {
		p.Eprintln(bad)
		return 1
	}
	if o.name == "" {
		o.name, o.qtype = ".", "NS"
	}
	if o.short {
		o.cmd, o.comments, o.stats, o.question, o.auth = false, false, false, false, false
		o.answer = true
	}
	if o.cmd {
		p.Println("")
		p.Println(fmt.Sprintf("; <<>> DiG %s <<>> %s", digVersion[p.Win], strings.Join(argv[1:], " ")))
		p.Println(";; global options: +cmd")
	}
	var servers []netip.Addr
	if o.server != "" {
		addrs, err := p.Resolve(o.server)
		if err != nil || len(addrs) == 0 {
			p.Eprintln(fmt.Sprintf("dig: couldn't get address for '%s': not found", o.server))
			return 10
		}
		servers = addrs[:1]
	} else {
		servers = p.Env.Interfaces.DNSServers
	}
	if len(servers) == 0 {
		servers = []netip.Addr{netip.MustParseAddr("127.0.0.1")} // BIND's default
	}
	client, _ := p.Net().(process.DNSClient)
	ndots := p.Env.Interfaces.Ndots
	if p.Win {
		ndots = 1 // no resolv.conf on Windows: BIND's default
	}
	var reply *process.DNSReply
	var server netip.Addr
	var qname string
	var lastErr error
	for _, c := range digCandidates(o.name, o.search, p.Env.Interfaces.DNSSuffixes, ndots) {
		reply, lastErr = nil, process.ErrTimeout
		for _, srv := range servers {
			if client == nil {
				break
			}
			r, err := client.ExchangeDNS(p.Ctx, srv, o.tcp, c, o.qtype)
			if p.Done() {
				return p.Killed()
			}
			if err != nil {
				lastErr = err
				continue
			}
			reply, server, qname = r, srv, c
			break
		}
		if reply == nil || reply.Rcode != process.RcodeNXDomain {
			break
		}
	}
	if reply == nil {
		if o.tcp && errors.Is(lastErr, process.ErrRefused) {
			p.Println(fmt.Sprintf(";; Connection to %s#53(%s) for %s failed: connection refused.", servers[len(servers)-1], servers[len(servers)-1], o.name))
		} else {
			// The UDP default waits 5 s per try, 3 tries (+time, +tries).
			if !p.Sleep(digWait(o.tcp)) {
				return p.Killed()
			}
			p.Println(";; connection timed out; no servers could be reached")
		}
		return 9
	}
	printDigReply(p, o, reply, server, qname)
	return 0
}

func digWait(tcp bool) time.Duration {
	if tcp {
		return 5 * time.Second
	}
	return 15 * time.Second
}

// digColumns are dig's presentation columns (dig.c printmessage: ttl 24,
// class 32, type 40, rdata 48, tab width 8).
const digTTLCol, digClassCol, digTypeCol, digRdataCol = 24, 32, 40, 48

// digIndent pads from column cur to column to as BIND's masterdump.c
// indent() does: tabs to the tab stop, then spaces; at least one blank.
func digIndent(b *strings.Builder, cur, to int) int {
	if to < cur+1 {
		to = cur + 1
	}
	tabs := to/8 - cur/8
	if tabs > 0 {
		b.WriteString(strings.Repeat("\t", tabs))
		cur = to / 8 * 8
	}
	b.WriteString(strings.Repeat(" ", to-cur))
	return to
}

// digRecord is one record line in dig's format.
func digRecord(r process.DNSRecord) string {
	var b strings.Builder
	b.WriteString(r.Name)
	col := len(r.Name)
	col = digIndent(&b, col, digTTLCol)
	ttl := fmt.Sprint(r.TTL)
	b.WriteString(ttl)
	col += len(ttl)
	col = digIndent(&b, col, digClassCol)
	b.WriteString("IN")
	col += 2
	col = digIndent(&b, col, digTypeCol)
	b.WriteString(r.Type)
	col += len(r.Type)
	digIndent(&b, col, digRdataCol)
	b.WriteString(r.Data)
	return b.String()
}

// digQuestion is the question line: ";name. IN TYPE".
func digQuestion(name, qtype string) string {
	var b strings.Builder
	b.WriteString(";" + name)
	col := len(name) + 1
	col = digIndent(&b, col, digClassCol)
	b.WriteString("IN")
	col += 2
	digIndent(&b, col, digTypeCol)
	b.WriteString(qtype)
	return b.String()
}

// wireLen is a name's length in a DNS message (no compression).
func wireLen(name string) int { return len(strings.TrimSuffix(name, ".")) + 2 }

func printDigReply(p *process.Proc, o *digOpts, r *process.DNSReply, server netip.Addr, qname string) {
	if o.short {
		for _, rr := range r.Answer {
			p.Println(rr.Data)
		}
		return
	}
	size := 12 + wireLen(qname) + 4 + 11 // header, question, OPT
	for _, rr := range r.Answer {
		size += 2 + 10
		switch rr.Type {
		case "A":
			size += 4
		case "SRV":
			f := strings.Fields(rr.Data)
			size += 6 + wireLen(f[len(f)-1])
		default:
			size += wireLen(rr.Data)
		}
	}
	if o.comments {
		flags := "qr rd ra"
		if r.Authoritative {
			flags = "qr aa rd"
		}
		p.Println(";; Got answer:")
		p.Println(fmt.Sprintf(";; ->>HEADER<<- opcode: QUERY, status: %s, id: %d", r.Rcode, digID(qname+p.Now().String())))
		p.Println(fmt.Sprintf(";; flags: %s; QUERY: 1, ANSWER: %d, AUTHORITY: 0, ADDITIONAL: 1", flags, len(r.Answer)))
		if r.Authoritative {
			p.Println(";; WARNING: recursion requested but not available")
		}
		p.Println("")
		p.Println(";; OPT PSEUDOSECTION:")
		p.Println("; EDNS: version: 0, flags:; udp: 4096")
	}
	if o.question {
		if o.comments {
			p.Println(";; QUESTION SECTION:")
		}
		p.Println(digQuestion(qname, o.qtype))
		if o.comments {
			p.Println("")
		}
	}
	if o.answer && len(r.Answer) > 0 {
		if o.comments {
			p.Println(";; ANSWER SECTION:")
		}
		for _, rr := range r.Answer {
			p.Println(digRecord(rr))
		}
		if o.comments {
			p.Println("")
		}
	}
	if o.stats {
		proto := "UDP"
		if o.tcp {
			proto = "TCP"
		}
		p.Println(";; Query time: 0 msec")
		if p.Win {
			p.Println(fmt.Sprintf(";; SERVER: %s#53(%s)", server, server))
		} else {
			p.Println(fmt.Sprintf(";; SERVER: %s#53(%s) (%s)", server, server, proto))
		}
		p.Println(";; WHEN: " + p.Now().Format("Mon Jan 02 15:04:05 MST 2006"))
		p.Println(fmt.Sprintf(";; MSG SIZE  rcvd: %d", size))
		p.Println("")
	}
}

// digID is the message ID: random to dig, stable here.
func digID(s string) int {
	h := fnv.New32a()
	h.Write([]byte(s))
	return int(h.Sum32() % 65536)
}
