package pods

import (
	"context"
	"fmt"
	"io/fs"
	"net"
	"net/netip"
	"sync"
	"time"

	"wink.dev/wink/simnode/shell/process"
)

// A container process may run ahead of the node's clock while it only
// prints and sleeps (lookahead.go); it settles (Env.Settle)
// before it reaches anything whose answer depends on the time: its files
// (which other containers, volumes and kubectl exec share) and the
// network (pods come and go, Services change).

// settledFS is the file system of a process that may run ahead.
type settledFS struct {
	process.Parts
	settle func() error
}

func (s settledFS) ReadFile(path string) ([]byte, error) {
	if err := s.settle(); err != nil {
		return nil, err
	}
	return s.FS.ReadFile(path)
}

func (s settledFS) WriteFile(path string, data []byte) error {
	if err := s.settle(); err != nil {
		return err
	}
	return s.FS.WriteFile(path, data)
}

func (s settledFS) Remove(path string) error {
	if err := s.settle(); err != nil {
		return err
	}
	return removeFrom(s.FS, path)
}

func (s settledFS) MkdirAll(path string) error {
	if err := s.settle(); err != nil {
		return err
	}
	return mkdirIn(s.FS, path)
}

func (s settledFS) ReadDir(path string) ([]fs.DirEntry, error) {
	if err := s.settle(); err != nil {
		return nil, err
	}
	return s.FS.ReadDir(path)
}

// settledNet is the network of a process that may run ahead. An echo to
// localhost (127.0.0.1, ::1) is the container's own loopback, answered the
// same at any time (network: DstSelf, from the pod's own network kind), so
// `ping -t localhost` runs ahead and asks the model once (a model answer
// looks at every pod and Service of the cluster); other 127/8 addresses
// may be simulated nodes' and settle.
var localhost4 = netip.AddrFrom4([4]byte{127, 0, 0, 1})

type settledNet struct {
	process.Network
	settle func() error
	self   *selfEcho
}

// selfEcho remembers the model's answers to echoes to localhost.
type selfEcho struct {
	mu      sync.Mutex
	answers map[netip.Addr]echo
}

type echo struct {
	rtt time.Duration
	err error
}

func (s settledNet) Resolve(ctx context.Context, name string) ([]netip.Addr, error) {
	if err := s.settle(); err != nil {
		return nil, err
	}
	return s.Network.Resolve(ctx, name)
}

func (s settledNet) Dial(ctx context.Context, proto string, addr netip.Addr, port int) error {
	if err := s.settle(); err != nil {
		return err
	}
	return s.Network.Dial(ctx, proto, addr, port)
}

func (s settledNet) Ping(ctx context.Context, addr netip.Addr) (time.Duration, error) {
	if a := addr.Unmap(); a != localhost4 && a != netip.IPv6Loopback() {
		if err := s.settle(); err != nil {
			return 0, err
		}
		return s.Network.Ping(ctx, addr)
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.self.mu.Lock()
	defer s.self.mu.Unlock()
	e, ok := s.self.answers[addr]
	if !ok {
		e.rtt, e.err = s.Network.Ping(ctx, addr)
		if ctx.Err() != nil {
			return e.rtt, e.err
		}
		s.self.answers[addr] = e
	}
	return e.rtt, e.err
}

func (s settledNet) HTTP(ctx context.Context, method, url string, insecure bool) (*process.HTTPResponse, error) {
	if err := s.settle(); err != nil {
		return nil, err
	}
	return s.Network.HTTP(ctx, method, url, insecure)
}

// The optional parts of a container's network that programs ask for by
// type (simnode/shell/programs: agnhost's servers listen on a real socket,
// nc converses with a simulated server); settledNet passes them through,
// so a process that may run ahead keeps them.
type (
	socketNetwork interface {
		Listen(ctx context.Context, port int) (net.Listener, error)
	}
	converser interface {
		Converse(ctx context.Context, proto string, addr netip.Addr, port int, data string) (string, error)
	}
)

// Listen opens a real socket once the process has settled.
func (s settledNet) Listen(ctx context.Context, port int) (net.Listener, error) {
	sn, ok := s.Network.(socketNetwork)
	if !ok {
		return nil, fmt.Errorf("listen tcp :%d: this network has no real sockets", port)
	}
	if err := s.settle(); err != nil {
		return nil, err
	}
	return sn.Listen(ctx, port)
}

// Converse sends data to a simulated server once the process has settled;
// a network that cannot converse answers nothing.
func (s settledNet) Converse(ctx context.Context, proto string, addr netip.Addr, port int, data string) (string, error) {
	c, ok := s.Network.(converser)
	if !ok {
		return "", nil
	}
	if err := s.settle(); err != nil {
		return "", err
	}
	return c.Converse(ctx, proto, addr, port, data)
}

// ExchangeDNS asks a DNS server once the process has settled (dig); a
// network without DNS messages has no server that answers.
func (s settledNet) ExchangeDNS(ctx context.Context, server netip.Addr, tcp bool, name, qtype string) (*process.DNSReply, error) {
	c, ok := s.Network.(process.DNSClient)
	if !ok {
		return nil, process.ErrTimeout
	}
	if err := s.settle(); err != nil {
		return nil, err
	}
	return c.ExchangeDNS(ctx, server, tcp, name, qtype)
}

// Do sends a Go program's HTTP request once the process has settled.
func (s settledNet) Do(ctx context.Context, req *process.HTTPRequest) (*process.HTTPResponse, error) {
	c, ok := s.Network.(process.HTTPClient)
	if !ok {
		return s.HTTP(ctx, req.Method, req.URL, false)
	}
	if err := s.settle(); err != nil {
		return nil, err
	}
	return c.Do(ctx, req)
}
