package harness

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/harness/internal/cluster"
	"wink.dev/wink/harness/internal/supervisor"
)

// What `wink up` checks so that it says why a cluster cannot come up as
// soon as it knows, instead of after its whole wait.

// checkPortsFree tries each port an embedded cluster's components listen
// on, before its supervisor starts them: a port another process holds
// would only show as a component exiting with "address already in use".
func checkPortsFree(st *cluster.State) error {
	if st.Config.Backend != v1alpha1.BackendEmbedded {
		return nil
	}
	for _, f := range portFields(st.Ports) {
		if f.port == 0 {
			continue
		}
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(f.port)))
		if err != nil {
			if who := listener(f.port); who != "" {
				err = fmt.Errorf("%w (held by %s)", err, who)
			}
			return fmt.Errorf("cannot start %s: %w; %s", f.component, err, portInUseFix(st.Config.Name, f.field, f.port))
		}
		l.Close()
	}
	return nil
}

// listener names the process listening on a TCP port of this machine
// ("pid N: command line"), from /proc: "" when it cannot tell.
func listener(port int) string {
	inodes := map[string]bool{}
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(table)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			f := strings.Fields(line)
			// local_address is addr:PORT in hex; state 0A is LISTEN.
			if len(f) < 10 || f[3] != "0A" || !strings.HasSuffix(f[1], fmt.Sprintf(":%04X", port)) {
				continue
			}
			inodes["socket:["+f[9]+"]"] = true
		}
	}
	if len(inodes) == 0 {
		return ""
	}
	procs, _ := filepath.Glob("/proc/[0-9]*/fd/*")
	for _, fd := range procs {
		if target, err := os.Readlink(fd); err == nil && inodes[target] {
			pid := strings.Split(fd, "/")[2]
			cmd, _ := os.ReadFile("/proc/" + pid + "/cmdline")
			return "pid " + pid + ": " + strings.TrimSpace(strings.ReplaceAll(string(cmd), "\x00", " "))
		}
	}
	return ""
}

// portsGrace is how long `wink up` waits for a port of the cluster to be
// free before it says who holds it: a component that just exited (a dead
// supervisor's, stopped by stopLeftovers) may release its listener a
// moment later.
const portsGrace = 5 * time.Second

// waitPortsFree is checkPortsFree, tried again for up to grace.
func waitPortsFree(ctx context.Context, st *cluster.State, grace time.Duration) error {
	deadline := time.Now().Add(grace)
	for {
		err := checkPortsFree(st)
		if err == nil || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// portInUseFix says what to do about a port of the cluster that another
// process holds.
func portInUseFix(name, field string, port int) string {
	return fmt.Sprintf("port %d (%s in the cluster's state.json, chosen when it was made) is held by another process: "+
		"free it (`ss -ltnp 'sport = :%d'` shows which process), or run `wink up --name %s --fresh` to make the cluster again on new ports (its etcd data is lost)",
		port, field, port, name)
}

// addrInUse matches Go's error for a port another process holds.
var addrInUse = regexp.MustCompile(`listen tcp [^ ]*:(\d+): bind: address already in use`)

// componentFailure reports a component that cannot start: one the
// supervisor gave up on, or one that exited by itself and waits in
// back-off to be restarted. Children killed by a signal are not failures:
// the supervisor restarts them. The error holds the component's last log
// lines and the fix where it is known.
func componentFailure(dir string, st *cluster.State) error {
	list, err := supervisor.ReadStatus(filepath.Join(dir, runDir))
	if err != nil {
		return nil // not written yet
	}
	for _, c := range list {
		var what string
		switch {
		case c.State == supervisor.StateFailed:
			what = fmt.Sprintf("%s failed: %s", c.Name, c.LastExit)
		case c.State == supervisor.StateBackOff && !c.Killed:
			what = fmt.Sprintf("%s exited (%s) and is being restarted with back-off", c.Name, c.LastExit)
		default:
			continue
		}
		logPath := filepath.Join(dir, logDir, c.Name+".log")
		lines := lastRun(logPath, 12)
		msg := what
		if lines != "" {
			msg += "; the last lines of " + logPath + ":\n" + indent(lines, "    ")
		}
		if fix := knownFix(lines, st); fix != "" {
			msg += "\n" + fix
		}
		return fmt.Errorf("%s", msg)
	}
	return nil
}

// knownFix is the fix for a failure recognised in a component's log.
func knownFix(log string, st *cluster.State) string {
	m := addrInUse.FindStringSubmatch(log)
	if m == nil || st == nil {
		return ""
	}
	port, _ := strconv.Atoi(m[1])
	field := "a port"
	for _, f := range portFields(st.Ports) {
		if f.port == port {
			field = f.field
		}
	}
	return "Fix: " + portInUseFix(st.Config.Name, field, port)
}

// lastRun returns up to n last lines of a log file, from the last run the
// supervisor started in it (its "==== ... starting" line on).
func lastRun(path string, n int) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	const window = 64 << 10
	if fi, err := f.Stat(); err == nil && fi.Size() > window {
		_, _ = f.Seek(fi.Size()-window, io.SeekStart)
	}
	data, _ := io.ReadAll(f)
	if i := bytes.LastIndex(data, []byte("\n==== ")); i >= 0 {
		data = data[i+1:]
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > 0 && strings.HasPrefix(lines[0], "==== ") {
		lines = lines[1:]
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
