package network

import (
	"context"
	"errors"
	"fmt"
	"net/netip"

	"wink.dev/wink/simnode/shell"
)

// Exchange sends one UDP datagram from the view to host:port and returns
// the answer of the simulated server there (Options.UDPHandler), after the
// path and Service rules of Dial (rows H1-H6). A server that does not
// answer gives the client's read timeout.
func (v *view) Exchange(ctx context.Context, host string, port int, payload string) (string, error) {
	addr, err := netip.ParseAddr(host)
	if err != nil {
		addrs, rerr := v.Resolve(ctx, host)
		if rerr != nil {
			return "", rerr
		}
		addr = addrs[0]
	}
	s := v.m.snapshot()
	t, err := v.dial(ctx, ProtoUDP, addr, port)
	if errors.Is(err, shell.ErrRefused) && s.podByIP[addr] != nil {
		// Listens knows TCP ports only: a pod's UDP server is its
		// handler's to answer.
		t, err = &target{kind: "pod", pod: s.podByIP[addr], addr: addr, port: port}, nil
	}
	if err != nil {
		return "", err
	}
	if t.pod != nil && v.m.opts.UDPHandler != nil {
		if a, ok := v.m.opts.UDPHandler(t.pod, t.port, payload, v.refresh(s).ip(s)); ok {
			return a, nil
		}
	}
	return "", fmt.Errorf("read udp %s:%d: i/o timeout", addr, port)
}

// Converse opens a connection from the view to addr:port, writes data and
// returns what the simulated server writes back (nc): UDP as Exchange,
// TCP through Options.TCPHandler; "" when the server writes nothing. A TCP
// conversation with a pod on a real node is real (row H1).
func (v *view) Converse(ctx context.Context, proto string, addr netip.Addr, port int, data string) (string, error) {
	if proto == ProtoUDP {
		a, err := v.Exchange(ctx, addr.String(), port, data)
		if err != nil && !errors.Is(err, shell.ErrRefused) && !errors.Is(err, shell.ErrTimeout) && !errors.Is(err, shell.ErrUnreachable) {
			return "", nil // no answer: nc prints nothing
		}
		return a, err
	}
	t, err := v.dial(ctx, proto, addr, port)
	if err != nil {
		return "", err
	}
	if t.real {
		return v.m.converseReal(ctx, t, data)
	}
	if t.pod == nil || v.m.opts.TCPHandler == nil {
		return "", nil
	}
	s := v.m.snapshot()
	a, _ := v.m.opts.TCPHandler(t.pod, t.port, data, v.refresh(s).ip(s))
	return a, nil
}
