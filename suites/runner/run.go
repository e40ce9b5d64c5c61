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
		fmt.Fprintf(stdout, "Running %d suite(s) (%s) from source in %s: building them (go test -c) ...", len(plan.Suites), strings.Join(areas, ", "), plan.From)
		built := time.Now()
		dir, err := os.MkdirTemp("", "wink-suites-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
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
	runSuites(plan.Suites, f.Parallel, kubeconfig != "", run)

	report := col.Report()
	if err := reports.WriteAll(f.Output, report, events); err != nil {
		return err
	}
	t := report.Totals
	fmt.Fprintf(stdout, "\n%d result(s): %d passed, %d failed, %d skipped; catalog rows covered %d of %d (%d failing); %d suite(s) in %s\n",
		t.Results, t.Pass, t.Fail, t.Skip, t.Covered, t.Rows, t.RowsFail, t.Packages, reports.FormatDuration(time.Since(start).Seconds()))
	if report.Failed() {
		fmt.Fprintln(stdout, "Failed:")
		for _, p := range report.Packages {
			if p.Failure != "" {
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
	if ctx.Err() != nil {
		return Failed{"interrupted"}
	}
	if report.Failed() {
		return Failed{report.Headline()}
	}
	return nil
}

// suitesAtOnce is how many suites run concurrently with --parallel: three
// per CPU. A suite spends a few CPU-seconds linking its test binary and
// bringing up its cluster, then mostly waits on that cluster. Measured on
// 2 CPUs, the ten suites (after counting their features) took 181 s two at
// a time, 105-118 s four at a time and 71-74 s six at a time, as long as
// lifecycle alone, with at most 2.5 GB more memory in use.
func suitesAtOnce() int { return max(2, 3*runtime.NumCPU()) }

// longestFirst are the suites that take longest, longest first (measured
// on embedded clusters). With parallel they start before the others, so
// that the short suites fill in around them rather than one long suite
// running alone at the end. A suite not listed starts after them, in its
// order.
var longestFirst = []string{"lifecycle", "resources", "scheduling", "networking", "workloads"}

// runSuites runs the suites one after the other or, with parallel, up to
// suitesAtOnce at a time, longestFirst first. Against a shared cluster
// lifecycle runs alone, after the others: it stops and restarts the
// cluster's components.
func runSuites(suites []suiteRun, parallel, shared bool, run func(suiteRun)) {
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
	rank := func(s suiteRun) int {
		if i := slices.Index(longestFirst, s.Area); i >= 0 {
			return i
		}
		return len(longestFirst)
	}
	slices.SortStableFunc(concurrent, func(a, b suiteRun) int { return rank(a) - rank(b) })
	sem := make(chan struct{}, suitesAtOnce())
	var wg sync.WaitGroup
	for _, s := range concurrent {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			run(s)
		}()
	}
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
