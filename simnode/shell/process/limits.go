package process

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Limits bound what one simulated process may use, whatever its input
// (issue 18: bounded by construction). Every interpreter and program calls
// Proc.Step for each unit of work it does on its own (a statement, a loop
// iteration, a call, a line it writes) and Proc.Grow for memory it holds
// that grows with its input (a variable, a string it builds, a buffer).
//
// The provider fills them from the container's resources (pods.Env):
// Memory from resources.limits.memory, StepsPerSecond from its CPU limit,
// or the node's allocatable CPU where it sets none (StepsPerCPU a core).
type Limits struct {
	// Memory is the most a process may hold, in bytes (the container's
	// resources.limits.memory where given); 0: DefaultMemory.
	Memory int64
	// StepsPerSecond is how many steps the process runs per second of its
	// clock before it is throttled (it sleeps on Env.Sleep, so it yields
	// to every other simulated process, and what it prints comes at the
	// pace of its simulated CPU); 0: DefaultStepsPerSecond.
	StepsPerSecond int
	// OOMKilled, when set, hears that the process was OOM-killed (Linux,
	// row B5): the runtime reports the container Terminated with reason
	// OOMKilled. It is called at most once, from the process's goroutine.
	OOMKilled func()
	// Node is the CPU of the node the process runs on, shared by every
	// process that computes there: a process runs at most its share of it
	// (one busy container cannot starve the others, and what all of a
	// node's containers compute is bounded by the node's CPU, whatever
	// they run). Nil: the process has StepsPerSecond to itself.
	Node *CPUShare
}

// CPUShare is a node's CPU as its busy processes share it: each process
// that stepped within the last second (of the machine's time: the share
// bounds what simnode computes) gets an equal part, as the CFS scheduler
// gives equal weights.
type CPUShare struct {
	steps  int
	mu     sync.Mutex
	active map[*meter]time.Time
	pruned time.Time
}

// NewCPUShare is a node's CPU of cpuMilli millicores (its allocatable CPU).
func NewCPUShare(cpuMilli int64) *CPUShare {
	return &CPUShare{steps: StepsFor(cpuMilli), active: map[*meter]time.Time{}}
}

// pace is the steps a second m may run now, at most own.
func (s *CPUShare) pace(m *meter, own int) int {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.active[m] = now
	if now.Sub(s.pruned) > 100*time.Millisecond {
		s.pruned = now
		for k, t := range s.active {
			if now.Sub(t) > time.Second {
				delete(s.active, k)
			}
		}
	}
	return max(min(own, s.steps/len(s.active)), 1)
}

// Defaults of Limits.
const (
	// DefaultMemory is what a process may hold when its container sets no
	// memory limit: enough for any script of a chart, little enough that a
	// hundred hostile containers leave simnode's memory bounded.
	DefaultMemory = 64 << 20
	// StepsPerCPU is how many steps one simulated core runs a second.
	StepsPerCPU = 10_000
	// DefaultStepsPerSecond is the pace of a process whose container and
	// node say nothing of its CPU: one core.
	DefaultStepsPerSecond = StepsPerCPU
	// stepSlice is how many steps run between two throttling sleeps.
	stepSlice = 100
	// MachineMemory is the most all the processes of this simnode hold
	// together, whatever their containers' limits say: past it, the
	// process that asks for more is OOM-killed (Linux) or its allocation
	// fails (Windows), as when a machine's memory (its commit limit) is
	// exhausted (row B5). simnode's own memory stays bounded by it.
	MachineMemory = 256 << 20
	// MachineSteps is the most steps all the processes of this simnode run
	// a second together, whatever their nodes' CPUs: each busy process
	// gets its share (about half a core of a 2-core machine, measured by
	// BenchmarkHostileLoops; simnode's own CPU stays bounded by it).
	MachineSteps = 100_000
	// MaxWrite is the most a process's output buffers hold of one write
	// it has not consumed yet: a capture ($(...), for /f, a pipe's
	// reader) keeps at most this much (16 MiB, as LimitedBuffer's callers
	// did) and its bytes count against Memory.
	MaxWrite = 16 << 20
	// MaxInput bounds what a filter (sort, xargs, awk...) reads from its
	// standard input.
	MaxInput = 16 << 20
)

// StepsFor is the pace of a process whose CPU is cpuMilli millicores (a
// container's CPU limit, or the node's allocatable CPU): StepsPerCPU a
// core, and at least a tenth of a core's.
func StepsFor(cpuMilli int64) int {
	return max(int(cpuMilli*StepsPerCPU/1000), StepsPerCPU/10)
}

// ErrOutOfMemory is Grow's answer past the memory limit: on Linux the
// process is OOM-killed (137), on Windows (row B5: nothing is OOM-killed)
// its allocation fails and it ends with an error.
var ErrOutOfMemory = errors.New("out of memory")

// ErrStopped is Step's answer once the process was stopped (its ctx done).
var ErrStopped = errors.New("stopped")

// ExitOOMKilled is what a process the kernel OOM-killed exits with on
// Linux (128+SIGKILL), what containerd reports with reason OOMKilled.
const ExitOOMKilled = 137

// machine is what all of simnode's processes hold (MachineMemory).
var machine atomic.Int64

// machineCPU is the CPU all of simnode's processes share (MachineSteps).
var machineCPU = &CPUShare{steps: MachineSteps, active: map[*meter]time.Time{}}

// meter is the shared accounting of one Run (all of its sub-processes).
type meter struct {
	steps atomic.Int64
	held  atomic.Int64
	// kill stops the Run (its ctx); oom is set once it was OOM-killed.
	kill    context.CancelFunc
	oom     atomic.Bool
	oomOnce sync.Once
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
// ErrStopped once the process was stopped (or OOM-killed).
func (p *Proc) Step() error {
	n := p.meter.steps.Add(1)
	if n%stepSlice == 0 {
		pace := machineCPU.pace(p.meter, p.limits().StepsPerSecond)
		if s := p.Env.Limits.Node; s != nil {
			pace = s.pace(p.meter, pace)
		}
		d := time.Duration(stepSlice) * time.Second / time.Duration(pace)
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
// Past the memory limit the bytes are not accounted and it returns
// ErrOutOfMemory: on Linux the process is OOM-killed at once (its ctx
// ends, every later Step is ErrStopped, and Run returns ExitOOMKilled);
// on Windows only the allocation fails (row B5), and the interpreter
// reports its error.
func (p *Proc) Grow(delta int64) error {
	if delta < 0 {
		delta = -min(-delta, p.meter.held.Load())
	}
	over := p.meter.held.Add(delta) > p.limits().Memory
	if m := machine.Add(delta); delta > 0 && m > MachineMemory {
		over = true
	}
	if over && delta > 0 {
		p.meter.held.Add(-delta)
		machine.Add(-delta)
		if !p.Win {
			p.OOMKill()
		}
		return ErrOutOfMemory
	}
	return nil
}

// OOMKill OOM-kills the process (Linux, row B5), as Grow does past the
// memory limit: its ctx ends and Run returns ExitOOMKilled. A program whose
// memory the kernel bounds (awk's child process, issue 18) calls it when
// that child died of its limit.
func (p *Proc) OOMKill() {
	p.meter.oomOnce.Do(func() {
		p.meter.oom.Store(true)
		if f := p.Env.Limits.OOMKilled; f != nil {
			f()
		}
		if p.meter.kill != nil {
			p.meter.kill()
		}
	})
}

// MemoryLimit is the most the process may hold (Limits.Memory, or
// DefaultMemory where the container sets none).
func (p *Proc) MemoryLimit() int64 { return p.limits().Memory }

// Held is how many bytes the process holds as far as Grow knows.
func (p *Proc) Held() int64 { return p.meter.held.Load() }

// OOMKilled reports whether the process was OOM-killed (Linux only).
func (p *Proc) OOMKilled() bool { return p.meter.oom.Load() }

// Capture is a buffer for output the process keeps to read back (command
// substitution, for /f, a pipe's reader side): at most MaxWrite bytes,
// each counted against the process's memory (Grow) until Release. A write
// past either bound keeps what fits and reports ErrOutOfMemory (the
// writer sees its pipe fail, as a real one whose reader cannot take more).
type Capture struct {
	bytes.Buffer
	p *Proc
}

// Capture returns an empty Capture of p.
func (p *Proc) Capture() *Capture { return &Capture{p: p} }

// Write implements io.Writer.
func (c *Capture) Write(b []byte) (int, error) {
	n := min(len(b), MaxWrite-c.Len())
	if n > 0 && c.p.Grow(int64(n)) != nil {
		n = 0
	}
	if n > 0 {
		c.Buffer.Write(b[:n])
	}
	if n < len(b) {
		return n, ErrOutOfMemory
	}
	return n, nil
}

// Release gives the memory of what the capture holds back to the process
// and empties it; the String taken before stays valid.
func (c *Capture) Release() {
	c.p.Grow(-int64(c.Len()))
	c.Buffer = bytes.Buffer{}
}

// ReadAll reads r to its end, as io.ReadAll, counting what it holds
// against the process's memory (Grow) and a Step per chunk: an endless
// input (`yes | hexdump`) ends in ErrOutOfMemory (on Linux the process is
// then OOM-killed) or ErrStopped instead of growing simnode. The caller
// gives the bytes back with Grow(-len(data)) once it no longer holds them.
func (p *Proc) ReadAll(r io.Reader) ([]byte, error) {
	var data []byte
	chunk := make([]byte, 32<<10)
	for {
		n, err := r.Read(chunk)
		if n > 0 {
			if gerr := p.Grow(int64(n)); gerr != nil {
				return data, gerr
			}
			data = append(data, chunk[:n]...)
		}
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
		if serr := p.Step(); serr != nil {
			return data, serr
		}
	}
}

// ReadStdin is the process's standard input, to its end: counted against
// the process's memory while it is read (ReadAll: an endless one is
// OOM-killed on Linux, cut where the allocation fails on Windows, row B5)
// and given back once read, since the program keeps it only while it
// runs. Every program and interpreter that reads its whole input reads it
// here (issue 18).
func (p *Proc) ReadStdin() []byte {
	data, _ := p.ReadAll(p.Stdin)
	p.Grow(-int64(len(data)))
	return data
}

// Tracer hears of what a process ran that wink does not simulate: a program
// it knows is there but does not imitate, or a language construct its
// interpreter does not implement. The kubelet side turns each into one
// NotSimulated Warning event on the pod (issue 18: honest about what is
// not simulated); it is never a failure of the process.
type Tracer interface {
	NotSimulated(what string)
}

// NotSimulatedReason is the reason of the Warning event the kubelet side
// records on a pod for each thing a Tracer hears (simnode/internal/pods):
// what `wink check` reads back (harness/check).
const NotSimulatedReason = "NotSimulated"

// notSimulatedFormat is the message of a NotSimulated event.
const notSimulatedFormat = "The script of container %s uses %s, which wink does not simulate: its effect is not judged"

// NotSimulatedMessage is the message of the NotSimulated event for what
// container's processes ran.
func NotSimulatedMessage(container, what string) string {
	return fmt.Sprintf(notSimulatedFormat, container, what)
}

// ParseNotSimulated is NotSimulatedMessage read back.
func ParseNotSimulated(msg string) (container, what string, ok bool) {
	rest, ok := strings.CutPrefix(msg, "The script of container ")
	if !ok {
		return "", "", false
	}
	container, rest, ok = strings.Cut(rest, " uses ")
	if !ok {
		return "", "", false
	}
	what, ok = strings.CutSuffix(rest, ", which wink does not simulate: its effect is not judged")
	return container, what, ok
}

// NotSimulated tells the container's Tracer that what (a program's name, or
// a construct such as "cmd: for /f usebackq") ran without being simulated.
func (p *Proc) NotSimulated(what string) {
	if p.Env.Tracer != nil {
		p.Env.Tracer.NotSimulated(what)
	}
}
