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
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for range 10 {
		wg.Go(func() { errs <- get(context.Background(), "https://api/api/v1/namespaces/default/events") })
	}
	deadline := time.Now().Add(5 * time.Second)
	for next.now.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if err := get(context.Background(), "https://api/api/v1/pods?watch=true"); err != nil {
		t.Errorf("a watch with every slot taken: %v", err)
	}
	renewed := make(chan error, 1)
	go func() {
		renewed <- get(context.Background(), "https://api/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n")
	}()
	deadline = time.Now().Add(5 * time.Second)
	for next.now.Load() < 4 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := next.now.Load(); got != 4 {
		t.Errorf("%d requests at the apiserver, want the 3 events and the lease renewal", got)
	}
	reviewed := make(chan error, 1)
	go func() {
		reviewed <- get(context.Background(), "https://api/apis/authorization.k8s.io/v1/subjectaccessreviews")
	}()
	deadline = time.Now().Add(5 * time.Second)
	for next.now.Load() < 5 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := next.now.Load(); got != 5 {
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
