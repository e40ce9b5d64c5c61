package pods

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// B16, S5: port-forward to the docs' win-webserver answers its HTML, and
// the request shows in the container log.
func TestPortForwardWinWebserver(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	script := "$listener = New-Object System.Net.HttpListener ; $listener.Prefixes.Add('http://*:80/') ; $listener.Start() ; while ($listener.IsListening) { }"
	f.start(simplePod("web", "powershell.exe", "-command", script))
	client, server := net.Pipe()
	errc := make(chan error, 1)
	go func() { errc <- f.p.PortForward(context.Background(), "default", "web", 80, server) }()
	if _, err := io.WriteString(client, "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(client), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	client.Close()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	want := "<html><body><H1>Windows Container Web Server</H1><p>IP 10.244.1.2 callerCount 1 </body></html>"
	if resp.StatusCode != 200 || string(body) != want {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
	if l := f.logLines("web", "c", 0); !strings.Contains(strings.Join(l, "\n"), "> http://10.244.1.2/") {
		t.Fatalf("log %q", l)
	}
	// Nothing listens on 8080.
	c2, s2 := net.Pipe()
	defer c2.Close()
	if err := f.p.PortForward(context.Background(), "default", "web", 8080, s2); err == nil || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("8080: %v", err)
	}
}
