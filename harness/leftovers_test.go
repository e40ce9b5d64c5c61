package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// startProcess starts `sh -c 'sleep 30 & wait' <arg>` (one that
// ignores SIGTERM when ignoreTerm) and returns its pid; it is killed when
// the test ends.
func startProcess(t *testing.T, arg string, ignoreTerm bool) int {
	t.Helper()
	script := "sleep 30 & wait"
	if ignoreTerm {
		script = `trap "" TERM; sleep 30 & wait`
	}
	return startCmd(t, exec.Command("/bin/sh", "-c", script, arg))
}

// startCmd starts cmd and returns its pid; it is killed when the test ends.
func startCmd(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	return cmd.Process.Pid
}

// TestStopLeftovers: what a dead supervisor left of this cluster is stopped
// (even a process that ignores SIGTERM), a process whose pid file names
// another cluster's (or a recycled pid) is left alone, and the pid files
// and stale status go.
func TestStopLeftovers(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, runDir)
	if err := os.MkdirAll(run, 0o700); err != nil {
		t.Fatal(err)
	}
	mine := startProcess(t, filepath.Join(dir, "simnode.yaml"), false)
	stubborn := startProcess(t, filepath.Join(dir, "etcd"), true)
	other := startProcess(t, filepath.Join(t.TempDir(), "simnode.yaml"), false)
	for name, pid := range map[string]int{"simnode": mine, "etcd": stubborn, "kube-scheduler": other, "supervisor": other} {
		if err := os.WriteFile(filepath.Join(run, name+".pid"), []byte(strconv.Itoa(pid)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(run, "status.json"), []byte("[]"), 0o600); err != nil {
		t.Fatal(err)
	}
	if !runsFrom(mine, dir) || runsFrom(other, dir) {
		t.Fatalf("runsFrom: mine %v, other %v", runsFrom(mine, dir), runsFrom(other, dir))
	}
	start := time.Now()
	left := leftovers(dir)
	slices.Sort(left)
	if !slices.Equal(left, []string{"etcd", "simnode"}) {
		t.Errorf("leftovers %v, want [etcd simnode]", left)
	}
	const grace = 500 * time.Millisecond
	stopped := stopLeftovers(dir, grace)
	slices.Sort(stopped)
	if !slices.Equal(stopped, []string{"etcd", "simnode"}) {
		t.Errorf("stopped %v, want [etcd simnode]", stopped)
	}
	for _, pid := range []int{mine, stubborn} {
		if runsFrom(pid, dir) {
			t.Errorf("pid %d still runs", pid)
		}
	}
	if took := time.Since(start); took > grace+5*time.Second {
		t.Errorf("took %s", took)
	}
	if err := syscall.Kill(other, 0); err != nil {
		t.Errorf("the other cluster's process was stopped: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(run, "*"))
	if !slices.Equal(files, []string{filepath.Join(run, "supervisor.pid")}) {
		t.Errorf("left in run/: %v, want only supervisor.pid", files)
	}
	if left := leftovers(dir); len(left) != 0 {
		t.Errorf("leftovers after stopLeftovers: %v", left)
	}
}

// TestStopLeftoversWithoutPidFile: a component of the cluster whose pid
// file is gone (it was restarted, or its supervisor died while it started)
// is found by its command line (`wink component ... <dir>/...`) and
// stopped; another program naming the cluster's files (a kubectl given its
// kubeconfig) is left alone.
func TestStopLeftoversWithoutPidFile(t *testing.T) {
	tail, err := exec.LookPath("tail")
	if err != nil {
		t.Skip("needs tail")
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, runDir), 0o700); err != nil {
		t.Fatal(err)
	}
	// GNU tail -F follows files that do not exist, so it runs until
	// stopped, whatever its argv[0] and first argument say.
	start := func(args ...string) int {
		return startCmd(t, &exec.Cmd{Path: tail, Args: append(args, "-F", filepath.Join(dir, "kubeconfig"))})
	}
	component := start("wink", "component")
	kubectl := start("kubectl", "get")
	time.Sleep(200 * time.Millisecond)
	if !runsFrom(component, dir) {
		t.Skip("tail -F did not keep running here")
	}
	stopped := stopLeftovers(dir, time.Second)
	if len(stopped) != 1 || runsFrom(component, dir) {
		t.Errorf("stopped %v; the component still runs: %v", stopped, runsFrom(component, dir))
	}
	if !runsFrom(kubectl, dir) {
		t.Error("a kubectl naming the cluster's kubeconfig was stopped")
	}
}
