package engine

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// This file is PowerShell's background jobs (Start-Job, Get-Job,
// Wait-Job, Receive-Job, Stop-Job, Remove-Job) and the pace of scripts
// that compute: e2e's Cpu Resources spec (test/e2e/windows/cpu_limits.go)
// burns CPU in 8 jobs and checks the container stays under its limit (row
// B7).

// psJob is one background job: a script block run by a child PowerShell
// (Windows PowerShell runs each job in a powershell.exe of its own).
type psJob struct {
	id      int
	name    string
	command string
	cancel  context.CancelFunc
	done    chan struct{}

	mu     sync.Mutex
	state  string // Running, Completed, Failed, Stopped
	output []any
	read   int // Receive-Job has returned output[:read]
}

// psJobs are a session's jobs.
type psJobs struct {
	mu   sync.Mutex
	next int
	list []*psJob
}

func (j *psJob) snapshot() (state string, more bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.state, j.read < len(j.output)
}

// object is the job as Get-Job shows it (PSRemotingJob of a
// BackgroundJob).
func (j *psJob) object() *Object {
	state, more := j.snapshot()
	o := &Object{TypeName: "System.Management.Automation.PSRemotingJob", View: "table", Str: "System.Management.Automation.PSRemotingJob",
		Cols:  []Col{{Name: "Id", Width: 7}, {Name: "Name", Width: 16}, {Name: "PSJobTypeName", Width: 16}, {Name: "State", Width: 14}, {Name: "HasMoreData", Width: 16}, {Name: "Location", Width: 21}, {Name: "Command"}},
		Props: []Prop{{"Id", int64(j.id)}, {"Name", j.name}, {"PSJobTypeName", "BackgroundJob"}, {"State", state}, {"HasMoreData", more}, {"Location", "localhost"}, {"Command", j.command}}}
	return o
}

func init() {
	RegisterCmdlets(
		&Cmdlet{Name: "Start-Job", Aliases: []string{"sajb"}, Help: "Runs a script block as a background job (a child powershell.exe).", Rows: "E, B7", Positional: []string{"ScriptBlock", "ArgumentList*"}, Params: []string{"Name", "InitializationScript", "FilePath"}, Switches: []string{"RunAs32"}, Run: cmdletStartJob},
		&Cmdlet{Name: "Get-Job", Aliases: []string{"gjb"}, Help: "Lists the session's background jobs.", Rows: "E", Positional: []string{"Id*"}, Params: []string{"Name", "State"}, Run: cmdletGetJob},
		&Cmdlet{Name: "Wait-Job", Aliases: []string{"wjb"}, Help: "Waits until jobs end.", Rows: "E, B7", Positional: []string{"Id*"}, Params: []string{"Name", "Job", "Timeout"}, Switches: []string{"Any", "Force"}, Run: cmdletWaitJob},
		&Cmdlet{Name: "Receive-Job", Aliases: []string{"rcjb"}, Help: "Gets the output of jobs.", Rows: "E", Positional: []string{"Id*"}, Params: []string{"Name", "Job"}, Switches: []string{"Keep", "Wait", "AutoRemoveJob", "Force"}, Run: cmdletReceiveJob},
		&Cmdlet{Name: "Stop-Job", Aliases: []string{"spjb"}, Help: "Stops jobs.", Rows: "E", Positional: []string{"Id*"}, Params: []string{"Name", "Job"}, Switches: []string{"PassThru"}, Run: cmdletStopJob},
		&Cmdlet{Name: "Remove-Job", Aliases: []string{"rjb"}, Help: "Removes jobs.", Rows: "E", Positional: []string{"Id*"}, Params: []string{"Name", "Job"}, Switches: []string{"Force"}, Run: cmdletRemoveJob},
	)
}

func (s *Shell) jobTable() *psJobs {
	if s.jobs == nil {
		s.jobs = &psJobs{}
	}
	return s.jobs
}

func cmdletStartJob(c *Call) {
	sb, ok := c.Named["ScriptBlock"].(*ScriptBlock)
	if !ok {
		c.Fail("Cannot bind parameter 'ScriptBlock'. Cannot convert the \""+c.Str("ScriptBlock")+"\" value of type \"System.String\" to type \"System.Management.Automation.ScriptBlock\".",
			"InvalidArgument", c.Str("ScriptBlock"), "ParameterBindingException", "CannotConvertArgumentNoMessage")
		return
	}
	t := c.S.jobTable()
	t.mu.Lock()
	t.next++
	id := t.next
	t.mu.Unlock()
	name := c.Str("Name")
	if name == "" {
		name = fmt.Sprintf("Job%d", id)
	}
	ctx, cancel := context.WithCancel(c.S.P.Ctx)
	j := &psJob{id: id, name: name, command: strings.TrimSpace(c.S.src[min(sb.Node.Pos+1, len(c.S.src)):min(max(sb.Node.End-1, sb.Node.Pos+1), len(c.S.src))]), cancel: cancel, done: make(chan struct{}), state: "Running"}
	t.mu.Lock()
	t.list = append(t.list, j)
	t.mu.Unlock()

	// The job's powershell.exe: the container's environment, a session of
	// its own (no variables or functions of this one), output collected.
	jp := c.S.P.Sub(strings.NewReader(""), io.Discard, io.Discard)
	jp.Ctx = ctx
	jp.Depth = &atomic.Int32{}
	js := &Shell{P: jp, Pwsh: c.S.Pwsh, src: c.S.src, lastOK: true, Errw: io.Discard}
	js.initScopes()
	args := Enumerate(Collapse(Enumerate(c.Named["ArgumentList"])))
	go func() {
		defer close(j.done)
		state := "Completed"
		func() {
			defer func() {
				if r := recover(); r != nil {
					switch r.(type) {
					case KilledSignal:
						state = "Stopped"
					case psExitSignal, psReturnSignal, psBreakSignal, psContinueSignal:
					case psThrowSignal:
						state = "Failed"
					default:
						panic(r)
					}
				}
			}()
			js.invokeBlock(sb.Node, args, nil, func(v any) {
				if _, f := v.(flushMarker); f {
					return
				}
				js.Grow(sizeOf(v, 1)) // the job's output is held until received
				j.mu.Lock()
				j.output = append(j.output, v)
				j.mu.Unlock()
			})
		}()
		js.endCompute()
		if ctx.Err() != nil && state == "Completed" {
			state = "Stopped"
		}
		j.mu.Lock()
		j.state = state
		j.mu.Unlock()
	}()
	c.Out(j.object())
}

// selectJobs returns the jobs a call names (-Id, -Name, -Job or piped job
// objects), or all of them.
func (c *Call) selectJobs() []*psJob {
	t := c.S.jobTable()
	t.mu.Lock()
	all := append([]*psJob(nil), t.list...)
	t.mu.Unlock()
	var out []*psJob
	var refs []any
	refs = append(refs, Enumerate(c.Named["Job"])...)
	refs = append(refs, c.Input...)
	for _, v := range Enumerate(Collapse(Enumerate(c.Named["Id"]))) {
		if o, ok := v.(*Object); ok {
			refs = append(refs, o)
			continue
		}
		for _, j := range all {
			if int64(j.id) == ToInt(v) {
				out = append(out, j)
			}
		}
	}
	for _, r := range refs {
		o, ok := r.(*Object)
		if !ok || o.TypeName != "System.Management.Automation.PSRemotingJob" {
			continue
		}
		id, _ := o.get("Id")
		for _, j := range all {
			if int64(j.id) == ToInt(id) {
				out = append(out, j)
			}
		}
	}
	if n := c.Str("Name"); n != "" {
		for _, j := range all {
			if strings.EqualFold(j.name, n) {
				out = append(out, j)
			}
		}
	}
	if len(out) == 0 && !c.Set("Id") && !c.Set("Name") && !c.Set("Job") && !c.hasInput {
		return all
	}
	return out
}

func cmdletGetJob(c *Call) {
	for _, j := range c.selectJobs() {
		if st := c.Str("State"); st != "" {
			if state, _ := j.snapshot(); !strings.EqualFold(state, st) {
				continue
			}
		}
		c.Out(j.object())
	}
}

// cmdletWaitJob blocks until the jobs end (all, or one with -Any), or
// -Timeout seconds pass, and returns the jobs that ended.
func cmdletWaitJob(c *Call) {
	jobs := c.selectJobs()
	var deadline <-chan struct{}
	if c.Set("Timeout") && ToInt(c.Named["Timeout"]) >= 0 {
		var stop context.CancelFunc
		deadline, stop = c.S.timer(time.Duration(ToInt(c.Named["Timeout"])) * time.Second)
		defer stop()
	}
	ctx := c.S.P.Ctx
	ended := map[*psJob]bool{}
	for _, j := range jobs {
		select {
		case <-j.done:
			ended[j] = true
			if c.Has("Any") {
				c.Out(j.object())
				return
			}
			continue
		default:
		}
		if c.Has("Any") {
			continue
		}
		select {
		case <-j.done:
			ended[j] = true
		case <-ctx.Done():
			panic(KilledSignal{})
		case <-deadline:
			for _, j := range jobs {
				if ended[j] {
					c.Out(j.object())
				}
			}
			return
		}
	}
	if c.Has("Any") && len(ended) == 0 && len(jobs) > 0 {
		cases := make(chan *psJob, len(jobs))
		for _, j := range jobs {
			go func() {
				select {
				case <-j.done:
					cases <- j
				case <-ctx.Done():
				}
			}()
		}
		select {
		case j := <-cases:
			c.Out(j.object())
		case <-ctx.Done():
			panic(KilledSignal{})
		case <-deadline:
		}
		return
	}
	for _, j := range jobs {
		c.Out(j.object())
	}
}

func cmdletReceiveJob(c *Call) {
	for _, j := range c.selectJobs() {
		if c.Has("Wait") {
			select {
			case <-j.done:
			case <-c.S.P.Ctx.Done():
				panic(KilledSignal{})
			}
		}
		j.mu.Lock()
		out := append([]any(nil), j.output[j.read:]...)
		if !c.Has("Keep") {
			j.read = len(j.output)
		}
		j.mu.Unlock()
		for _, v := range out {
			c.Out(v)
		}
	}
}

func cmdletStopJob(c *Call) {
	for _, j := range c.selectJobs() {
		j.cancel()
		<-j.done
		if c.Has("PassThru") {
			c.Out(j.object())
		}
	}
}

func cmdletRemoveJob(c *Call) {
	t := c.S.jobTable()
	for _, j := range c.selectJobs() {
		if state, _ := j.snapshot(); state == "Running" {
			if !c.Has("Force") {
				c.Fail(fmt.Sprintf("The command cannot remove the job with the job ID %d because the job is not finished. To remove the job, first stop the job, or use the Force parameter.", j.id),
					"InvalidOperation", "System.Management.Automation.PSRemotingJob", "ArgumentException", "JobObjectNotFinishedCannotBeRemoved")
				continue
			}
			j.cancel()
			<-j.done
		}
		t.mu.Lock()
		for i, x := range t.list {
			if x == j {
				t.list = append(t.list[:i], t.list[i+1:]...)
				break
			}
		}
		t.mu.Unlock()
	}
}

// timer is a channel closed once d passed on the process's clock
// (Env.Sleep: simulated time, issue 21), or never if the process stops
// first; stop ends its waiter.
func (s *Shell) timer(d time.Duration) (<-chan struct{}, context.CancelFunc) {
	ch := make(chan struct{})
	ctx, stop := context.WithCancel(s.P.Ctx)
	tp := *s.P
	tp.Ctx = ctx
	go func() {
		if tp.Sleep(d) {
			close(ch)
		}
	}()
	return ch, stop
}

// Scripts that compute. A real PowerShell runs a loop like the Cpu
// Resources spec's (1..2147483647, nested) for ever on a whole core; the
// simulation must not. A script runs at full speed for computeAllowance
// statements; after that it is taken as computing: it counts as one busy
// thread on the container's CPU meter (Env.CPU: the node's stats then show
// the container demanding a whole core, capped at its limit, row B7) and
// runs computeSlice statements per computePause of the clock, so that it
// costs the machine next to nothing while it runs until stopped.
const (
	computeAllowance = 200000
	computeSlice     = 2000
	computePause     = 200 * time.Millisecond
)

// pace is called once per statement (checkCtx).
func (s *Shell) pace() {
	s.steps++
	if s.steps < computeAllowance || s.steps%computeSlice != 0 {
		return
	}
	if !s.computing {
		s.computing = true
		if s.P.Env.CPU != nil {
			s.P.Env.CPU.Busy(1)
		}
	}
	if !s.P.Sleep(computePause) {
		panic(KilledSignal{})
	}
}

// endCompute releases the busy thread of a script that was computing.
func (s *Shell) endCompute() {
	if s.computing {
		s.computing = false
		if s.P.Env.CPU != nil {
			s.P.Env.CPU.Busy(-1)
		}
	}
}
