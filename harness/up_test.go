package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"wink.dev/wink/harness/internal/cluster"
)

// validState is a state.json of free ports.
func validState(t *testing.T) string {
	t.Helper()
	ports, err := cluster.FreePorts(t.TempDir(), 5)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(cluster.Ports{APIServer: ports[0], EtcdClient: ports[1], EtcdPeer: ports[2],
		ControllerManager: ports[3], Scheduler: ports[4], NodeAddressBase: "172.18.0.2"})
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// fakeSupervisor is a wink binary whose `wink supervise --name N --home H`
// runs the shell script body with $dir set to the cluster's state
// directory. A body that ends by calling supervise then holds the
// supervisor's lock and records its pid, as `wink supervise` does, for 30s
// (with flock(1) of util-linux).
func fakeSupervisor(t *testing.T, body string) string {
	t.Helper()
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("flock(1) (util-linux) is not installed: the fake supervisor needs it")
	}
	path := filepath.Join(t.TempDir(), "wink")
	script := "#!/bin/sh\ndir=\"$5/$3\"\n" +
		"supervise() { mkdir -p \"$dir/run\"; echo $$ > \"$dir/run/supervisor.pid\"; exec flock -o \"$dir/run/supervisor.lock\" sleep 30; }\n" +
		body + "\n"
	if err := os.WriteFile(path, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

// upWithin runs Up and fails the test when it has not returned within 30s:
// every failure below must be reported at once, not after Up's wait.
func upWithin(t *testing.T, opts UpOptions) (*Cluster, error, string) {
	t.Helper()
	var progress strings.Builder
	opts.Progress = &progress
	if opts.Wait == 0 {
		opts.Wait = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	type result struct {
		c   *Cluster
		err error
	}
	done := make(chan result, 1)
	go func() { c, err := Up(ctx, opts); done <- result{c, err} }()
	select {
	case r := <-done:
		if ctx.Err() != nil {
			t.Fatalf("Up ran into the test's 30s bound instead of saying why: %v", r.err)
		}
		return r.c, r.err, progress.String()
	case <-time.After(40 * time.Second):
		t.Fatal("Up did not return within 40s")
	}
	return nil, nil, ""
}

// addrInUseLog is what kube-apiserver logs when its port is taken.
const addrInUseLog = `E1124 10:00:00.000000 1 run.go:72] "command failed" err="failed to create listener: failed to listen on 127.0.0.1:%d: listen tcp 127.0.0.1:%d: bind: address already in use"`

// TestUpSaysWhy: each way a cluster cannot come up ends `wink up` at once
// with the cause, the file or component, and the fix; a supervisor it
// started does not keep running.
func TestUpSaysWhy(t *testing.T) {
	tests := []struct {
		name string
		// setup prepares home and returns Up's options and the texts the
		// error must hold.
		setup func(t *testing.T, home string) (UpOptions, []string)
		// noDir: Up must not have made the state directory.
		noDir bool
	}{
		{
			name: "apiserver port held by another process",
			setup: func(t *testing.T, home string) (UpOptions, []string) {
				l, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { l.Close() })
				port := l.Addr().(*net.TCPAddr).Port
				var ports cluster.Ports
				_ = json.Unmarshal([]byte(validState(t)), &ports)
				ports.APIServer = port
				data, _ := json.Marshal(ports)
				writeCluster(t, home, "busy", string(data), true)
				return UpOptions{Options: Options{Name: "busy", Binary: fakeSupervisor(t, "echo started > \"$dir/started\"")}},
					[]string{`cluster "busy": cannot start kube-apiserver`, "address already in use",
						fmt.Sprintf("port %d (apiServer in the cluster's state.json", port),
						"is held by another process", "wink up --name busy --fresh"}
			},
		},
		{
			name: "state path too long for the egress socket",
			setup: func(t *testing.T, home string) (UpOptions, []string) {
				deep := filepath.Join(home, strings.Repeat("d", 100))
				return UpOptions{Options: Options{Name: "deep", Home: deep, Binary: "/bin/false"}},
					[]string{"is too deep: its egress socket", "a Unix socket path has at most 107", "set WINK_HOME (or --home) to a shorter directory"}
			},
			noDir: true,
		},
		{
			name: "state.json of {}",
			setup: func(t *testing.T, home string) (UpOptions, []string) {
				dir := writeCluster(t, home, "empty", "{}", true)
				return UpOptions{Options: Options{Name: "empty", Binary: "/bin/false"}},
					[]string{filepath.Join(dir, stateFile) + ": apiServer: Invalid value: 0: must be a TCP port, 1-65535",
						"scheduler: Invalid value: 0", "wink up --name empty --fresh"}
			},
		},
		{
			name: "state.json with two components on one port",
			setup: func(t *testing.T, home string) (UpOptions, []string) {
				writeCluster(t, home, "twice", `{"apiServer":7001,"etcdClient":7001,"etcdPeer":7002,"controllerManager":7003,"scheduler":7004}`, true)
				return UpOptions{Options: Options{Name: "twice", Binary: "/bin/false"}},
					[]string{"etcdClient: Invalid value: 7001: is also apiServer"}
			},
		},
		{
			name: "the supervisor exits",
			setup: func(t *testing.T, home string) (UpOptions, []string) {
				return UpOptions{Options: Options{Name: "gone", Binary: fakeSupervisor(t, "echo 'cannot load the cluster: boom' >&2; exit 3")}},
					[]string{`cluster "gone" is not up: its supervisor (pid `, "exited (exit status 3)", "supervisor.log:\n    cannot load the cluster: boom"}
			},
		},
		{
			name: "a component exits into back-off",
			setup: func(t *testing.T, home string) (UpOptions, []string) {
				state := validState(t)
				var ports cluster.Ports
				_ = json.Unmarshal([]byte(state), &ports)
				writeCluster(t, home, "backoff", state, true)
				line := fmt.Sprintf(addrInUseLog, ports.APIServer, ports.APIServer)
				// As the supervisor records a child that exited by itself.
				body := `mkdir -p "$dir/run" "$dir/logs"
printf '==== earlier run\nold line\n==== now starting kube-apiserver\n%s\n' '` + line + `' > "$dir/logs/kube-apiserver.log"
echo '[{"name":"etcd","state":"ready"},{"name":"kube-apiserver","state":"back-off","restarts":1,"lastExit":"exit status 1"}]' > "$dir/run/status.json"
supervise`
				return UpOptions{Options: Options{Name: "backoff", Binary: fakeSupervisor(t, body)}},
					[]string{"kube-apiserver exited (exit status 1) and is being restarted with back-off",
						"kube-apiserver.log:\n    " + line,
						fmt.Sprintf("Fix: port %d (apiServer in the cluster's state.json", ports.APIServer),
						"The cluster's processes were stopped"}
			},
		},
		{
			name: "a component killed by a signal is not a failure",
			setup: func(t *testing.T, home string) (UpOptions, []string) {
				writeCluster(t, home, "killed", validState(t), true)
				body := `mkdir -p "$dir/run"
echo '[{"name":"simnode","state":"back-off","restarts":1,"lastExit":"signal: killed","killed":true}]' > "$dir/run/status.json"
supervise`
				return UpOptions{Options: Options{Name: "killed", Binary: fakeSupervisor(t, body)}, Wait: 2 * time.Second},
					[]string{"the apiserver did not answer /readyz in time", "The cluster's processes were stopped"}
			},
		},
		{
			name: "stale status of an earlier run",
			setup: func(t *testing.T, home string) (UpOptions, []string) {
				dir := writeCluster(t, home, "stale", validState(t), true)
				if err := os.MkdirAll(filepath.Join(dir, runDir), 0o700); err != nil {
					t.Fatal(err)
				}
				stale := `[{"name":"bootstrap","state":"failed","lastExit":"context canceled"}]`
				if err := os.WriteFile(filepath.Join(dir, runDir, "status.json"), []byte(stale), 0o600); err != nil {
					t.Fatal(err)
				}
				return UpOptions{Options: Options{Name: "stale", Binary: fakeSupervisor(t, "supervise")}, Wait: 2 * time.Second},
					[]string{"the apiserver did not answer /readyz in time"}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			opts, want := tt.setup(t, home)
			if opts.Home == "" {
				opts.Home = home
			}
			_, err, progress := upWithin(t, opts)
			if err == nil {
				t.Fatalf("Up succeeded; progress:\n%s", progress)
			}
			t.Logf("Up's error:\n%v", err)
			for _, w := range want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Up's error:\n%v\nwant it to contain %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "context canceled") {
				t.Errorf("Up's error reports a stale status: %v", err)
			}
			dir := filepath.Join(opts.Home, opts.Name)
			if tt.noDir {
				if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("Up made %s", dir)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
				t.Error("the supervisor was started")
			}
			if running(dir) {
				t.Error("a supervisor still runs")
			}
		})
	}
}

// TestUpRetriesANewClustersTakenPort: a new cluster whose component finds
// its port taken is made again on new ports, once, saying so.
func TestUpRetriesANewClustersTakenPort(t *testing.T) {
	home := t.TempDir()
	runs := filepath.Join(t.TempDir(), "runs")
	line := fmt.Sprintf(addrInUseLog, 20001, 20001)
	body := `echo run >> '` + runs + `'
if [ "$(wc -l < '` + runs + `')" -gt 1 ]; then echo 'second run: boom' >&2; exit 3; fi
mkdir -p "$dir/run" "$dir/logs"
printf '%s\n' '` + line + `' > "$dir/logs/kube-apiserver.log"
echo '[{"name":"kube-apiserver","state":"back-off","restarts":1,"lastExit":"exit status 1"}]' > "$dir/run/status.json"
supervise`
	_, err, progress := upWithin(t, UpOptions{Options: Options{Name: "new", Home: home, Binary: fakeSupervisor(t, body)}})
	if err == nil || !strings.Contains(err.Error(), "exited (exit status 3)") {
		t.Fatalf("Up = %v; want the second try's failure (exit status 3)\nprogress:\n%s", err, progress)
	}
	if !strings.Contains(progress, "making it again on new ports") {
		t.Errorf("progress does not say the cluster is made again:\n%s", progress)
	}
	if data, _ := os.ReadFile(runs); strings.Count(string(data), "run") != 2 {
		t.Errorf("the supervisor ran %d times, want 2 (one try again, no more)", strings.Count(string(data), "run"))
	}
}

// TestUpWaitsForTheLock: a second Up of a cluster another process is
// creating waits for it and says whom it waits for; it makes neither ports
// nor certificates of its own, and finds the first one's state.
func TestUpWaitsForTheLock(t *testing.T) {
	t.Run("held until the wait ends", func(t *testing.T) {
		home := t.TempDir()
		lock, err := lockCluster(context.Background(), home, "x", "wink up", io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		defer lock.unlock()
		_, err, progress := upWithin(t, UpOptions{Options: Options{Name: "x", Home: home, Binary: "/bin/false"}, Wait: time.Second})
		who := "pid " + strconv.Itoa(os.Getpid()) + " (wink up)"
		if err == nil || !strings.Contains(err.Error(), `cluster "x" is locked by `+who) {
			t.Fatalf("Up = %v, want it to say the cluster is locked by %s", err, who)
		}
		if !strings.Contains(progress, "Waiting for "+who) {
			t.Errorf("progress does not say whom Up waits for:\n%s", progress)
		}
		if _, err := os.Stat(filepath.Join(home, "x")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("Up made the state directory while another process held the lock")
		}
	})
	t.Run("released by the first", func(t *testing.T) {
		home := t.TempDir()
		lock, err := lockCluster(context.Background(), home, "x", "wink up", io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		first := validState(t)
		go func() {
			time.Sleep(time.Second) // the second Up is waiting by now
			writeCluster(t, home, "x", first, true)
			lock.unlock()
		}()
		_, err, progress := upWithin(t, UpOptions{Options: Options{Name: "x", Home: home, Binary: fakeSupervisor(t, "exit 1")}})
		if err == nil || !strings.Contains(err.Error(), "its supervisor (pid ") {
			t.Fatalf("Up = %v, want the fake supervisor's exit", err)
		}
		if !strings.Contains(progress, "Waiting for pid") {
			t.Errorf("progress does not say Up waited:\n%s", progress)
		}
		var got, want cluster.Ports
		data, _ := os.ReadFile(filepath.Join(home, "x", stateFile))
		_ = json.Unmarshal(data, &got)
		_ = json.Unmarshal([]byte(first), &want)
		if got.APIServer != want.APIServer || got.EtcdClient != want.EtcdClient {
			t.Errorf("state.json ports %+v, want the first Up's %+v", got, want)
		}
	})
}

// TestListener names the process that holds a port.
func TestListener(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	who := listener(l.Addr().(*net.TCPAddr).Port)
	if want := fmt.Sprintf("pid %d: ", os.Getpid()); !strings.HasPrefix(who, want) {
		t.Errorf("listener = %q, want it to start with %q", who, want)
	}
}
