package events

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/flowcontrol"
)

// API is what a Sink writes events with: client-go's typed
// EventInterface (CoreV1().Events("")) has these methods.
type API interface {
	CreateWithEventNamespaceWithContext(ctx context.Context, event *corev1.Event) (*corev1.Event, error)
	UpdateWithEventNamespaceWithContext(ctx context.Context, event *corev1.Event) (*corev1.Event, error)
	PatchWithEventNamespaceWithContext(ctx context.Context, event *corev1.Event, data []byte) (*corev1.Event, error)
}

// Limit is a kubelet's event client rate limit: KubeletConfiguration's
// eventRecordQPS and eventBurst, which the kubelet gives the client it
// writes events with (cmd/kubelet/app/server.go, "make a separate client
// for events": eventClientConfig.QPS/Burst). Defaults 50 and 100
// (pkg/kubelet/apis/config/v1beta1/defaults.go).
type Limit struct {
	QPS   int32
	Burst int32
}

// DefaultLimit is the kubelet's default event rate limit.
var DefaultLimit = Limit{QPS: 50, Burst: 100}

// limiter is the token bucket of l as client-go builds it from a
// rest.Config (rest/config.go RESTClientFor): a QPS of 0 is client-go's
// DefaultQPS (5) and a burst of 0 its DefaultBurst (10), whatever the
// KubeletConfiguration's comment says of 0; a negative QPS is no limit.
func (l Limit) limiter() flowcontrol.RateLimiter {
	qps, burst := float32(l.QPS), int(l.Burst)
	if qps == 0 {
		qps = 5
	}
	if burst == 0 {
		burst = 10
	}
	if qps < 0 {
		return nil
	}
	return flowcontrol.NewTokenBucketRateLimiter(qps, burst)
}

// Sink is the record.EventSink of all the simulated kubelets of a process.
// Each node (the event's source host) writes its events in order, rate
// limited as that kubelet's own event client is (Limit), and apart from the
// others: one node's burst does not hold back another's events, and the
// broadcaster's single recording goroutine never waits on the API. A node
// with nothing to write has no goroutine.
//
// The broadcaster's correlator (aggregation, the per source and object
// spam filter) stays in front of the Sink, as in the kubelet. The Sink
// answers at once with the event as given (its name is the recorder's, so
// the correlator's later patches find it) and writes it after; a write
// that fails is retried as the broadcaster would (a patch of an event that
// is gone becomes a create; a rejection is not retried).
type Sink struct {
	api API
	ctx context.Context
	log *slog.Logger

	mu     sync.Mutex
	limits map[string]Limit
	lanes  map[string]*lane
}

var _ record.EventSink = (*Sink)(nil)

// NewSink returns a Sink writing through api until ctx is done.
func NewSink(ctx context.Context, api API, log *slog.Logger) *Sink {
	if log == nil {
		log = slog.Default()
	}
	return &Sink{api: api, ctx: ctx, log: log, limits: map[string]Limit{}, lanes: map[string]*lane{}}
}

// SetLimit sets the event rate limit of node (its pool's
// KubeletConfiguration); a node without one has DefaultLimit.
func (s *Sink) SetLimit(node string, l Limit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limits[node] = l
	if ln, ok := s.lanes[node]; ok {
		ln.mu.Lock()
		ln.limiter = l.limiter()
		ln.mu.Unlock()
	}
}

type opKind int

const (
	opCreate opKind = iota
	opUpdate
	opPatch
)

type op struct {
	kind  opKind
	event *corev1.Event
	patch []byte
}

// lane is one node's queue of writes.
type lane struct {
	mu      sync.Mutex
	ops     []op
	running bool
	limiter flowcontrol.RateLimiter
}

func (s *Sink) enqueue(o op) (*corev1.Event, error) {
	host := o.event.Source.Host
	s.mu.Lock()
	ln, ok := s.lanes[host]
	if !ok {
		l, set := s.limits[host]
		if !set {
			l = DefaultLimit
		}
		ln = &lane{limiter: l.limiter()}
		s.lanes[host] = ln
	}
	s.mu.Unlock()
	ln.mu.Lock()
	ln.ops = append(ln.ops, o)
	start := !ln.running
	ln.running = true
	ln.mu.Unlock()
	if start {
		go s.drain(ln)
	}
	return o.event, nil
}

// Create implements record.EventSink.
func (s *Sink) Create(e *corev1.Event) (*corev1.Event, error) {
	return s.enqueue(op{kind: opCreate, event: e.DeepCopy()})
}

// Update implements record.EventSink.
func (s *Sink) Update(e *corev1.Event) (*corev1.Event, error) {
	return s.enqueue(op{kind: opUpdate, event: e.DeepCopy()})
}

// Patch implements record.EventSink.
func (s *Sink) Patch(e *corev1.Event, data []byte) (*corev1.Event, error) {
	return s.enqueue(op{kind: opPatch, event: e.DeepCopy(), patch: append([]byte(nil), data...)})
}

// drain writes a lane's ops in order until none is left.
func (s *Sink) drain(ln *lane) {
	for {
		ln.mu.Lock()
		if len(ln.ops) == 0 || s.ctx.Err() != nil {
			ln.ops = nil
			ln.running = false
			ln.mu.Unlock()
			return
		}
		o := ln.ops[0]
		ln.ops[0] = op{}
		ln.ops = ln.ops[1:]
		limiter := ln.limiter
		ln.mu.Unlock()
		s.write(limiter, o)
	}
}

// maxTries and retryDelay: the broadcaster retries a write 12 times, 10 s
// apart (tools/record maxTriesPerEvent, defaultSleepDuration); a simulated
// kubelet talks to a local apiserver and gives up sooner.
const (
	maxTries   = 5
	retryDelay = time.Second
)

func (s *Sink) write(limiter flowcontrol.RateLimiter, o op) {
	for try := 1; ; try++ {
		err := s.writeOnce(limiter, o)
		if err == nil || !retriable(err) || s.ctx.Err() != nil {
			if err != nil && s.ctx.Err() == nil && !apierrors.IsAlreadyExists(err) {
				s.log.Warn("event not written", "reason", o.event.Reason, "object", o.event.InvolvedObject.Name, "err", err)
			}
			return
		}
		if try == maxTries {
			s.log.Warn("event not written (retry limit)", "reason", o.event.Reason, "object", o.event.InvolvedObject.Name, "err", err)
			return
		}
		select {
		case <-s.ctx.Done():
			return
		case <-time.After(retryDelay):
		}
	}
}

// writeOnce is the broadcaster's recordEvent: a patch of an event that is
// gone becomes a create.
func (s *Sink) writeOnce(limiter flowcontrol.RateLimiter, o op) error {
	wait := func() error {
		if limiter == nil {
			return nil
		}
		return limiter.Wait(s.ctx)
	}
	if err := wait(); err != nil {
		return err
	}
	var err error
	switch o.kind {
	case opUpdate:
		_, err = s.api.UpdateWithEventNamespaceWithContext(s.ctx, o.event)
		return err
	case opPatch:
		_, err = s.api.PatchWithEventNamespaceWithContext(s.ctx, o.event, o.patch)
		if !apierrors.IsNotFound(err) {
			return err
		}
		if err := wait(); err != nil {
			return err
		}
	}
	e := o.event.DeepCopy()
	e.ResourceVersion = ""
	_, err = s.api.CreateWithEventNamespaceWithContext(s.ctx, e)
	return err
}

// retriable: as the broadcaster, an answer of the server is final, a
// transport error is tried again.
func retriable(err error) bool {
	var status apierrors.APIStatus
	return !errors.As(err, &status) && !errors.Is(err, context.Canceled)
}
