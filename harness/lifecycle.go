package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"wink.dev/wink/harness/config"
	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/harness/internal/cluster"
	"wink.dev/wink/harness/internal/embedded"
	"wink.dev/wink/harness/internal/simnodeplan"
	"wink.dev/wink/harness/internal/supervisor"
	"wink.dev/wink/simnode/egress"
	"wink.dev/wink/simnode/facts"
)

// UpOptions say how to bring a cluster up.
type UpOptions struct {
	Options
	// ConfigPath is a wink.yaml (--config). Empty: the configuration the
	// cluster was created with, or the defaults for a new cluster.
	ConfigPath string
	// Config is a configuration already loaded (config.Parse of an
	// embedded file, say); when set it is used instead of ConfigPath.
	Config *v1alpha1.Cluster
	// Fresh deletes the cluster's state (etcd data included) first.
	Fresh bool
	// Wait bounds how long Up waits for every node to be Ready.
	Wait time.Duration
	// Schedulable makes Up wait also for the control plane to lift the
	// not-ready taint of new nodes, so that pods created next schedule at
	// once (test suites want this; people rarely notice the difference).
	Schedulable bool
}

// Cluster is a cluster that is up.
type Cluster struct {
	// Name of the cluster.
	Name string
	// Dir is its state directory.
	Dir string
	// Kubeconfig is the path of its admin kubeconfig.
	Kubeconfig string
	// Nodes are the names of its simulated nodes.
	Nodes []string
}

// Up brings a cluster up, or finds it up, and returns once the apiserver
// answers and every simulated node is Ready.
//
// It checks what it can before it writes anything or starts a process:
// the options (a name that is a DNS-1123 label, a positive wait), the
// configuration, state.json of an existing cluster, the length of the
// state directory's socket path and, for a cluster not running, its ports.
// One Up, Down or Delete of a cluster runs at a time: a second Up of the
// same name waits until the first has started the cluster's supervisor,
// then finds it. A component that exits by itself while Up waits ends the
// wait at once with its last log lines; a supervisor this Up started is
// stopped again when the cluster does not come up.
//
// A new cluster whose component finds its port taken (free when Up chose
// it, taken before the component listened: clusters made side by side
// choose ports at the same time) is made again on new ports, once.
func Up(ctx context.Context, opts UpOptions) (*Cluster, error) {
	var made bool
	c, err := upOnce(ctx, opts, &made)
	if err != nil && made && ctx.Err() == nil && addrInUse.MatchString(err.Error()) {
		progress := opts.Progress
		if progress == nil {
			progress = io.Discard
		}
		fmt.Fprintf(progress, "A port of the new cluster was taken meanwhile (%s); making it again on new ports\n", addrInUse.FindString(err.Error()))
		opts.Fresh = true
		c, err = upOnce(ctx, opts, &made)
	}
	return c, err
}

// upOnce is Up without the second try; *made is set once it has chosen
// the new cluster's ports.
func upOnce(ctx context.Context, opts UpOptions, made *bool) (*Cluster, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if opts.Wait == 0 {
		opts.Wait = defaultWait
	}
	start := time.Now()
	given := opts.Config != nil || opts.ConfigPath != ""
	var cfg *v1alpha1.Cluster
	if opts.Config != nil {
		c := *opts.Config // Up names it: the caller's stays as it was
		cfg = &c
	} else if cfg, err = config.Load(opts.ConfigPath); err != nil {
		return nil, err
	}
	name := o.Name
	if name == "" && given && cfg.Name != "" {
		name = cfg.Name
	}
	if name == "" {
		name = DefaultName
	}
	if err := checkName(name); err != nil {
		return nil, err
	}
	cfg.Name = name
	o.Name = name
	dir := o.dir(name)
	if _, err := os.Stat(filepath.Join(dir, configFile)); err != nil && cfg.Backend == v1alpha1.BackendEmbedded {
		// A new cluster: say so before making anything (checked again
		// below for the backend of a cluster that exists).
		if err := embedded.CheckStateDir(dir); err != nil {
			return nil, err
		}
	}

	if !running(dir) {
		// Wait's time starts once this machine has a core for the
		// bring-up (BringUpsAtOnce).
		slot, err := takeBringUpSlot(ctx, name, o.Progress)
		if err != nil {
			return nil, err
		}
		defer slot.release()
		start = time.Now()
	}
	waitCtx, cancel := context.WithTimeout(ctx, opts.Wait)
	defer cancel()
	lock, err := lockCluster(waitCtx, o.Home, name, "wink up", o.Progress)
	if err != nil {
		return nil, err
	}
	defer lock.unlock()
	if opts.Fresh {
		if err := deleteLocked(ctx, o); err != nil {
			return nil, err
		}
	}
	d, err := checkStateDir(o.Home, name)
	if err != nil {
		return nil, err
	}
	st, err := loadState(o, name)
	adoptable := err == nil
	switch {
	case err == nil && given:
		st.Config = cfg // a new config for an existing cluster: its ports stay
	case err == nil:
	default:
		if _, statErr := os.Stat(filepath.Join(dir, configFile)); statErr == nil {
			return nil, err // a cluster is there, but broken: say why
		}
		if st, err = newState(dir, cfg, o.Binary); err != nil {
			return nil, err
		}
		*made = true
	}
	if st.Config.Backend == v1alpha1.BackendEmbedded {
		if err := embedded.CheckStateDir(dir); err != nil {
			return nil, err
		}
	}
	if err := makeStateDir(d, name, adoptable, o.Progress); err != nil {
		return nil, err
	}
	st.Binary = o.Binary
	fmt.Fprintf(o.Progress, "Creating cluster %q (%s backend, Kubernetes %s) in %s\n", name, st.Config.Backend, KubernetesVersion, dir)

	backend, err := backendFor(st.Config)
	if err != nil {
		return nil, err
	}
	for _, d := range []string{runDir, logDir} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			return nil, err
		}
	}
	kubeconfig, err := backend.Prepare(ctx, st, o.Progress)
	if err != nil {
		return nil, err
	}
	if err := config.Write(filepath.Join(dir, configFile), st.Config); err != nil {
		return nil, err
	}
	if err := saveState(st); err != nil {
		return nil, err
	}
	var sup *startedSupervisor
	if running(dir) {
		fmt.Fprintln(o.Progress, " ✓ Supervisor already running")
	} else {
		if stopped := stopLeftovers(dir, leftoverGrace); len(stopped) > 0 {
			fmt.Fprintf(o.Progress, " ✓ Stopped %s, left running by a supervisor that is gone\n", strings.Join(stopped, ", "))
		}
		if err := waitPortsFree(ctx, st, portsGrace); err != nil {
			return nil, fmt.Errorf("cluster %q: %w", name, err)
		}
		if sup, err = startSupervisor(o, name, dir); err != nil {
			return nil, err
		}
		// Keep the cluster's lock until the supervisor holds its own:
		// another Up must find it running, not start a second one.
		sup.waitRunning(waitCtx, dir)
	}
	// The supervisor runs: whoever takes the lock next finds the cluster.
	lock.unlock()
	nodes := NodeNames(st.Config)
	if err := waitWorking(waitCtx, backend, st, kubeconfig, sup.since(), func(ctx context.Context) error {
		return waitReady(ctx, o, st, kubeconfig, nodes, opts.Schedulable, start, sup)
	}); err != nil {
		err = fmt.Errorf("cluster %q is not up: %w\n(component logs are in %s)", name, err, filepath.Join(dir, logDir))
		return nil, stopAfterFailure(ctx, o, dir, sup, err)
	}
	fmt.Fprintf(o.Progress, "Cluster %q is up in %.1fs. Try:\n  kubectl --kubeconfig %s get nodes -o wide\n", name, time.Since(start).Seconds(), kubeconfig)
	return &Cluster{Name: name, Dir: dir, Kubeconfig: kubeconfig, Nodes: nodes}, nil
}

// stopAfterFailure stops the supervisor a failed Up started, so that a
// cluster that did not come up does not keep restarting components in the
// background; one that was running before is left running, and the error
// says how to stop it.
func stopAfterFailure(ctx context.Context, o Options, dir string, sup *startedSupervisor, err error) error {
	name := o.name()
	if sup == nil {
		if pid, perr := supervisorPID(dir); perr == nil && running(dir) {
			return fmt.Errorf("%w\nIts supervisor (pid %d) was running before this `wink up` and still runs: `wink down --name %s` stops it", err, pid, name)
		}
		return err
	}
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	// Down stops the supervisor that holds the cluster's lock, when it is
	// this Up's; one that never took the lock is signalled below.
	if pid, perr := supervisorPID(dir); perr == nil && pid == sup.pid {
		quiet := o
		quiet.Progress = io.Discard
		if derr := Down(stopCtx, quiet); derr != nil {
			return fmt.Errorf("%w\nStopping its supervisor failed: %v; `wink down --name %s` stops it", err, derr, name)
		}
	}
	select {
	case <-sup.exited:
	default:
		_ = syscall.Kill(sup.pid, syscall.SIGTERM)
		select {
		case <-sup.exited:
		case <-stopCtx.Done():
			return fmt.Errorf("%w\nIts supervisor (pid %d) did not stop: kill it", err, sup.pid)
		}
	}
	return fmt.Errorf("%w\nThe cluster's processes were stopped; its state is kept in %s (`wink delete --name %s` removes it)", err, dir, name)
}

// NodeNames are the names of a configuration's simulated nodes, in order:
// <cluster>-<pool>-<index>, as simnode names them.
func NodeNames(cfg *v1alpha1.Cluster) []string {
	return simnodeplan.NodeNames(cfg)
}

func newState(dir string, cfg *v1alpha1.Cluster, binary string) (*cluster.State, error) {
	ports, err := cluster.FreePorts(filepath.Dir(dir), 6)
	if err != nil {
		return nil, err
	}
	return &cluster.State{Dir: dir, Config: cfg, Binary: binary, Ports: cluster.Ports{
		APIServer:         ports[0],
		EtcdClient:        ports[1],
		EtcdPeer:          ports[2],
		ControllerManager: ports[3],
		Scheduler:         ports[4],
		MetricsServer:     ports[5],
		NodeAddressBase:   cfg.Networking.NodeAddressBase,
	}}, nil
}

// startedSupervisor is a supervisor this Up started: exited receives
// its exit; started is when it started, after every process of an earlier
// one had stopped.
type startedSupervisor struct {
	pid     int
	started time.Time
	exited  chan error
}

// since is when the supervisor's simnode was started, or zero for a
// supervisor this Up did not start. A node counts as Ready once posted
// since then (facts.NodeReadySince): until the new simnode has posted it,
// a node is Ready as the simnode that served it before left it, at that
// simnode's kubelet address and port (simnode.shards re-partitioned, say).
// The simnode of a supervisor that ran before may have posted its nodes
// long ago.
func (s *startedSupervisor) since() time.Time {
	if s == nil {
		return time.Time{}
	}
	return s.started
}

// startSupervisor starts `wink supervise` detached from this process, so the
// cluster outlives `wink up`. A status file left by an earlier supervisor is
// removed first: it says nothing of this one.
func startSupervisor(o Options, name, dir string) (*startedSupervisor, error) {
	if err := os.Remove(filepath.Join(dir, runDir, supervisor.StatusFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	logFile, err := os.OpenFile(filepath.Join(dir, logDir, "supervisor.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	fmt.Fprintf(logFile, "==== %s wink up starts the supervisor\n", time.Now().Format(time.RFC3339))
	cmd := exec.Command(o.Binary, "supervise", "--name", name, "--home", o.Home)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	started := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the supervisor: %w", err)
	}
	s := &startedSupervisor{pid: cmd.Process.Pid, started: started, exited: make(chan error, 1)}
	go func() { s.exited <- exitErr(cmd.Wait()) }()
	return s, nil
}

// waitRunning waits until the supervisor holds its lock, has exited, or
// ctx is done.
func (s *startedSupervisor) waitRunning(ctx context.Context, dir string) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for !running(dir) {
		select {
		case err := <-s.exited:
			s.exited <- err // for supervisorGone
			return
		case <-ctx.Done():
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func exitErr(err error) error {
	if err == nil {
		return errors.New("exit status 0")
	}
	return err
}

// waitReady waits for the apiserver and then for every node to be Ready,
// posted by the simnode of sup (startedSupervisor.since), printing each
// step once. It fails at once when a component cannot start
// or the supervisor is gone.
func waitReady(ctx context.Context, o Options, st *cluster.State, kubeconfig string, nodes []string, schedulable bool, start time.Time, sup *startedSupervisor) error {
	dir := st.Dir
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	// A list of thousands of nodes takes longer than 2 s on a busy
	// machine, and would then never succeed: the timeout grows with the
	// nodes, and protobuf keeps the lists small.
	cfg.Timeout = 2*time.Second + time.Duration(len(nodes))*5*time.Millisecond
	cfg.ContentType = "application/vnd.kubernetes.protobuf"
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	step := func(msg string) { fmt.Fprintf(o.Progress, " ✓ %s (%.1fs)\n", msg, time.Since(start).Seconds()) }
	apiUp, lastReady := false, -1
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		if err := componentFailure(dir, st); err != nil {
			return err
		}
		if err := supervisorGone(dir, sup); err != nil {
			return err
		}
		if !apiUp {
			if _, err := client.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(ctx); err == nil {
				apiUp = true
				step("Control plane ready")
			}
		}
		if apiUp {
			list, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
			if err == nil {
				ready := readyNodes(list.Items, nodes, schedulable, sup.since())
				if ready != lastReady {
					lastReady = ready
					what := "Ready"
					if schedulable {
						what = "Ready and schedulable"
					}
					fmt.Fprint(o.Progress, nodesProgress(what, ready, len(nodes), time.Since(start)))
				}
				if ready == len(nodes) && egressServes(st) {
					return nil
				}
			}
		}
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.Canceled) {
				return errors.New("interrupted")
			}
			if !apiUp {
				return errors.New("the apiserver did not answer /readyz in time")
			}
			return fmt.Errorf("%d of %d nodes Ready in time", max(lastReady, 0), len(nodes))
		case <-tick.C:
		}
	}
}

// egressServes reports whether the embedded backend's simnode serves its
// egress proxy, through which the apiserver reaches every node (its own and
// those a backend existing adds): with no node of its own, a cluster is
// otherwise up before simnode is (the benchmarks' sharded control plane
// was, by 30 s on a busy machine). Other backends have none to wait for.
func egressServes(st *cluster.State) bool {
	if st.Config.Backend != v1alpha1.BackendEmbedded {
		return true
	}
	c, err := net.DialTimeout("unix", embedded.EgressSocket(st.Dir), time.Second)
	if err != nil {
		return false
	}
	_ = c.Close()
	return true
}

// nodesProgress is Up's line for ready of total nodes: a tick only once
// every node is (issue 21); before that, the count so far.
func nodesProgress(what string, ready, total int, since time.Duration) string {
	mark := "✓"
	if ready < total {
		mark = "…"
	}
	return fmt.Sprintf(" %s Nodes %s %d/%d (%.1fs)\n", mark, what, ready, total, since.Seconds())
}

// supervisorGone reports a supervisor that exited: the one this Up
// started (with the last lines of its log), or, when it found one running,
// that one having stopped.
func supervisorGone(dir string, sup *startedSupervisor) error {
	if sup == nil {
		if !running(dir) {
			return errors.New("its supervisor stopped (`wink down`?)")
		}
		return nil
	}
	select {
	case err := <-sup.exited:
		sup.exited <- err // for stopAfterFailure
		logPath := filepath.Join(dir, logDir, "supervisor.log")
		msg := fmt.Sprintf("its supervisor (pid %d) exited (%v)", sup.pid, err)
		if err.Error() == "exit status 0" {
			msg = fmt.Sprintf("its supervisor (pid %d) was stopped (`wink down`?)", sup.pid)
		}
		if lines := lastRun(logPath, 12); lines != "" {
			msg += "; the last lines of " + logPath + ":\n" + indent(lines, "    ")
		}
		return errors.New(msg)
	default:
		return nil
	}
}

// readyNodes counts the wanted nodes that are Ready as posted since since
// (facts.NodeReadySince). With schedulable, a node counts only once the
// node lifecycle controller has also seen it Ready and lifted the not-ready
// taint that every new node gets (a few seconds later on a fresh controller
// manager).
func readyNodes(items []corev1.Node, want []string, schedulable bool, since time.Time) int {
	wanted := map[string]bool{}
	for _, n := range want {
		wanted[n] = true
	}
	ready := 0
	for _, n := range items {
		if wanted[n.Name] && facts.NodeReadySince(&n, since) && (!schedulable || !notReadyTainted(&n)) {
			ready++
		}
	}
	return ready
}

func notReadyTainted(n *corev1.Node) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == corev1.TaintNodeNotReady || t.Key == corev1.TaintNodeUnreachable {
			return true
		}
	}
	return false
}

// Down stops a cluster's processes and keeps its state, so that Up finds it
// as it was.
func Down(ctx context.Context, opts Options) error {
	o, err := opts.withDefaults()
	if err != nil {
		return err
	}
	dir := o.dir(o.name())
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("no cluster %q under %s", o.name(), o.Home)
	}
	lock, err := lockCluster(ctx, o.Home, o.name(), "wink down", o.Progress)
	if err != nil {
		return err
	}
	defer lock.unlock()
	return downLocked(ctx, o)
}

// downLocked is Down with the cluster's lock held.
func downLocked(ctx context.Context, o Options) error {
	dir := o.dir(o.name())
	pid, err := supervisorPID(dir)
	if err != nil || !running(dir) {
		if stopped := stopLeftovers(dir, leftoverGrace); len(stopped) > 0 {
			fmt.Fprintf(o.Progress, "Stopped %s of cluster %q, left running by a supervisor that is gone\n", strings.Join(stopped, ", "), o.name())
			return nil
		}
		fmt.Fprintf(o.Progress, "Cluster %q is not running\n", o.name())
		return nil
	}
	fmt.Fprintf(o.Progress, "Stopping cluster %q\n", o.name())
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		return fmt.Errorf("stopping the supervisor (pid %d): %w", pid, err)
	}
	deadline := time.Now().Add(45 * time.Second)
	for running(dir) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			return fmt.Errorf("the supervisor (pid %d) did not stop in 45s; killed it", pid)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	fmt.Fprintf(o.Progress, " ✓ Stopped\n")
	return nil
}

// Delete stops a cluster and removes its state directory and whatever its
// backend made elsewhere (a kind cluster). It removes only a directory wink
// made: one holding the marker file Up writes, directly inside the
// clusters' home, not a symbolic link. Deleting a cluster that does not
// exist does nothing.
func Delete(ctx context.Context, opts Options) error {
	o, err := opts.withDefaults()
	if err != nil {
		return err
	}
	if _, err := os.Lstat(o.dir(o.name())); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	lock, err := lockCluster(ctx, o.Home, o.name(), "wink delete", o.Progress)
	if err != nil {
		return err
	}
	defer lock.unlock()
	return deleteLocked(ctx, o)
}

// deleteLocked is Delete with the cluster's lock held. It refuses before
// stopping anything when the directory is not one wink made.
func deleteLocked(ctx context.Context, o Options) error {
	name := o.name()
	d, err := checkStateDir(o.Home, name)
	if err != nil {
		return err
	}
	if !d.exists {
		return nil
	}
	if !d.marked {
		return removeStateDir(o.Home, name) // refuses, naming the directory
	}
	if err := downLocked(ctx, o); err != nil {
		return err
	}
	if st, err := loadState(o, name); err == nil {
		if backend, err := backendFor(st.Config); err == nil {
			if err := backend.Delete(ctx, st); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(o.Progress, "Deleting cluster %q (%s)\n", name, d.path)
	return removeStateDir(o.Home, name)
}

// KubeconfigPath is the admin kubeconfig of a cluster.
func KubeconfigPath(opts Options) (string, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return "", err
	}
	path := filepath.Join(o.dir(o.name()), "kubeconfig")
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("no kubeconfig for cluster %q: create it with `wink up --name %s`", o.name(), o.name())
	}
	return path, nil
}

// Status describes a cluster's processes.
type Status struct {
	Name       string
	Dir        string
	Running    bool
	Kubeconfig string
	Components []supervisor.ComponentStatus
	// Leftovers are components still running although their supervisor is
	// gone (killed): `wink up` and `wink down` stop them.
	Leftovers []string
}

// GetStatus reads a cluster's status from its state directory.
func GetStatus(opts Options) (*Status, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	dir := o.dir(o.name())
	if _, err := os.Stat(filepath.Join(dir, configFile)); err != nil {
		return nil, fmt.Errorf("no cluster %q under %s", o.name(), o.Home)
	}
	s := &Status{Name: o.name(), Dir: dir, Running: running(dir), Kubeconfig: filepath.Join(dir, "kubeconfig")}
	if s.Running {
		s.Components, _ = supervisor.ReadStatus(filepath.Join(dir, runDir))
	} else {
		s.Leftovers = leftovers(dir)
	}
	return s, nil
}

// Supervise is the body of the hidden `wink supervise` command: it runs a
// cluster's components until ctx is done. One supervisor runs per cluster.
func Supervise(ctx context.Context, opts Options) error {
	o, err := opts.withDefaults()
	if err != nil {
		return err
	}
	name := o.name()
	st, err := loadState(o, name)
	if err != nil {
		return err
	}
	lock, err := lockSupervisor(st.Dir)
	if err != nil {
		return err
	}
	defer lock.Close()
	backend, err := backendFor(st.Config)
	if err != nil {
		return err
	}
	components, err := backend.Components(st)
	if err != nil {
		return err
	}
	s := &supervisor.Supervisor{
		Binary: o.Binary,
		LogDir: filepath.Join(st.Dir, logDir),
		RunDir: filepath.Join(st.Dir, runDir),
		Log:    slog.New(slog.NewTextHandler(os.Stderr, nil)),
	}
	return s.Run(ctx, components)
}

// lockSupervisor takes the cluster's supervisor lock and records the pid.
func lockSupervisor(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, runDir, "supervisor.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("a supervisor already runs for %s", dir)
	}
	if err := os.WriteFile(filepath.Join(dir, runDir, "supervisor.pid"), []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// running reports whether a supervisor holds the cluster's lock.
func running(dir string) bool {
	f, err := os.OpenFile(filepath.Join(dir, runDir, "supervisor.lock"), os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return true
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}

func supervisorPID(dir string) (int, error) {
	data, err := os.ReadFile(filepath.Join(dir, runDir, "supervisor.pid"))
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(data)))
}

// ComponentPID is the pid of one running component of a cluster, for tests
// that kill a component to see it come back.
func ComponentPID(opts Options, component string) (int, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return 0, err
	}
	data, err := os.ReadFile(filepath.Join(o.dir(o.name()), runDir, component+".pid"))
	if err != nil {
		return 0, fmt.Errorf("component %s of cluster %q is not running: %w", component, o.name(), err)
	}
	return strconv.Atoi(strings.TrimSpace(string(data)))
}

// ClusterConfig is the defaulted configuration a cluster runs with.
func ClusterConfig(opts Options) (*v1alpha1.Cluster, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	st, err := loadState(o, o.name())
	if err != nil {
		return nil, err
	}
	return st.Config, nil
}

// HostAddress is the address at which a cluster's apiserver reaches a
// process on this machine (an admission webhook registered by URL, say):
// 127.0.0.1 for the embedded backend, whose apiserver runs here; for kind
// the Docker network's gateway; for existing clusters the address simnode's
// kubelets are reached at (this machine's address).
func HostAddress(opts Options) (string, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return "", err
	}
	st, err := loadState(o, o.name())
	if err != nil {
		return "", err
	}
	if st.Config.Backend == v1alpha1.BackendEmbedded {
		return "127.0.0.1", nil
	}
	if st.Ports.HostAddress != "" {
		return st.Ports.HostAddress, nil
	}
	if st.Ports.NodeAddressBase == "" {
		return "", fmt.Errorf("cluster %q: no node address in its state (bring it up with `wink up --name %s`)", o.name(), o.name())
	}
	return st.Ports.NodeAddressBase, nil
}

// Dialer reaches addresses of a cluster's network (node InternalIPs, and
// what simnode answers for) from this machine. For the embedded backend,
// whose node addresses exist only in the simulation, it goes through
// simnode's egress proxy as the apiserver does; otherwise it dials directly.
func Dialer(opts Options) (func(ctx context.Context, network, addr string) (net.Conn, error), error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	socket := embedded.EgressSocket(o.dir(o.name()))
	if _, err := os.Stat(socket); err == nil {
		return egress.Dialer(socket), nil
	}
	return (&net.Dialer{}).DialContext, nil
}
