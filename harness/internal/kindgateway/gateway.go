// Package kindgateway is the kind backend's network gateway: a container on
// kind's Docker network that holds the simulated nodes' addresses and joins
// the simulated cluster network (simnode, on the host) to kind's real one.
//
// Simulated nodes have no network namespace of their own; simnode answers
// for their kubelet APIs and their pods from the host, behind its egress
// proxy (HTTP CONNECT on a Unix socket, simnode/egress). The gateway makes
// that look like nodes on kind's network:
//
//   - each simulated node's InternalIP is an address of the gateway's eth0,
//     so kind's nodes reach it directly, as they reach each other (the kind
//     apiserver at <InternalIP>:10250; metrics-server; the pod network's
//     route to the node's podCIDR through its InternalIP);
//   - a TCP connection to an address and port something simulated listens
//     on (a node's kubelet API, a simulated pod's server, routed to the
//     gateway through its node) is redirected (iptables REDIRECT) to the
//     relay, which reads the address the client asked for
//     (SO_ORIGINAL_DST) and asks simnode's egress proxy for it (Inbound).
//     What listens is simnode's egress.Listing, read every SyncEvery; the
//     simulated podCIDRs are local addresses of the gateway, so that any
//     other connection is refused by its kernel, as a node's would be;
//   - simnode reaches kind's real pods through the gateway's own CONNECT
//     proxy (Outbound), which dials from kind's network with routes to each
//     kind node's podCIDR.
//
// The program runs as `wink kind gateway` inside the container, whose image
// is the cluster's node image (it has ip and iptables) and whose only
// capability beyond Docker's defaults is NET_ADMIN in its own namespace.
package kindgateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"wink.dev/wink/simnode/egress"
)

// Config is what the gateway is started with.
type Config struct {
	// Addresses are the simulated nodes' InternalIPs, added to Interface.
	Addresses Block
	// Routes send kind's pod networks through kind's nodes (podCIDR → the
	// node's address), for Outbound's dials and for replies.
	Routes []Route
	// Interface is the gateway's interface on kind's network.
	Interface string
	// RelayPort is where redirected connections arrive.
	RelayPort int
	// Inbound is simnode's egress proxy (a Unix socket).
	Inbound string
	// Outbound is the Unix socket the gateway serves its CONNECT proxy on.
	Outbound string
}

// Route is one route of Config.Routes.
type Route struct {
	Prefix netip.Prefix
	Via    netip.Addr
}

// String is the route as ParseRoute reads it: <prefix>=<via>.
func (r Route) String() string { return r.Prefix.String() + "=" + r.Via.String() }

// ParseRoute reads <prefix>=<via>.
func ParseRoute(s string) (Route, error) {
	p, v, ok := strings.Cut(s, "=")
	if !ok {
		return Route{}, fmt.Errorf("route %q: want <prefix>=<via>", s)
	}
	prefix, err := netip.ParsePrefix(p)
	if err != nil {
		return Route{}, fmt.Errorf("route %q: %w", s, err)
	}
	via, err := netip.ParseAddr(v)
	if err != nil {
		return Route{}, fmt.Errorf("route %q: %w", s, err)
	}
	return Route{Prefix: prefix.Masked(), Via: via}, nil
}

// Block is a run of Count addresses from First.
type Block struct {
	First netip.Addr
	Count int
}

// String is the block as ParseBlock reads it: <first>+<count>.
func (b Block) String() string { return b.First.String() + "+" + strconv.Itoa(b.Count) }

// ParseBlock reads <first>+<count>.
func ParseBlock(s string) (Block, error) {
	a, n, ok := strings.Cut(s, "+")
	first, err := netip.ParseAddr(a)
	count, err2 := strconv.Atoi(n)
	if !ok || err != nil || err2 != nil || count < 1 || count > maxBlock {
		return Block{}, fmt.Errorf("address block %q: want <first address>+<count of 1 to %d>", s, maxBlock)
	}
	return Block{first, count}, nil
}

// maxBlock bounds a block (a /16's worth).
const maxBlock = 1 << 16

// All is every address of the block.
func (b Block) All() []netip.Addr {
	out := make([]netip.Addr, 0, b.Count)
	for a := b.First; len(out) < b.Count && a.IsValid(); a = a.Next() {
		out = append(out, a)
	}
	return out
}

// Last is the block's last address.
func (b Block) Last() netip.Addr {
	a := b.First
	for range b.Count - 1 {
		a = a.Next()
	}
	return a
}

// Overlaps reports whether b and o share an address.
func (b Block) Overlaps(o Block) bool {
	return !(b.Last().Less(o.First) || o.Last().Less(b.First))
}

// chain is the gateway's own nat chain, jumped to from PREROUTING.
const chain = "WINK-GATEWAY"

// Setup configures the gateway's network namespace: the addresses, the
// routes and the nat chain that Sync fills. It is idempotent (a restarted
// gateway runs it again).
func Setup(ctx context.Context, cfg Config) error {
	for _, a := range cfg.Addresses.All() {
		if err := run(ctx, "ip", "addr", "replace", a.String()+"/32", "dev", cfg.Interface); err != nil {
			return err
		}
	}
	for _, r := range cfg.Routes {
		if err := run(ctx, "ip", "route", "replace", r.Prefix.String(), "via", r.Via.String()); err != nil {
			return err
		}
	}
	_ = run(ctx, "iptables", "-t", "nat", "-N", chain) // exists on a restart
	if err := run(ctx, "iptables", "-t", "nat", "-F", chain); err != nil {
		return err
	}
	if run(ctx, "iptables", "-t", "nat", "-C", "PREROUTING", "-j", chain) != nil {
		return run(ctx, "iptables", "-t", "nat", "-A", "PREROUTING", "-j", chain)
	}
	return nil
}

// Run sets the gateway up and serves until ctx is done.
func Run(ctx context.Context, cfg Config, log *slog.Logger) error {
	if err := Setup(ctx, cfg); err != nil {
		return err
	}
	l, err := net.Listen("tcp4", ":"+strconv.Itoa(cfg.RelayPort))
	if err != nil {
		return fmt.Errorf("gateway relay: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make(chan error, 3)
	go func() { errs <- egress.Serve(ctx, cfg.Outbound, &egress.Routes{}, log.With("part", "outbound")) }()
	go func() { errs <- Relay(ctx, l, egress.Dialer(cfg.Inbound), log.With("part", "inbound")) }()
	go func() { errs <- Sync(ctx, cfg, log.With("part", "sync")) }()
	log.Info("gateway serving", "addresses", cfg.Addresses, "routes", len(cfg.Routes), "relay", cfg.RelayPort)
	err = <-errs
	cancel()
	<-errs
	<-errs
	return err
}

// SyncEvery is how often Sync reads what simnode listens on.
const SyncEvery = 2 * time.Second

// Sync keeps the nat chain and the local routes in step with simnode's
// Listing until ctx is done. While simnode does not answer (it is down or
// starting), the last state stays.
func Sync(ctx context.Context, cfg Config, log *slog.Logger) error {
	own, err := ownAddress(cfg.Interface)
	if err != nil {
		return err
	}
	client := &http.Client{Timeout: SyncEvery, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", cfg.Inbound)
		},
	}}
	var last string
	local := map[netip.Prefix]bool{}
	t := time.NewTicker(SyncEvery)
	defer t.Stop()
	for {
		if l, err := readListing(ctx, client); err != nil {
			log.Debug("no listing", "err", err)
		} else {
			for _, p := range l.Local {
				if !local[p] {
					if err := run(ctx, "ip", "route", "replace", "local", p.String(), "dev", "lo"); err != nil {
						return err
					}
					local[p] = true
				}
			}
			rules := NatRules(own, cfg.RelayPort, l.Listening)
			if rules != last {
				cmd := exec.CommandContext(ctx, "iptables-restore", "--noflush")
				cmd.Stdin = strings.NewReader(rules)
				if out, err := cmd.CombinedOutput(); err != nil {
					return fmt.Errorf("iptables-restore: %s: %w", strings.TrimSpace(string(out)), err)
				}
				last = rules
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

func readListing(ctx context.Context, c *http.Client) (egress.Listing, error) {
	var l egress.Listing
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://simnode"+egress.ListingPath, nil)
	if err != nil {
		return l, err
	}
	res, err := c.Do(req)
	if err != nil {
		return l, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return l, fmt.Errorf("%s: %s", egress.ListingPath, res.Status)
	}
	err = json.NewDecoder(io.LimitReader(res.Body, maxListing)).Decode(&l)
	return l, err
}

// maxListing bounds what Sync reads of a listing.
const maxListing = 64 << 20

// NatRules is the gateway's nat chain for iptables-restore --noflush
// (which flushes that chain alone): nothing for the gateway's own address,
// and a redirect to the relay for each listening address.
func NatRules(own netip.Addr, relayPort int, listening []netip.AddrPort) string {
	var b strings.Builder
	fmt.Fprintf(&b, "*nat\n:%s - [0:0]\n-A %s -d %s/32 -j RETURN\n", chain, chain, own)
	for _, a := range listening {
		if a.Addr().Is4() && a.Addr() != own {
			fmt.Fprintf(&b, "-A %s -d %s/32 -p tcp -m tcp --dport %d -j REDIRECT --to-ports %d\n", chain, a.Addr(), a.Port(), relayPort)
		}
	}
	b.WriteString("COMMIT\n")
	return b.String()
}

// DialFunc dials an address of the simulated cluster network.
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// Relay accepts redirected connections on l and joins each to what dial
// returns for the address its client asked for. A connection dial cannot
// make is reset, as a closed port resets it (the handshake has been made
// by the time the relay knows where the client was going).
func Relay(ctx context.Context, l net.Listener, dial DialFunc, log *slog.Logger) error {
	go func() {
		<-ctx.Done()
		l.Close()
	}()
	for {
		c, err := l.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return fmt.Errorf("gateway relay: %w", err)
		}
		go relay(ctx, c.(*net.TCPConn), dial, log)
	}
}

// dialTimeout bounds a relayed dial, as a client's connect would be.
const dialTimeout = 10 * time.Second

func relay(ctx context.Context, c *net.TCPConn, dial DialFunc, log *slog.Logger) {
	defer c.Close()
	dst, err := OriginalDestination(c)
	if err != nil {
		log.Debug("no original destination", "from", c.RemoteAddr(), "err", err)
		_ = c.SetLinger(0)
		return
	}
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	up, err := dial(dctx, "tcp", dst.String())
	cancel()
	if err != nil {
		log.Debug("relay dial failed", "to", dst, "err", err)
		_ = c.SetLinger(0)
		return
	}
	defer up.Close()
	egress.Join(c, c, up)
}

// OriginalDestination is the address c's client connected to before
// iptables redirected it (SO_ORIGINAL_DST, IPv4).
func OriginalDestination(c *net.TCPConn) (netip.AddrPort, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return netip.AddrPort{}, err
	}
	var addr *unix.IPv6Mreq
	var serr error
	if err := raw.Control(func(fd uintptr) {
		// struct sockaddr_in fits IPv6Mreq's 20 bytes; the kernel
		// fills its first 16.
		addr, serr = unix.GetsockoptIPv6Mreq(int(fd), unix.SOL_IP, unix.SO_ORIGINAL_DST)
	}); err != nil {
		return netip.AddrPort{}, err
	}
	if serr != nil {
		return netip.AddrPort{}, fmt.Errorf("SO_ORIGINAL_DST: %w", serr)
	}
	b := addr.Multiaddr
	if family := uint16(b[0]) | uint16(b[1])<<8; family != syscall.AF_INET {
		return netip.AddrPort{}, fmt.Errorf("SO_ORIGINAL_DST: address family %d", family)
	}
	port := uint16(b[2])<<8 | uint16(b[3])
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte{b[4], b[5], b[6], b[7]}), port), nil
}

// ownAddress is iface's first IPv4 address (Docker's, for the container).
func ownAddress(iface string) (netip.Addr, error) {
	i, err := net.InterfaceByName(iface)
	if err != nil {
		return netip.Addr{}, fmt.Errorf("gateway: %w", err)
	}
	addrs, err := i.Addrs()
	if err != nil {
		return netip.Addr{}, fmt.Errorf("gateway: %s: %w", iface, err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			if ip, ok := netip.AddrFromSlice(n.IP.To4()); ok && n.IP.To4() != nil {
				return ip, nil
			}
		}
	}
	return netip.Addr{}, fmt.Errorf("gateway: %s has no IPv4 address", iface)
}

func run(ctx context.Context, args ...string) error {
	out, err := exec.CommandContext(ctx, args[0], args[1:]...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %s: %w", strings.Join(args, " "), strings.TrimSpace(string(out)), err)
	}
	return nil
}
