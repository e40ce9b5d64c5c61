package network

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"wink.dev/wink/simnode/facts"
)

// Real sockets of simulated servers. Most traffic of the simulated cluster
// never leaves this package's model (Dial, HTTP). A client outside the
// simulation, the apiserver calling an admission webhook at its Service
// (through the egress proxy, simnode/egress), needs a real connection: a
// simulated program that serves such clients (agnhost webhook) listens
// through Listen, and Resolve maps the pod or Service address the
// apiserver dials to that real listener, load-balanced as the node's proxy
// does (row H1).

// sockets are the real listeners of simulated servers: pod UID and port ->
// real address.
type sockets struct {
	mu sync.Mutex
	m  map[string]string
}

func socketKey(uid string, port int) string { return uid + "/" + strconv.Itoa(port) }

// Listener is implemented by the shell.Network of a pod: a simulated
// server of the pod listens on a real socket for clients outside the
// simulation.
type Listener interface {
	// Listen opens a real listener for the pod's TCP port; closing it (or
	// ctx ending) withdraws it.
	Listen(ctx context.Context, port int) (net.Listener, error)
}

var _ Listener = (*view)(nil)

// Listen implements Listener for a pod's view.
func (v *view) Listen(ctx context.Context, port int) (net.Listener, error) {
	if v.pod == nil || v.pod.UID == "" {
		return nil, fmt.Errorf("listen tcp :%d: not a pod", port)
	}
	if port < 1 || port > 65535 {
		return nil, fmt.Errorf("listen tcp :%d: invalid port", port)
	}
	s := &v.m.sockets
	k := socketKey(string(v.pod.UID), port)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m[k] != "" {
		// As on a node: one listener per pod IP and port.
		return nil, fmt.Errorf("listen tcp :%d: bind: address already in use", port)
	}
	l, err := (&net.ListenConfig{}).Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	if s.m == nil {
		s.m = map[string]string{}
	}
	s.m[k] = l.Addr().String()
	sl := &socketListener{Listener: l, done: func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.m[k] == l.Addr().String() {
			delete(s.m, k)
		}
	}}
	go func() {
		<-ctx.Done()
		sl.Close()
	}()
	return sl, nil
}

type socketListener struct {
	net.Listener
	once sync.Once
	done func()
}

func (l *socketListener) Close() error {
	l.once.Do(l.done)
	return l.Listener.Close()
}

// Resolve maps an address of the simulated cluster network ("ip:port")
// that a client outside the simulation dials to the real listener of the
// simulated server behind it: a pod's address, or a Service's ClusterIP
// and port, load-balanced over its ready endpoints. ok is false when no
// simulated server listens there for real.
func (m *Model) Resolve(addr string) (real string, ok bool) {
	host, ps, err := net.SplitHostPort(addr)
	if err != nil {
		return "", false
	}
	ip, err1 := netip.ParseAddr(host)
	port, err2 := strconv.Atoi(ps)
	if err1 != nil || err2 != nil {
		return "", false
	}
	m.sockets.mu.Lock()
	empty := len(m.sockets.m) == 0
	m.sockets.mu.Unlock()
	if empty {
		return "", false
	}
	s := m.snapshot()
	pod := s.podByIP[ip.Unmap()]
	if svc := s.svcByIP[ip.Unmap()]; svc != nil {
		sp := servicePort(svc, port, ProtoTCP)
		if sp == nil {
			return "", false
		}
		eps := s.readyEndpoints(svc, sp, ProtoTCP)
		if len(eps) == 0 {
			return "", false
		}
		ep := m.pick(svc, sp, eps, netip.Addr{}, facts.Linux, 0)
		pod, port = ep.pod, ep.port
	}
	return m.socketOf(pod, port)
}

func (m *Model) socketOf(pod *corev1.Pod, port int) (string, bool) {
	if pod == nil {
		return "", false
	}
	m.sockets.mu.Lock()
	defer m.sockets.mu.Unlock()
	a, ok := m.sockets.m[socketKey(string(pod.UID), port)]
	return a, ok
}
