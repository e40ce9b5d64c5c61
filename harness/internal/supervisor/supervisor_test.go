package supervisor

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func newSupervisor(t *testing.T) *Supervisor {
	t.Helper()
	dir := t.TempDir()
	return &Supervisor{Binary: "/bin/sh", LogDir: dir, RunDir: dir, StopTimeout: 2 * time.Second}
}

func waitFor(t *testing.T, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !f() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// staysReady: the first child's status still says ready a while later.
func staysReady(t *testing.T, runDir string) {
	t.Helper()
	time.Sleep(300 * time.Millisecond)
	if list, err := ReadStatus(runDir); err != nil || list[0].State != StateReady {
		t.Errorf("status %+v (%v), want ready", list, err)
	}
}

// start runs s with comps in the background; stop (also at the test's
// end) cancels it and returns what Run returned.
func start(t *testing.T, s *Supervisor, comps []Component) (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, comps) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() { cancel(); err = <-done })
		return err
	}
	t.Cleanup(func() { _ = stop() })
	return stop
}

func pidOf(dir, name string) int {
	data, err := os.ReadFile(filepath.Join(dir, name+".pid"))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return pid
}

// TestRestartsAKilledChild is what `wink` relies on when a test kills simnode.
func TestRestartsAKilledChild(t *testing.T) {
	s := newSupervisor(t)
	stop := start(t, s, []Component{{Name: "sleeper", Args: []string{"-c", "echo started; exec sleep 30"}}})
	var first int
	waitFor(t, "the first child", func() bool { first = pidOf(s.RunDir, "sleeper"); return first > 0 })
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a restarted child", func() bool { p := pidOf(s.RunDir, "sleeper"); return p > 0 && p != first })
	list, err := ReadStatus(s.RunDir)
	if err != nil {
		t.Fatal(err)
	}
	if list[0].Restarts != 1 {
		t.Errorf("restarts = %d, want 1", list[0].Restarts)
	}
	// The restarted child prints before it sleeps; stopping it first (a
	// busy machine) would leave one "started".
	starts := func() int {
		log, _ := os.ReadFile(filepath.Join(s.LogDir, "sleeper.log"))
		return strings.Count(string(log), "started")
	}
	waitFor(t, "the restarted child's output", func() bool { return starts() >= 2 })
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	log, _ := os.ReadFile(filepath.Join(s.LogDir, "sleeper.log"))
	if got := strings.Count(string(log), "started"); got != 2 {
		t.Errorf("log shows %d starts, want 2:\n%s", got, log)
	}
}

// TestRestartedChildIsReadyAgain: a restarted child whose Ready probe
// passes at once (simnode's of kind and existing clusters: its nodes are
// still Ready in the API), or that has none (the embedded backend's
// simnode), is "ready" with its new pid, not left "starting".
func TestRestartedChildIsReadyAgain(t *testing.T) {
	for name, ready := range map[string]func(context.Context) error{
		"a probe that passes": func(context.Context) error { return nil },
		"no probe":            nil,
	} {
		t.Run(name, func(t *testing.T) { testRestartedChildIsReadyAgain(t, ready) })
	}
}

func testRestartedChildIsReadyAgain(t *testing.T, ready func(context.Context) error) {
	s := newSupervisor(t)
	stop := start(t, s, []Component{{
		Name:  "sleeper",
		Args:  []string{"-c", "exec sleep 30"},
		Ready: ready,
	}})
	var first int
	waitFor(t, "the first child", func() bool { first = pidOf(s.RunDir, "sleeper"); return first > 0 })
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the restarted child ready", func() bool {
		list, err := ReadStatus(s.RunDir)
		return err == nil && list[0].PID != 0 && list[0].PID != first && list[0].State == StateReady
	})
	staysReady(t, s.RunDir)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

// TestFirstStartIsReady: a child without a Ready probe (the embedded
// backend's simnode before issue 21) is "ready" once started, not left
// "starting" by its start racing Run's readiness.
func TestFirstStartIsReady(t *testing.T) {
	s := newSupervisor(t)
	stop := start(t, s, []Component{{Name: "sleeper", Args: []string{"-c", "exec sleep 30"}}})
	waitFor(t, "the child", func() bool { return pidOf(s.RunDir, "sleeper") > 0 })
	waitFor(t, "its pid in the status", func() bool {
		list, err := ReadStatus(s.RunDir)
		return err == nil && list[0].PID != 0
	})
	staysReady(t, s.RunDir)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

// TestOrderAndFailedTask checks that components wait for the readiness of
// the ones before them and that a failing task stops everything.
func TestOrderAndFailedTask(t *testing.T) {
	s := newSupervisor(t)
	s.TaskTimeout = time.Second
	var order []string
	readyAfter := time.Now().Add(300 * time.Millisecond)
	errBoom := errors.New("boom")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := s.Run(ctx, []Component{
		{Name: "first", Args: []string{"-c", "exec sleep 30"}, Ready: func(context.Context) error {
			if time.Now().Before(readyAfter) {
				return errors.New("not yet")
			}
			order = append(order, "first ready")
			return nil
		}},
		{Name: "task", Task: func(ctx context.Context) error {
			order = append(order, "task")
			return errBoom
		}},
	})
	if !errors.Is(err, errBoom) {
		t.Fatalf("Run = %v, want the task's error", err)
	}
	if len(order) < 2 || order[0] != "first ready" || order[1] != "task" {
		t.Errorf("order = %v, want first ready before the task", order)
	}
	if pidOf(s.RunDir, "first") != 0 {
		t.Error("first is still recorded as running after Run returned")
	}
}

// TestStopsInReverseOrder: when the supervisor is told to stop, the
// apiserver must go before etcd, so children stop one at a time, last first.
func TestStopsInReverseOrder(t *testing.T) {
	s := newSupervisor(t)
	record := filepath.Join(t.TempDir(), "stops")
	child := func(name string) Component {
		script := `trap 'echo ` + name + ` >> "$RECORD"; exit 0' TERM; while :; do sleep 0.05; done`
		return Component{Name: name, Args: []string{"-c", script}, Env: []string{"RECORD=" + record}}
	}
	stop := start(t, s, []Component{child("etcd"), child("apiserver"), child("simnode")})
	waitFor(t, "all children", func() bool { return pidOf(s.RunDir, "simnode") > 0 })
	time.Sleep(200 * time.Millisecond) // let the shells install their traps
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(record)
	if want := "simnode\napiserver\netcd\n"; string(got) != want {
		t.Errorf("stop order:\n%s\nwant:\n%s", got, want)
	}
}

// TestKilledOrExited: the status tells a child killed by a signal (a test,
// the OOM killer: restarted, nothing to report) from one that exited by
// itself (at start-up, a failure `wink up` reports at once).
func TestKilledOrExited(t *testing.T) {
	tests := []struct {
		name, script string
		kill         bool
		wantKilled   bool
		wantExit     string
	}{
		{name: "exits by itself", script: "echo 'listen tcp 127.0.0.1:1: bind: address already in use'; sleep 0.2; exit 1", wantExit: "exit status 1"},
		{name: "killed", script: "exec sleep 30", kill: true, wantKilled: true, wantExit: "signal: killed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSupervisor(t)
			start(t, s, []Component{{Name: "c", Args: []string{"-c", tt.script}}})
			if tt.kill {
				var pid int
				waitFor(t, "the child", func() bool { pid = pidOf(s.RunDir, "c"); return pid > 0 })
				if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
			}
			var got ComponentStatus
			waitFor(t, "back-off", func() bool {
				list, err := ReadStatus(s.RunDir)
				if err != nil || len(list) == 0 {
					return false
				}
				got = list[0]
				return got.Restarts > 0
			})
			if got.Killed != tt.wantKilled || got.LastExit != tt.wantExit {
				t.Errorf("status %+v, want killed %v, lastExit %q", got, tt.wantKilled, tt.wantExit)
			}
		})
	}
}

// TestStoppedDuringATask: a supervisor stopped (`wink down`) while a task
// runs records the task stopped, not failed, so the next `wink up` has no
// "context canceled" failure to report.
func TestStoppedDuringATask(t *testing.T) {
	s := newSupervisor(t)
	started := make(chan struct{})
	stop := start(t, s, []Component{{Name: "bootstrap", Task: func(ctx context.Context) error {
		close(started)
		<-ctx.Done()
		return ctx.Err()
	}}})
	<-started
	if err := stop(); err != nil {
		t.Fatalf("Run = %v, want nil for a stop", err)
	}
	list, err := ReadStatus(s.RunDir)
	if err != nil {
		t.Fatal(err)
	}
	if list[0].State != StateStopped || list[0].LastExit != "" {
		t.Errorf("bootstrap: %+v, want stopped with no exit", list[0])
	}
}
