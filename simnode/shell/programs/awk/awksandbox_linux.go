package awk

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"wink.dev/wink/simnode/shell/process"
)

const (
	// awkCPU is the CPU seconds a child may use at all (RLIMIT_CPU): a
	// backstop, since the parent paces it by the process's step budget.
	awkCPU = 600
	// awkTick is how often the parent charges the child's CPU to the
	// process's step budget.
	awkTick = 20 * time.Millisecond
	// clockTicks is the unit of /proc/PID/stat's utime and stime (USER_HZ).
	clockTicks = 100
)

// limitAwk bounds the child itself, before it runs anything: memory (Go's
// limit, and RLIMIT_DATA: the data the binary and its runtime hold once
// started, measured then (about 100 MiB of writable mappings for the wink
// binary and for a test binary, most of it Go's first heap arena, reserved
// but not resident), plus mem), CPU (RLIMIT_CPU) and priority (nice 19 on
// every thread it has: the threads it starts later inherit it).
func limitAwk(mem int64) {
	if mem <= 0 {
		mem = process.DefaultMemory
	}
	debug.SetMemoryLimit(mem)
	data := uint64(vmData() + mem)
	syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: data, Max: data})
	syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: awkCPU, Max: awkCPU})
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, t := range tasks {
		if tid, err := strconv.Atoi(t.Name()); err == nil {
			syscall.Setpriority(syscall.PRIO_PROCESS, tid, 19)
		}
	}
}

// vmData is this process's VmData (/proc/self/status), in bytes: what
// RLIMIT_DATA counts.
func vmData() int64 {
	data, _ := os.ReadFile("/proc/self/status")
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmData:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// awkChild is a started child (ServeAwk) and the parent's ends of its
// pipes: its stdin, its stdout, awk's stderr and its result.
type awkChild struct {
	cmd                           *exec.Cmd
	stdin, stdout, stderr, result *os.File
	crash                         *tailBuffer
}

// awkSpare is a child started ahead, waiting for its job: starting the
// binary (its packages' init) takes tens of milliseconds for the wink
// binary, so each awk takes the spare and starts the next one beside it.
// An idle spare ends when simnode does (its stdin ends).
var awkSpare = make(chan *awkChild, 1)

// takeAwkChild is the spare child, or a new one; it starts the next spare.
func takeAwkChild() (*awkChild, error) {
	defer func() {
		go func() {
			if c, err := startAwkChild(); err == nil {
				select {
				case awkSpare <- c:
				default:
					c.stdin.Close() // the child ends at once
					c.cmd.Wait()
					c.close()
				}
			}
		}()
	}()
	select {
	case c := <-awkSpare:
		return c, nil
	default:
		return startAwkChild()
	}
}

// startAwkChild starts a child: /proc/self/exe, the running binary even
// once its file was replaced (os.Executable's path would then name the
// new one, or none), in its hidden mode.
func startAwkChild() (*awkChild, error) {
	var pipes [4][2]*os.File // stdin, stdout, awk's stderr, result
	closeAll := func(ends ...int) {
		for _, pp := range pipes {
			for _, e := range ends {
				if pp[e] != nil {
					pp[e].Close()
				}
			}
		}
	}
	for i := range pipes {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(0, 1)
			return nil, err
		}
		pipes[i] = [2]*os.File{r, w}
	}
	c := &awkChild{crash: &tailBuffer{max: 4 << 10}}
	c.cmd = exec.Command("/proc/self/exe")
	c.cmd.Env = []string{awkSandboxEnv + "=1", "GOMAXPROCS=1"}
	c.cmd.Stdin, c.cmd.Stdout, c.cmd.Stderr = pipes[0][0], pipes[1][1], c.crash
	c.cmd.ExtraFiles = []*os.File{pipes[2][1], pipes[3][1]}
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	err := c.cmd.Start()
	pipes[0][0].Close()
	for _, pp := range pipes[1:] {
		pp[1].Close()
	}
	if err != nil {
		pipes[0][1].Close()
		for _, pp := range pipes[1:] {
			pp[0].Close()
		}
		return nil, err
	}
	c.stdin, c.stdout, c.stderr, c.result = pipes[0][1], pipes[1][0], pipes[2][0], pipes[3][0]
	return c, nil
}

// close closes the parent's ends of the child's output pipes.
func (c *awkChild) close() {
	c.stdout.Close()
	c.stderr.Close()
	c.result.Close()
}

// sandboxAwk runs job in a child process of simnode's own binary (ServeAwk)
// and maps how it ended: its exit status; killed with the process (its
// ctx): Killed(); dead of its memory limit: OOM-killed, 137 (row B5, as
// the shells' own memory limit does).
func sandboxAwk(p *process.Proc, job awkJob, in io.Reader) int {
	job.Mem = min(p.MemoryLimit(), process.MachineMemory)
	c, err := takeAwkChild()
	if err != nil {
		p.Eprintln("awk: " + err.Error())
		return 2
	}
	cmd := c.cmd
	pipes := [4][2]*os.File{{nil, c.stdin}, {c.stdout}, {c.stderr}, {c.result}}
	crash := c.crash
	// The input: not waited for, it ends when the child is gone (its
	// pipe fails) or the input ends.
	go writeAwkJob(pipes[0][1], job, in)
	var wg sync.WaitGroup
	var outFailed atomic.Bool
	var result []byte
	copyOut := func(w io.Writer, r *os.File) {
		defer wg.Done()
		defer r.Close()
		if _, err := io.Copy(w, r); err != nil {
			outFailed.Store(true)
			cmd.Process.Kill()
			io.Copy(io.Discard, r)
		}
	}
	wg.Add(3)
	go copyOut(p.Stdout, pipes[1][0])
	go copyOut(p.Stderr, pipes[2][0])
	go func() {
		defer wg.Done()
		defer pipes[3][0].Close()
		result, _ = io.ReadAll(io.LimitReader(pipes[3][0], 64<<10))
	}()
	done := make(chan struct{})
	go paceAwk(p, cmd.Process, done)
	wg.Wait()
	werr := cmd.Wait()
	close(done)
	var r awkResult
	switch {
	case p.Done():
		return p.Killed()
	case len(result) > 0 && json.Unmarshal(result, &r) == nil:
		if outFailed.Load() && r.Err == "" {
			return 2
		}
		return r.report(p)
	case outFailed.Load():
		return 2
	}
	// The child died before it said how it ended.
	st := cmd.ProcessState
	var cpu time.Duration
	if st != nil {
		cpu = st.UserTime() + st.SystemTime()
	}
	// Its Go runtime died: of its memory limit (it reports "out of
	// memory", or faults when the kernel refuses it memory in the middle
	// of a collection), or of SIGKILL (its CPU limit aside); GoAWK itself
	// panics only on a bug of its own.
	msg := crash.String()
	switch {
	case cpu >= awkCPU*time.Second:
		p.NotSimulated("awk: a program past " + strconv.Itoa(awkCPU) + "s of CPU")
		return process.ExitOOMKilled
	case strings.HasPrefix(msg, "panic:"):
		line, _, _ := strings.Cut(msg, "\n")
		p.Eprintln("awk: internal error: " + line)
		return 2
	case msg == "" && !killed(st):
		p.Eprintln(fmt.Sprintf("awk: ended without a result (%v)", werr))
		return 2
	case p.Win:
		p.Eprintln("awk: out of memory")
		return 2
	}
	p.OOMKill()
	return process.ExitOOMKilled
}

// killed reports whether the child died of SIGKILL.
func killed(st *os.ProcessState) bool {
	if st == nil {
		return false
	}
	ws, ok := st.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// paceAwk kills the child when the process is stopped, and charges the
// CPU the child uses to the process's step budget (StepsPerCPU a core
// second): while Step throttles the process, the child is stopped
// (SIGSTOP), so a busy awk runs at the pace of the container's CPU and
// its share of the node's, as every interpreter of simnode does.
func paceAwk(p *process.Proc, proc *os.Process, done <-chan struct{}) {
	t := time.NewTicker(awkTick)
	defer t.Stop()
	var used int64
	for {
		select {
		case <-done:
			return
		case <-p.Ctx.Done():
			proc.Kill()
			return
		case <-t.C:
		}
		now := cpuTicks(proc.Pid)
		steps := (now - used) * process.StepsPerCPU / clockTicks
		used = now
		if steps <= 0 {
			continue
		}
		proc.Signal(syscall.SIGSTOP)
		for range steps {
			if p.Step() != nil {
				proc.Kill()
				return
			}
		}
		proc.Signal(syscall.SIGCONT)
	}
}

// cpuTicks is the CPU a process used (utime+stime of /proc/PID/stat, in
// clock ticks); 0 when it cannot be read.
func cpuTicks(pid int) int64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(data[i+1:]))
	// fields after the name: state(3) ... utime(14) stime(15)
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return u + s
}
