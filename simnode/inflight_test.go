package simnode

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// blockingTransport answers once release is closed, counting the requests
// it holds at once.
type blockingTransport struct {
	release      chan struct{}
	now, maxSeen atomic.Int32
}

func (b *blockingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	n := b.now.Add(1)
	defer b.now.Add(-1)
	for {
		m := b.maxSeen.Load()
		if n <= m || b.maxSeen.CompareAndSwap(m, n) {
			break
		}
	}
	if r.URL.Query().Get("watch") != "true" {
		<-b.release
	}
	return &http.Response{StatusCode: http.StatusOK, Body: http.NoBody}, nil
}

// TestInflightLimit: at most n requests of a kind reach the apiserver at
// once, the others wait their turn and all are answered; a watch, and a
// lease renewal and a SubjectAccessReview while every event slot is taken,
// pass; a request whose context ends while it waits returns that error.
func TestInflightLimit(t *testing.T) {
	next := &blockingTransport{release: make(chan struct{})}
	rt := limitInflight(3)(next)
	get := func(ctx context.Context, url string) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		_, err = rt.RoundTrip(req)
		return err
	}
	// inBackground sends a GET of url that the test waits for later.
	inBackground := func(url string) chan error {
		done := make(chan error, 1)
		go func() { done <- get(context.Background(), url) }()
		return done
	}
	// atAPIServer waits up to 5 s for n requests at the apiserver and
	// returns how many there are.
	atAPIServer := func(n int32) int32 {
		deadline := time.Now().Add(5 * time.Second)
		for next.now.Load() < n && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		return next.now.Load()
	}
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for range 10 {
		wg.Go(func() { errs <- get(context.Background(), "https://api/api/v1/namespaces/default/events") })
	}
	atAPIServer(3)
	if err := get(context.Background(), "https://api/api/v1/pods?watch=true"); err != nil {
		t.Errorf("a watch with every slot taken: %v", err)
	}
	renewed := inBackground("https://api/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n")
	if got := atAPIServer(4); got != 4 {
		t.Errorf("%d requests at the apiserver, want the 3 events and the lease renewal", got)
	}
	reviewed := inBackground("https://api/apis/authorization.k8s.io/v1/subjectaccessreviews")
	if got := atAPIServer(5); got != 5 {
		t.Errorf("%d requests at the apiserver, want the kubelet API's SubjectAccessReview beside the events", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := get(ctx, "https://api/api/v1/namespaces/default/events"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a request whose context ends while it waits: %v, want %v", err, context.DeadlineExceeded)
	}
	close(next.release)
	wg.Wait()
	if err := <-reviewed; err != nil {
		t.Errorf("SubjectAccessReview: %v", err)
	}
	if err := <-renewed; err != nil {
		t.Error(err)
	}
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := next.maxSeen.Load(); got > 5 { // 3 events, the lease and the review (the watch came and went)
		t.Errorf("%d requests at once reached the apiserver, want at most 3 events, a lease and a review", got)
	}
}
