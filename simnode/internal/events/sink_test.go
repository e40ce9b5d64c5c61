package events

import (
	"context"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/util/flowcontrol"
)

// recordingAPI records the writes a Sink makes, per host in order. A
// host in block waits for its channel before each write.
type recordingAPI struct {
	mu      sync.Mutex
	writes  map[string][]string
	stored  map[string]bool
	block   map[string]chan struct{}
	written chan string
}

func newRecordingAPI() *recordingAPI {
	return &recordingAPI{writes: map[string][]string{}, stored: map[string]bool{}, block: map[string]chan struct{}{}, written: make(chan string, 100)}
}

func (a *recordingAPI) record(kind string, e *corev1.Event) {
	a.mu.Lock()
	ch := a.block[e.Source.Host]
	a.mu.Unlock()
	if ch != nil {
		<-ch
	}
	a.mu.Lock()
	a.writes[e.Source.Host] = append(a.writes[e.Source.Host], kind+" "+e.Reason)
	a.mu.Unlock()
	a.written <- e.Source.Host
}

func (a *recordingAPI) CreateWithEventNamespaceWithContext(_ context.Context, e *corev1.Event) (*corev1.Event, error) {
	a.record("create", e)
	a.mu.Lock()
	a.stored[e.Name] = true
	a.mu.Unlock()
	return e, nil
}

func (a *recordingAPI) UpdateWithEventNamespaceWithContext(_ context.Context, e *corev1.Event) (*corev1.Event, error) {
	a.record("update", e)
	return e, nil
}

func (a *recordingAPI) PatchWithEventNamespaceWithContext(_ context.Context, e *corev1.Event, _ []byte) (*corev1.Event, error) {
	a.record("patch", e)
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.stored[e.Name] {
		return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "events"}, e.Name)
	}
	return e, nil
}

func (a *recordingAPI) wait(t *testing.T, n int) {
	t.Helper()
	for range n {
		select {
		case <-a.written:
		case <-time.After(10 * time.Second):
			t.Fatal("the sink did not write")
		}
	}
}

func event(host, name, reason string) *corev1.Event {
	return &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}, Reason: reason, Source: corev1.EventSource{Component: "kubelet", Host: host}}
}

// TestSinkWritesEachNodeApart: one node whose writes hang does not hold
// back another node's events, and each node's writes keep their order.
func TestSinkWritesEachNodeApart(t *testing.T) {
	api := newRecordingAPI()
	release := make(chan struct{})
	api.block["stuck"] = release
	s := NewSink(t.Context(), api, nil)
	for _, reason := range []string{"Pulled", "Created", "Started"} {
		if _, err := s.Create(event("stuck", "p."+reason, reason)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Create(event("free", "p."+reason, reason)); err != nil {
			t.Fatal(err)
		}
	}
	api.wait(t, 3)
	api.mu.Lock()
	free, stuck := api.writes["free"], api.writes["stuck"]
	api.mu.Unlock()
	if want := []string{"create Pulled", "create Created", "create Started"}; !equal(free, want) || len(stuck) != 0 {
		t.Fatalf("while node stuck's writes hang: free wrote %q (want %q), stuck wrote %q", free, want, stuck)
	}
	close(release)
	api.wait(t, 3)
	api.mu.Lock()
	defer api.mu.Unlock()
	if want := []string{"create Pulled", "create Created", "create Started"}; !equal(api.writes["stuck"], want) {
		t.Fatalf("stuck wrote %q, want %q", api.writes["stuck"], want)
	}
}

// TestSinkPatchOfAGoneEventCreatesIt is the broadcaster's recordEvent: an
// aggregated event whose first write is gone is created again.
func TestSinkPatchOfAGoneEventCreatesIt(t *testing.T) {
	api := newRecordingAPI()
	s := NewSink(t.Context(), api, nil)
	e := event("n", "p.1", "BackOff")
	e.Count = 2
	if _, err := s.Patch(e, []byte(`{"count":2}`)); err != nil {
		t.Fatal(err)
	}
	api.wait(t, 2)
	api.mu.Lock()
	defer api.mu.Unlock()
	if want := []string{"patch BackOff", "create BackOff"}; !equal(api.writes["n"], want) {
		t.Fatalf("wrote %q, want %q", api.writes["n"], want)
	}
}

// TestLimitIsTheKubeletEventClients: eventRecordQPS/eventBurst become the
// event client's token bucket as client-go builds it from a rest.Config.
func TestLimitIsTheKubeletEventClients(t *testing.T) {
	for _, tc := range []struct {
		name  string
		limit Limit
		qps   float32
		none  bool
	}{
		{name: "kubelet default", limit: DefaultLimit, qps: 50},
		{name: "pool's", limit: Limit{QPS: 5, Burst: 7}, qps: 5},
		{name: "zero is client-go's default", limit: Limit{}, qps: 5},
		{name: "negative is none", limit: Limit{QPS: -1}, none: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := tc.limit.limiter()
			if tc.none {
				if l != nil {
					t.Fatalf("limiter %v, want none", l)
				}
				return
			}
			if l == nil || l.QPS() != tc.qps {
				t.Fatalf("limiter %v, want %v QPS", l, tc.qps)
			}
		})
	}
}

// TestSinkBurst: a node's burst is written at once, the rest waits for
// tokens (a limit of one event an hour makes "waits" certain).
func TestSinkBurst(t *testing.T) {
	api := newRecordingAPI()
	s := NewSink(t.Context(), api, nil)
	// One token an hour after the burst of 2.
	s.lanes["n"] = &lane{limiter: flowcontrol.NewTokenBucketRateLimiter(1.0/3600, 2)}
	for i := range 4 {
		if _, err := s.Create(event("n", "p."+string(rune('a'+i)), "Started")); err != nil {
			t.Fatal(err)
		}
	}
	api.wait(t, 2)
	select {
	case <-api.written:
		t.Fatal("a third event was written within the burst of 2")
	case <-time.After(200 * time.Millisecond):
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
