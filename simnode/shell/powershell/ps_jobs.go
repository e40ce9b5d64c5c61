package powershell

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
func (j *psJob) object() *psObject {
	state, more := j.snapshot()
	o := &psObject{typeName: "System.Management.Automation.PSRemotingJob", view: "table", str: "System.Management.Automation.PSRemotingJob",
		cols:  []psCol{{name: "Id", width: 7}, {name: "Name", width: 16}, {name: "PSJobTypeName", width: 16}, {name: "State", width: 14}, {name: "HasMoreData", width: 16}, {name: "Location", width: 21}, {name: "Command"}},
		props: []psProp{{"Id", int64(j.id)}, {"Name", j.name}, {"PSJobTypeName", "BackgroundJob"}, {"State", state}, {"HasMoreData", more}, {"Location", "localhost"}, {"Command", j.command}}}
	return o
}

func init() {
	registerCmdlets(
		&psCmdlet{name: "Start-Job", aliases: []string{"sajb"}, help: "Runs a script block as a background job (a child powershell.exe).", rows: "E, B7", positional: []string{"ScriptBlock", "ArgumentList*"}, params: []string{"Name", "InitializationScript", "FilePath"}, switches: []string{"RunAs32"}, run: cmdletStartJob},
		&psCmdlet{name: "Get-Job", aliases: []string{"gjb"}, help: "Lists the session's background jobs.", rows: "E", positional: []string{"Id*"}, params: []string{"Name", "State"}, run: cmdletGetJob},
		&psCmdlet{name: "Wait-Job", aliases: []string{"wjb"}, help: "Waits until jobs end.", rows: "E, B7", positional: []string{"Id*"}, params: []string{"Name", "Job", "Timeout"}, switches: []string{"Any", "Force"}, run: cmdletWaitJob},
		&psCmdlet{name: "Receive-Job", aliases: []string{"rcjb"}, help: "Gets the output of jobs.", rows: "E", positional: []string{"Id*"}, params: []string{"Name", "Job"}, switches: []string{"Keep", "Wait", "AutoRemoveJob", "Force"}, run: cmdletReceiveJob},
		&psCmdlet{name: "Stop-Job", aliases: []string{"spjb"}, help: "Stops jobs.", rows: "E", positional: []string{"Id*"}, params: []string{"Name", "Job"}, switches: []string{"PassThru"}, run: cmdletStopJob},
		&psCmdlet{name: "Remove-Job", aliases: []string{"rjb"}, help: "Removes jobs.", rows: "E", positional: []string{"Id*"}, params: []string{"Name", "Job"}, switches: []string{"Force"}, run: cmdletRemoveJob},
	)
}

// registerCmdlets adds cmdlets defined outside the table of ps_cmdlets.go.
func registerCmdlets(cs ...*psCmdlet) {
	for _, c := range cs {
		psCmdlets = append(psCmdlets, c)
		psCmdletIndex[strings.ToLower(c.name)] = c
		for _, a := range c.aliases {
			psCmdletIndex[strings.ToLower(a)] = c
		}
	}
}

func (s *psShell) jobTable() *psJobs {
	if s.jobs == nil {
		s.jobs = &psJobs{}
	}
	return s.jobs
}

func cmdletStartJob(c *psCall) {
	sb, ok := c.named["ScriptBlock"].(*psScriptBlock)
	if !ok {
		c.fail("Cannot bind parameter 'ScriptBlock'. Cannot convert the \""+c.str("ScriptBlock")+"\" value of type \"System.String\" to type \"System.Management.Automation.ScriptBlock\".",
			"InvalidArgument", c.str("ScriptBlock"), "ParameterBindingException", "CannotConvertArgumentNoMessage")
		return
	}
	t := c.s.jobTable()
	t.mu.Lock()
	t.next++
	id := t.next
	t.mu.Unlock()
	name := c.str("Name")
	if name == "" {
		name = fmt.Sprintf("Job%d", id)
	}
	ctx, cancel := context.WithCancel(c.s.p.Ctx)
	j := &psJob{id: id, name: name, command: strings.TrimSpace(c.s.src[min(sb.node.Pos+1, len(c.s.src)):min(max(sb.node.End-1, sb.node.Pos+1), len(c.s.src))]), cancel: cancel, done: make(chan struct{}), state: "Running"}
	t.mu.Lock()
	t.list = append(t.list, j)
	t.mu.Unlock()

	// The job's powershell.exe: the container's environment, a session of
	// its own (no variables or functions of this one), output collected.
	jp := c.s.p.Sub(strings.NewReader(""), io.Discard, io.Discard)
	jp.Ctx = ctx
	jp.Depth = &atomic.Int32{}
	js := &psShell{p: jp, pwsh: c.s.pwsh, src: c.s.src, lastOK: true, errw: io.Discard}
	js.initScopes()
	args := enumerate(collapse(enumerate(c.named["ArgumentList"])))
	go func() {
		defer close(j.done)
		state := "Completed"
		func() {
			defer func() {
				if r := recover(); r != nil {
					switch r.(type) {
					case psKilledSignal:
						state = "Stopped"
					case psExitSignal, psReturnSignal, psBreakSignal, psContinueSignal:
					case psThrowSignal:
						state = "Failed"
					default:
						panic(r)
					}
				}
			}()
			js.invokeBlock(sb.node, args, nil, func(v any) {
				if _, f := v.(flushMarker); f {
					return
				}
				js.grow(sizeOf(v, 1)) // the job's output is held until received
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
	c.out(j.object())
}

// selectJobs returns the jobs a call names (-Id, -Name, -Job or piped job
// objects), or all of them.
func (c *psCall) selectJobs() []*psJob {
	t := c.s.jobTable()
	t.mu.Lock()
	all := append([]*psJob(nil), t.list...)
	t.mu.Unlock()
	var out []*psJob
	var refs []any
	refs = append(refs, enumerate(c.named["Job"])...)
	refs = append(refs, c.input...)
	for _, v := range enumerate(collapse(enumerate(c.named["Id"]))) {
		if o, ok := v.(*psObject); ok {
			refs = append(refs, o)
			continue
		}
		for _, j := range all {
			if int64(j.id) == toInt(v) {
				out = append(out, j)
			}
		}
	}
	for _, r := range refs {
		o, ok := r.(*psObject)
		if !ok || o.typeName != "System.Management.Automation.PSRemotingJob" {
			continue
		}
		id, _ := o.get("Id")
		for _, j := range all {
			if int64(j.id) == toInt(id) {
				out = append(out, j)
			}
		}
	}
	if n := c.str("Name"); n != "" {
		for _, j := range all {
			if strings.EqualFold(j.name, n) {
				out = append(out, j)
			}
		}
	}
	if len(out) == 0 && !c.set("Id") && !c.set("Name") && !c.set("Job") && !c.hasInput {
		return all
	}
	return out
}

func cmdletGetJob(c *psCall) {
	for _, j := range c.selectJobs() {
		if st := c.str("State"); st != "" {
			if state, _ := j.snapshot(); !strings.EqualFold(state, st) {
				continue
			}
		}
		c.out(j.object())
	}
}

// cmdletWaitJob blocks until the jobs end (all, or one with -Any), or
// -Timeout seconds pass, and returns the jobs that ended.
func cmdletWaitJob(c *psCall) {
	jobs := c.selectJobs()
	var deadline <-chan struct{}
	if c.set("Timeout") && toInt(c.named["Timeout"]) >= 0 {
		var stop context.CancelFunc
		deadline, stop = c.s.timer(time.Duration(toInt(c.named["Timeout"])) * time.Second)
		defer stop()
	}
	ctx := c.s.p.Ctx
	ended := map[*psJob]bool{}
	for _, j := range jobs {
		select {
		case <-j.done:
			ended[j] = true
			if c.has("Any") {
				c.out(j.object())
				return
			}
			continue
		default:
		}
		if c.has("Any") {
			continue
		}
		select {
		case <-j.done:
			ended[j] = true
		case <-ctx.Done():
			panic(psKilledSignal{})
		case <-deadline:
			for _, j := range jobs {
				if ended[j] {
					c.out(j.object())
				}
			}
			return
		}
	}
	if c.has("Any") && len(ended) == 0 && len(jobs) > 0 {
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
			c.out(j.object())
		case <-ctx.Done():
			panic(psKilledSignal{})
		case <-deadline:
		}
		return
	}
	for _, j := range jobs {
		c.out(j.object())
	}
}

func cmdletReceiveJob(c *psCall) {
	for _, j := range c.selectJobs() {
		if c.has("Wait") {
			select {
			case <-j.done:
			case <-c.s.p.Ctx.Done():
				panic(psKilledSignal{})
			}
		}
		j.mu.Lock()
		out := append([]any(nil), j.output[j.read:]...)
		if !c.has("Keep") {
			j.read = len(j.output)
		}
		j.mu.Unlock()
		for _, v := range out {
			c.out(v)
		}
	}
}

func cmdletStopJob(c *psCall) {
	for _, j := range c.selectJobs() {
		j.cancel()
		<-j.done
		if c.has("PassThru") {
			c.out(j.object())
		}
	}
}

func cmdletRemoveJob(c *psCall) {
	t := c.s.jobTable()
	for _, j := range c.selectJobs() {
		if state, _ := j.snapshot(); state == "Running" {
			if !c.has("Force") {
				c.fail(fmt.Sprintf("The command cannot remove the job with the job ID %d because the job is not finished. To remove the job, first stop the job, or use the Force parameter.", j.id),
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
func (s *psShell) timer(d time.Duration) (<-chan struct{}, context.CancelFunc) {
	ch := make(chan struct{})
	ctx, stop := context.WithCancel(s.p.Ctx)
	tp := *s.p
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
func (s *psShell) pace() {
	s.steps++
	if s.steps < computeAllowance || s.steps%computeSlice != 0 {
		return
	}
	if !s.computing {
		s.computing = true
		if s.p.Env.CPU != nil {
			s.p.Env.CPU.Busy(1)
		}
	}
	if !s.p.Sleep(computePause) {
		panic(psKilledSignal{})
	}
}

// endCompute releases the busy thread of a script that was computing.
func (s *psShell) endCompute() {
	if s.computing {
		s.computing = false
		if s.p.Env.CPU != nil {
			s.p.Env.CPU.Busy(-1)
		}
	}
}
