package shell

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/netip"
	"sort"
	"strconv"
	"strings"
	"time"
)

// This file is the network tools: ipconfig, ping, curl, nslookup, nltest
// (Windows) and ping, nslookup, wget, nc (Linux). Every effect goes through
// env.Net (rows H1–H6); none opens a socket.

// noNet is the network of a container without one: nothing resolves or
// answers.
type noNet struct{}

func (noNet) Resolve(context.Context, string) ([]netip.Addr, error) { return nil, ErrNameNotFound }
func (noNet) Dial(context.Context, string, netip.Addr, int) error   { return ErrUnreachable }
func (noNet) Ping(context.Context, netip.Addr) (time.Duration, error) {
	return 0, ErrTimeout
}
func (noNet) HTTP(context.Context, string, string, bool) (*HTTPResponse, error) {
	return nil, ErrUnreachable
}

func (p *proc) net() Network {
	if p.env.Net == nil {
		return noNet{}
	}
	return p.env.Net
}

// resolve turns a host into addresses: literals, localhost and the pod's
// own name (hosts file) locally, everything else through env.Net (row H2).
func (p *proc) resolve(host string) ([]netip.Addr, error) {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}, nil
	}
	if strings.EqualFold(host, "localhost") {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	if host == "" {
		return nil, ErrNameNotFound
	}
	if strings.EqualFold(host, p.env.Hostname) && p.env.Interfaces.IP.IsValid() {
		return []netip.Addr{p.env.Interfaces.IP}, nil
	}
	addrs, err := p.net().Resolve(p.ctx, host)
	if err == nil && len(addrs) == 0 {
		err = ErrNameNotFound
	}
	return addrs, err
}

// pick returns the first address of the wanted family (4, 6 or 0: any).
func pick(addrs []netip.Addr, family int) (netip.Addr, bool) {
	for _, a := range addrs {
		if family == 0 || (family == 4) == a.Unmap().Is4() {
			return a.Unmap(), true
		}
	}
	return netip.Addr{}, false
}

// fqdn is the name the resolver answered for: a single-label name gets the
// container's (first) DNS suffix (row H2: Windows has exactly one).
func (p *proc) fqdn(name string) string {
	if !strings.Contains(name, ".") && len(p.env.Interfaces.DNSSuffixes) > 0 {
		if _, err := netip.ParseAddr(name); err != nil && !strings.EqualFold(name, "localhost") {
			return name + "." + p.env.Interfaces.DNSSuffixes[0]
		}
	}
	return strings.TrimSuffix(name, ".")
}

// ---- ipconfig ----

func hashHex(s string, n int) string {
	h := fnv.New128a()
	h.Write([]byte(s))
	return fmt.Sprintf("%x", h.Sum(nil))[:n]
}

func (p *proc) adapterName() string {
	return "vEthernet (" + hashHex(p.env.Hostname+"adapter", 32) + "_l2bridge)"
}

func prefixMask(bits int) string {
	if bits <= 0 || bits > 32 {
		bits = 24
	}
	m := uint32(0xffffffff) << (32 - bits)
	return fmt.Sprintf("%d.%d.%d.%d", m>>24, m>>16&0xff, m>>8&0xff, m&0xff)
}

// progIpconfig is ipconfig.exe and `ipconfig /all` (rows H2, H3: upstream
// test/e2e/windows/dns.go:82-95 looks for the dnsConfig nameserver 1.1.1.1 in
// `ipconfig /all`; the suffix search list has the single suffix of row H2).
func progIpconfig(p *proc, argv []string) int {
	all := false
	for _, a := range argv[1:] {
		switch strings.ToLower(a) {
		case "/all", "-all":
			all = true
		case "/?":
			p.println("USAGE:")
			p.println("    ipconfig [/allcompartments] [/? | /all | /renew [adapter] | /release [adapter] | /flushdns | /displaydns]")
			return 0
		case "/flushdns":
			p.println("")
			p.println("Windows IP Configuration")
			p.println("")
			p.println("Successfully flushed the DNS Resolver Cache.")
			return 0
		default:
			p.println("")
			p.println("Error: unrecognized or incomplete command line.")
			return 1
		}
	}
	ic := p.env.Interfaces
	suffix := ""
	if len(ic.DNSSuffixes) > 0 {
		suffix = ic.DNSSuffixes[0]
	}
	field := func(label, value string) { p.println("   " + dotted(label) + ": " + value) }
	p.println("")
	p.println("Windows IP Configuration")
	p.println("")
	if all {
		field("Host Name", p.env.Hostname)
		field("Primary Dns Suffix ", "")
		field("Node Type", "Hybrid")
		field("IP Routing Enabled", "No")
		field("WINS Proxy Enabled", "No")
		for i, s := range ic.DNSSuffixes {
			if i == 0 {
				field("DNS Suffix Search List", s)
			} else {
				p.println(strings.Repeat(" ", 39) + s)
			}
		}
	}
	if !ic.IP.IsValid() {
		return 0
	}
	p.println("")
	p.println("Ethernet adapter " + p.adapterName() + ":")
	p.println("")
	field("Connection-specific DNS Suffix ", suffix)
	ll := "fe80::" + hashHex(p.env.Hostname, 4) + ":" + hashHex(p.env.Hostname+"1", 4) + ":" + hashHex(p.env.Hostname+"2", 4) + ":" + hashHex(p.env.Hostname+"3", 4) + "%" + strconv.Itoa(17+int(hashHex(p.env.Hostname, 1)[0]%16))
	if all {
		field("Description", "Hyper-V Virtual Ethernet Adapter #2")
		mac := strings.ToUpper(hashHex(p.env.Hostname+"mac", 6))
		field("Physical Address", "00-15-5D-"+mac[0:2]+"-"+mac[2:4]+"-"+mac[4:6])
		field("DHCP Enabled", "No")
		field("Autoconfiguration Enabled ", "Yes")
		field("Link-local IPv6 Address ", ll+"(Preferred)")
		field("IPv4 Address", ic.IP.String()+"(Preferred)")
	} else {
		field("Link-local IPv6 Address ", ll)
		field("IPv4 Address", ic.IP.String())
	}
	field("Subnet Mask ", prefixMask(ic.PrefixLen))
	gw := ""
	if ic.Gateway.IsValid() {
		gw = ic.Gateway.String()
	}
	field("Default Gateway ", gw)
	if all {
		// row H3: dnsPolicy None + dnsConfig nameservers are listed here
		for i, s := range ic.DNSServers {
			if i == 0 {
				field("DNS Servers ", s.String())
			} else {
				p.println(strings.Repeat(" ", 39) + s.String())
			}
		}
		field("NetBIOS over Tcpip", "Disabled")
		p.println("   Connection-specific DNS Suffix Search List :")
		for _, s := range ic.DNSSuffixes {
			p.println(strings.Repeat(" ", 39) + s)
		}
	}
	return 0
}

// dotted pads an ipconfig label to 34 columns the way ipconfig does: dots
// on even columns, spaces on odd ones ("IPv4 Address. . . . . . . . . . . ",
// "Host Name . . . . . . . . . . . . "). Some of ipconfig's labels carry a
// trailing space ("Primary Dns Suffix ", "Connection-specific DNS Suffix ").
func dotted(label string) string {
	b := []byte(label)
	for len(b) < 34 {
		if len(b)%2 == 0 {
			b = append(b, '.')
		} else {
			b = append(b, ' ')
		}
	}
	return string(b)
}

// ---- ping ----

type pingOpts struct {
	count   int
	forever bool
	timeout time.Duration
	target  string
	family  int
}

// progPingWindows is PING.EXE (row H4: no reply from beyond the cluster
// network; the Network decides). Exit 0 when any echo reply came back.
func progPingWindows(p *proc, argv []string) int {
	o := pingOpts{count: 4, timeout: 4 * time.Second}
	for i := 1; i < len(argv); i++ {
		a := strings.ToLower(argv[i])
		if len(a) > 1 && (a[0] == '-' || a[0] == '/') {
			val := func() (int, bool) {
				if i+1 >= len(argv) {
					return 0, false
				}
				i++
				n, err := strconv.Atoi(argv[i])
				return n, err == nil
			}
			switch a[1:] {
			case "t":
				o.forever = true
			case "n":
				n, ok := val()
				if !ok || n <= 0 {
					p.println("Bad value for option -n, valid range is from 1 to 4294967295.")
					return 1
				}
				o.count = n
			case "w":
				n, ok := val()
				if !ok {
					p.println("Bad value for option -w.")
					return 1
				}
				o.timeout = time.Duration(n) * time.Millisecond
			case "l", "i", "v", "r", "s", "j", "k":
				val()
			case "4":
				o.family = 4
			case "6":
				o.family = 6
			case "a", "f":
			case "?":
				p.println("Usage: ping [-t] [-a] [-n count] [-l size] [-f] [-i TTL] [-w timeout] target_name")
				return 0
			default:
				p.println("Bad option " + argv[i] + ".")
				return 1
			}
			continue
		}
		o.target = argv[i]
	}
	if o.target == "" {
		p.println("IP address must be specified.")
		return 1
	}
	addrs, err := p.resolve(o.target)
	addr, ok := pick(addrs, o.family)
	if err != nil || !ok {
		if p.done() {
			return p.killed()
		}
		p.println("Ping request could not find host " + o.target + ". Please check the name and try again.")
		return 1
	}
	p.println("")
	if o.target == addr.String() {
		p.println("Pinging " + addr.String() + " with 32 bytes of data:")
	} else {
		p.println("Pinging " + o.target + " [" + addr.String() + "] with 32 bytes of data:")
	}
	sent, received, replies := 0, 0, 0
	var min, max, sum time.Duration
	for i := 0; o.forever || i < o.count; i++ {
		if p.done() {
			return p.killed()
		}
		sent++
		rtt, err := p.net().Ping(p.ctx, addr)
		wait := time.Second
		switch {
		case p.done():
			return p.killed()
		case err == nil:
			received++
			replies++
			if replies == 1 || rtt < min {
				min = rtt
			}
			if rtt > max {
				max = rtt
			}
			sum += rtt
			ms := rtt.Milliseconds()
			if ms < 1 {
				p.println("Reply from " + addr.String() + ": bytes=32 time<1ms TTL=128")
			} else {
				p.println(fmt.Sprintf("Reply from %s: bytes=32 time=%dms TTL=128", addr, ms))
			}
			wait -= rtt
		case errors.Is(err, ErrUnreachable):
			received++
			src := "0.0.0.0"
			if p.env.Interfaces.IP.IsValid() {
				src = p.env.Interfaces.IP.String()
			}
			p.println("Reply from " + src + ": Destination host unreachable.")
		default:
			p.println("Request timed out.")
			wait = o.timeout
		}
		last := !o.forever && i == o.count-1
		if !last && wait > 0 && !p.sleep(wait) {
			return p.killed()
		}
	}
	p.println("")
	p.println("Ping statistics for " + addr.String() + ":")
	lost := sent - received
	p.println(fmt.Sprintf("    Packets: Sent = %d, Received = %d, Lost = %d (%d%% loss),", sent, received, lost, lost*100/sent))
	if replies > 0 {
		p.println("Approximate round trip times in milli-seconds:")
		p.println(fmt.Sprintf("    Minimum = %dms, Maximum = %dms, Average = %dms", min.Milliseconds(), max.Milliseconds(), (sum / time.Duration(replies)).Milliseconds()))
		return 0
	}
	return 1
}

// progPingLinux is busybox ping: forever unless -c N; -W timeout, -w
// deadline (seconds).
func progPingLinux(p *proc, argv []string) int {
	o := pingOpts{forever: true, timeout: 10 * time.Second}
	deadline := time.Duration(0)
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			flag, val := a[1:2], a[2:]
			needs := strings.Contains("cWwsIit", flag)
			if needs && val == "" && i+1 < len(argv) {
				i++
				val = argv[i]
			}
			n, err := strconv.ParseFloat(val, 64)
			switch flag {
			case "c":
				if err != nil || n < 1 {
					p.eprintln("ping: invalid number '" + val + "'")
					return 1
				}
				o.count, o.forever = int(n), false
			case "W":
				if err == nil {
					o.timeout = time.Duration(n * float64(time.Second))
				}
			case "w":
				if err == nil {
					deadline = time.Duration(n * float64(time.Second))
				}
			case "4":
				o.family = 4
			case "6":
				o.family = 6
			case "q":
			}
			continue
		}
		o.target = a
	}
	if o.target == "" {
		p.eprintln("BusyBox v1.36.1 (2023-11-07 18:53:09 UTC) multi-call binary.")
		p.eprintln("")
		p.eprintln("Usage: ping [OPTIONS] HOST")
		return 1
	}
	addrs, err := p.resolve(o.target)
	addr, ok := pick(addrs, o.family)
	if err != nil || !ok {
		if p.done() {
			return p.killed()
		}
		p.eprintln("ping: bad address '" + o.target + "'")
		return 1
	}
	p.println(fmt.Sprintf("PING %s (%s): 56 data bytes", o.target, addr))
	start := p.now()
	sent, received := 0, 0
	var min, max, sum time.Duration
	for i := 0; o.forever || i < o.count; i++ {
		if p.done() {
			return p.killed()
		}
		if deadline > 0 && p.now().Sub(start) >= deadline {
			break
		}
		sent++
		rtt, err := p.net().Ping(p.ctx, addr)
		if p.done() {
			return p.killed()
		}
		wait := time.Second
		if err == nil {
			received++
			if received == 1 || rtt < min {
				min = rtt
			}
			if rtt > max {
				max = rtt
			}
			sum += rtt
			p.println(fmt.Sprintf("64 bytes from %s: seq=%d ttl=64 time=%.3f ms", addr, i, float64(rtt)/float64(time.Millisecond)))
			wait -= rtt
		}
		last := !o.forever && i == o.count-1
		if err != nil && last {
			wait = o.timeout
		}
		if (!last || err != nil) && wait > 0 && !p.sleep(wait) {
			return p.killed()
		}
	}
	p.println("")
	p.println(fmt.Sprintf("--- %s ping statistics ---", o.target))
	p.println(fmt.Sprintf("%d packets transmitted, %d packets received, %d%% packet loss", sent, received, (sent-received)*100/max1(sent)))
	if received > 0 {
		ms := func(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d)/float64(time.Millisecond)) }
		p.println(fmt.Sprintf("round-trip min/avg/max = %s/%s/%s ms", ms(min), ms(sum/time.Duration(received)), ms(max)))
		return 0
	}
	return 1
}

func max1(n int) int {
	if n < 1 {
		return 1
	}
	return n
}

// ---- curl ----

type curlOpts struct {
	url, method, output, writeOut                           string
	insecure, fail, silent, showErr, head, include, verbose bool
	connectTimeout, maxTime                                 time.Duration
	family                                                  int
}

const curlVersion = "8.9.1"

// parseURL splits scheme://host:port/path; port defaults by scheme.
func parseURL(raw string) (scheme, host string, port int, path string, ok bool) {
	scheme = "http"
	rest := raw
	if i := strings.Index(raw, "://"); i >= 0 {
		scheme, rest = strings.ToLower(raw[:i]), raw[i+3:]
	}
	path = "/"
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		path = rest[i:]
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		rest = rest[:i]
	}
	if i := strings.LastIndex(rest, "@"); i >= 0 {
		rest = rest[i+1:]
	}
	host = rest
	switch scheme {
	case "https":
		port = 443
	case "http":
		port = 80
	}
	if strings.HasPrefix(rest, "[") {
		j := strings.Index(rest, "]")
		if j < 0 {
			return "", "", 0, "", false
		}
		host = rest[1:j]
		rest = rest[j+1:]
		if strings.HasPrefix(rest, ":") {
			n, err := strconv.Atoi(rest[1:])
			if err != nil || n <= 0 || n > 65535 {
				return "", "", 0, "", false
			}
			port = n
		}
	} else if i := strings.LastIndex(rest, ":"); i >= 0 {
		n, err := strconv.Atoi(rest[i+1:])
		if err != nil || n <= 0 || n > 65535 {
			return "", "", 0, "", false
		}
		host, port = rest[:i], n
	}
	if host == "" || strings.ContainsAny(host, " \t\"<>\\^`{|}") {
		return "", "", 0, "", false
	}
	return scheme, host, port, path, true
}

func (p *proc) curlMeter(o *curlOpts, n int) {
	if o.silent {
		return
	}
	p.eprintln("  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current")
	p.eprintln("                                 Dload  Upload   Total   Spent    Left  Speed")
	if n > 0 {
		p.eprintln(fmt.Sprintf("100 %5d  100 %5d    0     0  %5d      0 --:--:-- --:--:-- --:--:-- %5d", n, n, n, n))
	} else {
		p.eprintln("  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0")
	}
}

// curlErr prints `curl: (N) message` (unless -s without -S) and returns N.
func (p *proc) curlErr(o *curlOpts, code int, msg string) int {
	if !o.silent || o.showErr {
		p.eprintln(fmt.Sprintf("curl: (%d) %s", code, msg))
	}
	return code
}

// progCurl is curl / curl.exe (rows H1, H2, H5, H6; upstream
// test/e2e/windows/hybrid_network.go:136 `curl.exe -4 <ip> --connect-timeout
// 10 --fail`, dns.go:107/122 `curl.exe -k https://kubernetes:443`). Exit
// codes and messages are curl's: 6 could not resolve, 7 failed to connect,
// 28 timeout, 22 --fail on >= 400, 60 untrusted certificate.
func progCurl(p *proc, argv []string) int {
	o := &curlOpts{method: "GET"}
	args := argv[1:]
	next := func(i *int) string {
		if *i+1 < len(args) {
			*i++
			return args[*i]
		}
		return ""
	}
	seconds := func(s string) time.Duration {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f < 0 {
			return 0
		}
		return time.Duration(f * float64(time.Second))
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--insecure":
			o.insecure = true
		case a == "--fail" || a == "--fail-with-body":
			o.fail = true
		case a == "--silent":
			o.silent = true
		case a == "--show-error":
			o.showErr = true
		case a == "--head":
			o.head, o.method = true, "HEAD"
		case a == "--include":
			o.include = true
		case a == "--verbose":
			o.verbose = true
		case a == "--ipv4":
			o.family = 4
		case a == "--ipv6":
			o.family = 6
		case a == "--location" || a == "--compressed" || a == "--http1.1" || a == "--no-keepalive" || a == "--globoff" || a == "--disable":
		case a == "--connect-timeout":
			o.connectTimeout = seconds(next(&i))
		case a == "--max-time":
			o.maxTime = seconds(next(&i))
		case a == "--output":
			o.output = next(&i)
		case a == "--request":
			o.method = next(&i)
		case a == "--header" || a == "--retry" || a == "--retry-delay" || a == "--user-agent" || a == "--resolve" || a == "--cacert":
			next(&i)
		case a == "--data" || a == "--data-raw" || a == "--data-binary":
			next(&i)
			if o.method == "GET" {
				o.method = "POST"
			}
		case a == "--write-out":
			o.writeOut = next(&i)
		case a == "--url":
			o.url = next(&i)
		case strings.HasPrefix(a, "--"):
			p.eprintln("curl: option " + a + ": is unknown")
			p.eprintln("curl: try 'curl --help' or 'curl --manual' for more information")
			return 2
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				f := a[j]
				val := func() string {
					if j+1 < len(a) {
						v := a[j+1:]
						j = len(a)
						return v
					}
					return next(&i)
				}
				switch f {
				case '4':
					o.family = 4
				case '6':
					o.family = 6
				case 'k':
					o.insecure = true
				case 'f':
					o.fail = true
				case 's':
					o.silent = true
				case 'S':
					o.showErr = true
				case 'I':
					o.head, o.method = true, "HEAD"
				case 'i':
					o.include = true
				case 'v':
					o.verbose = true
				case 'L', 'N', 'g', 'q': // -q: no .curlrc (networking utils.go `curl -g -q -s`)
				case 'o':
					o.output = val()
				case 'X':
					o.method = val()
				case 'm':
					o.maxTime = seconds(val())
				case 'w':
					o.writeOut = val()
				case 'H', 'A', 'u', 'e':
					val()
				case 'd':
					val()
					if o.method == "GET" {
						o.method = "POST"
					}
				default:
					p.eprintln(fmt.Sprintf("curl: option -%c: is unknown", f))
					p.eprintln("curl: try 'curl --help' or 'curl --manual' for more information")
					return 2
				}
			}
		default:
			if o.url == "" {
				o.url = a
			}
		}
	}
	if o.url == "" {
		p.eprintln("curl: no URL specified")
		p.eprintln("curl: try 'curl --help' or 'curl --manual' for more information")
		return 2
	}
	scheme, host, port, path, ok := parseURL(o.url)
	if !ok {
		p.curlMeter(o, 0)
		return p.curlErr(o, 3, "URL rejected: Malformed input to a URL function")
	}
	if scheme != "http" && scheme != "https" {
		p.curlMeter(o, 0)
		return p.curlErr(o, 1, fmt.Sprintf("Protocol \"%s\" not supported", scheme))
	}
	url := scheme + "://" + host + ":" + strconv.Itoa(port) + path
	if strings.Contains(host, ":") {
		url = scheme + "://[" + host + "]:" + strconv.Itoa(port) + path
	}
	addrs, err := p.resolve(host)
	addr, found := pick(addrs, o.family)
	if p.done() {
		return p.killed()
	}
	if err != nil || !found {
		p.curlMeter(o, 0)
		return p.curlErr(o, 6, "Could not resolve host: "+host)
	}
	if o.verbose {
		p.eprintln(fmt.Sprintf("*   Trying %s:%d...", addr, port))
	}
	start := p.now()
	resp, err := p.net().HTTP(p.ctx, o.method, url, o.insecure)
	if p.done() {
		return p.killed()
	}
	if err != nil {
		p.curlMeter(o, 0)
		elapsed := func() int64 { return p.now().Sub(start).Milliseconds() }
		switch {
		case errors.Is(err, ErrNameNotFound):
			return p.curlErr(o, 6, "Could not resolve host: "+host)
		case errors.Is(err, ErrTimeout):
			wait := o.connectTimeout
			if wait == 0 || (o.maxTime > 0 && o.maxTime < wait) {
				wait = o.maxTime
			}
			if wait == 0 {
				wait = 21 * time.Second // Windows' SYN retries; Linux' are longer
				if !p.win {
					wait = 130 * time.Second
				}
			}
			if !p.sleep(wait) {
				return p.killed()
			}
			if o.connectTimeout == 0 && o.maxTime > 0 {
				return p.curlErr(o, 28, fmt.Sprintf("Operation timed out after %d milliseconds with 0 bytes received", wait.Milliseconds()+1))
			}
			return p.curlErr(o, 28, fmt.Sprintf("Failed to connect to %s port %d after %d ms: Timeout was reached", host, port, wait.Milliseconds()+1))
		case errors.Is(err, ErrUntrustedCert):
			if p.win {
				return p.curlErr(o, 60, "schannel: SEC_E_UNTRUSTED_ROOT (0x80090325) - The certificate chain was issued by an authority that is not trusted.")
			}
			return p.curlErr(o, 60, "SSL certificate problem: unable to get local issuer certificate")
		default: // refused, unreachable
			if p.win && errors.Is(err, ErrRefused) {
				// Windows retries a refused SYN twice: about 2 s
				if !p.sleep(2 * time.Second) {
					return p.killed()
				}
			}
			return p.curlErr(o, 7, fmt.Sprintf("Failed to connect to %s port %d after %d ms: Couldn't connect to server", host, port, elapsed()))
		}
	}
	if resp == nil {
		p.curlMeter(o, 0)
		return p.curlErr(o, 52, "Empty reply from server")
	}
	statusLine := fmt.Sprintf("HTTP/1.1 %d %s", resp.Status, http.StatusText(resp.Status))
	headers := headerLines(resp)
	if o.verbose {
		p.eprintln(fmt.Sprintf("* Connected to %s (%s) port %d", host, addr, port))
		p.eprintln(fmt.Sprintf("> %s %s HTTP/1.1", o.method, path))
		p.eprintln(fmt.Sprintf("> Host: %s:%d", host, port))
		p.eprintln("> User-Agent: curl/" + curlVersion)
		p.eprintln("> Accept: */*")
		p.eprintln(">")
		p.eprintln("< " + statusLine)
		for _, h := range headers {
			p.eprintln("< " + h)
		}
		p.eprintln("<")
	}
	if o.fail && resp.Status >= 400 {
		p.curlMeter(o, 0)
		return p.curlErr(o, 22, fmt.Sprintf("The requested URL returned error: %d", resp.Status))
	}
	var out []byte
	if o.head || o.include {
		out = append(out, statusLine+"\r\n"...)
		for _, h := range headers {
			out = append(out, h+"\r\n"...)
		}
		out = append(out, "\r\n"...)
	}
	if !o.head {
		out = append(out, resp.Body...)
	}
	p.curlMeter(o, len(out))
	if o.output != "" && o.output != "-" {
		if err := p.writeFile(o.output, out, false); err != nil {
			return p.curlErr(o, 23, "Failure writing output to destination")
		}
	} else {
		p.stdout.Write(out)
	}
	if o.writeOut != "" {
		w := strings.NewReplacer("%{http_code}", fmt.Sprintf("%03d", resp.Status), "%{response_code}", fmt.Sprintf("%03d", resp.Status),
			"%{remote_ip}", addr.String(), `\n`, "\n", "%{url_effective}", o.url).Replace(o.writeOut)
		p.stdout.Write([]byte(w))
	}
	if o.verbose {
		p.eprintln(fmt.Sprintf("* Connection #0 to host %s left intact", host))
	}
	return 0
}

func headerLines(resp *HTTPResponse) []string {
	var hs []string
	for k, v := range resp.Headers {
		hs = append(hs, k+": "+v)
	}
	sort.Strings(hs)
	if _, ok := resp.Headers["Content-Length"]; !ok {
		hs = append(hs, "Content-Length: "+strconv.Itoa(len(resp.Body)))
	}
	return hs
}

// ---- nslookup ----

// isClusterName is answered authoritatively by the cluster DNS.
func isClusterName(name string) bool {
	return strings.Contains(name, ".svc.") || strings.HasSuffix(strings.TrimSuffix(name, "."), ".cluster.local")
}

func (p *proc) dnsServer(args []string) string {
	if len(args) > 1 {
		return args[1]
	}
	if len(p.env.Interfaces.DNSServers) > 0 {
		return p.env.Interfaces.DNSServers[0].String()
	}
	return "127.0.0.1"
}

// progNslookupWindows is nslookup.exe (row H2): `Server:  UnKnown` (the
// cluster DNS has no PTR record for itself), then Name/Address, or
// `*** UnKnown can't find x: Non-existent domain`.
func progNslookupWindows(p *proc, argv []string) int {
	args := operands(argv[1:])
	if len(args) == 0 {
		p.eprintln("*** nslookup: interactive mode needs a console")
		return 1
	}
	server := p.dnsServer(args)
	p.println("Server:  UnKnown")
	p.println("Address:  " + server)
	p.println("")
	addrs, err := p.resolve(args[0])
	if p.done() {
		return p.killed()
	}
	if err != nil {
		if errors.Is(err, ErrTimeout) || errors.Is(err, ErrUnreachable) {
			p.eprintln("DNS request timed out.")
			p.eprintln("    timeout was 2 seconds.")
			p.eprintln("*** Request to UnKnown timed-out")
			return 1
		}
		p.eprintln("*** UnKnown can't find " + args[0] + ": Non-existent domain")
		return 1
	}
	name := p.fqdn(args[0])
	if !isClusterName(name) {
		p.println("Non-authoritative answer:")
	}
	p.println("Name:    " + name)
	if len(addrs) == 1 {
		p.println("Address:  " + addrs[0].String())
	} else {
		for i, a := range addrs {
			if i == 0 {
				p.println("Addresses:  " + a.String())
			} else {
				p.println("          " + a.String())
			}
		}
	}
	p.println("")
	return 0
}

// progNslookupLinux is busybox nslookup.
func progNslookupLinux(p *proc, argv []string) int {
	args := operands(argv[1:])
	if len(args) == 0 {
		p.eprintln("Usage: nslookup [-type=QUERY_TYPE] [-debug] HOST [DNS_SERVER]")
		return 1
	}
	server := p.dnsServer(args)
	p.println("Server:\t\t" + server)
	p.println("Address:\t" + server + ":53")
	p.println("")
	addrs, err := p.resolve(args[0])
	if p.done() {
		return p.killed()
	}
	if err != nil {
		if errors.Is(err, ErrTimeout) || errors.Is(err, ErrUnreachable) {
			p.println(";; connection timed out; no servers could be reached")
			return 1
		}
		p.println("** server can't find " + args[0] + ": NXDOMAIN")
		p.println("")
		return 1
	}
	for _, a := range addrs {
		p.println("Name:\t" + args[0])
		p.println("Address: " + a.String())
	}
	p.println("")
	return 0
}

// ---- nltest ----

// progNltest is nltest.exe for GMSA pods (upstream
// test/e2e/windows/gmsa_kubelet.go:117-130: `nltest /PARENTDOMAIN` output
// starts with the credential spec's domain and contains "The command
// completed successfully"; gmsa_full.go:84 `nltest /QUERY`).
func progNltest(p *proc, argv []string) int {
	if len(argv) < 2 {
		p.println("Usage: nltest [/OPTIONS]")
		return 1
	}
	dom := p.env.GMSADomain
	opt := strings.ToUpper(argv[1])
	switch {
	case opt == "/PARENTDOMAIN":
		if dom == "" {
			p.println("Getting parent domain failed: Status = 1355 0x54b ERROR_NO_SUCH_DOMAIN")
			return 1
		}
		p.println(dom + ". (1)")
		p.println("The command completed successfully")
		return 0
	case opt == "/QUERY" || strings.HasPrefix(opt, "/SC_RESET") || strings.HasPrefix(opt, "/SC_QUERY") || strings.HasPrefix(opt, "/SC_VERIFY"):
		if dom == "" {
			p.println("I_NetLogonControl failed: Status = 1717 0x6b5 RPC_S_UNKNOWN_IF")
			return 1
		}
		// The domain controller is reachable when the domain resolves.
		if _, err := p.resolve(dom); err != nil {
			p.println("Flags: 0")
			p.println("Trusted DC Connection Status Status = 1311 0x51f ERROR_NO_LOGON_SERVERS")
			p.println("The command completed successfully")
			return 0
		}
		p.println("Flags: 30 HAS_IP  HAS_TIMESERV")
		p.println(`Trusted DC Name \\dc1.` + dom)
		p.println("Trusted DC Connection Status Status = 0 0x0 NERR_Success")
		p.println("The command completed successfully")
		return 0
	case strings.HasPrefix(opt, "/DSGETDC:"):
		d := argv[1][len("/DSGETDC:"):]
		if dom == "" || !strings.EqualFold(d, dom) {
			p.println("Getting DC name failed: Status = 1355 0x54b ERROR_NO_SUCH_DOMAIN")
			return 1
		}
		p.println(`           DC: \\DC1.` + strings.ToUpper(dom))
		p.println("  Dom Name: " + dom)
		p.println("The command completed successfully")
		return 0
	}
	p.println("Usage: nltest [/OPTIONS]")
	return 1
}

// ---- nc ----

var serviceNames = map[int]string{21: "ftp", 22: "ssh", 25: "smtp", 53: "domain", 80: "http", 443: "https", 6443: "sun-sr-https", 8080: "http-alt", 10250: "*"}

// progNc is OpenBSD netcat (upstream test/e2e/windows/hybrid_network.go:130
// `nc -vz <ip> <port> -w <timeout>`): -v prints `Connection to <host> <port>
// port [tcp/<service>] succeeded!` on stderr.
func progNc(p *proc, argv []string) int {
	verbose, zero, udp, listen := false, false, false, false
	wait := time.Duration(0)
	var pos []string
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'v':
					verbose = true
				case 'z':
					zero = true
				case 'u':
					udp = true
				case 'l':
					listen = true
				case 'k', 'n', 't', 'N', 'd':
				case 'w', 'p', 'i', 'q', 's':
					val := a[j+1:]
					if val == "" && i+1 < len(argv) {
						i++
						val = argv[i]
					}
					if a[j] == 'w' {
						n, _ := strconv.ParseFloat(val, 64)
						wait = time.Duration(n * float64(time.Second))
					}
					if a[j] == 'p' {
						pos = append(pos, val)
					}
					j = len(a)
				}
			}
			continue
		}
		pos = append(pos, a)
	}
	if listen {
		if verbose && len(pos) > 0 {
			p.eprintln("Listening on 0.0.0.0 " + pos[len(pos)-1])
		}
		return p.block()
	}
	if len(pos) < 2 {
		p.eprintln("usage: nc [-46CDdFhklNnrStUuvZz] [-I length] [-i interval] [-M ttl]")
		return 1
	}
	host := pos[0]
	proto := "tcp"
	if udp {
		proto = "udp"
	}
	code := 0
	for _, ps := range pos[1:] {
		port, err := strconv.Atoi(ps)
		if err != nil || port <= 0 || port > 65535 {
			p.eprintln("nc: port number invalid: " + ps)
			return 1
		}
		addrs, err := p.resolve(host)
		if p.done() {
			return p.killed()
		}
		addr, ok := pick(addrs, 0)
		if err != nil || !ok {
			p.eprintln(fmt.Sprintf("nc: getaddrinfo for host \"%s\" port %d: Name or service not known", host, port))
			return 1
		}
		err = p.net().Dial(p.ctx, proto, addr, port)
		if p.done() {
			return p.killed()
		}
		switch {
		case err == nil:
			if verbose {
				svc := serviceNames[port]
				if svc == "" {
					svc = "*"
				}
				p.eprintln(fmt.Sprintf("Connection to %s %d port [%s/%s] succeeded!", host, port, proto, svc))
			}
			if !zero {
				// what the client sends goes to the server; print its
				// answer (agnhost_webhook.go ncConverse)
				p.ncConverse(proto, addr, port)
			}
		case errors.Is(err, ErrTimeout):
			if wait == 0 {
				wait = 130 * time.Second
			}
			if !p.sleep(wait) {
				return p.killed()
			}
			if verbose {
				p.eprintln(fmt.Sprintf("nc: connect to %s port %d (%s) timed out: Operation now in progress", host, port, proto))
			}
			code = 1
		case errors.Is(err, ErrUnreachable):
			if verbose {
				p.eprintln(fmt.Sprintf("nc: connect to %s port %d (%s) failed: No route to host", host, port, proto))
			}
			code = 1
		default:
			if verbose {
				p.eprintln(fmt.Sprintf("nc: connect to %s port %d (%s) failed: Connection refused", host, port, proto))
			}
			code = 1
		}
	}
	return code
}

// ---- wget ----

// progWget is busybox wget: -q, -O file / -O- / -qO-, -T seconds, --spider.
func progWget(p *proc, argv []string) int {
	quiet, spider := false, false
	output, url := "", ""
	timeout := 900 * time.Second
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "--spider":
			spider = true
		case a == "--quiet":
			quiet = true
		case strings.HasPrefix(a, "--output-document"):
			if v, ok := strings.CutPrefix(a, "--output-document="); ok {
				output = v
			} else if i+1 < len(argv) {
				i++
				output = argv[i]
			}
		case strings.HasPrefix(a, "--timeout"):
			v, _ := strings.CutPrefix(a, "--timeout=")
			n, _ := strconv.Atoi(v)
			timeout = time.Duration(n) * time.Second
		case strings.HasPrefix(a, "-") && len(a) > 1 && !strings.HasPrefix(a, "--"):
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'q':
					quiet = true
				case 'O', 'T', 'U', 'Y', 'P', 'e':
					val := a[j+1:]
					if val == "" && i+1 < len(argv) {
						i++
						val = argv[i]
					}
					if a[j] == 'O' {
						output = val
					}
					if a[j] == 'T' {
						n, _ := strconv.Atoi(val)
						timeout = time.Duration(n) * time.Second
					}
					j = len(a)
				}
			}
		case strings.HasPrefix(a, "--"):
		default:
			url = a
		}
	}
	if url == "" {
		p.eprintln("BusyBox v1.36.1 (2023-11-07 18:53:09 UTC) multi-call binary.")
		p.eprintln("")
		p.eprintln("Usage: wget [-cqS] [--spider] [-O FILE] [-o LOGFILE] [--header STR]")
		return 1
	}
	scheme, host, port, path, ok := parseURL(url)
	if !ok || (scheme != "http" && scheme != "https") {
		p.eprintln("wget: not an http or ftp url: " + url)
		return 1
	}
	addrs, err := p.resolve(host)
	addr, found := pick(addrs, 0)
	if p.done() {
		return p.killed()
	}
	if err != nil || !found {
		p.eprintln("wget: bad address '" + host + "'")
		return 1
	}
	if !quiet {
		p.eprintln(fmt.Sprintf("Connecting to %s:%d (%s:%d)", host, port, addr, port))
	}
	full := scheme + "://" + host + ":" + strconv.Itoa(port) + path
	method := "GET"
	if spider {
		method = "HEAD"
	}
	resp, err := p.net().HTTP(p.ctx, method, full, true)
	if p.done() {
		return p.killed()
	}
	if err != nil {
		switch {
		case errors.Is(err, ErrTimeout):
			if !p.sleep(timeout) {
				return p.killed()
			}
			p.eprintln("wget: download timed out")
		case errors.Is(err, ErrNameNotFound):
			p.eprintln("wget: bad address '" + host + "'")
		case errors.Is(err, ErrUnreachable):
			p.eprintln(fmt.Sprintf("wget: can't connect to remote host (%s): No route to host", addr))
		default:
			p.eprintln(fmt.Sprintf("wget: can't connect to remote host (%s): Connection refused", addr))
		}
		return 1
	}
	if resp == nil {
		p.eprintln("wget: error getting response")
		return 1
	}
	if resp.Status >= 400 {
		p.eprintln(fmt.Sprintf("wget: server returned error: HTTP/1.1 %d %s", resp.Status, http.StatusText(resp.Status)))
		return 1
	}
	if spider {
		if !quiet {
			p.eprintln("remote file exists")
		}
		return 0
	}
	if output == "" {
		output = baseName(strings.SplitN(path, "?", 2)[0])
		if output == "" {
			output = "index.html"
		}
	}
	if output == "-" {
		if !quiet {
			p.eprintln("writing to stdout")
		}
		p.stdout.Write(resp.Body)
		if !quiet {
			p.eprintln("written to stdout")
		}
		return 0
	}
	if !quiet {
		p.eprintln("saving to '" + output + "'")
	}
	if err := p.writeFile(output, resp.Body, false); err != nil {
		p.eprintln("wget: can't open '" + output + "': " + posixFileError(err, true))
		return 1
	}
	if !quiet {
		p.eprintln("'" + output + "' saved")
	}
	return 0
}

// operands are the arguments that are not options (-x, -type=A).
func operands(args []string) []string {
	var out []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}
