package network_test

import (
	"context"
	"net"
	"testing"

	"wink.dev/wink/simnode/network"
)

// TestSockets: a simulated server listening on a real socket (agnhost
// webhook) is reached by a client outside the simulation at its pod
// address and at its Service's ClusterIP and port (row H1: the Service's
// port maps to the endpoint's target port); nothing else resolves.
func TestSockets(t *testing.T) {
	c := newCluster()
	m := c.model()
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	l, err := c.from(m, "win-web").(network.Listener).Listen(lctx, 80)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.from(m, "win-web").(network.Listener).Listen(lctx, 80); err == nil {
		t.Error("a second listener on the same pod port: want address already in use")
	}
	if _, err := c.from(m, "win-client").(network.Listener).Listen(lctx, 80); err != nil {
		t.Errorf("another pod's port 80: %v", err)
	}
	real := l.Addr().String()
	for _, tc := range []struct {
		addr string
		want string
	}{
		{"10.244.1.10:80", real}, // the pod
		{"10.244.1.10:81", ""},   // a port nobody listens on for real
		{"10.244.0.20:80", ""},   // nginx: simulated only
		{"10.96.0.1:443", ""},    // the kubernetes Service: the apiserver, not a pod socket
		{"not-an-address", ""},   // garbage
	} {
		got, ok := m.Resolve(tc.addr)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Resolve(%s) = %q %v, want %q", tc.addr, got, ok, tc.want)
		}
	}
	if got, ok := m.Resolve("10.96.0.30:80"); !ok || got != real {
		t.Errorf("Resolve(win-web Service) = %q %v, want %q", got, ok, real)
	}
	conn, err := net.Dial("tcp", real)
	if err != nil {
		t.Fatalf("dial the real listener: %v", err)
	}
	conn.Close()
	l.Close()
	if got, ok := m.Resolve("10.244.1.10:80"); ok {
		t.Errorf("after Close: Resolve = %q, want none", got)
	}
}
