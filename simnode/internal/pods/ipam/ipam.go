// Package ipam hands out a simulated node's pod IPs from its podCIDR.
package ipam

import (
	"errors"
	"fmt"
	"net/netip"
	"sync"
)

// ErrNoPodCIDR means the node has no spec.podCIDR yet (node IPAM of the
// controller-manager has not assigned one).
var ErrNoPodCIDR = errors.New("node has no podCIDR yet")

// IPAM hands out pod IPs from a node's podCIDR. It never hands out an IP
// that is in use, and it cycles through the range (next-fit) so that a
// released IP is not reused at once, as host-local IPAM does.
type IPAM struct {
	mu     sync.Mutex
	used   map[netip.Addr]string // IP -> owner (pod key/uid)
	cursor netip.Addr
}

// New returns an empty allocator.
func New() *IPAM { return &IPAM{used: map[netip.Addr]string{}} }

// MarkUsed records ip as taken by owner (adoption after a restart).
func (a *IPAM) MarkUsed(ip, owner string) error {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return fmt.Errorf("pod IP %q: %w", ip, err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if cur, ok := a.used[addr]; ok && cur != owner {
		return fmt.Errorf("pod IP %s is already used by %s", ip, cur)
	}
	a.used[addr] = owner
	return nil
}

// Allocate returns a free IP of cidr for owner. The network address, the
// first host address (the bridge gateway) and the broadcast address are
// never handed out.
func (a *IPAM) Allocate(cidr, owner string) (string, error) {
	if cidr == "" {
		return "", ErrNoPodCIDR
	}
	prefix, err := netip.ParsePrefix(cidr)
	if err != nil {
		return "", fmt.Errorf("podCIDR %q: %w", cidr, err)
	}
	prefix = prefix.Masked()
	first := prefix.Addr().Next().Next() // skip network and gateway
	last := lastAddr(prefix)
	if prefix.Addr().Is4() {
		last = last.Prev() // broadcast
	}
	if !first.IsValid() || !prefix.Contains(first) || last.Less(first) {
		return "", fmt.Errorf("podCIDR %s has no usable addresses", cidr)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for ip, o := range a.used {
		if o == owner && prefix.Contains(ip) {
			return ip.String(), nil
		}
	}
	start := a.cursor
	if !start.IsValid() || !prefix.Contains(start) || start.Less(first) || last.Less(start) {
		start = first
	}
	ip := start
	for {
		if _, taken := a.used[ip]; !taken {
			a.used[ip] = owner
			next := ip.Next()
			if last.Less(next) {
				next = first
			}
			a.cursor = next
			return ip.String(), nil
		}
		ip = ip.Next()
		if last.Less(ip) {
			ip = first
		}
		if ip == start {
			return "", fmt.Errorf("podCIDR %s is exhausted", cidr)
		}
	}
}

// Release frees ip if owner holds it.
func (a *IPAM) Release(ip, owner string) {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.used[addr] == owner {
		delete(a.used, addr)
	}
}

// InUse reports how many IPs are allocated.
func (a *IPAM) InUse() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.used)
}

func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Addr().AsSlice()
	bits := p.Bits()
	for i := range b {
		for j := 0; j < 8; j++ {
			if i*8+j >= bits {
				b[i] |= 1 << (7 - j)
			}
		}
	}
	addr, _ := netip.AddrFromSlice(b)
	return addr
}
