package process

import (
	"context"
	"net/netip"
)

// This file is what a DNS client program (dig) asks of the network: one
// question to one server, and the server's whole reply, records and
// response code, rather than the addresses a resolver library returns
// (Network.Resolve).

// DNSClient is a Network that carries DNS messages (rows H1, H2): the
// simulated network implements it; a container without one has no DNS.
type DNSClient interface {
	// ExchangeDNS sends one question (name: a fully qualified name, with
	// or without the final dot; qtype: A, AAAA, CNAME, SRV, PTR ...) to
	// server port 53 over TCP or UDP, through the container's network
	// path. A server that cannot be reached is ErrTimeout (or the path's
	// error); a reached server always answers with a reply.
	ExchangeDNS(ctx context.Context, server netip.Addr, tcp bool, name, qtype string) (*DNSReply, error)
}

// DNS response codes (RFC 1035 4.1.1) as dig prints them.
const (
	RcodeNoError  = "NOERROR"
	RcodeNXDomain = "NXDOMAIN"
	RcodeServFail = "SERVFAIL"
	RcodeRefused  = "REFUSED"
)

// DNSRecord is one resource record in presentation form.
type DNSRecord struct {
	// Name is the owner name, fully qualified with the final dot.
	Name string
	TTL  int
	// Type is A, AAAA, CNAME, SRV, PTR ...
	Type string
	// Data is the record data as dig prints it: "10.96.0.1",
	// "foo.example.com.", "0 100 80 web.ns.svc.cluster.local.".
	Data string
}

// DNSReply is a DNS server's answer to one question.
type DNSReply struct {
	Rcode string
	// Authoritative: the server is authoritative for the name (the
	// cluster DNS for its zones); false for forwarded answers.
	Authoritative bool
	Answer        []DNSRecord
}
