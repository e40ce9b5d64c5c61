package pods

import (
	"context"
	"time"

	"wink.dev/wink/simnode/shell/process"
)

// A container process that only prints and sleeps runs ahead of the
// node's clock (issue 13): what `ping -t`, `timeout`, a PowerShell
// `for(;;){...; Start-Sleep 1}` or an sh `while true; do echo; sleep 1;
// done` prints is a function of its process clock (continuity.go), so
// its sleeps up to lookahead past the node's clock return at once. Its
// lines carry their own times and the log holds them back until the
// clock reaches them (simnode/internal/logs: readers, `-f` included, see
// exactly the lines whose time has come; the file on the node's disk
// gets them in one write at the process's next wake, a read, or its
// stop, which drops what it printed ahead of that time). A waiting
// container then wakes once per lookahead instead of once per line.
//
// Everything else a process does happens at its own time: before it
// reads or writes a file, reaches the network (but its own loopback,
// whose answer does not depend on the time: pods/wire), or counts on
// the machine's CPU and memory meters, it settles (Env.Settle: waits
// until the node's clock reaches its clock), and it exits at its
// clock's time. HostProcess containers, which reach the node's accounts
// and power, never run ahead.
//
// Continuity holds as before: the process clock is unchanged, and lines
// held back when simnode stops were never in the log file, so the
// resumed process prints them again (resumeFilter keeps what is after
// the file's last line).

// lookahead is how far a container process may run ahead of the node's
// clock: the kubelet's container log manager checks the log files every
// 10 s too (containerLogMonitorInterval).
const lookahead = 10 * time.Second

// procTimer is the time of one container process: its sleeps on its own
// clock and the points where it settles to the node's clock.
type procTimer struct {
	p     *Provider
	js    *jobState
	clock *procClock
	ahead bool // may run ahead of the node's clock
}

func (p *Provider) procTimer(js *jobState, c *procClock, env *Env) *procTimer {
	return &procTimer{p: p, js: js, clock: c, ahead: env.Power == nil && env.Accounts == nil}
}

// sleep is the process's Env.Sleep: it moves the process clock by d,
// waiting on the node's clock until the sleep's end, at once when that is
// past (a resumed process catching up) or within lookahead.
func (t *procTimer) sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	if d >= forever/2 {
		t.js.set(false)
		<-ctx.Done()
		return ctx.Err()
	}
	end := t.clock.now().Add(d)
	limit := t.p.cfg.Clock.Now()
	if t.ahead {
		limit = limit.Add(lookahead)
	}
	if end.After(limit) {
		if err := t.waitUntil(ctx, end); err != nil {
			return err
		}
	} else if err := ctx.Err(); err != nil {
		return err
	}
	t.clock.mu.Lock()
	t.clock.t = end
	t.clock.mu.Unlock()
	return nil
}

// settle waits until the node's clock reaches the process clock.
func (t *procTimer) settle(ctx context.Context) error {
	return t.waitUntil(ctx, t.clock.now())
}

// waitUntil waits on the node's clock until end, marking the job idle
// while it waits.
func (t *procTimer) waitUntil(ctx context.Context, end time.Time) error {
	wait := end.Sub(t.p.cfg.Clock.Now())
	if wait <= 0 {
		return ctx.Err()
	}
	ch := make(chan struct{})
	tm := t.p.cfg.Clock.AfterFunc(wait, func() {
		t.js.set(true)
		close(ch)
	})
	t.js.set(false)
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		tm.Stop()
		return ctx.Err()
	}
}

// settleMeters makes the process settle before it counts on the
// machine's CPU and memory meters.
func (t *procTimer) settleMeters(env *Env) {
	if env.CPU != nil {
		env.CPU = settledCPU{env.CPU, env.Settle}
	}
	if env.Memory != nil {
		env.Memory = settledMemory{env.Memory, env.Settle}
	}
}

type settledCPU struct {
	process.CPUMeter
	settle func() error
}

func (m settledCPU) Busy(d int) {
	if m.settle() == nil {
		m.CPUMeter.Busy(d)
	}
}

type settledMemory struct {
	process.MemoryMeter
	settle func() error
}

func (m settledMemory) Use(d int64) {
	if m.settle() == nil {
		m.MemoryMeter.Use(d)
	}
}

// settledGate makes the process settle before a file write; a process
// stopped before the write's time does not make it.
type settledGate struct {
	WriteGate
	settle func() error
}

func (g settledGate) Write() bool {
	return g.settle() == nil && g.WriteGate.Write()
}
