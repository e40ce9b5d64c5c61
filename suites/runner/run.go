package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"wink.dev/wink/harness"
	"wink.dev/wink/reports"
	"wink.dev/wink/suites/conformance/upstream"
	"wink.dev/wink/suites/suite/undertest"
)

// command is the process that runs (or, with dryRun, lists) a suite.
func (s suiteRun) command(ctx context.Context, args []string, timeout time.Duration, dryRun bool) *exec.Cmd {
	if dryRun {
		args = append(slices.Clone(args), "--dry-run")
	}
	argv := append([]string{"-test.v=test2json", "-test.count=1", "-test.timeout=" + timeout.String()}, args...)
	cmd := exec.CommandContext(ctx, s.Binary, argv...)
	cmd.Dir = s.Dir // where go test would run it: its package directory
	// Interrupted: let the suite stop (it may still delete its cluster)
	// rather than killing it outright.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 30 * time.Second
	return cmd
}

// runSuite runs one suite's binary and emits its events (test2json).
func runSuite(ctx context.Context, s suiteRun, args, env []string, timeout time.Duration, dryRun bool, emit func(reports.Event)) error {
	cmd := s.command(ctx, args, timeout, dryRun)
	cmd.Env = env
	conv := reports.NewConverter(s.Package, nil, emit)
	var mu sync.Mutex
	w := lockedWriter{mu: &mu, w: conv}
	cmd.Stdout, cmd.Stderr = w, w
	err := cmd.Run()
	conv.Exited(err)
	conv.Close()
	return err
}

// upstreamE2E points the conformance suite at the upstream specs' test
// program of the plan's binaries (WINK_E2E_BINARY), built beside the suites
// (`make suites`, buildSuites); without it the suite builds its own.
func upstreamE2E(plan *testPlan, env []string) []string {
	if !slices.ContainsFunc(plan.Suites, func(s suiteRun) bool { return s.Area == "conformance" }) || lookupEnv(env, "WINK_E2E_BINARY") != "" || plan.Upstream == "" {
		return env
	}
	return append(env, "WINK_E2E_BINARY="+plan.Upstream)
}

// lookupEnv is the last value of key in env.
func lookupEnv(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// buildSuites links the plan's suites from source into dir with one `go test
// -c` (stripped), with the conformance suite's upstream specs when it runs,
// and points the suites at their binaries: each links once, for the count
// of its features and for its run, and the packages they share compile
// once.
func buildSuites(ctx context.Context, plan *testPlan, dir string) error {
	// Without symbol table and DWARF (-s -w) the links take about a third
	// less time; panics still name functions and lines.
	args := []string{"test", "-c", "-tags", upstream.Tag, "-ldflags=-s -w", "-o", dir + string(filepath.Separator)}
	for _, s := range plan.Suites {
		args = append(args, "./suites/"+s.Area)
		if s.Area == "conformance" {
			args = append(args, "./suites/conformance/upstream")
		}
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = plan.Root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building the suites (go %s in %s): %w\n%s", strings.Join(args, " "), plan.Root, err, out)
	}
	for i := range plan.Suites {
		plan.Suites[i].Binary = filepath.Join(dir, plan.Suites[i].Area+".test")
	}
	if up := filepath.Join(dir, upstreamBinary); isFile(up) {
		plan.Upstream = up
	}
	return nil
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// countFeatures runs a suite with e2e-framework's --dry-run (no cluster, no
// steps) and counts the features it would run: subtests at depth 1 that
// pass, and top-level tests without subtests. -1 when the dry run fails.
func countFeatures(ctx context.Context, s suiteRun, args, env []string) int {
	c := reports.NewCollector()
	n := 0
	var mu sync.Mutex
	err := runSuite(ctx, s, args, env, 5*time.Minute, true, func(e reports.Event) {
		mu.Lock()
		defer mu.Unlock()
		if fin := c.Add(e); fin != nil && fin.Status == reports.StatusPass && (fin.Depth == 1 || fin.Depth == 0 && fin.Leaf) {
			n++
		}
	})
	if err != nil {
		return -1
	}
	return n
}

// Failed is the error of a run with failures.
type Failed struct{ msg string }

func (e Failed) Error() string { return e.msg }

// Run runs the suites as o says, prints progress to stdout and writes the
// reports into o.Output. Its error is a UsageError for bad options (before
// anything runs), a Failed when any test failed.
func Run(ctx context.Context, f Options, stdout io.Writer) error {
	start := time.Now()
	if f.Kubeconfig != "" && f.Name != "" {
		return UsageError{errors.New("--kubeconfig and --name both name a cluster: give one")}
	}
	kubeconfig := f.Kubeconfig
	if f.Name != "" {
		path, err := harness.KubeconfigPath(harness.Options{Name: f.Name, Home: f.Home, Progress: io.Discard})
		if err != nil {
			return err
		}
		kubeconfig = path
	}
	if kubeconfig != "" {
		if _, err := os.Stat(kubeconfig); err != nil {
			return UsageError{fmt.Errorf("--kubeconfig: %w", err)}
		}
		kubeconfig = absPath(kubeconfig)
	}
	args, err := f.e2eArgs(kubeconfig)
	if err != nil {
		return err
	}
	if f.SchedulerName, f.WebhookConfig, err = f.targets(kubeconfig != ""); err != nil {
		return err
	}
	plan, err := findSuites(&f)
	if err != nil {
		return err
	}
	if len(plan.Suites) == 0 {
		return fmt.Errorf("no suites found in %s", plan.From)
	}

	env, cleanup, err := testEnv(f, kubeconfig)
	if err != nil {
		return err
	}
	defer cleanup()

	var areas []string
	for _, s := range plan.Suites {
		areas = append(areas, s.Area)
	}
	if plan.Note != "" {
		fmt.Fprintln(stdout, plan.Note)
	}
	switch plan.Mode {
	case "binaries":
		fmt.Fprintf(stdout, "Running %d suite(s) (%s) from prebuilt binaries in %s\n", len(plan.Suites), strings.Join(areas, ", "), plan.From)
	default:
		// Built where `make suites` builds them, so that the next run
		// finds them up to date and builds nothing.
		dir := filepath.Join(plan.Root, "bin", "suites")
		fmt.Fprintf(stdout, "Running %d suite(s) (%s) from source in %s: building them (go test -c) into %s ...", len(plan.Suites), strings.Join(areas, ", "), plan.From, dir)
		built := time.Now()
		if err := buildSuites(ctx, plan, dir); err != nil {
			fmt.Fprintln(stdout, " failed")
			return err
		}
		fmt.Fprintf(stdout, " built in %s\n", reports.FormatDuration(time.Since(built).Seconds()))
	}
	for _, line := range f.targetLines(plan) {
		fmt.Fprintln(stdout, line)
	}
	if kubeconfig != "" {
		fmt.Fprintf(stdout, "Cluster: %s (features that need wink's own nodes skip)\n", kubeconfig)
	} else {
		fmt.Fprintln(stdout, "Cluster: embedded, brought up and deleted by each suite")
	}
	if len(args) > 0 {
		fmt.Fprintf(stdout, "Suite flags: %s\n", strings.Join(args, " "))
	}

	env = upstreamE2E(plan, env)

	// Count the features first (e2e-framework --dry-run: no cluster).
	total := 0
	for i := range plan.Suites {
		plan.Suites[i].Total = countFeatures(ctx, plan.Suites[i], args, env)
		if plan.Suites[i].Total < 0 || total < 0 {
			total = -1
		} else {
			total += plan.Suites[i].Total
		}
	}
	if total >= 0 {
		fmt.Fprintf(stdout, "%d feature(s) selected\n", total)
	}

	col := reports.NewCollector()
	var events []reports.Event
	var mu sync.Mutex
	ended := 0 // suites that ended before any interruption
	// write writes the reports of what has ended so far; incomplete says
	// why they are partial ("" for the final reports). The reports are
	// rewritten as each suite ends, so that a run killed outright still
	// leaves what it finished.
	write := func(incomplete string) (*reports.Report, error) {
		mu.Lock()
		defer mu.Unlock()
		report := col.Report()
		report.Incomplete = incomplete
		return report, reports.WriteAll(f.Output, report, events)
	}
	if _, err := write(fmt.Sprintf("running: 0 of %d suites ended", len(plan.Suites))); err != nil {
		return err
	}
	prog := newProgress(stdout, total)
	emit := func(e reports.Event) {
		mu.Lock()
		events = append(events, e)
		fin := col.Add(e)
		mu.Unlock()
		prog.finished(fin)
	}
	run := func(s suiteRun) {
		if ctx.Err() != nil {
			return
		}
		defer func() {
			mu.Lock()
			if ctx.Err() == nil {
				ended++
			}
			n := ended
			mu.Unlock()
			if ctx.Err() == nil && n < len(plan.Suites) {
				if _, err := write(fmt.Sprintf("running: %d of %d suites ended", n, len(plan.Suites))); err != nil {
					prog.say("wink test: writing the reports so far: %v", err)
				}
			}
		}()
		how := "go test ./suites/" + s.Area
		if s.Binary != "" {
			how = filepath.Base(s.Binary)
		}
		prog.say("── %s: starting (%s)%s", s.Area, how, map[bool]string{true: "; it brings up its cluster first", false: ""}[kubeconfig == ""])
		if err := runSuite(ctx, s, args, env, f.Timeout, false, emit); err != nil {
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				emit(reports.Event{Time: time.Now(), Action: reports.ActionOutput, Package: s.Package, Output: fmt.Sprintf("wink test: running suite %s: %v\n", s.Area, err)})
				emit(reports.Event{Time: time.Now(), Action: reports.ActionFail, Package: s.Package})
			}
		}
	}
	runSuites(plan.Suites, f.Parallel, kubeconfig != "", clusterBudget(runtime.NumCPU(), memAvailable()), run)

	incomplete := ""
	if ctx.Err() != nil {
		incomplete = fmt.Sprintf("interrupted: %d of %d suites ended", ended, len(plan.Suites))
	}
	report, err := write(incomplete)
	if err != nil {
		return err
	}
	t := report.Totals
	fmt.Fprintf(stdout, "\n%d result(s): %d passed, %d failed, %d skipped; catalog rows covered %d of %d (%d failing); %d suite(s) in %s\n",
		t.Results, t.Pass, t.Fail, t.Skip, t.Covered, t.Rows, t.RowsFail, t.Packages, reports.FormatDuration(time.Since(start).Seconds()))
	if report.Failed() {
		fmt.Fprintln(stdout, "Failed:")
		for _, p := range report.Packages {
			switch {
			case p.Harness != "":
				fmt.Fprintf(stdout, "  suite %s: harness problem, its cluster did not come up: %s\n", p.Area, p.Harness)
			case p.Failure != "":
				fmt.Fprintf(stdout, "  suite %s (before its tests)\n", p.Area)
			}
		}
		for _, r := range report.Results {
			if r.Status == reports.StatusFail {
				fmt.Fprintf(stdout, "  %s: %s [%s]\n", r.Area, r.Feature, strings.Join(r.Rows, ", "))
			}
		}
	}
	fmt.Fprintf(stdout, "Reports: %s/{junit.xml,results.json,summary.md,report.html}\n", f.Output)
	switch {
	case ctx.Err() != nil:
		return Failed{"interrupted: the reports hold what ended before"}
	case report.HarnessOnly():
		return HarnessProblem{report.Headline()}
	case report.Failed():
		return Failed{report.Headline()}
	}
	return nil
}

// HarnessProblem is the error of a run in which no test failed but some
// suite could not bring its cluster up: a problem of the harness or the
// machine, not of the cluster under test.
type HarnessProblem struct{ msg string }

func (e HarnessProblem) Error() string { return e.msg }

// suiteCost is what a suite costs the machine on embedded clusters.
type suiteCost struct {
	area string
	// clusters is how many clusters it keeps up at its peak, its own
	// included.
	clusters int
}

// suiteCosts are the suites, longest first as measured on embedded
// clusters: with --parallel they start in this order, so that the short
// suites fill in around the long ones rather than one long suite running
// alone at the end. check judges charts on every built-in platform at once
// beside its own cluster; existing joins a second cluster to its own and
// brings up a sharded one; scheduling brings up a second cluster for
// RuntimeClasses. A suite not listed starts last and keeps one cluster.
var suiteCosts = []suiteCost{
	{"existing", 3}, {"lifecycle", 1}, {"check", 6}, {"resources", 1}, {"conformance", 1},
	{"scheduling", 2}, {"faults", 1}, {"charts", 1}, {"identity", 1}, {"workloads", 1},
	{"validation", 1}, {"networking", 1}, {"webhooks", 1}, {"nodes", 1}, {"storage", 1},
}

// costOf is a suite's rank in suiteCosts and the clusters it keeps up.
func costOf(area string) (rank, clusters int) {
	for i, c := range suiteCosts {
		if c.area == area {
			return i, c.clusters
		}
	}
	return len(suiteCosts), 1
}

// clustersPerCPU and clusterMemory size the clusters the suites keep up at
// once: a running cluster mostly waits on its suite, so a CPU holds several
// (their bring-ups are one per CPU at a time: harness.BringUpsAtOnce), and
// each holds about clusterMemory of the machine's memory.
const (
	clustersPerCPU = 4
	clusterMemory  = 1 << 30
)

// clusterBudget is how many clusters the suites keep up at once on a
// machine of cpus CPUs and available bytes of available memory (0:
// unknown), at least one.
func clusterBudget(cpus int, available uint64) int {
	n := clustersPerCPU * cpus
	if available > 0 {
		n = min(n, int(available/clusterMemory))
	}
	return max(1, n)
}

// memAvailable is the kernel's estimate of the memory available for new
// work (MemAvailable of /proc/meminfo), 0 when unknown.
func memAvailable() uint64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			var kb uint64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kb); err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// runSuites runs the suites one after the other or, with parallel, as many
// at once as budget clusters hold: in suiteCosts' order, each starting as
// soon as the clusters it keeps up fit beside those of the suites running
// (a suite that needs more than the budget runs once nothing else does).
// Against a shared cluster lifecycle runs alone, after the others: it stops
// and restarts the cluster's components.
func runSuites(suites []suiteRun, parallel, shared bool, budget int, run func(suiteRun)) {
	if !parallel || len(suites) < 2 {
		for _, s := range suites {
			run(s)
		}
		return
	}
	var concurrent, alone []suiteRun
	for _, s := range suites {
		if shared && s.Area == "lifecycle" {
			alone = append(alone, s)
		} else {
			concurrent = append(concurrent, s)
		}
	}
	slices.SortStableFunc(concurrent, func(a, b suiteRun) int {
		ra, _ := costOf(a.Area)
		rb, _ := costOf(b.Area)
		return ra - rb
	})
	cost := func(s suiteRun) int {
		if shared {
			return 1 // the suites share the given cluster
		}
		_, c := costOf(s.Area)
		return c
	}
	var mu sync.Mutex
	ended := sync.NewCond(&mu)
	used := 0
	var wg sync.WaitGroup
	mu.Lock()
	for len(concurrent) > 0 {
		i := slices.IndexFunc(concurrent, func(s suiteRun) bool { return used == 0 || used+cost(s) <= budget })
		if i < 0 {
			ended.Wait()
			continue
		}
		s := concurrent[i]
		concurrent = slices.Delete(concurrent, i, i+1)
		used += cost(s)
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(s)
			mu.Lock()
			used -= cost(s)
			mu.Unlock()
			ended.Signal()
		}()
	}
	mu.Unlock()
	wg.Wait()
	for _, s := range alone {
		run(s)
	}
}

// testEnv is the environment of the suites: WINK_BINARY is this executable
// (suites bring their clusters up with it), WINK_HOME a directory of our own
// unless one is set, so that an interrupted run can delete the clusters its
// suites left behind.
func testEnv(f Options, kubeconfig string) ([]string, func(), error) {
	env := os.Environ()
	// The targets as checked by Options.targets; the suites read them from
	// the environment (e2e-framework parses their flags itself).
	if f.SchedulerName != "" {
		env = append(env, undertest.SchedulerEnv+"="+f.SchedulerName)
	}
	if f.WebhookConfig != "" {
		env = append(env, undertest.WebhookConfigEnv+"="+f.WebhookConfig)
	}
	if os.Getenv("WINK_BINARY") == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, nil, err
		}
		env = append(env, "WINK_BINARY="+exe)
	}
	if f.Name != "" {
		// The suites run the simnode-only features too: they are told
		// which wink cluster the kubeconfig belongs to (suite.Setup).
		env = append(env, harness.ClusterEnv+"="+f.Name)
		if f.Home != "" {
			env = append(env, "WINK_HOME="+f.Home)
		}
	}
	if kubeconfig != "" {
		return env, func() {}, nil
	}
	home := os.Getenv("WINK_HOME")
	owned := false
	if home == "" {
		var err error
		if home, err = os.MkdirTemp("", "wink-test-"); err != nil {
			return nil, nil, err
		}
		owned = true
		env = append(env, "WINK_HOME="+home)
	}
	cleanup := func() {
		if os.Getenv("WINK_KEEP") != "" {
			return
		}
		// Clusters the suites did not delete (an interrupted or killed suite).
		if !owned {
			return
		}
		entries, _ := os.ReadDir(home)
		for _, e := range entries {
			if e.IsDir() {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				_ = harness.Delete(ctx, harness.Options{Name: e.Name(), Home: home})
				cancel()
			}
		}
		_ = os.RemoveAll(home)
	}
	return env, cleanup, nil
}
