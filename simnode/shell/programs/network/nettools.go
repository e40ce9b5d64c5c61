package network

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"wink.dev/wink/simnode/shell/process"
)

// This file is the network tools: ipconfig, ping, curl, nslookup, nltest
// (Windows) and ping, nslookup, wget, nc (Linux). Every effect goes through
// env.Net (rows H1–H6); none opens a socket.

func prefixMask(bits int) string {
	if bits <= 0 || bits > 32 {
		bits = 24
	}
	m := uint32(0xffffffff) << (32 - bits)
	return fmt.Sprintf("%d.%d.%d.%d", m>>24, m>>16&0xff, m>>8&0xff, m&0xff)
}

// Ipconfig is ipconfig.exe and `ipconfig /all` (rows H2, H3: upstream
// test/e2e/windows/dns.go:82-95 looks for the dnsConfig nameserver 1.1.1.1 in
// `ipconfig /all`; the suffix search list has the single suffix of row H2).
func Ipconfig(p *process.Proc, argv []string) int {
	all := false
	for _, a := range argv[1:] {
		switch strings.ToLower(a) {
		case "/all", "-all":
			all = true
		case "/?":
			p.Println("USAGE:")
			p.Println("    ipconfig [/allcompartments] [/? | /all | /renew [adapter] | /release [adapter] | /flushdns | /displaydns]")
			return 0
		case "/flushdns":
			p.Println("")
			p.Println("Windows IP Configuration")
			p.Println("")
			p.Println("Successfully flushed the DNS Resolver Cache.")
			return 0
		default:
			p.Println("")
			p.Println("Error: unrecognized or incomplete command line.")
			return 1
		}
	}
	ic := p.Env.Interfaces
	suffix := ""
	if len(ic.DNSSuffixes) > 0 {
		suffix = ic.DNSSuffixes[0]
	}
	field := func(label, value string) { p.Println("   " + dotted(label) + ": " + value) }
	p.Println("")
	p.Println("Windows IP Configuration")
	p.Println("")
	if all {
		field("Host Name", p.Env.Hostname)
		field("Primary Dns Suffix ", "")
		field("Node Type", "Hybrid")
		field("IP Routing Enabled", "No")
		field("WINS Proxy Enabled", "No")
		for i, s := range ic.DNSSuffixes {
			if i == 0 {
				field("DNS Suffix Search List", s)
			} else {
				p.Println(strings.Repeat(" ", 39) + s)
			}
		}
	}
	if !ic.IP.IsValid() {
		return 0
	}
	p.Println("")
	p.Println("Ethernet adapter " + p.AdapterName() + ":")
	p.Println("")
	field("Connection-specific DNS Suffix ", suffix)
	ll := "fe80::" + process.HashHex(p.Env.Hostname, 4) + ":" + process.HashHex(p.Env.Hostname+"1", 4) + ":" + process.HashHex(p.Env.Hostname+"2", 4) + ":" + process.HashHex(p.Env.Hostname+"3", 4) + "%" + strconv.Itoa(17+int(process.HashHex(p.Env.Hostname, 1)[0]%16))
	if all {
		field("Description", "Hyper-V Virtual Ethernet Adapter #2")
		mac := strings.ToUpper(process.HashHex(p.Env.Hostname+"mac", 6))
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
				p.Println(strings.Repeat(" ", 39) + s.String())
			}
		}
		field("NetBIOS over Tcpip", "Disabled")
		p.Println("   Connection-specific DNS Suffix Search List :")
		for _, s := range ic.DNSSuffixes {
			p.Println(strings.Repeat(" ", 39) + s)
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

// PingWindows is PING.EXE (row H4: no reply from beyond the cluster
// network; the Network decides). Exit 0 when any echo reply came back.
func PingWindows(p *process.Proc, argv []string) int {
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
					p.Println("Bad value for option -n, valid range is from 1 to 4294967295.")
					return 1
				}
				o.count = n
			case "w":
				n, ok := val()
				if !ok {
					p.Println("Bad value for option -w.")
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
				p.Println("Usage: ping [-t] [-a] [-n count] [-l size] [-f] [-i TTL] [-w timeout] target_name")
				return 0
			default:
				p.Println("Bad option " + argv[i] + ".")
				return 1
			}
			continue
		}
		o.target = argv[i]
	}
	if o.target == "" {
		p.Println("IP address must be specified.")
		return 1
	}
	addrs, err := p.Resolve(o.target)
	addr, ok := process.Pick(addrs, o.family)
	if err != nil || !ok {
		if p.Done() {
			return p.Killed()
		}
		p.Println("Ping request could not find host " + o.target + ". Please check the name and try again.")
		return 1
	}
	p.Println("")
	if o.target == addr.String() {
		p.Println("Pinging " + addr.String() + " with 32 bytes of data:")
	} else {
		p.Println("Pinging " + o.target + " [" + addr.String() + "] with 32 bytes of data:")
	}
	sent, received, replies := 0, 0, 0
	var min, max, sum time.Duration
	for i := 0; o.forever || i < o.count; i++ {
		if p.Step() != nil { // issue 18
			return p.Killed()
		}
		sent++
		rtt, err := p.Net().Ping(p.Ctx, addr)
		wait := time.Second
		switch {
		case p.Done():
			return p.Killed()
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
				p.Println("Reply from " + addr.String() + ": bytes=32 time<1ms TTL=128")
			} else {
				p.Println(fmt.Sprintf("Reply from %s: bytes=32 time=%dms TTL=128", addr, ms))
			}
			wait -= rtt
		case errors.Is(err, process.ErrUnreachable):
			received++
			src := "0.0.0.0"
			if p.Env.Interfaces.IP.IsValid() {
				src = p.Env.Interfaces.IP.String()
			}
			p.Println("Reply from " + src + ": Destination host unreachable.")
		default:
			p.Println("Request timed out.")
			wait = o.timeout
		}
		last := !o.forever && i == o.count-1
		if !last && wait > 0 && !p.Sleep(wait) {
			return p.Killed()
		}
	}
	p.Println("")
	p.Println("Ping statistics for " + addr.String() + ":")
	lost := sent - received
	p.Println(fmt.Sprintf("    Packets: Sent = %d, Received = %d, Lost = %d (%d%% loss),", sent, received, lost, lost*100/sent))
	if replies > 0 {
		p.Println("Approximate round trip times in milli-seconds:")
		p.Println(fmt.Sprintf("    Minimum = %dms, Maximum = %dms, Average = %dms", min.Milliseconds(), max.Milliseconds(), (sum / time.Duration(replies)).Milliseconds()))
		return 0
	}
	return 1
}

// PingLinux is busybox ping: forever unless -c N; -W timeout, -w
// deadline (seconds).
func PingLinux(p *process.Proc, argv []string) int {
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
					p.Eprintln("ping: invalid number '" + val + "'")
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
		p.Eprintln("BusyBox v1.36.1 (2023-11-07 18:53:09 UTC) multi-call binary.")
		p.Eprintln("")
		p.Eprintln("Usage: ping [OPTIONS] HOST")
		return 1
	}
	addrs, err := p.Resolve(o.target)
	addr, ok := process.Pick(addrs, o.family)
	if err != nil || !ok {
		if p.Done() {
			return p.Killed()
		}
		p.Eprintln("ping: bad address '" + o.target + "'")
		return 1
	}
	p.Println(fmt.Sprintf("PING %s (%s): 56 data bytes", o.target, addr))
	start := p.Now()
	sent, received := 0, 0
	var min, max, sum time.Duration
	for i := 0; o.forever || i < o.count; i++ {
		if p.Step() != nil { // issue 18
			return p.Killed()
		}
		if deadline > 0 && p.Now().Sub(start) >= deadline {
			break
		}
		sent++
		rtt, err := p.Net().Ping(p.Ctx, addr)
		if p.Done() {
			return p.Killed()
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
			p.Println(fmt.Sprintf("64 bytes from %s: seq=%d ttl=64 time=%.3f ms", addr, i, float64(rtt)/float64(time.Millisecond)))
			wait -= rtt
		}
		last := !o.forever && i == o.count-1
		if err != nil && last {
			wait = o.timeout
		}
		if (!last || err != nil) && wait > 0 && !p.Sleep(wait) {
			return p.Killed()
		}
	}
	p.Println("")
	p.Println(fmt.Sprintf("--- %s ping statistics ---", o.target))
	p.Println(fmt.Sprintf("%d packets transmitted, %d packets received, %d%% packet loss", sent, received, (sent-received)*100/max1(sent)))
	if received > 0 {
		ms := func(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d)/float64(time.Millisecond)) }
		p.Println(fmt.Sprintf("round-trip min/avg/max = %s/%s/%s ms", ms(min), ms(sum/time.Duration(received)), ms(max)))
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

func curlMeter(p *process.Proc, o *curlOpts, n int) {
	if o.silent {
		return
	}
	p.Eprintln("  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current")
	p.Eprintln("                                 Dload  Upload   Total   Spent    Left  Speed")
	if n > 0 {
		p.Eprintln(fmt.Sprintf("100 %5d  100 %5d    0     0  %5d      0 --:--:-- --:--:-- --:--:-- %5d", n, n, n, n))
	} else {
		p.Eprintln("  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0")
	}
}

// curlErr prints `curl: (N) message` (unless -s without -S) and returns N.
func curlErr(p *process.Proc, o *curlOpts, code int, msg string) int {
	if !o.silent || o.showErr {
		p.Eprintln(fmt.Sprintf("curl: (%d) %s", code, msg))
	}
	return code
}

// Curl is curl / curl.exe (rows H1, H2, H5, H6; upstream
// test/e2e/windows/hybrid_network.go:136 `curl.exe -4 <ip> --connect-timeout
// 10 --fail`, dns.go:107/122 `curl.exe -k https://kubernetes:443`). Exit
// codes and messages are curl's: 6 could not resolve, 7 failed to connect,
// 28 timeout, 22 --fail on >= 400, 60 untrusted certificate.
func Curl(p *process.Proc, argv []string) int {
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
			p.Eprintln("curl: option " + a + ": is unknown")
			p.Eprintln("curl: try 'curl --help' or 'curl --manual' for more information")
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
					p.Eprintln(fmt.Sprintf("curl: option -%c: is unknown", f))
					p.Eprintln("curl: try 'curl --help' or 'curl --manual' for more information")
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
		p.Eprintln("curl: no URL specified")
		p.Eprintln("curl: try 'curl --help' or 'curl --manual' for more information")
		return 2
	}
	scheme, host, port, path, ok := process.ParseURL(o.url)
	if !ok {
		curlMeter(p, o, 0)
		return curlErr(p, o, 3, "URL rejected: Malformed input to a URL function")
	}
	if scheme != "http" && scheme != "https" {
		curlMeter(p, o, 0)
		return curlErr(p, o, 1, fmt.Sprintf("Protocol \"%s\" not supported", scheme))
	}
	url := scheme + "://" + host + ":" + strconv.Itoa(port) + path
	if strings.Contains(host, ":") {
		url = scheme + "://[" + host + "]:" + strconv.Itoa(port) + path
	}
	addrs, err := p.Resolve(host)
	addr, found := process.Pick(addrs, o.family)
	if p.Done() {
		return p.Killed()
	}
	if err != nil || !found {
		curlMeter(p, o, 0)
		return curlErr(p, o, 6, "Could not resolve host: "+host)
	}
	if o.verbose {
		p.Eprintln(fmt.Sprintf("*   Trying %s:%d...", addr, port))
	}
	start := p.Now()
	resp, err := p.Net().HTTP(p.Ctx, o.method, url, o.insecure)
	if p.Done() {
		return p.Killed()
	}
	if err != nil {
		curlMeter(p, o, 0)
		elapsed := func() int64 { return p.Now().Sub(start).Milliseconds() }
		switch {
		case errors.Is(err, process.ErrNameNotFound):
			return curlErr(p, o, 6, "Could not resolve host: "+host)
		case errors.Is(err, process.ErrTimeout):
			wait := o.connectTimeout
			if wait == 0 || (o.maxTime > 0 && o.maxTime < wait) {
				wait = o.maxTime
			}
			if wait == 0 {
				wait = 21 * time.Second // Windows' SYN retries; Linux' are longer
				if !p.Win {
					wait = 130 * time.Second
				}
			}
			if !p.Sleep(wait) {
				return p.Killed()
			}
			if o.connectTimeout == 0 && o.maxTime > 0 {
				return curlErr(p, o, 28, fmt.Sprintf("Operation timed out after %d milliseconds with 0 bytes received", wait.Milliseconds()+1))
			}
			return curlErr(p, o, 28, fmt.Sprintf("Failed to connect to %s port %d after %d ms: Timeout was reached", host, port, wait.Milliseconds()+1))
		case errors.Is(err, process.ErrUntrustedCert):
			if p.Win {
				return curlErr(p, o, 60, "schannel: SEC_E_UNTRUSTED_ROOT (0x80090325) - The certificate chain was issued by an authority that is not trusted.")
			}
			return curlErr(p, o, 60, "SSL certificate problem: unable to get local issuer certificate")
		default: // refused, unreachable
			if p.Win && errors.Is(err, process.ErrRefused) {
				// Windows retries a refused SYN twice: about 2 s
				if !p.Sleep(2 * time.Second) {
					return p.Killed()
				}
			}
			return curlErr(p, o, 7, fmt.Sprintf("Failed to connect to %s port %d after %d ms: Couldn't connect to server", host, port, elapsed()))
		}
	}
	if resp == nil {
		curlMeter(p, o, 0)
		return curlErr(p, o, 52, "Empty reply from server")
	}
	statusLine := fmt.Sprintf("HTTP/1.1 %d %s", resp.Status, http.StatusText(resp.Status))
	headers := process.HeaderLines(resp)
	if o.verbose {
		p.Eprintln(fmt.Sprintf("* Connected to %s (%s) port %d", host, addr, port))
		p.Eprintln(fmt.Sprintf("> %s %s HTTP/1.1", o.method, path))
		p.Eprintln(fmt.Sprintf("> Host: %s:%d", host, port))
		p.Eprintln("> User-Agent: curl/" + curlVersion)
		p.Eprintln("> Accept: */*")
		p.Eprintln(">")
		p.Eprintln("< " + statusLine)
		for _, h := range headers {
			p.Eprintln("< " + h)
		}
		p.Eprintln("<")
	}
	if o.fail && resp.Status >= 400 {
		curlMeter(p, o, 0)
		return curlErr(p, o, 22, fmt.Sprintf("The requested URL returned error: %d", resp.Status))
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
	curlMeter(p, o, len(out))
	switch {
	case o.output != "" && p.IsNullDevice(o.output):
		// -o /dev/null: the body is dropped (the probes' `-w '%{http_code}'`)
	case o.output != "" && o.output != "-":
		if err := p.WriteFile(o.output, out, false); err != nil {
			return curlErr(p, o, 23, "Failure writing output to destination")
		}
	default:
		p.Stdout.Write(out)
	}
	if o.writeOut != "" {
		w := strings.NewReplacer("%{http_code}", fmt.Sprintf("%03d", resp.Status), "%{response_code}", fmt.Sprintf("%03d", resp.Status),
			"%{remote_ip}", addr.String(), `\n`, "\n", "%{url_effective}", o.url).Replace(o.writeOut)
		p.Stdout.Write([]byte(w))
	}
	if o.verbose {
		p.Eprintln(fmt.Sprintf("* Connection #0 to host %s left intact", host))
	}
	return 0
}

func dnsServer(p *process.Proc, args []string) string {
	if len(args) > 1 {
		return args[1]
	}
	if len(p.Env.Interfaces.DNSServers) > 0 {
		return p.Env.Interfaces.DNSServers[0].String()
	}
	return "127.0.0.1"
}

// NslookupWindows is nslookup.exe (row H2): `Server:  UnKnown` (the
// cluster DNS has no PTR record for itself), then Name/Address, or
// `*** UnKnown can't find x: Non-existent domain`.
func NslookupWindows(p *process.Proc, argv []string) int {
	args := operands(argv[1:])
	if len(args) == 0 {
		p.Eprintln("*** nslookup: interactive mode needs a console")
		return 1
	}
	server := dnsServer(p, args)
	p.Println("Server:  UnKnown")
	p.Println("Address:  " + server)
	p.Println("")
	addrs, err := p.Resolve(args[0])
	if p.Done() {
		return p.Killed()
	}
	if err != nil {
		if errors.Is(err, process.ErrTimeout) || errors.Is(err, process.ErrUnreachable) {
			p.Eprintln("DNS request timed out.")
			p.Eprintln("    timeout was 2 seconds.")
			p.Eprintln("*** Request to UnKnown timed-out")
			return 1
		}
		p.Eprintln("*** UnKnown can't find " + args[0] + ": Non-existent domain")
		return 1
	}
	name := p.FQDN(args[0])
	if !process.IsClusterName(name) {
		p.Println("Non-authoritative answer:")
	}
	p.Println("Name:    " + name)
	if len(addrs) == 1 {
		p.Println("Address:  " + addrs[0].String())
	} else {
		for i, a := range addrs {
			if i == 0 {
				p.Println("Addresses:  " + a.String())
			} else {
				p.Println("          " + a.String())
			}
		}
	}
	p.Println("")
	return 0
}

// NslookupLinux is busybox nslookup.
func NslookupLinux(p *process.Proc, argv []string) int {
	args := operands(argv[1:])
	if len(args) == 0 {
		p.Eprintln("Usage: nslookup [-type=QUERY_TYPE] [-debug] HOST [DNS_SERVER]")
		return 1
	}
	server := dnsServer(p, args)
	p.Println("Server:\t\t" + server)
	p.Println("Address:\t" + server + ":53")
	p.Println("")
	addrs, err := p.Resolve(args[0])
	if p.Done() {
		return p.Killed()
	}
	if err != nil {
		if errors.Is(err, process.ErrTimeout) || errors.Is(err, process.ErrUnreachable) {
			p.Println(";; connection timed out; no servers could be reached")
			return 1
		}
		p.Println("** server can't find " + args[0] + ": NXDOMAIN")
		p.Println("")
		return 1
	}
	for _, a := range addrs {
		p.Println("Name:\t" + args[0])
		p.Println("Address: " + a.String())
	}
	p.Println("")
	return 0
}

// ---- nltest ----

// Nltest is nltest.exe for GMSA pods (upstream
// test/e2e/windows/gmsa_kubelet.go:117-130: `nltest /PARENTDOMAIN` output
// starts with the credential spec's domain and contains "The command
// completed successfully"; gmsa_full.go:84 `nltest /QUERY`).
func Nltest(p *process.Proc, argv []string) int {
	if len(argv) < 2 {
		p.Println("Usage: nltest [/OPTIONS]")
		return 1
	}
	dom := p.Env.GMSADomain
	opt := strings.ToUpper(argv[1])
	switch {
	case opt == "/PARENTDOMAIN":
		if dom == "" {
			p.Println("Getting parent domain failed: Status = 1355 0x54b ERROR_NO_SUCH_DOMAIN")
			return 1
		}
		p.Println(dom + ". (1)")
		p.Println("The command completed successfully")
		return 0
	case opt == "/QUERY" || strings.HasPrefix(opt, "/SC_RESET") || strings.HasPrefix(opt, "/SC_QUERY") || strings.HasPrefix(opt, "/SC_VERIFY"):
		if dom == "" {
			p.Println("I_NetLogonControl failed: Status = 1717 0x6b5 RPC_S_UNKNOWN_IF")
			return 1
		}
		// The domain controller is reachable when the domain resolves.
		if _, err := p.Resolve(dom); err != nil {
			p.Println("Flags: 0")
			p.Println("Trusted DC Connection Status Status = 1311 0x51f ERROR_NO_LOGON_SERVERS")
			p.Println("The command completed successfully")
			return 0
		}
		p.Println("Flags: 30 HAS_IP  HAS_TIMESERV")
		p.Println(`Trusted DC Name \\dc1.` + dom)
		p.Println("Trusted DC Connection Status Status = 0 0x0 NERR_Success")
		p.Println("The command completed successfully")
		return 0
	case strings.HasPrefix(opt, "/DSGETDC:"):
		d := argv[1][len("/DSGETDC:"):]
		if dom == "" || !strings.EqualFold(d, dom) {
			p.Println("Getting DC name failed: Status = 1355 0x54b ERROR_NO_SUCH_DOMAIN")
			return 1
		}
		p.Println(`           DC: \\DC1.` + strings.ToUpper(dom))
		p.Println("  Dom Name: " + dom)
		p.Println("The command completed successfully")
		return 0
	}
	p.Println("Usage: nltest [/OPTIONS]")
	return 1
}

// ---- nc ----

var serviceNames = map[int]string{21: "ftp", 22: "ssh", 25: "smtp", 53: "domain", 80: "http", 443: "https", 6443: "sun-sr-https", 8080: "http-alt", 10250: "*"}

// Nc is OpenBSD netcat (upstream test/e2e/windows/hybrid_network.go:130
// `nc -vz <ip> <port> -w <timeout>`): -v prints `Connection to <host> <port>
// port [tcp/<service>] succeeded!` on stderr.
func Nc(p *process.Proc, argv []string) int {
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
			p.Eprintln("Listening on 0.0.0.0 " + pos[len(pos)-1])
		}
		return p.Block()
	}
	if len(pos) < 2 {
		p.Eprintln("usage: nc [-46CDdFhklNnrStUuvZz] [-I length] [-i interval] [-M ttl]")
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
			p.Eprintln("nc: port number invalid: " + ps)
			return 1
		}
		addrs, err := p.Resolve(host)
		if p.Done() {
			return p.Killed()
		}
		addr, ok := process.Pick(addrs, 0)
		if err != nil || !ok {
			p.Eprintln(fmt.Sprintf("nc: getaddrinfo for host \"%s\" port %d: Name or service not known", host, port))
			return 1
		}
		err = p.Net().Dial(p.Ctx, proto, addr, port)
		if p.Done() {
			return p.Killed()
		}
		switch {
		case err == nil:
			if verbose {
				svc := serviceNames[port]
				if svc == "" {
					svc = "*"
				}
				p.Eprintln(fmt.Sprintf("Connection to %s %d port [%s/%s] succeeded!", host, port, proto, svc))
			}
			if !zero {
				// what the client sends goes to the server; print its
				// answer (agnhost_webhook.go ncConverse)
				ncConverse(p, proto, addr, port)
			}
		case errors.Is(err, process.ErrTimeout):
			if wait == 0 {
				wait = 130 * time.Second
			}
			if !p.Sleep(wait) {
				return p.Killed()
			}
			if verbose {
				p.Eprintln(fmt.Sprintf("nc: connect to %s port %d (%s) timed out: Operation now in progress", host, port, proto))
			}
			code = 1
		case errors.Is(err, process.ErrUnreachable):
			if verbose {
				p.Eprintln(fmt.Sprintf("nc: connect to %s port %d (%s) failed: No route to host", host, port, proto))
			}
			code = 1
		default:
			if verbose {
				p.Eprintln(fmt.Sprintf("nc: connect to %s port %d (%s) failed: Connection refused", host, port, proto))
			}
			code = 1
		}
	}
	return code
}

// ---- wget ----

// Wget is busybox wget: -q, -O file / -O- / -qO-, -T seconds, --spider,
// --post-data STR and --post-file FILE (a POST with that body: upstream's
// PreStop spec posts {"Source": "prestop"} to agnhost nettest's /write).
func Wget(p *process.Proc, argv []string) int {
	quiet, spider := false, false
	output, url := "", ""
	var body []byte
	timeout := 900 * time.Second
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "--post-data" || a == "--post-file" || strings.HasPrefix(a, "--post-data=") || strings.HasPrefix(a, "--post-file="):
			name, v, has := strings.Cut(a, "=")
			if !has && i+1 < len(argv) {
				i++
				v = argv[i]
			}
			body = []byte(v)
			if name == "--post-file" {
				data, err := p.ReadFile(v)
				if err != nil {
					p.Eprintln("wget: can't open '" + v + "': " + process.PosixFileError(err, true))
					return 1
				}
				body = data
			}
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
		p.Eprintln("BusyBox v1.36.1 (2023-11-07 18:53:09 UTC) multi-call binary.")
		p.Eprintln("")
		p.Eprintln("Usage: wget [-cqS] [--spider] [-O FILE] [-o LOGFILE] [--header STR]")
		return 1
	}
	scheme, host, port, path, ok := process.ParseURL(url)
	if !ok || (scheme != "http" && scheme != "https") {
		p.Eprintln("wget: not an http or ftp url: " + url)
		return 1
	}
	addrs, err := p.Resolve(host)
	addr, found := process.Pick(addrs, 0)
	if p.Done() {
		return p.Killed()
	}
	if err != nil || !found {
		p.Eprintln("wget: bad address '" + host + "'")
		return 1
	}
	if !quiet {
		p.Eprintln(fmt.Sprintf("Connecting to %s:%d (%s:%d)", host, port, addr, port))
	}
	full := scheme + "://" + host + ":" + strconv.Itoa(port) + path
	method := "GET"
	if spider {
		method = "HEAD"
	}
	if body != nil {
		method = "POST"
	}
	resp, err := process.SendHTTP(p.Ctx, p.Net(), method, full, body, true)
	if p.Done() {
		return p.Killed()
	}
	if err != nil {
		switch {
		case errors.Is(err, process.ErrTimeout):
			if !p.Sleep(timeout) {
				return p.Killed()
			}
			p.Eprintln("wget: download timed out")
		case errors.Is(err, process.ErrNameNotFound):
			p.Eprintln("wget: bad address '" + host + "'")
		case errors.Is(err, process.ErrUnreachable):
			p.Eprintln(fmt.Sprintf("wget: can't connect to remote host (%s): No route to host", addr))
		default:
			p.Eprintln(fmt.Sprintf("wget: can't connect to remote host (%s): Connection refused", addr))
		}
		return 1
	}
	if resp == nil {
		p.Eprintln("wget: error getting response")
		return 1
	}
	if resp.Status >= 400 {
		p.Eprintln(fmt.Sprintf("wget: server returned error: HTTP/1.1 %d %s", resp.Status, http.StatusText(resp.Status)))
		return 1
	}
	if spider {
		if !quiet {
			p.Eprintln("remote file exists")
		}
		return 0
	}
	if output == "" {
		output = process.BaseName(strings.SplitN(path, "?", 2)[0])
		if output == "" {
			output = "index.html"
		}
	}
	if output == "-" {
		if !quiet {
			p.Eprintln("writing to stdout")
		}
		p.Stdout.Write(resp.Body)
		if !quiet {
			p.Eprintln("written to stdout")
		}
		return 0
	}
	if !quiet {
		p.Eprintln("saving to '" + output + "'")
	}
	if err := p.WriteFile(output, resp.Body, false); err != nil {
		p.Eprintln("wget: can't open '" + output + "': " + process.PosixFileError(err, true))
		return 1
	}
	if !quiet {
		p.Eprintln("'" + output + "' saved")
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
