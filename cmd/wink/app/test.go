package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
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
	"wink.dev/wink/suites/suite/undertest"
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
	// schedulerName is the scheduler under test of the scheduling suite
	// (WINK_SCHEDULER_NAME).
	schedulerName string
	// webhookConfig is the configuration file of the webhook under test of
	// the webhooks suite (WINK_WEBHOOK_CONFIG).
	webhookConfig string
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
` + "`make suites`" + `) when there are some, else from a checkout, built once with ` + "`go test -c`" + `.

--scheduler-name points the scheduling suite at another scheduler: every pod
and workload it creates names that scheduler (spec.schedulerName), so that
rows S1-S5, A17, N4 and N5 certify it; a probe pod fails the suite early,
naming the scheduler, when none of that name runs. Embedded clusters run
default-scheduler and wink-scheduler; for your own scheduler give the
cluster it runs in with --kubeconfig or --name.

--webhook-config points the webhooks suite at your admission webhook: a YAML
file with one MutatingWebhookConfiguration and one
ValidatingWebhookConfiguration (see suites/webhooks/README.md).

Inside a checkout, prebuilt suite binaries older than the sources they are
built from are not run: the suites run from source instead, with a note.

--output gets junit.xml, results.json, summary.md (for $GITHUB_STEP_SUMMARY),
report.html (the traceability matrix: catalog row → tests → result →
evidence) and events.jsonl (the raw test events).

Exit code: 0 when everything passed, 1 when anything failed, 2 on usage errors.`,
		Example: `  wink test                                  # every suite, embedded clusters
  wink test --name wink --suites nodes       # the nodes suite against a running wink cluster
  wink test --rows B1,B2,B3 --output /tmp/r  # only the features that check rows B1-B3
  wink test --suites scheduling --scheduler-name wink-scheduler   # the embedded clusters' second scheduler profile
  wink test --kubeconfig k --suites scheduling --scheduler-name my-scheduler
  wink test --name wink --suites webhooks --webhook-config vendor-webhook.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("parallel") {
				// Each suite brings up a cluster of its own: they
				// cannot interfere, and run concurrently by default.
				f.parallel = f.kubeconfig == "" && f.name == ""
			}
			return runTest(cmd.Context(), f, stdout, stderr)
		},
	}
	cmd.PreRunE = f.check
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
	fl.BoolVar(&f.parallel, "parallel", false, "run suites concurrently, up to three per CPU (and e2e-framework's --parallel); against a shared cluster, lifecycle still runs alone (default: true when each suite brings up its own embedded cluster, false with --kubeconfig or --name)")
	fl.StringVar(&f.suiteDir, "suite-dir", "", "directory of prebuilt suite binaries <area>.test (default: bin/suites beside the wink binary, else ./bin/suites)")
	fl.DurationVar(&f.timeout, "timeout", 30*time.Minute, "time limit of each suite (its -test.timeout)")
	fl.StringVar(&f.schedulerName, "scheduler-name", "", "the scheduling suite's pods and workloads name this scheduler (spec.schedulerName); embedded clusters run default-scheduler and wink-scheduler (default: $"+undertest.SchedulerEnv+", else default-scheduler)")
	fl.StringVar(&f.webhookConfig, "webhook-config", "", "the webhooks suite tests the webhook of this file (one Mutating- and one ValidatingWebhookConfiguration) instead of wink's reference webhook (default: $"+undertest.WebhookConfigEnv+")")
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

// targets checks the scheduler and the webhook under test that
// --scheduler-name and --webhook-config name (without them,
// $WINK_SCHEDULER_NAME and $WINK_WEBHOOK_CONFIG) and returns them as the
// suites get them: the webhook configuration as an absolute path, since the
// suites run in their package directories. clusterGiven says whether the
// suites run against a cluster given by --kubeconfig or --name rather than
// embedded clusters of their own.
func (f *testFlags) targets(clusterGiven bool) (scheduler, webhookConfig string, err error) {
	scheduler, from := strings.TrimSpace(f.schedulerName), "--scheduler-name"
	if scheduler == "" {
		scheduler, from = undertest.SchedulerName(), "$"+undertest.SchedulerEnv
	}
	if scheduler != "" {
		if err := undertest.CheckSchedulerName(scheduler); err != nil {
			return "", "", usageError{fmt.Errorf("%s: %w", from, err)}
		}
		if !clusterGiven && !undertest.IsEmbeddedScheduler(scheduler) {
			return "", "", usageError{fmt.Errorf("%s %q: the embedded clusters the suites bring up run only the schedulers %s; run yours against a cluster and give that cluster with --kubeconfig or --name",
				from, scheduler, strings.Join(undertest.EmbeddedSchedulers, " and "))}
		}
	}
	webhookConfig, from = f.webhookConfig, "--webhook-config"
	if webhookConfig == "" {
		webhookConfig, from = os.Getenv(undertest.WebhookConfigEnv), "$"+undertest.WebhookConfigEnv
	}
	if webhookConfig != "" {
		if _, err := undertest.LoadWebhookConfig(webhookConfig); err != nil {
			return "", "", usageError{fmt.Errorf("%s: %w", from, err)}
		}
		webhookConfig = absPath(webhookConfig)
	}
	return scheduler, webhookConfig, nil
}

// targetLines say what the suites test besides the cluster, or that a
// target was given for a suite that does not run.
func (f *testFlags) targetLines(plan *testPlan) []string {
	selected := func(area string) bool {
		return slices.ContainsFunc(plan.Suites, func(s suiteRun) bool { return s.Area == area })
	}
	var lines []string
	for _, t := range []struct{ value, area, what, flag string }{
		{f.schedulerName, "scheduling", "Scheduler under test", "--scheduler-name"},
		{f.webhookConfig, "webhooks", "Webhook under test", "--webhook-config"},
	} {
		switch {
		case t.value == "":
		case selected(t.area):
			lines = append(lines, fmt.Sprintf("%s: %s (suite %s)", t.what, t.value, t.area))
		default:
			lines = append(lines, fmt.Sprintf("  (%s %s: only the %s suite uses it, and it does not run)", t.flag, t.value, t.area))
		}
	}
	return lines
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
	Note   string // one line about the choice, "" if none (stale binaries)
}

// findSuites looks for prebuilt suite binaries, then for a checkout with a
// Go toolchain. Inside a checkout, binaries older than the sources they are
// built from (staleSource) are not run: the suites run from source with a
// note, or, when --suite-dir insists on them or there is no Go toolchain,
// run with a warning.
func findSuites(f *testFlags) (*testPlan, error) {
	root := findModuleRoot()
	var note string // why binaries that were found are not run
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
		if err := selectSuites(plan, f.suites); err != nil {
			return nil, err
		}
		if plan.Root == "" {
			return plan, nil
		}
		src, err := staleSource(plan.Root, plan.Suites)
		if err != nil {
			plan.Note = fmt.Sprintf("WARNING: cannot tell whether the suite binaries in %s are as new as the checkout %s: %v", dir, plan.Root, err)
			return plan, nil
		}
		if src == "" {
			return plan, nil
		}
		_, noGo := exec.LookPath("go")
		switch {
		case f.suiteDir != "":
			plan.Note = fmt.Sprintf("WARNING: the suite binaries in %s are older than %s: running them as --suite-dir says (`make suites` rebuilds them)", dir, src)
		case noGo != nil:
			plan.Note = fmt.Sprintf("WARNING: the suite binaries in %s are older than %s, and without a Go toolchain the suites cannot run from source: running them anyway", dir, src)
		default:
			root, note = plan.Root, fmt.Sprintf("The suite binaries in %s are older than %s: running the suites from source instead (`make suites` rebuilds them)", dir, src)
		}
		if note == "" {
			return plan, nil
		}
		break
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
	plan := &testPlan{Mode: "go test", From: root, Root: root, Note: note}
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

// staleSource is the newest file of the checkout root that the suite
// binaries are built from, relative to root, when it is newer than one of
// them; "" when every binary is at least as new. `go test -c` sets a
// binary's mtime even when it had nothing to rebuild, so an mtime older
// than a source file means the binary may not hold that file's change.
// Which files count is what any package could build from, over-approximated
// for soundness rather than asked of `go list` (seconds, and no toolchain
// needed): go.mod and go.sum, every .go file, and every other file in or
// below a directory holding Go files, since //go:embed patterns reach the
// package directory and its subdirectories (testdata included). Left out:
// bin/, directories whose names start with "." (.git) and nested modules.
// Files outside any package directory, such as README.md and docs/, cannot
// be built into a binary.
func staleSource(root string, suites []suiteRun) (string, error) {
	var oldest time.Time
	for _, s := range suites {
		if s.Binary == "" {
			continue
		}
		fi, err := os.Stat(s.Binary)
		if err != nil {
			return "", err
		}
		if oldest.IsZero() || fi.ModTime().Before(oldest) {
			oldest = fi.ModTime()
		}
	}
	if oldest.IsZero() {
		return "", nil
	}
	path, mod, err := newestSource(root)
	if err != nil || !mod.After(oldest) {
		return "", err
	}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		rel = path
	}
	return fmt.Sprintf("%s (modified %s after them)", rel, mod.Sub(oldest).Round(time.Second)), nil
}

// newestSource is the most recently modified file of root that a binary of
// the module can be built from (see staleSource) and its mtime.
func newestSource(root string) (string, time.Time, error) {
	type file struct {
		path string
		mod  time.Time
	}
	var newest file
	var others []file // neither .go nor go.mod/go.sum
	goDirs := map[string]bool{}
	bin := filepath.Join(root, "bin")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // unreadable or vanished: nothing a build reads either
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || p == bin || isFile(filepath.Join(p, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		f := file{p, info.ModTime()}
		switch {
		case strings.HasSuffix(p, ".go"):
			goDirs[filepath.Dir(p)] = true
		case p == filepath.Join(root, "go.mod") || p == filepath.Join(root, "go.sum"):
		default:
			others = append(others, f)
			return nil
		}
		if f.mod.After(newest.mod) {
			newest = f
		}
		return nil
	})
	if err != nil {
		return "", time.Time{}, err
	}
	for _, f := range others {
		if !f.mod.After(newest.mod) {
			continue
		}
		for dir := filepath.Dir(f.path); len(dir) >= len(root); dir = filepath.Dir(dir) {
			if goDirs[dir] {
				newest = f
				break
			}
			if dir == root {
				break
			}
		}
	}
	return newest.path, newest.mod, nil
}

func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir()
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

// buildSuites links the plan's suites from source into dir with one `go test
// -c`, and points the suites at their binaries: each links once, for the
// count of its features and for its run, and the packages they share
// compile once.
func buildSuites(ctx context.Context, plan *testPlan, dir string) error {
	args := []string{"test", "-c", "-o", dir + string(filepath.Separator)}
	for _, s := range plan.Suites {
		args = append(args, "./suites/"+s.Area)
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = plan.Root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building the suites (go %s in %s): %w\n%s", strings.Join(args, " "), plan.Root, err, out)
	}
	for i := range plan.Suites {
		plan.Suites[i].Binary = filepath.Join(dir, plan.Suites[i].Area+".test")
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
	if f.schedulerName, f.webhookConfig, err = f.targets(kubeconfig != ""); err != nil {
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
		if err := runSuite(ctx, s, args, env, f.timeout, false, emit); err != nil {
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
func testEnv(f testFlags, kubeconfig string) ([]string, func(), error) {
	env := os.Environ()
	// The targets as checked by testFlags.targets; the suites read them from
	// the environment (e2e-framework parses their flags itself).
	if f.schedulerName != "" {
		env = append(env, undertest.SchedulerEnv+"="+f.schedulerName)
	}
	if f.webhookConfig != "" {
		env = append(env, undertest.WebhookConfigEnv+"="+f.webhookConfig)
	}
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
