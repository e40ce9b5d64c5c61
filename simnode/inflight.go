package simnode

import (
	"net/http"
	"strings"
)

// maxInflight caps the API requests simnode has in flight at once in each
// of the two priority levels a kubelet's requests go to, watches aside.
// One simnode is one API Priority and Fairness flow (one user), where a
// fleet of kubelets is one flow per node: a flow may queue at most
// handSize × queueLengthLimit requests (6 × 50 in upstream's node-high and
// system priority levels) before the apiserver answers 429. Thousands of
// nodes registering, renewing and posting their events at once went past
// that (3,000 nodes drew 14,000 429s, each retried: the nodes' Node and
// Lease POSTs twice over, issue 20); below it, the apiserver sees the same
// requests, each once, and simnode's wait for a slot stands in for the
// queue APF would have held them in. 64 a level keeps the apiserver busy
// (about 2 ms of its CPU per write) with room for other clients.
const maxInflight = 64

// inflightLimiter is a RoundTripper that holds a request until fewer than
// maxInflight of its level are in flight: nodes and leases (upstream's
// system-node-high FlowSchema, so that a node's heartbeat never waits
// behind thousands of events, as a kubelet's does not), and the rest
// (system-nodes). Watches, which stay open, pass through.
type inflightLimiter struct {
	next             http.RoundTripper
	nodeHigh, system chan struct{}
}

func limitInflight(n int) func(http.RoundTripper) http.RoundTripper {
	nodeHigh, system := make(chan struct{}, n), make(chan struct{}, n)
	return func(next http.RoundTripper) http.RoundTripper {
		return &inflightLimiter{next: next, nodeHigh: nodeHigh, system: system}
	}
}

func (l *inflightLimiter) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Query().Get("watch") == "true" {
		return l.next.RoundTrip(r)
	}
	slots := l.system
	if p := r.URL.Path; strings.HasPrefix(p, "/api/v1/nodes") || strings.HasPrefix(p, "/apis/coordination.k8s.io/") {
		slots = l.nodeHigh
	}
	select {
	case slots <- struct{}{}:
	case <-r.Context().Done():
		return nil, r.Context().Err()
	}
	defer func() { <-slots }()
	return l.next.RoundTrip(r)
}
