package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"wink.dev/wink/harness"
	"wink.dev/wink/reports"
)

// suitePackage is the import path of the suite of an area.
const suitePackage = "wink.dev/wink/suites/"

// notSuites are the packages under suites/ that `wink test` does not run: shared
// helpers, benchmarks and the reference webhook (the webhooks suite tests it).
var notSuites = []string{"suite", "bench", "reference"}

// testFlags are the flags of `wink test`.
type testFlags struct {
	common
	kubeconfig string
	output     string
	labels     []string
	skipLabels []string
	rows       []string
	skipRows   []string
	suites     []string
	parallel   bool
	suiteDir   string
	timeout    time.Duration
}

func newTest(stdout, stderr io.Writer) *cobra.Command {
	var f testFlags
	cmd := &cobra.Command{
		Use:   "test",
		Short: "Run the e2e suites and write JUnit, JSON, Markdown and HTML reports",
		Long: `Run the e2e suites (one per area: nodes, scheduling, lifecycle, ...) against
the cluster given by --kubeconfig or --name, or, without either, against an
embedded cluster that each suite brings up and deletes. Progress shows as
[n/N] lines, failures as they happen.

The suites run from prebuilt test binaries (bin/suites/<area>.test, built by
` + "`make suites`" + `) when there are some, else from a checkout with ` + "`go test -json`" + `.

--output gets junit.xml, results.json, summary.md (for $GITHUB_STEP_SUMMARY),
report.html (the traceability matrix: catalog row → tests → result →
evidence) and events.jsonl (the raw test events).

Exit code: 0 when everything passed, 1 when anything failed, 2 on usage errors.`,
		Example: `  wink test                                  # every suite, embedded clusters
  wink test --name wink --suites nodes       # the nodes suite against a running wink cluster
  wink test --rows B1,B2,B3 --output /tmp/r  # only the features that check rows B1-B3`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runTest(cmd.Context(), f, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.name, "name", "", "run against this wink cluster (its admin kubeconfig); it must be up")
	fl.StringVar(&f.home, "home", "", "directory holding the clusters' state (default $WINK_HOME, else ~/.wink)")
	fl.StringVar(&f.kubeconfig, "kubeconfig", "", "run against the cluster of this kubeconfig (default: each suite brings up an embedded cluster)")
	fl.StringVar(&f.output, "output", "wink-report", "directory for junit.xml, results.json, summary.md, report.html and events.jsonl")
	fl.StringSliceVar(&f.labels, "labels", nil, "run only features with these labels, key=value (values of one key: any; different keys: all), e.g. needs=any")
	fl.StringSliceVar(&f.skipLabels, "skip-labels", nil, "skip features with any of these labels, key=value, e.g. needs=simnode")
	fl.StringSliceVar(&f.rows, "rows", nil, "run only features that check any of these catalog rows, e.g. N1,B4")
	fl.StringSliceVar(&f.skipRows, "skip-rows", nil, "skip features that check any of these catalog rows")
	fl.StringSliceVar(&f.suites, "suites", nil, "run only these suites (areas), e.g. nodes,scheduling (default: all)")
	fl.BoolVar(&f.parallel, "parallel", false, "run suites concurrently (and e2e-framework's --parallel); against a shared cluster, lifecycle still runs alone")
	fl.StringVar(&f.suiteDir, "suite-dir", "", "directory of prebuilt suite binaries <area>.test (default: bin/suites beside the wink binary, else ./bin/suites)")
	fl.DurationVar(&f.timeout, "timeout", 30*time.Minute, "time limit of each suite (its -test.timeout)")
	return cmd
}

var (
	rowIDRe = regexp.MustCompile(`^[A-Z][0-9]*$`)
	labelRe = regexp.MustCompile(`^[^=,\s]+=[^=,\s]+$`)
)

// e2eArgs translates the flags into the e2e-framework flags every suite
// binary gets after its -test.* flags. --rows becomes --labels row=X,row=Y
// (e2e-framework v0.7.0: the values of one key match any, different keys
// must all match), --skip-rows becomes --skip-labels row=X.
func (f *testFlags) e2eArgs(kubeconfig string) ([]string, error) {
	labels, err := checkLabels("--labels", f.labels)
	if err != nil {
		return nil, err
	}
	skip, err := checkLabels("--skip-labels", f.skipLabels)
	if err != nil {
		return nil, err
	}
	for flag, rows := range map[string][]string{"--rows": f.rows, "--skip-rows": f.skipRows} {
		if err := checkRows(flag, rows); err != nil {
			return nil, err
		}
	}
	for _, r := range f.rows {
		labels = append(labels, "row="+r)
	}
	for _, r := range f.skipRows {
		skip = append(skip, "row="+r)
	}
	var args []string
	if kubeconfig != "" {
		args = append(args, "--kubeconfig="+kubeconfig)
	}
	if len(labels) > 0 {
		args = append(args, "--labels="+strings.Join(labels, ","))
	}
	if len(skip) > 0 {
		args = append(args, "--skip-labels="+strings.Join(skip, ","))
	}
	if f.parallel {
		args = append(args, "--parallel")
	}
	return args, nil
}

func checkLabels(flag string, labels []string) ([]string, error) {
	var out []string
	for _, l := range labels {
		l = strings.TrimSpace(l)
		if !labelRe.MatchString(l) {
			return nil, usageError{fmt.Errorf("%s %q: want key=value, e.g. area=nodes or needs=any", flag, l)}
		}
		out = append(out, l)
	}
	return out, nil
}

func checkRows(flag string, rows []string) error {
	known := map[string]bool{}
	for _, r := range reports.Spec() {
		known[r.ID] = true
	}
	for _, r := range rows {
		if !rowIDRe.MatchString(r) || !known[r] {
			return usageError{fmt.Errorf("%s: %q is not a row of the behaviour catalog (rows look like N1, A17, B4, H2, S3, E)", flag, r)}
		}
	}
	return nil
}

// suiteRun is one suite to run: a prebuilt binary, or a package for go test.
type suiteRun struct {
	Area    string
	Package string
	Binary  string // "" for go test
	Dir     string // the working directory (the package directory, for its fixtures)
	Total   int    // features it will run (-1: unknown)
}

// testPlan is how `wink test` runs the suites.
type testPlan struct {
	Mode   string // "binaries" or "go test"
	From   string // the suite directory or the module root
	Root   string // the checkout, "" if none
	Suites []suiteRun
}

// findSuites looks for prebuilt suite binaries, then for a checkout with a
// Go toolchain.
func findSuites(f *testFlags) (*testPlan, error) {
	root := findModuleRoot()
	var dirs []string
	if f.suiteDir != "" {
		dirs = []string{f.suiteDir}
	} else {
		if exe, err := os.Executable(); err == nil {
			dirs = append(dirs, filepath.Join(filepath.Dir(exe), "suites"))
		}
		dirs = append(dirs, filepath.Join("bin", "suites"))
		if root != "" {
			dirs = append(dirs, filepath.Join(root, "bin", "suites"))
		}
	}
	for _, dir := range dirs {
		bins, _ := filepath.Glob(filepath.Join(dir, "*.test"))
		if len(bins) == 0 {
			continue
		}
		plan := &testPlan{Mode: "binaries", From: dir, Root: root}
		if root == "" {
			// bin/suites of a checkout: its root is two levels up.
			if r := filepath.Dir(filepath.Dir(absPath(dir))); isModuleRoot(r) {
				plan.Root = r
			}
		}
		for _, bin := range bins {
			area := strings.TrimSuffix(filepath.Base(bin), ".test")
			if slices.Contains(notSuites, area) {
				continue
			}
			s := suiteRun{Area: area, Package: suitePackage + area, Binary: absPath(bin), Total: -1}
			if plan.Root != "" {
				s.Dir = filepath.Join(plan.Root, "suites", area)
			}
			plan.Suites = append(plan.Suites, s)
		}
		return plan, selectSuites(plan, f.suites)
	}
	if f.suiteDir != "" {
		return nil, usageError{fmt.Errorf("--suite-dir %s: no suite binaries (<area>.test) there: build them with `make suites`", f.suiteDir)}
	}
	if root == "" {
		return nil, fmt.Errorf("no suites to run: no prebuilt binaries in %s (build them with `make suites`) and not inside a wink checkout", strings.Join(dirs, ", "))
	}
	if _, err := exec.LookPath("go"); err != nil {
		return nil, fmt.Errorf("no suites to run: no prebuilt binaries in %s (build them with `make suites`) and no Go toolchain for `go test`", strings.Join(dirs, ", "))
	}
	plan := &testPlan{Mode: "go test", From: root, Root: root}
	entries, err := os.ReadDir(filepath.Join(root, "suites"))
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if !e.IsDir() || slices.Contains(notSuites, e.Name()) {
			continue
		}
		if tests, _ := filepath.Glob(filepath.Join(root, "suites", e.Name(), "*_test.go")); len(tests) == 0 {
			continue
		}
		plan.Suites = append(plan.Suites, suiteRun{Area: e.Name(), Package: suitePackage + e.Name(), Dir: filepath.Join(root, "suites", e.Name()), Total: -1})
	}
	return plan, selectSuites(plan, f.suites)
}

// selectSuites keeps the suites named by --suites, in the order given.
func selectSuites(plan *testPlan, names []string) error {
	if len(names) == 0 {
		return nil
	}
	var areas []string
	for _, s := range plan.Suites {
		areas = append(areas, s.Area)
	}
	var kept []suiteRun
	for _, n := range names {
		i := slices.Index(areas, strings.TrimSpace(n))
		if i < 0 {
			return usageError{fmt.Errorf("--suites: no suite %q (there are: %s)", n, strings.Join(areas, ", "))}
		}
		kept = append(kept, plan.Suites[i])
	}
	plan.Suites = kept
	return nil
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

func isModuleRoot(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	return err == nil && strings.Contains(string(data), "module wink.dev/wink\n")
}

// findModuleRoot is the wink checkout holding the working directory, if any.
func findModuleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if isModuleRoot(dir) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// command is the process that runs (or, with dryRun, lists) a suite.
func (s suiteRun) command(ctx context.Context, root string, args []string, timeout time.Duration, dryRun bool) *exec.Cmd {
	if dryRun {
		args = append(slices.Clone(args), "--dry-run")
	}
	var cmd *exec.Cmd
	if s.Binary != "" {
		argv := append([]string{"-test.v=test2json", "-test.count=1", "-test.timeout=" + timeout.String()}, args...)
		cmd = exec.CommandContext(ctx, s.Binary, argv...)
	} else {
		argv := append([]string{"test", "-json", "-count=1", "-timeout=" + timeout.String(), "./suites/" + s.Area, "-args"}, args...)
		cmd = exec.CommandContext(ctx, "go", argv...)
		cmd.Dir = root
	}
	if s.Binary != "" {
		cmd.Dir = s.Dir // fixtures are relative to the package directory
	}
	// Interrupted: let the suite stop (it may still delete its cluster)
	// rather than killing it outright.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 30 * time.Second
	return cmd
}

// runSuite runs one suite and emits its events.
func runSuite(ctx context.Context, s suiteRun, root string, args, env []string, timeout time.Duration, dryRun bool, emit func(reports.Event)) error {
	cmd := s.command(ctx, root, args, timeout, dryRun)
	cmd.Env = env
	if s.Binary != "" {
		conv := reports.NewConverter(s.Package, nil, emit)
		var mu sync.Mutex
		w := lockedWriter{mu: &mu, w: conv}
		cmd.Stdout, cmd.Stderr = w, w
		err := cmd.Run()
		conv.Exited(err)
		conv.Close()
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	decodeErr := reports.DecodeEvents(stdout, s.Package, emit)
	err = cmd.Wait()
	if stderr.Len() > 0 {
		emit(reports.Event{Time: time.Now(), Action: reports.ActionOutput, Package: s.Package, Output: stderr.String()})
	}
	if decodeErr != nil {
		return decodeErr
	}
	return err
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
func countFeatures(ctx context.Context, s suiteRun, root string, args, env []string) int {
	c := reports.NewCollector()
	n := 0
	var mu sync.Mutex
	err := runSuite(ctx, s, root, args, env, 5*time.Minute, true, func(e reports.Event) {
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

// progress prints [n/N] lines as features finish and failures as they happen.
type progress struct {
	mu      sync.Mutex
	w       io.Writer
	total   int // -1: unknown
	n       int
	printed map[string]bool // features whose failure was printed with an assessment
}

func newProgress(w io.Writer, total int) *progress {
	return &progress{w: w, total: total, printed: map[string]bool{}}
}

func area(pkg string) string { return pkg[strings.LastIndexByte(pkg, '/')+1:] }

// say prints one line.
func (p *progress) say(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, format+"\n", args...)
}

// finished prints what fin says, if it is worth a line.
func (p *progress) finished(fin *reports.Finished) {
	if fin == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case fin.Depth == -1:
		if fin.Status == reports.StatusFail && fin.Failure != "" && !p.printed[fin.Package] {
			fmt.Fprintf(p.w, "FAIL suite %s (%s):\n%s\n", area(fin.Package), reports.FormatDuration(fin.Elapsed), indentLines(tail(fin.Failure, 20), "    "))
		}
	case fin.Depth >= 2:
		if fin.Status == reports.StatusFail {
			p.printed[fin.Package+" "+featureOf(fin.Test)] = true
			p.printed[fin.Package] = true
			fmt.Fprintf(p.w, "    FAIL %s\n%s\n", fin.Name, indentLines(fin.Failure, "        "))
		}
	case fin.Deselected:
		// Left out by --labels/--rows: not counted, not shown.
	case fin.Depth == 1 || fin.Depth == 0 && fin.Leaf:
		p.n++
		total := "?"
		if p.total >= 0 {
			total = fmt.Sprint(max(p.total, p.n))
		}
		line := fmt.Sprintf("[%d/%s] %s: %s … %s (%s)", p.n, total, area(fin.Package), fin.Name, strings.ToUpper(string(fin.Status)), reports.FormatDuration(fin.Elapsed))
		if fin.Status == reports.StatusSkip {
			if reason := skipLine(fin.Failure); reason != "" {
				line += ": " + reason
			}
		}
		fmt.Fprintln(p.w, line)
		if fin.Status == reports.StatusFail {
			p.printed[fin.Package] = true
			if !p.printed[fin.Package+" "+fin.Test] && fin.Failure != "" {
				fmt.Fprintln(p.w, indentLines(fin.Failure, "    "))
			}
		}
	case fin.Depth == 0 && fin.Status == reports.StatusFail && fin.Failure != "":
		// A test failing outside its features.
		fmt.Fprintf(p.w, "    FAIL %s\n%s\n", fin.Test, indentLines(fin.Failure, "        "))
	}
}

var fileLineRe = regexp.MustCompile(`^[\w.-]+\.go:\d+: `)

// featureOf is the feature (Test/feature) of an assessment's test name.
func featureOf(test string) string {
	parts := strings.SplitN(test, "/", 3)
	if len(parts) < 2 {
		return test
	}
	return parts[0] + "/" + parts[1]
}

func skipLine(out string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(out), "\n")
	return fileLineRe.ReplaceAllString(strings.TrimSpace(first), "")
}

func indentLines(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix)
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("… (%d lines before)", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// testFailed is the error of a run with failures: exit code 1.
type testFailed struct{ msg string }

func (e testFailed) Error() string { return e.msg }

func runTest(ctx context.Context, f testFlags, stdout, stderr io.Writer) error {
	start := time.Now()
	if f.kubeconfig != "" && f.name != "" {
		return usageError{errors.New("--kubeconfig and --name both name a cluster: give one")}
	}
	kubeconfig := f.kubeconfig
	if f.name != "" {
		path, err := harness.KubeconfigPath(f.options(io.Discard))
		if err != nil {
			return err
		}
		kubeconfig = path
	}
	if kubeconfig != "" {
		if _, err := os.Stat(kubeconfig); err != nil {
			return usageError{fmt.Errorf("--kubeconfig: %w", err)}
		}
		kubeconfig = absPath(kubeconfig)
	}
	args, err := f.e2eArgs(kubeconfig)
	if err != nil {
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
	switch plan.Mode {
	case "binaries":
		fmt.Fprintf(stdout, "Running %d suite(s) (%s) from prebuilt binaries in %s\n", len(plan.Suites), strings.Join(areas, ", "), plan.From)
		if plan.Root == "" {
			fmt.Fprintln(stdout, "  (no wink checkout found: features that read fixtures from the repository may fail)")
		}
	default:
		fmt.Fprintf(stdout, "Running %d suite(s) (%s) from source: go test -json ./suites/<area> in %s\n", len(plan.Suites), strings.Join(areas, ", "), plan.From)
	}
	if kubeconfig != "" {
		fmt.Fprintf(stdout, "Cluster: %s (features that need wink's own nodes skip)\n", kubeconfig)
	} else {
		fmt.Fprintln(stdout, "Cluster: embedded, brought up and deleted by each suite")
	}
	if len(args) > 0 {
		fmt.Fprintf(stdout, "Suite flags: %s\n", strings.Join(args, " "))
	}

	// Count the features first (e2e-framework --dry-run: no cluster).
	total := 0
	for i := range plan.Suites {
		plan.Suites[i].Total = countFeatures(ctx, plan.Suites[i], plan.Root, args, env)
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
		if err := runSuite(ctx, s, plan.Root, args, env, f.timeout, false, emit); err != nil {
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				emit(reports.Event{Time: time.Now(), Action: reports.ActionOutput, Package: s.Package, Output: fmt.Sprintf("wink test: running suite %s: %v\n", s.Area, err)})
				emit(reports.Event{Time: time.Now(), Action: reports.ActionFail, Package: s.Package})
			}
		}
	}
	runSuites(plan.Suites, f.parallel, kubeconfig != "", run)

	report := col.Report()
	if err := writeReports(f.output, report, events); err != nil {
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
	fmt.Fprintf(stdout, "Reports: %s/{junit.xml,results.json,summary.md,report.html}\n", f.output)
	if ctx.Err() != nil {
		return testFailed{"interrupted"}
	}
	if report.Failed() {
		return testFailed{report.Headline()}
	}
	return nil
}

// runSuites runs the suites one after the other or, with parallel, up to
// one per CPU at a time. Against a shared cluster lifecycle runs alone,
// after the others: it stops and restarts the cluster's components.
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
	sem := make(chan struct{}, max(1, runtime.NumCPU()))
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
func testEnv(f testFlags, kubeconfig string) ([]string, func(), error) {
	env := os.Environ()
	if os.Getenv("WINK_BINARY") == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, nil, err
		}
		env = append(env, "WINK_BINARY="+exe)
	}
	if f.name != "" {
		// The suites run the simnode-only features too: they are told
		// which wink cluster the kubeconfig belongs to (suite.Setup).
		env = append(env, harness.ClusterEnv+"="+f.name)
		if f.home != "" {
			env = append(env, "WINK_HOME="+f.home)
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

// writeReports writes the four reports and the raw events into dir.
func writeReports(dir string, r *reports.Report, events []reports.Event) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	writers := []struct {
		name  string
		write func(io.Writer) error
	}{
		{"junit.xml", func(w io.Writer) error { return reports.WriteJUnit(w, r) }},
		{"results.json", func(w io.Writer) error { return reports.WriteJSON(w, r) }},
		{"summary.md", func(w io.Writer) error { return reports.WriteMarkdown(w, r) }},
		{"report.html", func(w io.Writer) error { return reports.WriteHTML(w, r) }},
		{"events.jsonl", func(w io.Writer) error { return reports.EncodeEvents(w, events) }},
	}
	for _, wr := range writers {
		file, err := os.Create(filepath.Join(dir, wr.name))
		if err != nil {
			return err
		}
		err = wr.write(file)
		if cerr := file.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", wr.name, err)
		}
	}
	return nil
}
