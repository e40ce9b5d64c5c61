package egress

import (
	"bufio"
	"context"
	"net"
	"sync"
)

// ConnListener is a net.Listener whose connections are the proxy's own:
// a CONNECT to an address routed to it (Routes.SetListener) is handed
// over as it is, without a dial. A node's kubelet API then costs the
// proxied connection alone, not a TCP connection to its listener, the
// one accepted there and the pipes io.Copy splices them with: 5,000 nodes
// that metrics-server keeps a connection to would otherwise need 35,000
// file descriptors.
type ConnListener struct {
	addr net.Addr
	ch   chan net.Conn
	done chan struct{}
	once sync.Once
}

var _ net.Listener = (*ConnListener)(nil)

// NewConnListener returns a listener that says it listens on addr.
func NewConnListener(addr net.Addr) *ConnListener {
	return &ConnListener{addr: addr, ch: make(chan net.Conn), done: make(chan struct{})}
}

// Accept implements net.Listener.
func (l *ConnListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ch:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close implements net.Listener.
func (l *ConnListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

// Addr implements net.Listener.
func (l *ConnListener) Addr() net.Addr { return l.addr }

// deliver hands c to whoever accepts, unless the listener is closed first.
func (l *ConnListener) deliver(ctx context.Context, c net.Conn) bool {
	select {
	case l.ch <- c:
		return true
	case <-l.done:
		return false
	case <-ctx.Done():
		return false
	}
}

// bufferedConn is a connection whose first bytes were read into r.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(p []byte) (int, error) { return c.r.Read(p) }
