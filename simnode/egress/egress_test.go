package egress

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestConnectRoutesSimulatedAddress checks the proxy the way the apiserver's
// HTTPConnect egress dialer uses it.
func TestConnectRoutesSimulatedAddress(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "kubelet")
	}))
	defer backend.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sock := filepath.Join(t.TempDir(), "egress.sock")
	var routes Routes
	routes.Set("172.18.0.2:10250", strings.TrimPrefix(backend.URL, "http://"))
	// A node served on a ConnListener gets the proxy's connection itself.
	direct := NewConnListener(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	defer direct.Close()
	routes.SetListener("172.18.0.3:10250", direct)
	directSrv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "kubelet without a dial")
	}), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = directSrv.Serve(direct) }()
	defer directSrv.Close()
	errc := make(chan error, 1)
	go func() { errc <- Serve(ctx, sock, &routes, slog.New(slog.NewTextHandler(io.Discard, nil))) }()

	tests := []struct {
		name, addr, wantStatus, wantBody string
	}{
		{"simulated node address", "172.18.0.2:10250", "200", "kubelet"},
		{"simulated node address served on a ConnListener", "172.18.0.3:10250", "200", "kubelet without a dial"},
		{"unknown address is dialled as is", "127.0.0.1:1", "503", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var conn net.Conn
			var err error
			for range 50 {
				if conn, err = net.Dial("unix", sock); err == nil {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", tt.addr)
			br := bufio.NewReader(conn)
			res, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(res.StatusCode); got != tt.wantStatus {
				t.Fatalf("CONNECT %s: status %s, want %s", tt.addr, got, tt.wantStatus)
			}
			if tt.wantBody == "" {
				return
			}
			fmt.Fprintf(conn, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			if string(body) != tt.wantBody {
				t.Fatalf("body %q, want %q", body, tt.wantBody)
			}
		})
	}
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

// TestSimulatedOnlyRefusesRealAddresses checks that a proxy with only the
// simulated network behind it never dials an address from this machine,
// even one that answers here, while its routes still work.
func TestSimulatedOnlyRefusesRealAddresses(t *testing.T) {
	real := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "this machine")
	}))
	defer real.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sock := filepath.Join(t.TempDir(), "egress.sock")
	var routes Routes
	routes.Set("172.18.255.254:10250", strings.TrimPrefix(real.URL, "http://"))
	routes.SimulatedOnly()
	errc := make(chan error, 1)
	go func() { errc <- Serve(ctx, sock, &routes, slog.New(slog.NewTextHandler(io.Discard, nil))) }()
	dial := Dialer(sock)
	var err error
	for range 50 {
		var c net.Conn
		if c, err = dial(ctx, "tcp", "172.18.255.254:10250"); err == nil {
			c.Close()
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("routed address: %v", err)
	}
	if c, err := dial(ctx, "tcp", strings.TrimPrefix(real.URL, "http://")); err == nil {
		c.Close()
		t.Fatalf("CONNECT %s was dialled from this machine; want it refused", real.URL)
	}
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

// fakeLister is a Resolver that resolves nothing and lists one server.
type fakeLister struct{}

func (fakeLister) Resolve(string) (string, bool) { return "", false }
func (fakeLister) Listing() Listing {
	return Listing{Local: []netip.Prefix{netip.MustParsePrefix("10.244.1.0/24")}, Listening: []netip.AddrPort{netip.MustParseAddrPort("10.244.1.2:9376")}}
}

// TestListing: the proxy says what it answers for: its routes and its
// resolver's listing, once each.
func TestListing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sock := filepath.Join(t.TempDir(), "egress.sock")
	var routes Routes
	routes.Set("172.18.255.254:10250", "127.0.0.1:1")
	routes.SetListener("172.18.255.253:10250", NewConnListener(&net.TCPAddr{}))
	routes.SetResolver(fakeLister{})
	errc := make(chan error, 1)
	go func() { errc <- Serve(ctx, sock, &routes, slog.New(slog.NewTextHandler(io.Discard, nil))) }()
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}}
	var res *http.Response
	var err error
	for range 50 {
		if res, err = client.Get("http://simnode" + ListingPath); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var l Listing
	if err := json.NewDecoder(res.Body).Decode(&l); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(l.Local, l.Listening)
	if want := "[10.244.1.0/24] [10.244.1.2:9376 172.18.255.253:10250 172.18.255.254:10250]"; got != want {
		t.Errorf("listing %s, want %s", got, want)
	}
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}
