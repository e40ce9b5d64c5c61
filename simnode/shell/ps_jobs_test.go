package shell

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestPowerShellJobs covers background jobs (row E).
func TestPowerShellJobs(t *testing.T) {
	runCases(t, []tcase{
		{name: "start wait receive", argv: ps(`$j = Start-Job -ScriptBlock { 'a'; 1 + 1 }; Wait-Job $j | Out-Null; Receive-Job $j`), out: "a\r\n2\r\n"},
		{name: "argument list", argv: ps(`Start-Job { "got $($args[0])" } -ArgumentList 7 | Wait-Job | Receive-Job`), out: "got 7\r\n"},
		{name: "state and names", argv: ps(`Start-Job { 'x' } | Out-Null; Start-Job -Name second { exit 0 } | Out-Null; Get-Job | Wait-Job | Out-Null; (Get-Job).State; (Get-Job -Name second).Id`), out: "Completed\r\nCompleted\r\n2\r\n"},
		{name: "receive once unless keep", argv: ps(`$j = Start-Job { 'once' }; $null = Wait-Job $j; Receive-Job $j -Keep; Receive-Job $j; @(Receive-Job $j).Count`), out: "once\r\nonce\r\n0\r\n"},
		{name: "jobs have a session of their own", argv: ps(`$v = 'outer'; Start-Job { "[$v]" } | Wait-Job | Receive-Job`), out: "[]\r\n"},
		{name: "remove running needs force", argv: ps(`$j = Start-Job { foreach ($i in 1..100000) { foreach ($k in 1..100000) { } } }; Remove-Job $j; @(Get-Job).Count; Remove-Job $j -Force; @(Get-Job).Count`), out: "1\r\n0\r\n", errHas: []string{"because the job is not finished"}},
		{name: "table", argv: ps(`Start-Job { 'x' } | Wait-Job`), outHas: []string{"Id     Name            PSJobTypeName   State         HasMoreData     Location             Command", "1      Job1            BackgroundJob   Completed     True            localhost            'x'"}},
	})
}

type fakeMeter struct {
	mu       sync.Mutex
	cur, max int
	// at calls reached once when cur first reaches want.
	want    int
	reached func()
}

func (m *fakeMeter) Busy(d int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cur += d
	m.max = max(m.max, m.cur)
	if m.reached != nil && m.cur == m.want {
		m.reached()
		m.reached = nil
	}
}

// TestCPUBurnJobs runs the Cpu Resources spec's container command
// (test/e2e/windows/cpu_limits.go newCPUBurnPods): 8 jobs computing for
// ever and the script waiting for them. It runs until stopped, each job
// counts as a busy thread while it computes (row B7 caps the container's
// usage at its limit), and the threads are released when it stops.
func TestCPUBurnJobs(t *testing.T) {
	f := newFixture(Windows)
	// Stopped once its 8 jobs compute (or after a minute, a failure): no
	// fixed wait that a busy machine outlasts.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	m := &fakeMeter{want: 8, reached: cancel}
	f.env.CPU = m
	argv := []string{"powershell.exe", "-Command", "foreach ($loopnumber in 1..8) { Start-Job -ScriptBlock { $result = 1; foreach($mm in 1..2147483647){$res1=1;foreach($num in 1..2147483647){$res1=$mm*$num*1340371};$res1} } } ; get-job | wait-job"}
	r := f.runCtx(ctx, argv)
	if r.code != ExitKilledWindows {
		t.Errorf("exit %d, want %d (runs until stopped)\nstdout:\n%s\nstderr:\n%s", r.code, ExitKilledWindows, r.stdout, r.stderr)
	}
	// The jobs release their threads as they end, after Run returns.
	deadline := time.Now().Add(5 * time.Second)
	for {
		m.mu.Lock()
		cur, peak := m.cur, m.max
		m.mu.Unlock()
		if cur == 0 || time.Now().After(deadline) {
			if peak != 8 || cur != 0 {
				t.Errorf("busy threads peaked at %d and ended at %d, want 8 and 0", peak, cur)
			}
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if r.stderr != "" {
		t.Errorf("stderr: %s", r.stderr)
	}
}

// blockingClock is a process clock on which only sleeps of exactly pass
// end at once; every other sleep lasts until its process stops.
type blockingClock struct{ pass time.Duration }

func (c blockingClock) Sleep(ctx context.Context, d time.Duration) error {
	if d == c.pass {
		return ctx.Err()
	}
	<-ctx.Done()
	return ctx.Err()
}

// TestWaitJobTimeoutProcessClock: Wait-Job -Timeout waits on the process's
// clock, not in real time (issue 21): an hour of the simulated clock
// passes at once here while the job (sleeping on the same clock) runs on.
func TestWaitJobTimeoutProcessClock(t *testing.T) {
	f := newFixture(Windows)
	f.env.Sleep = blockingClock{pass: time.Hour}.Sleep
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	r := f.runCtx(ctx, ps(`$j = Start-Job { Start-Sleep -Seconds 7200 }; $done = Wait-Job $j -Timeout 3600; "ended: $(@($done).Count)"; (Get-Job).State; Remove-Job $j -Force`))
	if want := "ended: 0\r\nRunning\r\n"; r.stdout != want || r.code != 0 {
		t.Errorf("stdout %q code %d, want %q 0 (stderr %q)", r.stdout, r.code, want, r.stderr)
	}
}
