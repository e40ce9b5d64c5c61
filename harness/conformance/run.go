package conformance

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"wink.dev/wink/reports"
)

// Options are one run of a job.
type Options struct {
	Job Job
	// Kubeconfig of the cluster under test.
	Kubeconfig string
	// Binaries to run (BuildE2E, or given).
	Binaries Binaries
	// NumNodes is e2e's --num-nodes: the Windows nodes.
	NumNodes int
	// ReportDir gets e2e's own reports (junit_01.xml, ginkgo/report.json),
	// its log (e2e.log) and wink's: junit.xml, results.json, summary.md,
	// report.html.
	ReportDir string
	// Rerun limits the run to these spec texts (--rerun-failed).
	Rerun []string
	// Args are appended to the job's e2e flags (after them, so that they
	// win).
	Args []string
	// Progress gets the [n/N] lines.
	Progress io.Writer
}

// Outcome is what a run gives.
type Outcome struct {
	Report *reports.Report
	Specs  []Spec
	// Plan is what the dry run before the run selected; Planned is how
	// many of its specs run.
	Plan    Plan
	Planned int
}

// Failed reports whether any spec (or the suite's setup) failed.
func (o *Outcome) Failed() bool { return o.Report.Failed() }

// Figures are the run's counts against its plan: passed, failed, skipped
// by upstream (the spec skipped itself at run time), left out by wink and
// by the job's own focus and skip, and the share of the specs the real
// job runs that passed.
func (o *Outcome) Figures() string {
	t := o.Report.Totals
	s := fmt.Sprintf("%d passed, %d failed, %d skipped by upstream itself", t.Pass, t.Fail, t.Skip)
	if n := len(o.Plan.Selected); n > 0 {
		wink := n - len(o.Plan.Run)
		s += fmt.Sprintf("; %d left out by wink, %d by the job's own focus and skip; %d of the %d specs the real job runs passed (%.1f %%)",
			wink, o.Plan.Total-n, t.Pass, n, 100*float64(t.Pass)/float64(n))
	}
	return s
}

// e2eArgs are the flags of e2e.test for the run. Each skip is a
// --ginkgo.skip of its own (ginkgo joins them with |), so that the job's
// own skip reads on the command line as SIG Windows wrote it.
func (c *Catalog) e2eArgs(o Options, focus string, skips ...string) []string {
	args := append([]string{}, c.Args...)
	if o.Kubeconfig != "" {
		args = append(args, "--kubeconfig="+o.Kubeconfig)
	}
	args = append(args,
		"--ginkgo.focus="+focus,
		"--report-dir="+o.ReportDir,
		"--report-complete-ginkgo",
		"--num-nodes="+strconv.Itoa(o.NumNodes),
	)
	for _, skip := range skips {
		if skip != "" {
			args = append(args, "--ginkgo.skip="+skip)
		}
	}
	return append(args, o.Args...)
}

// focusSkip is the job's focus and skip, or, for a rerun, the failed
// specs' texts exactly.
func focusSkip(o Options) (focus, skip string) {
	if len(o.Rerun) == 0 {
		return o.Job.Focus, o.Job.Skip
	}
	q := make([]string, len(o.Rerun))
	for i, t := range o.Rerun {
		q[i] = regexp.QuoteMeta(t)
	}
	// ginkgo matches focus against "<suite description> <spec text>"
	// (internal/focus.go), so a spec's whole text follows a space.
	return " (" + strings.Join(q, "|") + ")$", ""
}

// winkSkip is the job's wink skips, none for a rerun (it names its specs).
func winkSkip(o Options) string {
	if len(o.Rerun) > 0 {
		return ""
	}
	return o.Job.winkSkip()
}

// Run runs the job and writes the reports.
func (c *Catalog) Run(ctx context.Context, o Options) (*Outcome, error) {
	if err := os.MkdirAll(o.ReportDir, 0o755); err != nil {
		return nil, err
	}
	focus, skip := focusSkip(o)
	plan, err := c.plan(ctx, o, focus, skip)
	if err != nil {
		return nil, err
	}
	planned := len(plan.Run)
	fmt.Fprintf(o.Progress, "%s: %s\n", o.Job.Name, plan)

	logFile, err := os.Create(filepath.Join(o.ReportDir, "e2e.log"))
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	args := c.e2eArgs(o, focus, skip, winkSkip(o))
	var cmd *exec.Cmd
	if o.Job.Nodes > 1 && o.Binaries.Ginkgo != "" {
		// The CLI reports for all processes: it needs its own -v and
		// --no-color for the lines progress reads.
		// --timeout: the CLI's own suite timeout (default 1h) overrides
		// the binary's --ginkgo.timeout.
		gargs := append([]string{"--nodes=" + strconv.Itoa(o.Job.Nodes), "--no-color", "-v", "--timeout=4h", o.Binaries.E2E, "--"}, args...)
		cmd = exec.CommandContext(ctx, o.Binaries.Ginkgo, gargs...)
	} else {
		cmd = exec.CommandContext(ctx, o.Binaries.E2E, args...)
	}
	cmd.Dir = o.ReportDir
	cmd.Env = append(os.Environ(), "KUBECONFIG="+o.Kubeconfig)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	started := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		progress(io.TeeReader(pr, logFile), planned, o.Progress)
	}()
	runErr := cmd.Wait()
	pw.Close()
	<-done
	finished := time.Now()

	specs, err := readGinkgoReport(filepath.Join(o.ReportDir, "ginkgo", "report.json"))
	if err != nil {
		if runErr != nil {
			return nil, fmt.Errorf("e2e.test: %v, and it wrote no report (%v); see %s", runErr, err, logFile.Name())
		}
		return nil, err
	}
	out := &Outcome{Specs: specs, Plan: plan, Planned: planned, Report: c.Report(o.Job.Name, specs, started, finished)}
	if err := writeReports(o.ReportDir, out.Report); err != nil {
		return out, err
	}
	var exitErr *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exitErr) {
		return out, runErr
	}
	return out, nil
}

// Plan is what a job selects of e2e.test's specs, each named by its full
// text.
type Plan struct {
	// Total is every spec e2e.test holds.
	Total int
	// Selected are the specs the job's own focus and skip select.
	Selected []string
	// WinkSkipped are the selected specs wink leaves out, by reason.
	WinkSkipped map[string][]string
	// Run are the specs that run: Selected less WinkSkipped.
	Run []string
}

func (p Plan) String() string {
	s := fmt.Sprintf("%d specs to run: e2e.test holds %d, the job's focus and skip select %d", len(p.Run), p.Total, len(p.Selected))
	reasons := make([]string, 0, len(p.WinkSkipped))
	for reason := range p.WinkSkipped {
		reasons = append(reasons, reason)
	}
	sort.Strings(reasons)
	for _, reason := range reasons {
		s += fmt.Sprintf("; wink leaves out %d (%s)", len(p.WinkSkipped[reason]), reason)
	}
	return s
}

// plan is a ginkgo dry run of the job's own focus and skip, less the
// job's wink skips.
func (c *Catalog) plan(ctx context.Context, o Options, focus, skip string) (Plan, error) {
	specs, err := c.DryRun(ctx, o, focus, skip)
	if err != nil {
		return Plan{}, err
	}
	p := Plan{Total: len(specs), WinkSkipped: map[string][]string{}}
	for _, s := range specs {
		if !s.Selected {
			continue
		}
		p.Selected = append(p.Selected, s.Text)
		if w, ok := o.Job.WinkSkips(s.SuiteAndText); ok && len(o.Rerun) == 0 {
			p.WinkSkipped[w.Reason] = append(p.WinkSkipped[w.Reason], s.Text)
			continue
		}
		p.Run = append(p.Run, s.Text)
	}
	return p, nil
}

// DrySpec is one spec of a dry run.
type DrySpec struct {
	// Text is the spec's full text; SuiteAndText is what ginkgo's focus
	// and skip match: the suite's description, a space and Text.
	Text, SuiteAndText string
	// Selected: the focus and skips keep the spec.
	Selected bool
}

// DryRun lists every spec of o.Binaries.E2E (ginkgo --dry-run, which runs
// no node and needs no cluster) and whether focus and skips select it,
// with the catalog's e2e flags and o.Args.
func (c *Catalog) DryRun(ctx context.Context, o Options, focus string, skips ...string) ([]DrySpec, error) {
	dir, err := os.MkdirTemp("", "wink-conformance-plan-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	p := o
	p.ReportDir = dir
	args := append(c.e2eArgs(p, focus, skips...), "--ginkgo.dry-run", "--ginkgo.v=false")
	cmd := exec.CommandContext(ctx, o.Binaries.E2E, args...)
	if o.Kubeconfig != "" {
		cmd.Env = append(os.Environ(), "KUBECONFIG="+o.Kubeconfig)
	}
	outb, err := cmd.CombinedOutput()
	data, rerr := os.ReadFile(filepath.Join(dir, "ginkgo", "report.json"))
	var rs []ginkgoReport
	if rerr == nil {
		rerr = json.Unmarshal(data, &rs)
	}
	if rerr != nil {
		return nil, fmt.Errorf("e2e.test --ginkgo.dry-run: %v %v\n%s", err, rerr, tail(string(outb), 40))
	}
	var out []DrySpec
	for _, r := range rs {
		for _, s := range r.SpecReports {
			if s.LeafNodeType != "It" {
				continue
			}
			// A dry run reports the specs it would run as passed and
			// those the focus and skip leave out as skipped.
			text := s.FullText()
			out = append(out, DrySpec{Text: text, SuiteAndText: r.SuiteDescription + " " + text, Selected: s.State == "passed"})
		}
	}
	return out, nil
}

// ginkgo's verbose reporter ends each spec with a line such as
// "• [12.345 seconds]", "• [FAILED] [61.2 seconds]" or
// "S [SKIPPED] [0.01 seconds]"; the spec's text comes after a line of
// dashes.
var (
	specEndRe = regexp.MustCompile(`^(•|S|P) (\[(FAILED|PANICKED|TIMEDOUT|INTERRUPTED|SKIPPED|PENDING|ABORTED)\] )?\[([0-9.]+) seconds\]`)
	dashes    = strings.Repeat("-", 30)
	// ansiRe are terminal colour codes.
	ansiRe = regexp.MustCompile("\x1b\\[[0-9;]*m")
	// labelsRe is the list of labels ginkgo prints after the text.
	labelsRe = regexp.MustCompile(` \[[^\]]*\]$`)
	// skipsRe is ginkgo's line of skipped specs.
	skipsRe = regexp.MustCompile(`^S+$`)
)

// progress reads e2e's output and writes one [n/N] line per finished spec.
// e2e.test itself prints a spec's text before its end line; the ginkgo CLI
// of a parallel run prints it after (with the timeline that follows). Lines
// of only S are skipped specs ginkgo does not name.
func progress(r io.Reader, planned int, w io.Writer) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	n, afterDashes, current := 0, false, ""
	var pending []string // the end line's submatches, waiting for a text after it
	report := func(m []string, text string) {
		n++
		state := "passed"
		switch {
		case m[3] != "":
			state = strings.ToLower(m[3])
		case m[1] == "S":
			state = "skipped"
		}
		secs, _ := strconv.ParseFloat(m[4], 64)
		fmt.Fprintf(w, "[%d/%d] %-7s %6.1fs %s\n", n, planned, state, secs, text)
	}
	specText := func(line string) string {
		t := strings.TrimSpace(line)
		if m := labelsRe.FindString(t); strings.Contains(m, ", ") {
			t = strings.TrimSuffix(t, m)
		}
		return t
	}
	for sc.Scan() {
		line := ansiRe.ReplaceAllString(strings.TrimRight(sc.Text(), "\r"), "")
		isText := strings.TrimSpace(line) != "" && !strings.HasPrefix(line, dashes) && !skipsRe.MatchString(line) && !specEndRe.MatchString(line)
		if pending != nil {
			text := current
			if isText && strings.HasPrefix(line, "[") {
				text = specText(line)
			}
			report(pending, text)
			pending, current = nil, ""
		}
		switch {
		case strings.HasPrefix(line, dashes):
			afterDashes = true
			continue
		case afterDashes && isText:
			current = specText(line)
		}
		afterDashes = false
		if m := specEndRe.FindStringSubmatch(line); m != nil {
			pending = m
		}
	}
	if pending != nil {
		report(pending, current)
	}
}

func tail(s string, lines int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > lines {
		l = l[len(l)-lines:]
	}
	return strings.Join(l, "\n")
}

// writeReports writes wink's reports of r into dir.
func writeReports(dir string, r *reports.Report) error {
	for name, write := range map[string]func(io.Writer, *reports.Report) error{
		"junit.xml":    reports.WriteJUnit,
		"results.json": reports.WriteJSON,
		"summary.md":   reports.WriteMarkdown,
		"report.html":  reports.WriteHTML,
	} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		werr := write(f, r)
		if err := f.Close(); werr == nil {
			werr = err
		}
		if werr != nil {
			return fmt.Errorf("%s: %w", name, werr)
		}
	}
	return nil
}
