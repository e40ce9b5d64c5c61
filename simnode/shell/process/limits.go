package process

import (
	"errors"
	"sync/atomic"
	"time"
)

// Limits bound what one simulated process may use, whatever its input
// (issue 18: bounded by construction). Every interpreter and program calls
// Proc.Step for each unit of work it does on its own (a statement, a loop
// iteration, a call, a line it writes) and Proc.Grow for memory it holds
// that grows with its input (a variable, a string it builds, a buffer).
type Limits struct {
	// Memory is the most a process may hold, in bytes (the container's
	// resources.limits.memory where given); 0: DefaultMemory.
	Memory int64
	// StepsPerSecond is how many steps the process runs per second of its
	// clock before it is throttled (it sleeps on Env.Sleep, so it yields
	// to every other simulated process); 0: DefaultStepsPerSecond.
	StepsPerSecond int
}

// Defaults of Limits.
const (
	// DefaultMemory is what a process may hold when its container sets no
	// memory limit.
	DefaultMemory = 64 << 20
	// DefaultStepsPerSecond is a simulated CPU's pace.
	DefaultStepsPerSecond = 100_000
	// stepSlice is how many steps run between two throttling sleeps.
	stepSlice = 1000
)

// ErrOutOfMemory is Grow's answer past the memory limit: on Linux the
// process is OOM-killed (137), on Windows (row B5: nothing is OOM-killed)
// its allocation fails and it ends with an error.
var ErrOutOfMemory = errors.New("out of memory")

// ErrStopped is Step's answer once the process was stopped (its ctx done).
var ErrStopped = errors.New("stopped")

// meter is the shared accounting of one Run (all of its sub-processes).
type meter struct {
	steps atomic.Int64
	held  atomic.Int64
}

// limits returns the process's limits with defaults filled in.
func (p *Proc) limits() Limits {
	l := p.Env.Limits
	if l.Memory <= 0 {
		l.Memory = DefaultMemory
	}
	if l.StepsPerSecond <= 0 {
		l.StepsPerSecond = DefaultStepsPerSecond
	}
	return l
}

// Step counts one unit of work. Every stepSlice steps it sleeps, on the
// process's clock, as long as those steps take at StepsPerSecond, so that a
// busy loop is throttled instead of starving other processes. It returns
// ErrStopped once the process was stopped.
func (p *Proc) Step() error {
	n := p.meter.steps.Add(1)
	if n%stepSlice == 0 {
		d := time.Duration(stepSlice) * time.Second / time.Duration(p.limits().StepsPerSecond)
		if !p.Sleep(d) {
			return ErrStopped
		}
	}
	if p.Done() {
		return ErrStopped
	}
	return nil
}

// Grow accounts delta more bytes held by the process (negative: released).
// It returns ErrOutOfMemory when the process would hold more than its
// limit; the bytes are then not accounted.
func (p *Proc) Grow(delta int64) error {
	if p.meter.held.Add(delta) > p.limits().Memory && delta > 0 {
		p.meter.held.Add(-delta)
		return ErrOutOfMemory
	}
	return nil
}

// Tracer hears of what a process ran that wink does not simulate: a program
// it knows is there but does not imitate, or a language construct its
// interpreter does not implement. The kubelet side turns each into one
// NotSimulated Warning event on the pod (issue 18: honest about what is
// not simulated); it is never a failure of the process.
type Tracer interface {
	NotSimulated(what string)
}

// NotSimulated tells the container's Tracer that what (a program's name, or
// a construct such as "cmd: for /f usebackq") ran without being simulated.
func (p *Proc) NotSimulated(what string) {
	if p.Env.Tracer != nil {
		p.Env.Tracer.NotSimulated(what)
	}
}
