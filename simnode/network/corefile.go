package network

import (
	"net/netip"
	"path"
	"strings"

	"wink.dev/wink/simnode/shell"
)

// A CoreDNS pod that is not the cluster DNS (a test's own DNS server,
// upstream e2e network/dns.go "should support configurable pod
// resolv.conf": agnhost's /coredns with its Corefile from a ConfigMap) is a
// DNS server with the records of its Corefile, not a forwarder (issue 21,
// rows H1, H2). The plugins a Corefile names are run in CoreDNS's order
// (plugin.cfg): hosts, kubernetes, file, forward; the others (log, errors,
// cache, health, ready, reload, loop, loadbalance...) change nothing a
// client sees of the answer here.

// DNSServer is what a pod's CoreDNS serves: its Corefile and the files of
// its container (hosts files, zone files).
type DNSServer struct {
	Corefile string
	// ReadFile reads a file of the server's container; a relative path is
	// relative to its working directory "/".
	ReadFile func(path string) ([]byte, error)
}

// maxCorefile bounds what is read of a Corefile or of a file it names: a
// ConfigMap holds at most 1 MiB.
const maxCorefile = 1 << 20

// directive is one line of a server block: a plugin, its arguments and
// the lines of its own block.
type directive struct {
	name string
	args []string
	body [][]string
}

// serverBlock is a Corefile server block: its zones and directives.
type serverBlock struct {
	zones      []string
	directives []directive
}

// parseCorefile reads the server blocks of a Corefile (caddyfile syntax:
// `ZONE[:PORT]... {`, one directive a line, a directive's own `{ }` block,
// `#` comments). Blocks for another port than 53 are left out.
func parseCorefile(text string) []serverBlock {
	if len(text) > maxCorefile {
		text = text[:maxCorefile]
	}
	var blocks []serverBlock
	var cur *serverBlock
	var dir *directive
	for _, line := range strings.Split(text, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch {
		case cur == nil:
			open := f[len(f)-1] == "{"
			if open {
				f = f[:len(f)-1]
			}
			b := serverBlock{}
			for _, k := range f {
				if z, ok := zoneOf(k); ok {
					b.zones = append(b.zones, z)
				}
			}
			if open {
				blocks = append(blocks, b)
				cur = &blocks[len(blocks)-1]
			}
		case dir != nil:
			if f[0] == "}" {
				dir = nil
				continue
			}
			dir.body = append(dir.body, f)
		case f[0] == "}":
			cur = nil
		default:
			d := directive{name: f[0], args: f[1:]}
			open := len(d.args) > 0 && d.args[len(d.args)-1] == "{"
			if open {
				d.args = d.args[:len(d.args)-1]
			}
			cur.directives = append(cur.directives, d)
			if open {
				dir = &cur.directives[len(cur.directives)-1]
			}
		}
	}
	out := blocks[:0]
	for _, b := range blocks {
		if len(b.zones) > 0 {
			out = append(out, b)
		}
	}
	return out
}

// zoneOf is a server block key's zone ("." for "."; "example.org." for
// "dns://example.org:53"); false for another port.
func zoneOf(key string) (string, bool) {
	key = strings.TrimPrefix(key, "dns://")
	if h, port, ok := strings.Cut(key, ":"); ok {
		if port != "53" {
			return "", false
		}
		key = h
	}
	return fqdnOf(key), true
}

// inZone reports whether fqdn is zone or under it.
func inZone(fqdn, zone string) bool {
	return zone == "." || fqdn == zone || strings.HasSuffix(fqdn, "."+zone)
}

// zonesOr are a plugin's zones: its arguments read as zones, or the block's.
func zonesOr(args []string, block []string) []string {
	if len(args) == 0 {
		return block
	}
	var out []string
	for _, a := range args {
		if z, ok := zoneOf(a); ok {
			out = append(out, z)
		}
	}
	return out
}

func matchZones(fqdn string, zones []string) bool {
	for _, z := range zones {
		if inZone(fqdn, z) {
			return true
		}
	}
	return false
}

// fallsThrough is a `fallthrough [ZONES...]` line of a plugin's block for
// fqdn.
func fallsThrough(body [][]string, fqdn string) bool {
	for _, l := range body {
		if l[0] == "fallthrough" {
			return len(l) == 1 || matchZones(fqdn, zonesOr(l[1:], nil))
		}
	}
	return false
}

// corefileAnswer is the reply of the CoreDNS of srv to a question for
// name of type qtype.
func (s *snapshot) corefileAnswer(srv *DNSServer, name, qtype string) *shell.DNSReply {
	fqdn := fqdnOf(name)
	var block *serverBlock
	best := -1
	blocks := parseCorefile(srv.Corefile)
	for i := range blocks {
		for _, z := range blocks[i].zones {
			if inZone(fqdn, z) && len(z) > best {
				block, best = &blocks[i], len(z)
			}
		}
	}
	if block == nil {
		// No server block for the name's zone.
		return &shell.DNSReply{Rcode: shell.RcodeRefused}
	}
	byName := map[string]directive{}
	for _, d := range block.directives {
		if _, ok := byName[d.name]; !ok {
			byName[d.name] = d
		}
	}
	for _, plugin := range []string{"hosts", "kubernetes", "file", "forward"} {
		d, ok := byName[plugin]
		if !ok {
			continue
		}
		var reply *shell.DNSReply
		switch plugin {
		case "hosts":
			reply = s.hostsPlugin(srv, d, block.zones, fqdn, qtype)
		case "kubernetes":
			if matchZones(fqdn, zonesOr(d.args, block.zones)) {
				reply = s.clusterAnswer(fqdn, qtype)
				if reply.Rcode == shell.RcodeNXDomain && fallsThrough(d.body, fqdn) {
					reply = nil
				}
			}
		case "file":
			reply = filePlugin(srv, d, block.zones, fqdn, qtype)
		case "forward":
			if len(d.args) > 1 && inZone(fqdn, fqdnOf(d.args[0])) {
				reply = s.forwardAnswer(d.args[1:], fqdn, qtype)
			}
		}
		if reply != nil {
			return reply
		}
	}
	// The end of the plugin chain without an answer.
	return &shell.DNSReply{Rcode: shell.RcodeServFail}
}

// hostsPlugin answers from `hosts [FILE [ZONES...]] { IP NAME... }`: the
// inline entries and the file (default /etc/hosts); a name it does not have
// falls through, or is SERVFAIL (hosts has no SOA to say NXDOMAIN).
func (s *snapshot) hostsPlugin(srv *DNSServer, d directive, block []string, fqdn, qtype string) *shell.DNSReply {
	zones := block
	if len(d.args) > 1 {
		zones = zonesOr(d.args[1:], block)
	}
	if !matchZones(fqdn, zones) {
		return nil
	}
	entries := append([][]string(nil), d.body...)
	file := "/etc/hosts"
	if len(d.args) > 0 {
		file = d.args[0]
	}
	if data, err := readServerFile(srv, file); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if i := strings.IndexByte(line, '#'); i >= 0 {
				line = line[:i]
			}
			if f := strings.Fields(line); len(f) > 1 {
				entries = append(entries, f)
			}
		}
	}
	var addrs []netip.Addr
	for _, e := range entries {
		a, ok := parseAddr(e[0])
		if !ok {
			continue // fallthrough, ttl, reload, no_reverse: options
		}
		for _, n := range e[1:] {
			if fqdnOf(n) == fqdn {
				addrs = append(addrs, a)
			}
		}
	}
	if len(addrs) == 0 {
		if fallsThrough(d.body, fqdn) {
			return nil
		}
		return &shell.DNSReply{Rcode: shell.RcodeServFail}
	}
	return answerOf(fqdn, qtype, addrs, 3600, true)
}

// filePlugin answers from `file DBFILE [ZONES...]`: a zone file's A
// records, authoritative; NXDOMAIN for a name of the zone it does not have.
func filePlugin(srv *DNSServer, d directive, block []string, fqdn, qtype string) *shell.DNSReply {
	if len(d.args) == 0 {
		return nil
	}
	zones := zonesOr(d.args[1:], block)
	zone := ""
	for _, z := range zones {
		if inZone(fqdn, z) && len(z) > len(zone) {
			zone = z
		}
	}
	if zone == "" {
		return nil
	}
	data, err := readServerFile(srv, d.args[0])
	if err != nil {
		return &shell.DNSReply{Rcode: shell.RcodeServFail}
	}
	origin, owner := zone, zone
	var addrs []netip.Addr
	exists := false
	for _, line := range strings.Split(string(data), "\n") {
		if i := strings.IndexByte(line, ';'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if f[0] == "$ORIGIN" && len(f) > 1 {
			origin = absName(f[1], origin)
			continue
		}
		if !startsBlank(line) {
			owner = absName(f[0], origin)
			f = f[1:]
		}
		// [TTL] [CLASS] TYPE DATA, TTL and class in either order.
		for len(f) > 0 && (isNumber(f[0]) || strings.EqualFold(f[0], "IN")) {
			f = f[1:]
		}
		if owner == fqdn {
			exists = true
			if len(f) > 1 && strings.EqualFold(f[0], "A") {
				if a, ok := parseAddr(f[1]); ok {
					addrs = append(addrs, a)
				}
			}
		}
	}
	if !exists {
		return &shell.DNSReply{Rcode: shell.RcodeNXDomain, Authoritative: true}
	}
	return answerOf(fqdn, qtype, addrs, 3600, true)
}

// forwardAnswer is `forward . TO...`: the cluster DNS answers what is
// sent to it, any other resolver as the internet's.
func (s *snapshot) forwardAnswer(to []string, fqdn, qtype string) *shell.DNSReply {
	for _, t := range to {
		host, _, _ := strings.Cut(strings.TrimPrefix(t, "dns://"), ":")
		if a, ok := parseAddr(host); ok && s.isClusterDNSAddr(a) {
			return s.clusterAnswer(fqdn, qtype)
		}
	}
	return s.upstreamAnswer(fqdn, qtype)
}

// isClusterDNSAddr reports whether a is the cluster DNS Service's address.
func (s *snapshot) isClusterDNSAddr(a netip.Addr) bool {
	for _, c := range s.opts.ClusterDNS {
		if c == a {
			return true
		}
	}
	if svc := s.svcByKey["kube-system/kube-dns"]; svc != nil {
		for _, c := range clusterIPs(svc) {
			if c == a {
				return true
			}
		}
	}
	return false
}

func answerOf(fqdn, qtype string, addrs []netip.Addr, ttl int, authoritative bool) *shell.DNSReply {
	reply := &shell.DNSReply{Rcode: shell.RcodeNoError, Authoritative: authoritative}
	if qtype != "A" && qtype != "ANY" {
		return reply
	}
	for _, a := range addrs {
		if a.Is4() {
			reply.Answer = append(reply.Answer, shell.DNSRecord{Name: fqdn, TTL: ttl, Type: "A", Data: a.String()})
		}
	}
	return reply
}

func readServerFile(srv *DNSServer, p string) ([]byte, error) {
	if srv.ReadFile == nil {
		return nil, errNoFile
	}
	if !path.IsAbs(p) {
		p = "/" + p
	}
	data, err := srv.ReadFile(p)
	if len(data) > maxCorefile {
		data = data[:maxCorefile]
	}
	return data, err
}

type corefileError string

func (e corefileError) Error() string { return string(e) }

const errNoFile = corefileError("no such file")

func absName(n, origin string) string {
	switch {
	case n == "@":
		return origin
	case strings.HasSuffix(n, "."):
		return strings.ToLower(n)
	case origin == ".":
		return strings.ToLower(n) + "."
	}
	return strings.ToLower(n) + "." + origin
}

func startsBlank(line string) bool {
	return line != "" && (line[0] == ' ' || line[0] == '\t')
}

func isNumber(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
