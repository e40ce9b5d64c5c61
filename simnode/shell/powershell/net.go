package powershell

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"wink.dev/wink/simnode/shell/powershell/engine"

	"wink.dev/wink/simnode/shell/process"
)

var dnsCols = []engine.Col{{Name: "Name", Width: 47}, {Name: "Type", Width: 7}, {Name: "TTL", Width: 6}, {Name: "Section", Width: 11}, {Name: "IPAddress"}}

// cmdletResolveDnsName is Resolve-DnsName (row H2).
func cmdletResolveDnsName(c *engine.Call) {
	name := c.Str("Name")
	if name == "" && len(c.Input) > 0 {
		name = engine.ToStr(c.Input[0])
	}
	addrs, err := c.S.P.Resolve(name)
	c.S.CheckCtx()
	if err != nil {
		msg, fq := name+" : DNS name does not exist", "DNS_ERROR_RCODE_NAME_ERROR"
		if errors.Is(err, process.ErrTimeout) || errors.Is(err, process.ErrUnreachable) {
			msg, fq = name+" : This operation returned because the timeout period expired", "ERROR_TIMEOUT"
		}
		c.Fail(msg, "ResourceUnavailable", name, "Win32Exception", fq)
		return
	}
	fq := c.S.P.FQDN(name)
	ttl := "5"
	if !process.IsClusterName(fq) {
		ttl = "30"
	}
	for _, a := range addrs {
		typ := "A"
		if a.Is6() && !a.Is4In6() {
			typ = "AAAA"
		}
		c.Out(&engine.Object{TypeName: "Microsoft.DnsClient.Commands.DnsRecord_A", View: "table", Cols: dnsCols, Str: fq,
			Props: []engine.Prop{{Name: "Name", Val: fq}, {Name: "Type", Val: typ}, {Name: "TTL", Val: ttl}, {Name: "Section", Val: "Answer"}, {Name: "IPAddress", Val: a.String()}}})
	}
}

// cmdletTestNetConnection is Test-NetConnection: its list output with
// `TcpTestSucceeded : True` / `PingSucceeded`; failures are warnings, so
// $? stays True (rows H1, H4).
func cmdletTestNetConnection(c *engine.Call) {
	s := c.S
	host := c.Str("ComputerName")
	if host == "" {
		host = "internetbeacon.msedge.net"
	}
	port := 0
	if c.Set("Port") {
		port = int(engine.ToInt(c.Named["Port"]))
	}
	switch strings.ToLower(c.Str("CommonTCPPort")) {
	case "http":
		port = 80
	case "rdp":
		port = 3389
	case "smb":
		port = 445
	case "winrm":
		port = 5985
	}
	quiet := strings.EqualFold(c.Str("InformationLevel"), "Quiet")
	alias, src := s.P.AdapterName(), ""
	if s.P.Env.Interfaces.IP.IsValid() {
		src = s.P.Env.Interfaces.IP.String()
	}
	addrs, err := s.P.Resolve(host)
	s.CheckCtx()
	addr, ok := process.Pick(addrs, 4)
	if !ok {
		addr, ok = process.Pick(addrs, 0)
	}
	if err != nil || !ok {
		s.P.Println("WARNING: Name resolution of " + host + " failed")
		if quiet {
			c.Out(false)
			return
		}
		props := []engine.Prop{{Name: "ComputerName", Val: host}, {Name: "RemoteAddress", Val: ""}, {Name: "InterfaceAlias", Val: ""}, {Name: "SourceAddress", Val: ""}, {Name: "PingSucceeded", Val: false}}
		if port > 0 {
			props = append(props, engine.Prop{Name: "TcpTestSucceeded", Val: false})
		}
		c.Out(&engine.Object{TypeName: "TestNetConnectionResult", View: "list", Props: props})
		return
	}
	ping := func() (bool, time.Duration) {
		rtt, err := s.P.Net().Ping(s.P.Ctx, addr)
		s.CheckCtx()
		if err != nil {
			s.P.Println(fmt.Sprintf("WARNING: Ping to %s failed with status: TimedOut", addr))
			return false, 0
		}
		return true, rtt
	}
	if port > 0 {
		err := s.P.Net().Dial(s.P.Ctx, "tcp", addr, port)
		s.CheckCtx()
		if err == nil {
			if quiet {
				c.Out(true)
				return
			}
			c.Out(&engine.Object{TypeName: "TestNetConnectionResult", View: "list", Props: []engine.Prop{
				{Name: "ComputerName", Val: host}, {Name: "RemoteAddress", Val: addr.String()}, {Name: "RemotePort", Val: int64(port)},
				{Name: "InterfaceAlias", Val: alias}, {Name: "SourceAddress", Val: src}, {Name: "TcpTestSucceeded", Val: true}}})
			return
		}
		if errors.Is(err, process.ErrTimeout) && !s.P.Sleep(21*time.Second) {
			panic(engine.KilledSignal{})
		}
		s.P.Println(fmt.Sprintf("WARNING: TCP connect to (%s : %d) failed", addr, port))
		okPing, rtt := ping()
		if quiet {
			c.Out(false)
			return
		}
		c.Out(&engine.Object{TypeName: "TestNetConnectionResult", View: "list", Props: []engine.Prop{
			{Name: "ComputerName", Val: host}, {Name: "RemoteAddress", Val: addr.String()}, {Name: "RemotePort", Val: int64(port)},
			{Name: "InterfaceAlias", Val: alias}, {Name: "SourceAddress", Val: src}, {Name: "PingSucceeded", Val: okPing},
			{Name: "PingReplyDetails (RTT)", Val: fmt.Sprintf("%d ms", rtt.Milliseconds())}, {Name: "TcpTestSucceeded", Val: false}}})
		return
	}
	okPing, rtt := ping()
	if quiet {
		c.Out(okPing)
		return
	}
	c.Out(&engine.Object{TypeName: "TestNetConnectionResult", View: "list", Props: []engine.Prop{
		{Name: "ComputerName", Val: host}, {Name: "RemoteAddress", Val: addr.String()}, {Name: "InterfaceAlias", Val: alias}, {Name: "SourceAddress", Val: src},
		{Name: "PingSucceeded", Val: okPing}, {Name: "PingReplyDetails (RTT)", Val: fmt.Sprintf("%d ms", rtt.Milliseconds())}}})
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
func cmdletInvokeWebRequest(c *engine.Call) {
	s := c.S
	rest := c.Cmdlet.Name == "Invoke-RestMethod"
	raw := c.Str("Uri")
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	// A failed request is a statement-terminating WebException (the
	// cmdlet's ThrowTerminatingError): try/catch catches it without
	// -ErrorAction Stop (issue 18).
	status, details := 0, ""
	webErr := func(msg string) {
		reason := "WebException"
		if s.Pwsh {
			// pwsh 7 is on HttpClient: HttpRequestException, and
			// HttpResponseException for an HTTP error status
			reason = "HttpRequestException"
			if status > 0 {
				reason = "HttpResponseException"
			}
		}
		c.Terminate(&engine.ErrorRecord{Msg: msg, Category: "InvalidOperation", Target: "System.Net.HttpWebRequest", TargetType: "HttpWebRequest", Status: status, Details: details,
			Reason: reason, Fqid: "WebCmdletWebResponseException,Microsoft.PowerShell.Commands." + strings.ReplaceAll(c.Cmdlet.Name, "-", "") + "Command"})
	}
	scheme, host, port, path, ok := process.ParseURL(raw)
	if !ok || (scheme != "http" && scheme != "https") {
		c.Terminate(&engine.ErrorRecord{Msg: "Invalid URI: The hostname could not be parsed.", Category: "NotSpecified", Target: ":", Reason: "UriFormatException", Fqid: "System.UriFormatException,Microsoft.PowerShell.Commands.InvokeWebRequestCommand"})
		return
	}
	if _, err := s.P.Resolve(host); err != nil {
		s.CheckCtx()
		if s.Pwsh {
			webErr("No such host is known. (" + host + ":" + strconv.Itoa(port) + ")")
		} else {
			webErr("The remote name could not be resolved: '" + host + "'")
		}
		return
	}
	method := strings.ToUpper(c.Str("Method"))
	if method == "" {
		method = "GET"
	}
	url := scheme + "://" + host + ":" + strconv.Itoa(port) + path
	resp, err := s.P.Net().HTTP(s.P.Ctx, method, url, c.Has("SkipCertificateCheck"))
	s.CheckCtx()
	if err != nil {
		switch {
		case errors.Is(err, process.ErrTimeout):
			wait := 100 * time.Second
			if c.Set("TimeoutSec") {
				wait = time.Duration(engine.ToInt(c.Named["TimeoutSec"])) * time.Second
			}
			if !s.P.Sleep(wait) {
				panic(engine.KilledSignal{})
			}
			webErr("The operation has timed out.")
		case errors.Is(err, process.ErrUntrustedCert):
			webErr("The underlying connection was closed: Could not establish trust relationship for the SSL/TLS secure channel.")
		case errors.Is(err, process.ErrNameNotFound):
			webErr("The remote name could not be resolved: '" + host + "'")
		default:
			if s.Pwsh {
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
	if !rest && !s.Pwsh && !c.Has("UseBasicParsing") {
		c.Terminate(&engine.ErrorRecord{Msg: "The response content cannot be parsed because the Internet Explorer engine is not available, or Internet Explorer's first-launch configuration is not complete. Specify the UseBasicParsing parameter and try again.",
			Category: "NotImplemented", Target: ":", Reason: "NotSupportedException", Fqid: "WebCmdletIEDomNotSupportedException,Microsoft.PowerShell.Commands.InvokeWebRequestCommand"})
		return
	}
	body := string(resp.Body)
	if out := c.Str("OutFile"); out != "" {
		if err := s.P.WriteFile(out, resp.Body, false); err != nil {
			full := s.P.Path(out)
			msg, cat, reason, fq := engine.FileError(err, full, true)
			c.Fail(msg, cat, full, reason, fq)
		}
		if !c.Has("PassThru") {
			return
		}
	}
	if rest {
		// Invoke-RestMethod returns a JSON body as objects
		if ct := strings.ToLower(headerValue(resp.Headers, "Content-Type")); strings.Contains(ct, "json") || (ct == "" && strings.HasPrefix(strings.TrimSpace(body), "{")) {
			dec := json.NewDecoder(strings.NewReader(body))
			dec.UseNumber()
			if v, err := jsonValue(dec, 0); err == nil {
				c.Out(v)
				return
			}
		}
		c.Out(body)
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
	hh := engine.NewHash()
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		hh.Set(k, v)
	}
	o := &engine.Object{TypeName: "Microsoft.PowerShell.Commands.BasicHtmlWebResponseObject", View: "list", Props: []engine.Prop{
		{Name: "StatusCode", Val: int64(resp.Status)}, {Name: "StatusDescription", Val: http.StatusText(resp.Status)}, {Name: "Content", Val: body},
		{Name: "RawContent", Val: raw2.String()}, {Name: "Forms", Val: nil}, {Name: "Headers", Val: &engine.Object{Str: "{" + strings.Join(hs, ", ") + "}", Props: engine.HashProps(hh), TypeName: "Headers"}},
		{Name: "Images", Val: "{}"}, {Name: "InputFields", Val: "{}"}, {Name: "Links", Val: "{}"}, {Name: "ParsedHtml", Val: nil}, {Name: "RawContentLength", Val: int64(len(resp.Body))},
	}}
	if c.Has("UseBasicParsing") || s.Pwsh {
		o.Props = append(o.Props[:4], o.Props[5:9]...)
		o.Props = append(o.Props, engine.Prop{Name: "RawContentLength", Val: int64(len(resp.Body))})
	}
	c.Out(o)
}

func cmdletGetNetIPAddress(c *engine.Call) {
	ic := c.S.P.Env.Interfaces
	if !ic.IP.IsValid() {
		return
	}
	prefix := ic.PrefixLen
	if prefix == 0 {
		prefix = 24
	}
	c.Out(&engine.Object{TypeName: "MSFT_NetIPAddress", View: "list", Str: ic.IP.String(), Props: []engine.Prop{
		{Name: "IPAddress", Val: ic.IP.String()}, {Name: "InterfaceIndex", Val: int64(17)}, {Name: "InterfaceAlias", Val: c.S.P.AdapterName()},
		{Name: "AddressFamily", Val: "IPv4"}, {Name: "Type", Val: "Unicast"}, {Name: "PrefixLength", Val: int64(prefix)}, {Name: "PrefixOrigin", Val: "Manual"},
		{Name: "SuffixOrigin", Val: "Manual"}, {Name: "AddressState", Val: "Preferred"}, {Name: "ValidLifetime", Val: "Infinite ([TimeSpan]::MaxValue)"},
		{Name: "PreferredLifetime", Val: "Infinite ([TimeSpan]::MaxValue)"}, {Name: "SkipAsSource", Val: false}, {Name: "PolicyStore", Val: "ActiveStore"}}})
}

func init() {
	engine.RegisterCmdlets(
		&engine.Cmdlet{Name: "Resolve-DnsName", Help: "DNS lookup (row H2: a single suffix on Windows).", Rows: "E, H2", Positional: []string{"Name", "Type"}, Params: []string{"Server"}, Switches: []string{"DnsOnly", "NoHostsFile", "QuickTimeout", "CacheOnly", "TcpOnly"}, Class: "Microsoft.DnsClient.Commands.ResolveDnsName", Run: cmdletResolveDnsName},
		&engine.Cmdlet{Name: "Test-NetConnection", Aliases: []string{"tnc"}, Help: "Tests ICMP and TCP connectivity.", Rows: "E, H1, H4", Positional: []string{"ComputerName"}, Params: []string{"Port", "CommonTCPPort", "InformationLevel"}, Switches: []string{"TraceRoute", "DiagnoseRouting"}, Run: cmdletTestNetConnection},
		&engine.Cmdlet{Name: "Invoke-WebRequest", Aliases: []string{"iwr", "curl", "wget"}, Help: "Sends an HTTP request.", Rows: "E, H1", Positional: []string{"Uri"}, Params: []string{"Method", "TimeoutSec", "OutFile", "Headers", "Body", "ContentType", "UserAgent", "MaximumRedirection", "ErrorAction"}, Switches: []string{"UseBasicParsing", "SkipCertificateCheck", "PassThru", "DisableKeepAlive", "UseDefaultCredentials"}, Run: cmdletInvokeWebRequest},
		&engine.Cmdlet{Name: "Invoke-RestMethod", Aliases: []string{"irm"}, Help: "Sends an HTTP request and returns the content.", Rows: "E, H1", Positional: []string{"Uri"}, Params: []string{"Method", "TimeoutSec", "OutFile", "Headers", "Body", "ContentType", "UserAgent"}, Switches: []string{"UseBasicParsing", "SkipCertificateCheck", "DisableKeepAlive"}, Run: cmdletInvokeWebRequest},
		&engine.Cmdlet{Name: "Get-NetIPAddress", Help: "Lists the container's IP addresses.", Rows: "H1", Params: []string{"AddressFamily", "InterfaceAlias"}, Run: cmdletGetNetIPAddress},
	)
}
