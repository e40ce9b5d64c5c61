// Package egress is the apiserver's way into the simulated cluster network.
//
// The embedded apiserver's `cluster` egress selection (kubelet connections,
// pods/proxy, services/proxy) speaks HTTP CONNECT over a Unix socket, as it
// does to konnectivity. Simulated node InternalIPs exist only in the
// simulation, so the proxy maps each node's <InternalIP>:<kubelet port> to the
// local listener that serves that node's kubelet API, and dials every other
// address directly.
package egress

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"slices"
	"sync"
	"syscall"
	"time"
)

// Routes maps simulated addresses ("ip:port") to real ones. It is safe for
// concurrent use.
type Routes struct {
	mu        sync.RWMutex
	m         map[string]string
	listeners map[string]*ConnListener
	// resolver maps the other simulated addresses (pods, Services) to the
	// real listeners of simulated servers.
	resolver Resolver
	// simulatedOnly refuses addresses nothing simulated answers for.
	simulatedOnly bool
}

// SimulatedOnly makes the proxy refuse an address that neither a route nor
// the resolver knows, rather than dial it from this machine: for a proxy
// that the simulated network alone is behind (the kind backend's gateway
// sends it only addresses routed to simulated nodes).
func (r *Routes) SimulatedOnly() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.simulatedOnly = true
}

func (r *Routes) onlySimulated() bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.simulatedOnly
}

// SetListener routes the simulated address from to l: its connections are
// handed to l without a dial.
func (r *Routes) SetListener(from string, l *ConnListener) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.listeners == nil {
		r.listeners = map[string]*ConnListener{}
	}
	r.listeners[from] = l
}

func (r *Routes) listener(addr string) *ConnListener {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.listeners[addr]
}

// Resolver maps a simulated pod or Service address ("ip:port") to the real
// listener of the simulated server behind it (simnode/network
// Model.Resolve); ok is false when none listens there for real.
type Resolver interface {
	Resolve(addr string) (real string, ok bool)
}

// Bridger is a Resolver that also answers for simulated servers without a
// real socket: Bridge returns a connection served by the simulation
// (simnode/network Model.Bridge); ok is false when nothing there serves.
type Bridger interface {
	Bridge(addr string) (conn net.Conn, ok bool)
}

// bridge asks the resolver for a simulated connection to addr.
func (r *Routes) bridge(addr string) (net.Conn, bool) {
	r.mu.RLock()
	b, ok := r.resolver.(Bridger)
	r.mu.RUnlock()
	if !ok {
		return nil, false
	}
	return b.Bridge(addr)
}

// Listing is what the simulated network answers for, read by a gateway
// that relays only what a real node would accept (the kind backend's,
// harness/internal/kindgateway): every other connection is refused there.
type Listing struct {
	// Local are the ranges simulated pods' addresses come from (the
	// simulated nodes' podCIDRs).
	Local []netip.Prefix `json:"local"`
	// Listening are the TCP addresses something simulated listens on:
	// nodes' kubelet APIs, pods' servers, hostNetwork pods' at their
	// node's address.
	Listening []netip.AddrPort `json:"listening"`
}

// Lister is a Resolver that also says what it answers for.
type Lister interface {
	Listing() Listing
}

// ListingPath is the path of the proxy's Listing (GET, JSON).
const ListingPath = "/listing"

// listing is the routes' addresses and the resolver's Listing.
func (r *Routes) listing() Listing {
	r.mu.RLock()
	var l Listing
	if lr, ok := r.resolver.(Lister); ok {
		l = lr.Listing()
	}
	for a := range r.m {
		if ap, err := netip.ParseAddrPort(a); err == nil {
			l.Listening = append(l.Listening, ap)
		}
	}
	for a := range r.listeners {
		if ap, err := netip.ParseAddrPort(a); err == nil {
			l.Listening = append(l.Listening, ap)
		}
	}
	r.mu.RUnlock()
	slices.SortFunc(l.Listening, netip.AddrPort.Compare)
	l.Listening = slices.Compact(l.Listening)
	return l
}

// SetResolver sets the resolver asked about addresses without a route.
func (r *Routes) SetResolver(res Resolver) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.resolver = res
}

// Set routes the simulated address from to the real address to.
func (r *Routes) Set(from, to string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[string]string{}
	}
	r.m[from] = to
}

// Lookup returns where the simulated address goes, or addr itself.
func (r *Routes) Lookup(addr string) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if to, ok := r.m[addr]; ok {
		return to
	}
	if r.resolver != nil {
		if to, ok := r.resolver.Resolve(addr); ok {
			return to
		}
	}
	return addr
}

// Serve accepts CONNECT requests on the Unix socket path until ctx is done.
// A stale socket file from an earlier run is replaced.
func Serve(ctx context.Context, path string, routes *Routes, log *slog.Logger) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	l, err := (&net.ListenConfig{}).Listen(ctx, "unix", path)
	if err != nil {
		return fmt.Errorf("egress proxy: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return err
	}
	go func() {
		<-ctx.Done()
		l.Close()
	}()
	var delay time.Duration
	for {
		conn, err := l.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			// Out of descriptors (EMFILE) or the like: wait for
			// connections to close, as net/http's Server does, rather
			// than end simnode and every node with it.
			if errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) || errors.Is(err, syscall.ENOBUFS) || errors.Is(err, syscall.ENOMEM) {
				delay = min(max(2*delay, 5*time.Millisecond), time.Second)
				log.Warn("egress proxy: accept failed; retrying", "err", err, "in", delay)
				select {
				case <-ctx.Done():
					return nil
				case <-time.After(delay):
				}
				continue
			}
			return fmt.Errorf("egress proxy: %w", err)
		}
		delay = 0
		go handle(ctx, conn, routes, log)
	}
}

func handle(ctx context.Context, conn net.Conn, routes *Routes, log *slog.Logger) {
	handedOver := false
	defer func() {
		if !handedOver {
			conn.Close()
		}
	}()
	br := bufio.NewReader(conn)
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	req, err := http.ReadRequest(br)
	if err != nil {
		return
	}
	_ = conn.SetReadDeadline(time.Time{})
	if req.Method == http.MethodGet && req.URL.Path == ListingPath {
		body, err := json.Marshal(routes.listing())
		if err != nil {
			return
		}
		fmt.Fprintf(conn, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
		return
	}
	if req.Method != http.MethodConnect {
		fmt.Fprint(conn, "HTTP/1.1 405 Method Not Allowed\r\n\r\n")
		return
	}
	if l := routes.listener(req.Host); l != nil {
		fmt.Fprint(conn, "HTTP/1.1 200 Connection established\r\n\r\n")
		handedOver = l.deliver(ctx, &bufferedConn{Conn: conn, r: br})
		return
	}
	target := routes.Lookup(req.Host)
	var up net.Conn
	if target == req.Host {
		up, _ = routes.bridge(req.Host)
	}
	switch {
	case up != nil:
	case target == req.Host && routes.onlySimulated():
		err = errors.New("no simulated server there")
	default:
		d := net.Dialer{Timeout: 10 * time.Second}
		up, err = d.DialContext(ctx, "tcp", target)
	}
	if err != nil {
		log.Debug("egress dial failed", "addr", req.Host, "target", target, "err", err)
		fmt.Fprintf(conn, "HTTP/1.1 503 Service Unavailable\r\n\r\n")
		return
	}
	defer up.Close()
	fmt.Fprint(conn, "HTTP/1.1 200 Connection established\r\n\r\n")
	Join(conn, br, up)
}

// Join copies between client, read through r (which may hold what was
// already read of it), and up until both directions end, half-closing
// each side as the other's data ends.
func Join(client net.Conn, r io.Reader, up net.Conn) {
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(up, r); closeWrite(up); done <- struct{}{} }()
	go func() { _, _ = io.Copy(client, up); closeWrite(client); done <- struct{}{} }()
	<-done
	<-done
}

func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
		return
	}
	// A bridged connection (net.Pipe) cannot half-close: the client is
	// done with it.
	_ = c.Close()
}

// Dialer returns a dial function that reaches addresses of the simulated
// cluster network through the proxy at socket, as the apiserver does.
func Dialer(socket string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if network != "tcp" && network != "tcp4" {
			return nil, fmt.Errorf("egress: only tcp, not %s", network)
		}
		var d net.Dialer
		conn, err := d.DialContext(ctx, "unix", socket)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", addr, addr)
		br := bufio.NewReader(conn)
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			conn.Close()
			return nil, fmt.Errorf("egress CONNECT %s: %w", addr, err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			conn.Close()
			return nil, fmt.Errorf("egress CONNECT %s: %s", addr, res.Status)
		}
		if br.Buffered() > 0 {
			conn.Close()
			return nil, fmt.Errorf("egress CONNECT %s: unexpected data after the response", addr)
		}
		return conn, nil
	}
}
