package network

import (
	"context"
	"fmt"
	"net/netip"
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
	t, err := v.dial(ctx, ProtoUDP, addr, port)
	if err != nil {
		return "", err
	}
	if t.pod != nil && v.m.opts.UDPHandler != nil {
		s := v.m.snapshot()
		if a, ok := v.m.opts.UDPHandler(t.pod, t.port, payload, v.refresh(s).ip(s)); ok {
			return a, nil
		}
	}
	return "", fmt.Errorf("read udp %s:%d: i/o timeout", addr, port)
}
