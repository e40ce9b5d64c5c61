package process

import (
	"context"
	"fmt"
	"hash/fnv"
	"net/netip"
	"sort"
	"strconv"
	"strings"
	"time"
)

// This file is what the network tools of simnode/shell/programs and the
// PowerShell cmdlets share: the container's network, name resolution and
// addresses. Every effect goes through env.Net (rows H1–H6); none opens a
// socket.

// noNet is the network of a container without one: nothing resolves or
// answers but its own loopback.
type noNet struct{}

func (noNet) Resolve(context.Context, string) ([]netip.Addr, error) { return nil, ErrNameNotFound }

func (noNet) Dial(context.Context, string, netip.Addr, int) error { return ErrUnreachable }

// Ping answers for the loopback addresses, which a container has without a
// network, as the network model answers them (its own address, rows H4,
// H9); nothing else answers.
func (noNet) Ping(_ context.Context, addr netip.Addr) (time.Duration, error) {
	if addr.Unmap().IsLoopback() {
		return 40 * time.Microsecond, nil
	}
	return 0, ErrTimeout
}

func (noNet) HTTP(context.Context, string, string, bool) (*HTTPResponse, error) {
	return nil, ErrUnreachable
}

// Net is the container's network; a container without one reaches nothing.
func (p *Proc) Net() Network {
	if p.Env.Net == nil {
		return noNet{}
	}
	return p.Env.Net
}

// Resolve turns a host into addresses: literals, localhost and the pod's
// own name (hosts file) locally, everything else through env.Net (row H2).
func (p *Proc) Resolve(host string) ([]netip.Addr, error) {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}, nil
	}
	if strings.EqualFold(host, "localhost") {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	if host == "" {
		return nil, ErrNameNotFound
	}
	if strings.EqualFold(host, p.Env.Hostname) && p.Env.Interfaces.IP.IsValid() {
		return []netip.Addr{p.Env.Interfaces.IP}, nil
	}
	addrs, err := p.Net().Resolve(p.Ctx, host)
	if err == nil && len(addrs) == 0 {
		err = ErrNameNotFound
	}
	return addrs, err
}

// Pick returns the first address of the wanted family (4, 6 or 0: any).
func Pick(addrs []netip.Addr, family int) (netip.Addr, bool) {
	for _, a := range addrs {
		if family == 0 || (family == 4) == a.Unmap().Is4() {
			return a.Unmap(), true
		}
	}
	return netip.Addr{}, false
}

// FQDN is the name the resolver answered for: a single-label name gets the
// container's (first) DNS suffix (row H2: Windows has exactly one).
func (p *Proc) FQDN(name string) string {
	if !strings.Contains(name, ".") && len(p.Env.Interfaces.DNSSuffixes) > 0 {
		if _, err := netip.ParseAddr(name); err != nil && !strings.EqualFold(name, "localhost") {
			return name + "." + p.Env.Interfaces.DNSSuffixes[0]
		}
	}
	return strings.TrimSuffix(name, ".")
}

// HashHex is n hex digits of a hash of s: stable made-up identifiers.
func HashHex(s string, n int) string {
	h := fnv.New128a()
	h.Write([]byte(s))
	return fmt.Sprintf("%x", h.Sum(nil))[:n]
}

// AdapterName is the name of the container's network adapter.
func (p *Proc) AdapterName() string {
	return "vEthernet (" + HashHex(p.Env.Hostname+"adapter", 32) + "_l2bridge)"
}

// ParseURL splits scheme://host:port/path; port defaults by scheme.
func ParseURL(raw string) (scheme, host string, port int, path string, ok bool) {
	scheme = "http"
	rest := raw
	if i := strings.Index(raw, "://"); i >= 0 {
		scheme, rest = strings.ToLower(raw[:i]), raw[i+3:]
	}
	path = "/"
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		path = rest[i:]
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		rest = rest[:i]
	}
	if i := strings.LastIndex(rest, "@"); i >= 0 {
		rest = rest[i+1:]
	}
	host = rest
	switch scheme {
	case "https":
		port = 443
	case "http":
		port = 80
	}
	if strings.HasPrefix(rest, "[") {
		j := strings.Index(rest, "]")
		if j < 0 {
			return "", "", 0, "", false
		}
		host = rest[1:j]
		rest = rest[j+1:]
		if strings.HasPrefix(rest, ":") {
			n, err := strconv.Atoi(rest[1:])
			if err != nil || n <= 0 || n > 65535 {
				return "", "", 0, "", false
			}
			port = n
		}
	} else if i := strings.LastIndex(rest, ":"); i >= 0 {
		n, err := strconv.Atoi(rest[i+1:])
		if err != nil || n <= 0 || n > 65535 {
			return "", "", 0, "", false
		}
		host, port = rest[:i], n
	}
	if host == "" || strings.ContainsAny(host, " \t\"<>\\^`{|}") {
		return "", "", 0, "", false
	}
	return scheme, host, port, path, true
}

// HeaderLines are the header lines of a response, sorted.
func HeaderLines(resp *HTTPResponse) []string {
	var hs []string
	for k, v := range resp.Headers {
		hs = append(hs, k+": "+v)
	}
	sort.Strings(hs)
	if _, ok := resp.Headers["Content-Length"]; !ok {
		hs = append(hs, "Content-Length: "+strconv.Itoa(len(resp.Body)))
	}
	return hs
}

// IsClusterName is answered authoritatively by the cluster DNS.
func IsClusterName(name string) bool {
	return strings.Contains(name, ".svc.") || strings.HasSuffix(strings.TrimSuffix(name, "."), ".cluster.local")
}
