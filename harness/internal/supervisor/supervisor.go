package supervisor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Supervisor runs the components of one cluster as child processes of the
// wink binary, restarts those that exit, and stops them in reverse order.
type Supervisor struct {
	// Binary is the wink executable the children run.
	Binary string
	// LogDir receives one <component>.log per child.
	LogDir string
	// RunDir receives <component>.pid files and status.json.
	RunDir string
	// Log is the supervisor's own log.
	Log *slog.Logger
	// StopTimeout is how long a child has after SIGTERM before SIGKILL
	// (default DefaultStopTimeout).
	StopTimeout time.Duration
	// TaskTimeout bounds the retries of a failing task (default 2 min).
	TaskTimeout time.Duration

	mu     sync.Mutex
	status map[string]*ComponentStatus
	order  []string
}

// ComponentStatus is what `wink status` shows of one component.
type ComponentStatus struct {
	Name     string `json:"name"`
	PID      int    `json:"pid,omitempty"`
	State    State  `json:"state"`
	Restarts int    `json:"restarts"`
	LastExit string `json:"lastExit,omitempty"`
	// Killed says the last exit was by a signal (someone killed the child:
	// a test, the OOM killer), not the child exiting by itself, which at
	// start-up is a failure (a port in use, a bad flag) that `wink up`
	// reports instead of waiting.
	Killed bool      `json:"killed,omitempty"`
	Since  time.Time `json:"since"`
}

// State of a component.
type State string

// Component states.
const (
	StateStarting State = "starting"
	StateReady    State = "ready"
	StateBackOff  State = "back-off"
	StateStopped  State = "stopped"
	StateFailed   State = "failed"
	StateDone     State = "done" // a task that completed
)

// StatusFile is the name of the status file in RunDir.
const StatusFile = "status.json"

// DefaultStopTimeout is how long a child has after SIGTERM before SIGKILL.
// A child whose supervisor was killed gets SIGTERM too (Pdeathsig) and
// nobody to kill it: the components bound their own stop by it
// (controlplane.Run).
const DefaultStopTimeout = 15 * time.Second

// Run starts the components in order and keeps them running until ctx is
// done, then stops them in reverse order. A task that fails, or a component
// that never gets ready, makes Run stop everything and return the error.
func (s *Supervisor) Run(ctx context.Context, components []Component) error {
	if s.StopTimeout == 0 {
		s.StopTimeout = DefaultStopTimeout
	}
	if s.TaskTimeout == 0 {
		s.TaskTimeout = 2 * time.Minute
	}
	if s.Log == nil {
		s.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s.status = map[string]*ComponentStatus{}
	for _, c := range components {
		s.order = append(s.order, c.Name)
		s.status[c.Name] = &ComponentStatus{Name: c.Name, State: StateStopped}
	}
	s.writeStatus()

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var children sync.WaitGroup
	stops := make([]func(), 0, len(components))
	var startErr error

	for _, c := range components {
		if c.Task != nil {
			s.set(c.Name, func(st *ComponentStatus) { st.State = StateStarting })
			if err := retry(runCtx, s.TaskTimeout, c.Task); err != nil {
				if runCtx.Err() != nil {
					// Stopped (`wink down`) while the task ran: not a failure.
					s.set(c.Name, func(st *ComponentStatus) { st.State = StateStopped })
					break
				}
				startErr = fmt.Errorf("%s: %w", c.Name, err)
				s.set(c.Name, func(st *ComponentStatus) { st.State = StateFailed; st.LastExit = err.Error() })
				break
			}
			s.set(c.Name, func(st *ComponentStatus) { st.State = StateDone })
			continue
		}
		// Children are stopped one by one in reverse order below, not all at
		// once when ctx ends: the apiserver must not lose etcd first.
		s.set(c.Name, func(st *ComponentStatus) { st.State = StateStarting })
		childCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
		stopped := make(chan struct{})
		children.Add(1)
		go func() {
			defer children.Done()
			defer close(stopped)
			s.keepRunning(childCtx, c)
		}()
		stops = append(stops, func() { stop(); <-stopped })

		ready := func() {
			if c.Ready != nil {
				if err := poll(runCtx, c.Ready); err != nil {
					return
				}
			}
			s.set(c.Name, func(st *ComponentStatus) { st.State = StateReady })
		}
		if c.Parallel {
			go ready()
		} else {
			ready()
		}
	}

	if startErr == nil {
		<-runCtx.Done()
	}
	// Stop in reverse order: simnode and controllers before the apiserver,
	// the apiserver before etcd.
	for i := len(stops) - 1; i >= 0; i-- {
		stops[i]()
	}
	children.Wait()
	s.writeStatus()
	return startErr
}

// keepRunning runs one child, restarting it with back-off until ctx is done.
func (s *Supervisor) keepRunning(ctx context.Context, c Component) {
	backoff := 500 * time.Millisecond
	for restart := false; ctx.Err() == nil; restart = true {
		started := time.Now()
		err := s.runChild(ctx, c, restart)
		if ctx.Err() != nil {
			break
		}
		if time.Since(started) > time.Minute {
			backoff = 500 * time.Millisecond
		}
		s.Log.Warn("component exited; restarting", "component", c.Name, "err", err, "backoff", backoff)
		s.set(c.Name, func(st *ComponentStatus) {
			st.State = StateBackOff
			st.Restarts++
			st.PID = 0
			st.Killed = killed(err)
			if err != nil {
				st.LastExit = err.Error()
			}
		})
		select {
		case <-ctx.Done():
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 20*time.Second)
	}
	s.set(c.Name, func(st *ComponentStatus) { st.State = StateStopped; st.PID = 0 })
}

// runChild starts the child and waits for it to exit or for ctx to end, in
// which case it sends SIGTERM, then SIGKILL after StopTimeout. A restarted
// child is marked ready once its Ready probe passes (Run waits for the
// first start's itself).
func (s *Supervisor) runChild(ctx context.Context, c Component, restart bool) error {
	logFile, err := os.OpenFile(filepath.Join(s.LogDir, c.Name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer logFile.Close()
	fmt.Fprintf(logFile, "==== %s starting %s\n", time.Now().Format(time.RFC3339), c.Name)

	cmd := exec.Command(s.Binary, c.Args...)
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// The child dies with the supervisor, even when the supervisor is killed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM, Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	pidFile := filepath.Join(s.RunDir, c.Name+".pid")
	_ = os.WriteFile(pidFile, []byte(fmt.Sprint(cmd.Process.Pid)), 0o600)
	defer os.Remove(pidFile)
	pid := cmd.Process.Pid
	s.set(c.Name, func(st *ComponentStatus) {
		st.PID = pid
		// Run marks a first start starting, then ready, and may do so
		// before this runs: only a restart is starting here (issue 21).
		if restart {
			st.State = StateStarting
		}
	})

	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	if restart {
		// After the child started, so that a probe that still passes on
		// what the last one left (Ready nodes whose leases have not run
		// out) is not overwritten by "starting". Without a probe a
		// component is ready once started, as in Run.
		readyCtx, stopReady := context.WithCancel(ctx)
		defer stopReady()
		go func() {
			if c.Ready == nil || poll(readyCtx, c.Ready) == nil {
				s.set(c.Name, func(st *ComponentStatus) {
					if st.PID == pid {
						st.State = StateReady
					}
				})
			}
		}()
	}
	select {
	case err := <-exited:
		return exitError(err)
	case <-ctx.Done():
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(s.StopTimeout):
		s.Log.Warn("component did not stop in time; killing it", "component", c.Name)
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	}
	return nil
}

// killed reports whether a child's exit error is death by a signal.
func killed(err error) bool {
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return false
	}
	ws, ok := exit.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled()
}

func exitError(err error) error {
	if err == nil {
		return errors.New("exited with status 0")
	}
	return err
}

func (s *Supervisor) set(name string, f func(*ComponentStatus)) {
	s.mu.Lock()
	st := s.status[name]
	f(st)
	st.Since = time.Now()
	s.mu.Unlock()
	s.writeStatus()
}

// writeStatus saves the status of every component, in start order. It
// holds the lock while it writes: two changes at once (a child's pid and
// Run's "ready") would otherwise each write their own snapshot through the
// one temporary file, and the older could land last.
func (s *Supervisor) writeStatus() {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := make([]ComponentStatus, 0, len(s.order))
	for _, n := range s.order {
		list = append(list, *s.status[n])
	}
	data, _ := json.MarshalIndent(list, "", "  ")
	tmp := filepath.Join(s.RunDir, StatusFile+".tmp")
	if os.WriteFile(tmp, data, 0o600) == nil {
		_ = os.Rename(tmp, filepath.Join(s.RunDir, StatusFile))
	}
}

// ReadStatus reads the status a supervisor wrote into runDir.
func ReadStatus(runDir string) ([]ComponentStatus, error) {
	data, err := os.ReadFile(filepath.Join(runDir, StatusFile))
	if err != nil {
		return nil, err
	}
	var list []ComponentStatus
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(runDir, StatusFile), err)
	}
	return list, nil
}

// poll calls f every 100 ms until it returns nil or ctx is done.
func poll(ctx context.Context, f func(context.Context) error) error {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		if err := f(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// retry runs a task until it succeeds, backing off up to 2 s, for at most
// timeout: a task that cannot succeed by then will not.
func retry(ctx context.Context, timeout time.Duration, f func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	wait := 100 * time.Millisecond
	for {
		err := f(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(wait*2, 2*time.Second)
	}
}
