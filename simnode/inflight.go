package simnode

import (
	"net/http"
	"strings"
)

// maxInflight caps the API requests simnode has in flight at once for each
// kind a kubelet's requests are (leases; nodes; events; the rest), watches
// aside. One simnode is one API Priority and Fairness flow (one user),
// where a fleet of kubelets is one flow per node: a flow may queue at most
// handSize × queueLengthLimit requests (6 × 50 in upstream's node-high and
// system priority levels) before the apiserver answers 429. Thousands of
// nodes registering, renewing and posting their events at once went past
// that (3,000 nodes drew 14,000 429s, each retried: the nodes' Node and
// Lease POSTs twice over, issue 20); below it, the apiserver sees the same
// requests, each once, and simnode's wait for a slot stands in for the
// queue APF would have held them in. 64 of each kind keeps the apiserver
// busy (about 2 ms of its CPU per write) with room for other clients.
const maxInflight = 64

// Kinds of request, each with slots of its own.
const (
	kindLeases = iota
	kindNodes
	kindEvents
	kindOthers
	kinds
)

// inflightLimiter is a RoundTripper that holds a request until fewer than
// maxInflight of its kind are in flight. Each kind has its own slots, as a
// kubelet's requests do not wait for one another's: a registered node's
// heartbeat waits neither for thousands of events nor for the nodes still
// registering (leases and nodes are upstream's system-node-high
// FlowSchema), and events have a client and rate limit of their own in a
// kubelet (eventRecordQPS), so the kubelet API's SubjectAccessReviews and
// the pods' status writes do not queue behind them. Watches, which stay
// open, pass through.
type inflightLimiter struct {
	next  http.RoundTripper
	slots [kinds]chan struct{}
}

func limitInflight(n int) func(http.RoundTripper) http.RoundTripper {
	var slots [kinds]chan struct{}
	for i := range slots {
		slots[i] = make(chan struct{}, n)
	}
	return func(next http.RoundTripper) http.RoundTripper {
		return &inflightLimiter{next: next, slots: slots}
	}
}

// kindOf is the kind of request to the API path p.
func kindOf(p string) int {
	switch {
	case strings.HasPrefix(p, "/apis/coordination.k8s.io/"):
		return kindLeases
	case strings.HasPrefix(p, "/api/v1/nodes"):
		return kindNodes
	case strings.HasSuffix(p, "/events") || strings.Contains(p, "/events/"):
		return kindEvents
	}
	return kindOthers
}

func (l *inflightLimiter) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Query().Get("watch") == "true" {
		return l.next.RoundTrip(r)
	}
	slots := l.slots[kindOf(r.URL.Path)]
	select {
	case slots <- struct{}{}:
	case <-r.Context().Done():
		return nil, r.Context().Err()
	}
	defer func() { <-slots }()
	return l.next.RoundTrip(r)
}
