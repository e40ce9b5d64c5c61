package pods

import (
	"time"

	"wink.dev/wink/simnode/rules"
)

// The crash-loop and image-pull back-off: client-go flowcontrol.Backoff as
// the kubelet keys it per container.

// backoff is one client-go flowcontrol.Backoff entry.
type backoff struct {
	d    time.Duration
	last time.Time
	set  bool
}

func (b *backoff) expired(eventTime time.Time, r rules.Backoff) bool {
	return eventTime.Sub(b.last) > r.Reset.Duration
}

// inBackOffSince is IsInBackOffSince(key, ts).
func (b *backoff) inBackOffSince(ts, now time.Time, r rules.Backoff) bool {
	if !b.set || b.expired(ts, r) {
		return false
	}
	return now.Sub(ts) < b.d
}

// inBackOffSinceUpdate is IsInBackOffSinceUpdate(key, now).
func (b *backoff) inBackOffSinceUpdate(now time.Time, r rules.Backoff) bool {
	if !b.set || b.expired(now, r) {
		return false
	}
	return now.Sub(b.last) < b.d
}

// next is Next(key, eventTime).
func (b *backoff) next(eventTime, now time.Time, r rules.Backoff) {
	if !b.set || b.expired(eventTime, r) {
		b.d = r.Initial.Duration
	} else {
		b.d = min(2*b.d, r.Max.Duration)
	}
	b.set = true
	b.last = now
}
