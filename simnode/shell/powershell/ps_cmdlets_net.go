package powershell

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"wink.dev/wink/simnode/shell/process"
)

var dnsCols = []psCol{{name: "Name", width: 47}, {name: "Type", width: 7}, {name: "TTL", width: 6}, {name: "Section", width: 11}, {name: "IPAddress"}}

// cmdletResolveDnsName is Resolve-DnsName (row H2).
func cmdletResolveDnsName(c *psCall) {
	name := c.str("Name")
	if name == "" && len(c.input) > 0 {
		name = toStr(c.input[0])
	}
	addrs, err := c.s.p.Resolve(name)
	c.s.checkCtx()
	if err != nil {
		msg, fq := name+" : DNS name does not exist", "DNS_ERROR_RCODE_NAME_ERROR"
		if errors.Is(err, process.ErrTimeout) || errors.Is(err, process.ErrUnreachable) {
			msg, fq = name+" : This operation returned because the timeout period expired", "ERROR_TIMEOUT"
		}
		c.fail(msg, "ResourceUnavailable", name, "Win32Exception", fq)
		return
	}
	fq := c.s.p.FQDN(name)
	ttl := "5"
	if !process.IsClusterName(fq) {
		ttl = "30"
	}
	for _, a := range addrs {
		typ := "A"
		if a.Is6() && !a.Is4In6() {
			typ = "AAAA"
		}
		c.out(&psObject{typeName: "Microsoft.DnsClient.Commands.DnsRecord_A", view: "table", cols: dnsCols, str: fq,
			props: []psProp{{"Name", fq}, {"Type", typ}, {"TTL", ttl}, {"Section", "Answer"}, {"IPAddress", a.String()}}})
	}
}

// cmdletTestNetConnection is Test-NetConnection: its list output with
// `TcpTestSucceeded : True` / `PingSucceeded`; failures are warnings, so
// $? stays True (rows H1, H4).
func cmdletTestNetConnection(c *psCall) {
	s := c.s
	host := c.str("ComputerName")
	if host == "" {
		host = "internetbeacon.msedge.net"
	}
	port := 0
	if c.set("Port") {
		port = int(toInt(c.named["Port"]))
	}
	switch strings.ToLower(c.str("CommonTCPPort")) {
	case "http":
		port = 80
	case "rdp":
		port = 3389
	case "smb":
		port = 445
	case "winrm":
		port = 5985
	}
	quiet := strings.EqualFold(c.str("InformationLevel"), "Quiet")
	alias, src := s.p.AdapterName(), ""
	if s.p.Env.Interfaces.IP.IsValid() {
		src = s.p.Env.Interfaces.IP.String()
	}
	addrs, err := s.p.Resolve(host)
	s.checkCtx()
	addr, ok := process.Pick(addrs, 4)
	if !ok {
		addr, ok = process.Pick(addrs, 0)
	}
	if err != nil || !ok {
		s.p.Println("WARNING: Name resolution of " + host + " failed")
		if quiet {
			c.out(false)
			return
		}
		props := []psProp{{"ComputerName", host}, {"RemoteAddress", ""}, {"InterfaceAlias", ""}, {"SourceAddress", ""}, {"PingSucceeded", false}}
		if port > 0 {
			props = append(props, psProp{"TcpTestSucceeded", false})
		}
		c.out(&psObject{typeName: "TestNetConnectionResult", view: "list", props: props})
		return
	}
	ping := func() (bool, time.Duration) {
		rtt, err := s.p.Net().Ping(s.p.Ctx, addr)
		s.checkCtx()
		if err != nil {
			s.p.Println(fmt.Sprintf("WARNING: Ping to %s failed with status: TimedOut", addr))
			return false, 0
		}
		return true, rtt
	}
	if port > 0 {
		err := s.p.Net().Dial(s.p.Ctx, "tcp", addr, port)
		s.checkCtx()
		if err == nil {
			if quiet {
				c.out(true)
				return
			}
			c.out(&psObject{typeName: "TestNetConnectionResult", view: "list", props: []psProp{
				{"ComputerName", host}, {"RemoteAddress", addr.String()}, {"RemotePort", int64(port)},
				{"InterfaceAlias", alias}, {"SourceAddress", src}, {"TcpTestSucceeded", true}}})
			return
		}
		if errors.Is(err, process.ErrTimeout) && !s.p.Sleep(21*time.Second) {
			panic(psKilledSignal{})
		}
		s.p.Println(fmt.Sprintf("WARNING: TCP connect to (%s : %d) failed", addr, port))
		okPing, rtt := ping()
		if quiet {
			c.out(false)
			return
		}
		c.out(&psObject{typeName: "TestNetConnectionResult", view: "list", props: []psProp{
			{"ComputerName", host}, {"RemoteAddress", addr.String()}, {"RemotePort", int64(port)},
			{"InterfaceAlias", alias}, {"SourceAddress", src}, {"PingSucceeded", okPing},
			{"PingReplyDetails (RTT)", fmt.Sprintf("%d ms", rtt.Milliseconds())}, {"TcpTestSucceeded", false}}})
		return
	}
	okPing, rtt := ping()
	if quiet {
		c.out(okPing)
		return
	}
	c.out(&psObject{typeName: "TestNetConnectionResult", view: "list", props: []psProp{
		{"ComputerName", host}, {"RemoteAddress", addr.String()}, {"InterfaceAlias", alias}, {"SourceAddress", src},
		{"PingSucceeded", okPing}, {"PingReplyDetails (RTT)", fmt.Sprintf("%d ms", rtt.Milliseconds())}}})
}

// headerValue is a response header, its name matched case-insensitively.
func headerValue(h map[string]string, name string) string {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// cmdletInvokeWebRequest is Invoke-WebRequest and Invoke-RestMethod:
// .StatusCode, .Content; Windows PowerShell 5.1 without -UseBasicParsing
// fails in a container (no Internet Explorer engine).
func cmdletInvokeWebRequest(c *psCall) {
	s := c.s
	rest := c.cmdlet.name == "Invoke-RestMethod"
	raw := c.str("Uri")
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	// A failed request is a statement-terminating WebException (the
	// cmdlet's ThrowTerminatingError): try/catch catches it without
	// -ErrorAction Stop (issue 18).
	status, details := 0, ""
	webErr := func(msg string) {
		reason := "WebException"
		if s.pwsh {
			// pwsh 7 is on HttpClient: HttpRequestException, and
			// HttpResponseException for an HTTP error status
			reason = "HttpRequestException"
			if status > 0 {
				reason = "HttpResponseException"
			}
		}
		c.terminate(&psErrorRecord{msg: msg, category: "InvalidOperation", target: "System.Net.HttpWebRequest", targetType: "HttpWebRequest", status: status, details: details,
			reason: reason, fqid: "WebCmdletWebResponseException,Microsoft.PowerShell.Commands." + strings.ReplaceAll(c.cmdlet.name, "-", "") + "Command"})
	}
	scheme, host, port, path, ok := process.ParseURL(raw)
	if !ok || (scheme != "http" && scheme != "https") {
		c.terminate(&psErrorRecord{msg: "Invalid URI: The hostname could not be parsed.", category: "NotSpecified", target: ":", reason: "UriFormatException", fqid: "System.UriFormatException,Microsoft.PowerShell.Commands.InvokeWebRequestCommand"})
		return
	}
	if _, err := s.p.Resolve(host); err != nil {
		s.checkCtx()
		if s.pwsh {
			webErr("No such host is known. (" + host + ":" + strconv.Itoa(port) + ")")
		} else {
			webErr("The remote name could not be resolved: '" + host + "'")
		}
		return
	}
	method := strings.ToUpper(c.str("Method"))
	if method == "" {
		method = "GET"
	}
	url := scheme + "://" + host + ":" + strconv.Itoa(port) + path
	resp, err := s.p.Net().HTTP(s.p.Ctx, method, url, c.has("SkipCertificateCheck"))
	s.checkCtx()
	if err != nil {
		switch {
		case errors.Is(err, process.ErrTimeout):
			wait := 100 * time.Second
			if c.set("TimeoutSec") {
				wait = time.Duration(toInt(c.named["TimeoutSec"])) * time.Second
			}
			if !s.p.Sleep(wait) {
				panic(psKilledSignal{})
			}
			webErr("The operation has timed out.")
		case errors.Is(err, process.ErrUntrustedCert):
			webErr("The underlying connection was closed: Could not establish trust relationship for the SSL/TLS secure channel.")
		case errors.Is(err, process.ErrNameNotFound):
			webErr("The remote name could not be resolved: '" + host + "'")
		default:
			if s.pwsh {
				webErr("No connection could be made because the target machine actively refused it. (" + host + ":" + strconv.Itoa(port) + ")")
			} else {
				webErr("Unable to connect to the remote server")
			}
		}
		return
	}
	if resp == nil {
		webErr("The underlying connection was closed: The connection was closed unexpectedly.")
		return
	}
	if resp.Status >= 400 {
		status, details = resp.Status, string(resp.Body)
		webErr(fmt.Sprintf("The remote server returned an error: (%d) %s.", resp.Status, http.StatusText(resp.Status)))
		return
	}
	if !rest && !s.pwsh && !c.has("UseBasicParsing") {
		c.terminate(&psErrorRecord{msg: "The response content cannot be parsed because the Internet Explorer engine is not available, or Internet Explorer's first-launch configuration is not complete. Specify the UseBasicParsing parameter and try again.",
			category: "NotImplemented", target: ":", reason: "NotSupportedException", fqid: "WebCmdletIEDomNotSupportedException,Microsoft.PowerShell.Commands.InvokeWebRequestCommand"})
		return
	}
	body := string(resp.Body)
	if out := c.str("OutFile"); out != "" {
		if err := s.p.WriteFile(out, resp.Body, false); err != nil {
			full := s.p.Path(out)
			msg, cat, reason, fq := psFileError(err, full, true)
			c.fail(msg, cat, full, reason, fq)
		}
		if !c.has("PassThru") {
			return
		}
	}
	if rest {
		// Invoke-RestMethod returns a JSON body as objects
		if ct := strings.ToLower(headerValue(resp.Headers, "Content-Type")); strings.Contains(ct, "json") || (ct == "" && strings.HasPrefix(strings.TrimSpace(body), "{")) {
			dec := json.NewDecoder(strings.NewReader(body))
			dec.UseNumber()
			if v, err := jsonValue(dec, 0); err == nil {
				c.out(v)
				return
			}
		}
		c.out(body)
		return
	}
	headers := process.HeaderLines(resp)
	var raw2 strings.Builder
	raw2.WriteString(fmt.Sprintf("HTTP/1.1 %d %s\r\n", resp.Status, http.StatusText(resp.Status)))
	var hs []string
	for _, h := range headers {
		raw2.WriteString(h + "\r\n")
		k, v, _ := strings.Cut(h, ": ")
		hs = append(hs, "["+k+", "+v+"]")
	}
	raw2.WriteString("\r\n" + body)
	hh := newHash()
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		hh.set(k, v)
	}
	o := &psObject{typeName: "Microsoft.PowerShell.Commands.BasicHtmlWebResponseObject", view: "list", props: []psProp{
		{"StatusCode", int64(resp.Status)}, {"StatusDescription", http.StatusText(resp.Status)}, {"Content", body},
		{"RawContent", raw2.String()}, {"Forms", nil}, {"Headers", &psObject{str: "{" + strings.Join(hs, ", ") + "}", props: hashProps(hh), typeName: "Headers"}},
		{"Images", "{}"}, {"InputFields", "{}"}, {"Links", "{}"}, {"ParsedHtml", nil}, {"RawContentLength", int64(len(resp.Body))},
	}}
	if c.has("UseBasicParsing") || s.pwsh {
		o.props = append(o.props[:4], o.props[5:9]...)
		o.props = append(o.props, psProp{"RawContentLength", int64(len(resp.Body))})
	}
	c.out(o)
}

func cmdletGetNetIPAddress(c *psCall) {
	ic := c.s.p.Env.Interfaces
	if !ic.IP.IsValid() {
		return
	}
	prefix := ic.PrefixLen
	if prefix == 0 {
		prefix = 24
	}
	c.out(&psObject{typeName: "MSFT_NetIPAddress", view: "list", str: ic.IP.String(), props: []psProp{
		{"IPAddress", ic.IP.String()}, {"InterfaceIndex", int64(17)}, {"InterfaceAlias", c.s.p.AdapterName()},
		{"AddressFamily", "IPv4"}, {"Type", "Unicast"}, {"PrefixLength", int64(prefix)}, {"PrefixOrigin", "Manual"},
		{"SuffixOrigin", "Manual"}, {"AddressState", "Preferred"}, {"ValidLifetime", "Infinite ([TimeSpan]::MaxValue)"},
		{"PreferredLifetime", "Infinite ([TimeSpan]::MaxValue)"}, {"SkipAsSource", false}, {"PolicyStore", "ActiveStore"}}})
}

func init() {
	registerCmdlets(
		&psCmdlet{name: "Resolve-DnsName", help: "DNS lookup (row H2: a single suffix on Windows).", rows: "E, H2", positional: []string{"Name", "Type"}, params: []string{"Server"}, switches: []string{"DnsOnly", "NoHostsFile", "QuickTimeout", "CacheOnly", "TcpOnly"}, class: "Microsoft.DnsClient.Commands.ResolveDnsName", run: cmdletResolveDnsName},
		&psCmdlet{name: "Test-NetConnection", aliases: []string{"tnc"}, help: "Tests ICMP and TCP connectivity.", rows: "E, H1, H4", positional: []string{"ComputerName"}, params: []string{"Port", "CommonTCPPort", "InformationLevel"}, switches: []string{"TraceRoute", "DiagnoseRouting"}, run: cmdletTestNetConnection},
		&psCmdlet{name: "Invoke-WebRequest", aliases: []string{"iwr", "curl", "wget"}, help: "Sends an HTTP request.", rows: "E, H1", positional: []string{"Uri"}, params: []string{"Method", "TimeoutSec", "OutFile", "Headers", "Body", "ContentType", "UserAgent", "MaximumRedirection", "ErrorAction"}, switches: []string{"UseBasicParsing", "SkipCertificateCheck", "PassThru", "DisableKeepAlive", "UseDefaultCredentials"}, run: cmdletInvokeWebRequest},
		&psCmdlet{name: "Invoke-RestMethod", aliases: []string{"irm"}, help: "Sends an HTTP request and returns the content.", rows: "E, H1", positional: []string{"Uri"}, params: []string{"Method", "TimeoutSec", "OutFile", "Headers", "Body", "ContentType", "UserAgent"}, switches: []string{"UseBasicParsing", "SkipCertificateCheck", "DisableKeepAlive"}, run: cmdletInvokeWebRequest},
		&psCmdlet{name: "Get-NetIPAddress", help: "Lists the container's IP addresses.", rows: "H1", params: []string{"AddressFamily", "InterfaceAlias"}, run: cmdletGetNetIPAddress},
	)
}
