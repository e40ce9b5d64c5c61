package pods

import (
	"sort"
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// manualClock is a fake clock whose AfterFunc callbacks run synchronously
// in Step, outside the clock's lock (k8s.io/utils/clock/testing runs them
// under its lock, which deadlocks callbacks that read the clock).
type manualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*manualTimer
	// scheduled counts AfterFunc calls: how often something waits.
	scheduled int
}

type manualTimer struct {
	c       *manualClock
	at      time.Time
	f       func()
	stopped bool
}

var _ clock.WithDelayedExecution = (*manualClock)(nil)

func newManualClock(t time.Time) *manualClock { return &manualClock{now: t} }

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

func (c *manualClock) After(time.Duration) <-chan time.Time { panic("not used") }

func (c *manualClock) NewTimer(time.Duration) clock.Timer { panic("not used") }

func (c *manualClock) Sleep(time.Duration) { panic("not used") }

func (c *manualClock) Tick(time.Duration) <-chan time.Time { panic("not used") }

func (c *manualClock) AfterFunc(d time.Duration, f func()) clock.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.scheduled++
	t := &manualTimer{c: c, at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return t
}

// Step advances the clock, running due callbacks in time order (callbacks
// may schedule more).
func (c *manualClock) Step(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		sort.SliceStable(c.timers, func(i, j int) bool { return c.timers[i].at.Before(c.timers[j].at) })
		var due *manualTimer
		for i, t := range c.timers {
			if !t.at.After(end) {
				due = t
				c.timers = append(c.timers[:i:i], c.timers[i+1:]...)
				break
			}
		}
		if due == nil {
			c.now = end
			c.mu.Unlock()
			return
		}
		if due.at.After(c.now) {
			c.now = due.at
		}
		c.mu.Unlock()
		if !due.stopped {
			due.f()
		}
	}
}

func (t *manualTimer) C() <-chan time.Time { return nil }

func (t *manualTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.stopped
	t.stopped = true
	return was
}

func (t *manualTimer) Reset(time.Duration) bool { panic("not used") }

// Scheduled is how many AfterFunc calls the clock had.
func (c *manualClock) Scheduled() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.scheduled
}
