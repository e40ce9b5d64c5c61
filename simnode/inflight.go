package simnode

import (
	"net/http"
	"strings"
)

// maxInflight caps the API requests simnode has in flight at once for each
// kind a kubelet's requests are (leases; nodes; the rest), watches aside.
// One simnode is one API Priority and Fairness flow (one user), where a
// fleet of kubelets is one flow per node: a flow may queue at most
// handSize × queueLengthLimit requests (6 × 50 in upstream's node-high and
// system priority levels) before the apiserver answers 429. Thousands of
// nodes registering, renewing and posting their events at once went past
// that (3,000 nodes drew 14,000 429s, each retried: the nodes' Node and
// Lease POSTs twice over, issue 20); below it, the apiserver sees the same
// requests, each once, and simnode's wait for a slot stands in for the
// queue APF would have held them in. 64 of each kind keeps the apiserver
// busy (about 2 ms of its CPU per write) with room for other clients.
const maxInflight = 64

// inflightLimiter is a RoundTripper that holds a request until fewer than
// maxInflight of its kind are in flight. Each kind has its own slots, so
// that a registered node's heartbeat waits neither for thousands of events
// nor for the nodes still registering, as a kubelet's does not: leases and
// nodes are upstream's system-node-high FlowSchema, the rest system-nodes.
// Watches, which stay open, pass through.
type inflightLimiter struct {
	next                  http.RoundTripper
	leases, nodes, others chan struct{}
}

func limitInflight(n int) func(http.RoundTripper) http.RoundTripper {
	leases, nodes, others := make(chan struct{}, n), make(chan struct{}, n), make(chan struct{}, n)
	return func(next http.RoundTripper) http.RoundTripper {
		return &inflightLimiter{next: next, leases: leases, nodes: nodes, others: others}
	}
}

func (l *inflightLimiter) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Query().Get("watch") == "true" {
		return l.next.RoundTrip(r)
	}
	slots := l.others
	switch p := r.URL.Path; {
	case strings.HasPrefix(p, "/apis/coordination.k8s.io/"):
		slots = l.leases
	case strings.HasPrefix(p, "/api/v1/nodes"):
		slots = l.nodes
	}
	select {
	case slots <- struct{}{}:
	case <-r.Context().Done():
		return nil, r.Context().Err()
	}
	defer func() { <-slots }()
	return l.next.RoundTrip(r)
}
