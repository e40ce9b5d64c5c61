package network

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/shell"
)

// Bridge serves a connection from outside the simulation (the apiserver's
// pods/proxy and services/proxy through the egress proxy) to a simulated
// server without a real socket: each HTTP/1.1 request read from it gets
// the answer a pod's client would get (Options.HTTPHandler, as HTTP does),
// load-balanced for a Service address as Resolve does (row H1). ok is
// false when no running container of a pod listens at addr, or the pod
// runs on a real node (Options.SimulatedNode): it serves for itself.
func (m *Model) Bridge(addr string) (net.Conn, bool) {
	host, ps, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, false
	}
	ip, err1 := netip.ParseAddr(host)
	port, err2 := strconv.Atoi(ps)
	if err1 != nil || err2 != nil {
		return nil, false
	}
	ip = ip.Unmap()
	s := m.snapshot()
	pod := s.podByIP[ip]
	if svc := s.svcByIP[ip]; svc != nil {
		sp := servicePort(svc, port, ProtoTCP)
		if sp == nil {
			return nil, false
		}
		eps := s.readyEndpoints(svc, sp, ProtoTCP)
		if len(eps) == 0 {
			return nil, false
		}
		ep := m.pick(svc, sp, eps, netip.Addr{}, facts.Linux, 0)
		pod, ip, port = ep.pod, ep.addr, ep.port
	}
	if pod == nil || pod.Spec.HostNetwork || m.realPod(s, pod) || !m.podListening(s, pod, port) {
		return nil, false
	}
	client, server := net.Pipe()
	view := m.viewOf(s, pod)
	go func() {
		defer server.Close()
		br := bufio.NewReader(server)
		for {
			req, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			body, _ := io.ReadAll(req.Body)
			req.Body.Close()
			hr := &HTTPRequest{Method: req.Method, Scheme: "http", Host: req.Host, Path: req.URL.RequestURI(), Addr: ip, Port: port, Server: view, Body: body}
			var resp *shell.HTTPResponse
			if m.opts.HTTPHandler != nil {
				resp = m.opts.HTTPHandler(pod, port, hr)
			}
			if resp == nil {
				resp = &shell.HTTPResponse{Status: 200, Headers: map[string]string{"Content-Type": "text/html"}}
			}
			if err := writeResponse(server, resp, req.Method == http.MethodHead); err != nil || req.Close {
				return
			}
		}
	}()
	return client, true
}

func writeResponse(w io.Writer, r *shell.HTTPResponse, head bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", r.Status, http.StatusText(r.Status))
	for k, v := range r.Headers {
		if strings.EqualFold(k, "Content-Length") {
			continue
		}
		fmt.Fprintf(&b, "%s: %s\r\n", k, v)
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(r.Body))
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if head {
		return nil
	}
	_, err := w.Write(r.Body)
	return err
}
