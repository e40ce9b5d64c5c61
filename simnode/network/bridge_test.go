package network_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/netip"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/network"
	"wink.dev/wink/simnode/shell"
)

// TestBridge: the apiserver's pods/proxy reaches a simulated server without
// a real socket (update-demo's data.json, row H1); a pod that listens on
// nothing there is not bridged.
func TestBridge(t *testing.T) {
	c := newCluster()
	m := c.model(func(o *network.Options) {
		o.HTTPHandler = func(pod *corev1.Pod, port int, req *network.HTTPRequest) *shell.HTTPResponse {
			if req.Server == nil {
				t.Error("no Server view for the answering pod")
			}
			return &shell.HTTPResponse{Status: 200, Body: []byte(pod.Name + " " + req.Path)}
		}
	})
	conn, ok := m.Bridge("10.244.1.10:80")
	if !ok {
		t.Fatal("win-web:80 not bridged")
	}
	defer conn.Close()
	go func() { _, _ = io.WriteString(conn, "GET /data.json?x=1 HTTP/1.1\r\nHost: a\r\n\r\n") }()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || string(body) != "win-web /data.json?x=1" {
		t.Errorf("got %d %q", resp.StatusCode, body)
	}
	if _, ok := m.Bridge("10.244.1.10:81"); ok {
		t.Error("a port nobody listens on was bridged")
	}
	if _, ok := m.Bridge("10.96.0.30:80"); !ok {
		t.Error("the win-web Service was not bridged to its endpoint")
	}
}

type converser interface {
	Converse(ctx context.Context, proto string, addr netip.Addr, port int, data string) (string, error)
}

// TestConverse: nc's bytes reach the simulated server behind a Service and
// its answer comes back (jig.go `echo hostName | nc -v -t -w 2 svc 80`).
func TestConverse(t *testing.T) {
	c := newCluster()
	m := c.model(func(o *network.Options) {
		o.TCPHandler = func(pod *corev1.Pod, port int, data string, _ netip.Addr) (string, bool) {
			return pod.Name + ":" + strings.TrimSpace(data), true
		}
	})
	conv := c.from(m, "win-client").(converser)
	got, err := conv.Converse(ctx, "tcp", addr("10.96.0.30"), 80, "hostName\n")
	if err != nil || got != "win-web:hostName" {
		t.Errorf("tcp: %q %v", got, err)
	}
	if _, err := conv.Converse(ctx, "tcp", addr("10.244.1.10"), 81, "x"); err == nil {
		t.Error("tcp to a closed port: want an error")
	}
}
