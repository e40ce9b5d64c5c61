package shell

import (
	"strings"
	"testing"
	"time"
)

// TestWindowsNetTools covers ping, curl.exe, nslookup, ipconfig and the
// PowerShell network cmdlets (rows H1–H6).
func TestWindowsNetTools(t *testing.T) {
	runCases(t, []tcase{
		{name: "ping replies", argv: []string{"ping", "-n", "2", "10.244.1.6"},
			out: "\r\nPinging 10.244.1.6 with 32 bytes of data:\r\n" +
				"Reply from 10.244.1.6: bytes=32 time<1ms TTL=128\r\n" +
				"Reply from 10.244.1.6: bytes=32 time<1ms TTL=128\r\n\r\n" +
				"Ping statistics for 10.244.1.6:\r\n" +
				"    Packets: Sent = 2, Received = 2, Lost = 0 (0% loss),\r\n" +
				"Approximate round trip times in milli-seconds:\r\n" +
				"    Minimum = 0ms, Maximum = 0ms, Average = 0ms\r\n"},
		{name: "ping rtt", argv: []string{"ping", "-n", "1", "web"}, setup: func(f *fixture) { f.net.rtt = 12 * time.Millisecond },
			outHas: []string{"Pinging web [10.96.0.20] with 32 bytes of data:\r\n", "Reply from 10.96.0.20: bytes=32 time=12ms TTL=128\r\n", "Minimum = 12ms, Maximum = 12ms, Average = 12ms"}},
		{name: "ping beyond the cluster (row H4)", argv: []string{"ping", "8.8.8.8"},
			out: "\r\nPinging 8.8.8.8 with 32 bytes of data:\r\n" + strings.Repeat("Request timed out.\r\n", 4) +
				"\r\nPing statistics for 8.8.8.8:\r\n    Packets: Sent = 4, Received = 0, Lost = 4 (100% loss),\r\n", code: 1,
			check: func(t *testing.T, f *fixture, r result) {
				if f.clock.slept != 12*time.Second { // -w 4000 between the four
					t.Errorf("slept %v", f.clock.slept)
				}
			}},
		{name: "ping -w", argv: []string{"ping", "-n", "2", "-w", "500", "8.8.8.8"}, code: 1, check: func(t *testing.T, f *fixture, r result) {
			if f.clock.slept != 500*time.Millisecond {
				t.Errorf("slept %v", f.clock.slept)
			}
		}},
		{name: "ping unknown host", argv: []string{"ping", "nope"}, out: "Ping request could not find host nope. Please check the name and try again.\r\n", code: 1},
		{name: "ping unreachable", argv: []string{"ping", "-n", "1", "10.244.9.9"}, setup: func(f *fixture) { f.net.ping["10.244.9.9"] = ErrUnreachable },
			outHas: []string{"Reply from 10.244.1.5: Destination host unreachable.\r\n", "Received = 1, Lost = 0"}, code: 1},
		// curl.exe (H1, H2)
		{name: "curl -I", argv: []string{"curl.exe", "-sI", "http://10.244.1.6/"}, out: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\n"},
		{name: "curl -o", argv: []string{"curl.exe", "-s", "-o", `C:\rw\out.html`, "http://10.244.1.6/"}, out: "-", errOut: "-", check: func(t *testing.T, f *fixture, r result) {
			if got, _ := f.fs.get(`C:\rw\out.html`); got != "hello" {
				t.Errorf("file %q", got)
			}
		}},
		{name: "curl -o read-only", argv: []string{"curl.exe", "-s", "-S", "-o", `C:\test-volume\o`, "http://10.244.1.6/"}, errOut: "curl: (23) Failure writing output to destination\r\n", code: 23},
		{name: "curl --fail 404", argv: []string{"curl.exe", "--fail", "http://10.96.0.20/nope"}, errHas: []string{"curl: (22) The requested URL returned error: 404\r\n"}, out: "-", code: 22},
		{name: "curl 404 without --fail", argv: []string{"curl.exe", "-s", "http://10.96.0.20/nope"}, out: "404 page not found\n"},
		{name: "curl -w http_code", argv: []string{"curl.exe", "-s", "-o", "NUL", "-w", "%{http_code}", "http://10.96.0.20/nope"}, out: "404"},
		{name: "curl refused", argv: []string{"curl.exe", "http://10.244.1.5:81"},
			errOut: "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\r\n" +
				"                                 Dload  Upload   Total   Spent    Left  Speed\r\n" +
				"  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0\r\n" +
				"curl: (7) Failed to connect to 10.244.1.5 port 81 after 2000 ms: Couldn't connect to server\r\n", code: 7},
		{name: "curl -s silences errors", argv: []string{"curl.exe", "-s", "http://nope/"}, errOut: "-", code: 6},
		{name: "curl untrusted cert", argv: []string{"curl.exe", "-sS", "https://10.244.1.6:443/"}, setup: func(f *fixture) { f.net.httpErr["10.244.1.6:443"] = ErrUntrustedCert },
			errOut: "curl: (60) schannel: SEC_E_UNTRUSTED_ROOT (0x80090325) - The certificate chain was issued by an authority that is not trusted.\r\n", code: 60},
		{name: "curl -v", argv: []string{"curl.exe", "-sv", "http://10.244.1.6/"}, out: "hello", errHas: []string{"*   Trying 10.244.1.6:80...\r\n", "> GET / HTTP/1.1\r\n", "< HTTP/1.1 200 OK\r\n"}},
		{name: "curl no url", argv: []string{"curl.exe"}, errOut: "curl: no URL specified\r\ncurl: try 'curl --help' or 'curl --manual' for more information\r\n", code: 2},
		{name: "curl bad scheme", argv: []string{"curl.exe", "-sS", "ftp://x/"}, errOut: "curl: (1) Protocol \"ftp\" not supported\r\n", code: 1},
		// nslookup (H2)
		{name: "nslookup bare name", argv: []string{"nslookup", "kubernetes"}, out: "Server:  UnKnown\r\nAddress:  10.96.0.10\r\n\r\nName:    kubernetes.default.svc.cluster.local\r\nAddress:  10.96.0.1\r\n\r\n"},
		{name: "nslookup external", argv: []string{"nslookup", "example.com"}, outHas: []string{"Non-authoritative answer:\r\nName:    example.com\r\nAddress:  93.184.216.34\r\n"}},
		{name: "nslookup nxdomain", argv: []string{"nslookup", "kubernetes.default"}, errOut: "*** UnKnown can't find kubernetes.default: Non-existent domain\r\n", code: 1},
		{name: "ipconfig", argv: []string{"ipconfig"}, outHas: []string{"\r\nWindows IP Configuration\r\n\r\n\r\nEthernet adapter vEthernet (", "   Connection-specific DNS Suffix  . : default.svc.cluster.local\r\n", "   IPv4 Address. . . . . . . . . . . : 10.244.1.5\r\n"}, outNot: []string{"DNS Servers"}},
		// PowerShell network cmdlets
		{name: "Test-NetConnection port open", argv: ps("Test-NetConnection -ComputerName 10.244.1.6 -Port 80"),
			outHas: []string{"\r\nComputerName     : 10.244.1.6\r\nRemoteAddress    : 10.244.1.6\r\nRemotePort       : 80\r\nInterfaceAlias   : vEthernet (", "SourceAddress    : 10.244.1.5\r\nTcpTestSucceeded : True\r\n\r\n\r\n"}},
		{name: "Test-NetConnection port closed", argv: ps("Test-NetConnection web -Port 81"),
			outHas: []string{"WARNING: TCP connect to (10.96.0.20 : 81) failed\r\n", "PingSucceeded          : True\r\n", "PingReplyDetails (RTT) : 0 ms\r\n", "TcpTestSucceeded       : False\r\n"}, code: 0},
		{name: "Test-NetConnection ping (row H4)", argv: ps("Test-NetConnection 8.8.8.8"),
			outHas: []string{"WARNING: Ping to 8.8.8.8 failed with status: TimedOut\r\n", "PingSucceeded          : False\r\n"}},
		{name: "Test-NetConnection quiet", argv: ps("if (Test-NetConnection web -Port 80 -InformationLevel Quiet) { 'open' }"), out: "open\r\n"},
		{name: "Test-NetConnection bad name", argv: ps("tnc nope -Port 80"), outHas: []string{"WARNING: Name resolution of nope failed\r\n", "TcpTestSucceeded : False"}},
		{name: "Resolve-DnsName", argv: ps("Resolve-DnsName kubernetes"),
			out: "\r\nName                                           Type   TTL   Section    IPAddress\r\n----                                           ----   ---   -------    ---------\r\nkubernetes.default.svc.cluster.local           A      5     Answer     10.96.0.1\r\n\r\n\r\n"},
		{name: "Resolve-DnsName missing", argv: ps("Resolve-DnsName kubernetes.default"), code: 1,
			errHas: []string{"Resolve-DnsName : kubernetes.default : DNS name does not exist\r\n", "    + CategoryInfo          : ResourceUnavailable: (kubernetes.default:String) [Resolve-DnsName], Win32Exception\r\n", "    + FullyQualifiedErrorId : DNS_ERROR_RCODE_NAME_ERROR,Microsoft.DnsClient.Commands.ResolveDnsName\r\n"}},
		{name: "iwr StatusCode", argv: ps("(Invoke-WebRequest -UseBasicParsing http://10.244.1.6).StatusCode"), out: "200\r\n"},
		{name: "iwr Content", argv: ps("$r = iwr http://web -UseBasicParsing; $r.Content"), out: "web-1\r\n"},
		{name: "iwr display", argv: ps("iwr -UseBasicParsing http://10.244.1.6"), outHas: []string{"\r\nStatusCode        : 200\r\nStatusDescription : OK\r\nContent           : hello\r\nRawContent        : HTTP/1.1 200 OK\r\n                    Content-Type: text/plain\r\n", "RawContentLength  : 5\r\n"}},
		{name: "iwr without basic parsing in 5.1", argv: ps("iwr http://10.244.1.6"), code: 1, errHas: []string{"Internet Explorer engine is not available"}},
		{name: "iwr 404", argv: ps("iwr -UseBasicParsing http://10.96.0.20/nope"), code: 1, errHas: []string{"Invoke-WebRequest : The remote server returned an error: (404) Not Found.\r\n", "(System.Net.HttpWebRequest:HttpWebRequest) [Invoke-WebRequest], WebException"}},
		{name: "iwr refused", argv: ps("iwr -UseBasicParsing http://10.244.1.5:81"), code: 1, errHas: []string{"Invoke-WebRequest : Unable to connect to the remote server\r\n"}},
		{name: "iwr dns", argv: ps("iwr -UseBasicParsing http://nope"), code: 1, errHas: []string{"Invoke-WebRequest : The remote name could not be resolved: 'nope'\r\n"}},
		{name: "curl alias in 5.1", argv: ps("(curl -UseBasicParsing http://10.244.1.6).Content"), out: "hello\r\n"},
		{name: "irm", argv: ps("Invoke-RestMethod http://web"), out: "web-1\r\n"},
		{name: "TcpClient", argv: ps("$c = New-Object System.Net.Sockets.TcpClient('10.244.1.6', 80); $c.Connected"), out: "True\r\n"},
		{name: "TcpClient refused", argv: ps("New-Object System.Net.Sockets.TcpClient('10.244.1.5', 81)"), code: 1, errHas: []string{"actively refused it 10.244.1.5:81"}},
		{name: "Dns static", argv: ps("[System.Net.Dns]::GetHostAddresses('web')"), out: "10.96.0.20\r\n"},
		{name: "Get-NetIPAddress", argv: ps("(Get-NetIPAddress).IPAddress"), out: "10.244.1.5\r\n"},
		// agnhost on Windows (hybrid_network.go:61 `test-webserver`)
		{name: "agnhost dns-server-list", argv: []string{`C:\agnhost\agnhost.exe`, "dns-server-list"}, out: "10.96.0.10\r\n"},
		{name: "agnhost unknown", argv: []string{"agnhost", "frob"}, errOut: "Error: unknown command \"frob\" for \"agnhost\"\r\nRun 'agnhost --help' for usage.\r\n", code: 1},
	})
}

// TestAgnhostLogs: servers log what upstream agnhost logs, then serve
// until stopped (host_process.go:730 expects "calling /healthz").
func TestAgnhostLogs(t *testing.T) {
	f := newFixture(Windows)
	f.env.Vars["KUBERNETES_SERVICE_HOST"] = "10.96.0.1"
	r := f.runFor(t, []string{"cmd", "/C", "copy", `c:\hpc\agnhost`, `c:\hpc\agnhost.exe`, "&&", `c:\hpc\agnhost.exe`, "inclusterclient"}, "", 100*time.Millisecond)
	if r.code != 1 || !strings.Contains(r.stdout, "0 file(s) copied.") {
		t.Errorf("copy of a missing file must fail the && chain: %d %q %q", r.code, r.stdout, r.stderr)
	}
	f.fs.add(`C:\hpc\agnhost`, "MZ")
	r = f.runFor(t, []string{"cmd", "/C", "copy", `c:\hpc\agnhost`, `c:\hpc\agnhost.exe`, "&&", `c:\hpc\agnhost.exe`, "inclusterclient"}, "", 100*time.Millisecond)
	if !strings.Contains(r.stderr, "calling /healthz") || strings.Contains(r.stderr, "status=failed") || r.code != ExitKilledWindows {
		t.Errorf("inclusterclient: %d %q %q", r.code, r.stdout, r.stderr)
	}
	f = newFixture(Linux)
	r = f.runFor(t, []string{"/agnhost", "serve-hostname", "--port", "9000"}, "", 50*time.Millisecond)
	if r.stderr != "2024/04/23 10:00:00 Serving on port 9000.\n" || r.code != ExitKilledLinux {
		t.Errorf("serve-hostname: %d %q", r.code, r.stderr)
	}
	r = f.runFor(t, []string{"agnhost", "netexec"}, "", 50*time.Millisecond)
	if !strings.Contains(r.stderr, "Started HTTP server on port 8080\n") || !strings.Contains(r.stderr, "Started UDP server on port  8081\n") {
		t.Errorf("netexec: %q", r.stderr)
	}
}
