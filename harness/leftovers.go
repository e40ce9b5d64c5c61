package harness

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"wink.dev/wink/harness/internal/supervisor"
)

// leftoverGrace is how long a component left by a dead supervisor has to
// stop after SIGTERM before it is killed.
const leftoverGrace = 10 * time.Second

// stopLeftovers stops what a supervisor that is gone left of a cluster, so
// that a new one starts from nothing, as after `wink down`. When a
// supervisor is killed its children get SIGTERM (Pdeathsig) and stop on
// their own, but they may still be stopping (holding their ports) when
// `wink up` comes, or one may not stop at all. Each run/<component>.pid
// whose process still runs and names the state directory on its command
// line (so a pid the system has reused is left alone) gets SIGTERM, then
// SIGKILL after grace. The pid files and the stale status go. It
// returns the components it stopped.
func stopLeftovers(dir string, grace time.Duration) []string {
	run := filepath.Join(dir, runDir)
	files, _ := filepath.Glob(filepath.Join(run, "*.pid")) // the pattern is good
	var stopped []string
	pids := map[int]bool{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".pid")
		if name == "supervisor" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
		if err == nil && pid > 0 && runsFrom(pid, dir) {
			if err := syscall.Kill(pid, syscall.SIGTERM); err == nil {
				pids[pid] = true
				stopped = append(stopped, name)
			}
		}
		_ = os.Remove(f)
	}
	// A component whose pid file is gone or stale (it was restarted, or
	// its supervisor died while it started) is found by its command line.
	for _, pid := range processesOf(dir) {
		if !pids[pid] && syscall.Kill(pid, syscall.SIGTERM) == nil {
			pids[pid] = true
			stopped = append(stopped, fmt.Sprintf("pid %d", pid))
		}
	}
	deadline := time.Now().Add(grace)
	for len(pids) > 0 {
		for pid := range pids {
			if !runsFrom(pid, dir) {
				delete(pids, pid)
			}
		}
		if len(pids) == 0 {
			break
		}
		if time.Now().After(deadline) {
			for pid := range pids {
				_ = syscall.Kill(pid, syscall.SIGKILL) // gone already, or soon
			}
			deadline = time.Now().Add(grace)
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = os.Remove(filepath.Join(run, supervisor.StatusFile))
	return stopped
}

// leftovers are the components a supervisor that is gone left running
// (see stopLeftovers), by name, or by pid when no pid file names them.
func leftovers(dir string) []string {
	files, _ := filepath.Glob(filepath.Join(dir, runDir, "*.pid")) // the pattern is good
	var out []string
	seen := map[int]bool{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".pid")
		data, err := os.ReadFile(f)
		if err != nil || name == "supervisor" {
			continue
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid > 0 && runsFrom(pid, dir) {
			out = append(out, name)
			seen[pid] = true
		}
	}
	for _, pid := range processesOf(dir) {
		if !seen[pid] {
			out = append(out, fmt.Sprintf("pid %d", pid))
		}
	}
	return out
}

// processesOf lists the cluster's components still running: live
// processes of a wink binary run as `wink component ...` or `wink simnode`
// whose command line names dir. With no supervisor running, they are what
// is left of the cluster (a kubectl given the cluster's kubeconfig is not).
func processesOf(dir string) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() || !runsFrom(pid, dir) {
			continue
		}
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err != nil {
			continue
		}
		if args := strings.Split(string(cmdline), "\x00"); len(args) > 1 && (args[1] == "component" || args[1] == "simnode") {
			out = append(out, pid)
		}
	}
	return out
}

// runsFrom reports whether pid is a live process (not a zombie) whose
// command line names dir.
func runsFrom(pid int, dir string) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// pid (comm) state ...: the state follows the last ')'.
	if i := bytes.LastIndexByte(stat, ')'); i < 0 || i+2 >= len(stat) || stat[i+2] == 'Z' {
		return false
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return false
	}
	return bytes.Contains(cmdline, []byte(filepath.Clean(dir)+string(filepath.Separator)))
}
