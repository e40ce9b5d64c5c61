package network_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"wink.dev/wink/simnode/network"
	"wink.dev/wink/simnode/shell"
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

// TestHTTPToRealSocket (row H1): a pod's request to a server listening on
// a real socket (agnhost nettest) reaches that server with its method,
// path and body, at the pod address and through its Service; a request
// without a real listener keeps the simulated answer.
func TestHTTPToRealSocket(t *testing.T) {
	c := newCluster()
	m := c.model()
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	l, err := c.from(m, "win-web").(network.Listener).Listen(lctx, 80)
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu  sync.Mutex
		got []string
	)
	go func() {
		_ = http.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			defer mu.Unlock()
			got = append(got, r.Method+" "+r.URL.RequestURI()+" "+string(b))
			fmt.Fprint(w, "seen")
		}))
	}()
	client := c.from(m, "win-client")
	for _, url := range []string{"http://10.244.1.10/write?x=1", "http://10.96.0.30:80/write?x=1"} {
		resp, err := client.(shell.BodySender).HTTPBody(ctx, "POST", url, []byte(`{"Source": "prestop"}`), false)
		if err != nil || resp.Status != 200 || string(resp.Body) != "seen" {
			t.Fatalf("POST %s: %v %+v", url, err, resp)
		}
	}
	if resp, err := client.HTTP(ctx, "GET", "http://10.244.1.10/read", false); err != nil || string(resp.Body) != "seen" {
		t.Fatalf("GET: %v %+v", err, resp)
	}
	want := []string{`POST /write?x=1 {"Source": "prestop"}`, `POST /write?x=1 {"Source": "prestop"}`, "GET /read "}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("server saw %q, want %q", got, want)
	}
	l.Close()
	if resp, err := client.HTTP(ctx, "GET", "http://10.244.1.10/read", false); err != nil || string(resp.Body) == "seen" {
		t.Fatalf("after Close the simulated answer: %v %+v", err, resp)
	}
}
