package reports

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// CheckFiles are the files WriteCheck writes into its directory.
var CheckFiles = []string{"junit.xml", "results.json", "summary.md", "report.html"}

// WriteCheck writes the reports of a `wink check` run into dir (CheckFiles),
// making dir if needed.
func WriteCheck(dir string, r *CheckReport) error {
	return writeFiles(dir, CheckFiles, map[string]func(io.Writer) error{
		"junit.xml":    func(w io.Writer) error { return WriteCheckJUnit(w, r) },
		"results.json": func(w io.Writer) error { return WriteCheckJSON(w, r) },
		"summary.md":   func(w io.Writer) error { return WriteCheckMarkdown(w, r) },
		"report.html":  func(w io.Writer) error { return WriteCheckHTML(w, r) },
	})
}

// WriteCheckJSON writes results.json: the CheckReport as it is.
func WriteCheckJSON(w io.Writer, r *CheckReport) error {
	return encodeJSON(w, r)
}

// Verdicts of a cell of the check matrix (one workload on one platform).
const (
	VerdictPass = "pass" // no finding
	VerdictWarn = "warn" // warnings only
	VerdictFail = "fail" // at least one error finding
	// VerdictError: the platform as a whole failed (PlatformErrors), so
	// the workload was not judged there.
	VerdictError = "error"
	// VerdictAbsent: the platform ran, the workload was not among its
	// results (the chart rendered it on other platforms only).
	VerdictAbsent = "absent"
)

// Verdict is the cell verdict of w: fail, warn or pass.
func (w CheckWorkload) Verdict() string {
	switch {
	case w.Failed():
		return VerdictFail
	case len(w.Findings) > 0:
		return VerdictWarn
	}
	return VerdictPass
}

// Title names w readably, without its platform: "DaemonSet monitoring/agent".
func (w CheckWorkload) Title() string {
	if w.Namespace == "" {
		return w.Kind + " " + w.Name
	}
	return w.Kind + " " + w.Namespace + "/" + w.Name
}

// CheckCell is one platform's cell of a matrix row; Workload is nil unless
// the verdict is pass, warn or fail.
type CheckCell struct {
	Platform string
	Verdict  string
	Workload *CheckWorkload
}

// CheckRow is one workload of a chart across the platforms.
type CheckRow struct {
	Chart, Kind, Namespace, Name string
	Cells                        []CheckCell // one per platform, in r.Platforms' order
}

// Title names the row's workload as CheckWorkload.Title does.
func (row CheckRow) Title() string {
	return CheckWorkload{Kind: row.Kind, Namespace: row.Namespace, Name: row.Name}.Title()
}

// Matrix is the workload × platform matrix of r: one row per workload (in
// the order the workloads first appear), one cell per platform of
// r.Platforms (and any platform a workload names that r.Platforms lacks).
func (r *CheckReport) Matrix() []CheckRow {
	platforms := r.allPlatforms()
	type key struct{ chart, kind, ns, name string }
	index := map[key]int{}
	var rows []CheckRow
	for i := range r.Workloads {
		w := &r.Workloads[i]
		k := key{w.Chart, w.Kind, w.Namespace, w.Name}
		n, ok := index[k]
		if !ok {
			n = len(rows)
			index[k] = n
			row := CheckRow{Chart: w.Chart, Kind: w.Kind, Namespace: w.Namespace, Name: w.Name}
			for _, p := range platforms {
				v := VerdictAbsent
				if _, failed := r.PlatformErrors[p]; failed {
					v = VerdictError
				}
				row.Cells = append(row.Cells, CheckCell{Platform: p, Verdict: v})
			}
			rows = append(rows, row)
		}
		c := &rows[n].Cells[slices.Index(platforms, w.Platform)]
		c.Verdict, c.Workload = w.Verdict(), w
	}
	return rows
}

// allPlatforms is r.Platforms, then the platforms that only workloads or
// platform errors name, sorted.
func (r *CheckReport) allPlatforms() []string {
	out := slices.Clone(r.Platforms)
	var extra []string
	for _, w := range r.Workloads {
		if !slices.Contains(out, w.Platform) && !slices.Contains(extra, w.Platform) {
			extra = append(extra, w.Platform)
		}
	}
	for p := range r.PlatformErrors {
		if !slices.Contains(out, p) && !slices.Contains(extra, p) {
			extra = append(extra, p)
		}
	}
	slices.Sort(extra)
	return append(out, extra...)
}

// manyCharts reports whether r's workloads come from more than one chart.
func (r *CheckReport) manyCharts() bool {
	for _, w := range r.Workloads {
		if w.Chart != r.Workloads[0].Chart {
			return true
		}
	}
	return false
}

// CheckTotals counts the checks (workload × platform) of a report and their
// findings.
type CheckTotals struct {
	Checks, Pass, Warn, Fail int
	Errors, Warnings         int // findings by severity
	PlatformErrors           int
}

// Totals counts r's checks and findings.
func (r *CheckReport) Totals() CheckTotals {
	t := CheckTotals{Checks: len(r.Workloads), PlatformErrors: len(r.PlatformErrors)}
	for _, w := range r.Workloads {
		switch w.Verdict() {
		case VerdictFail:
			t.Fail++
		case VerdictWarn:
			t.Warn++
		default:
			t.Pass++
		}
		for _, f := range w.Findings {
			if f.Severity == SeverityError {
				t.Errors++
			} else {
				t.Warnings++
			}
		}
	}
	return t
}

// Failed reports whether the check failed: a finding of severity error, or
// a platform that could not be judged (`wink check` exits 1).
func (r *CheckReport) Failed() bool {
	t := r.Totals()
	return t.Fail > 0 || t.PlatformErrors > 0
}

// Headline says in one line how the check went.
func (r *CheckReport) Headline() string {
	t := r.Totals()
	var parts []string
	switch {
	case t.Fail > 0:
		parts = append(parts, fmt.Sprintf("%d of %d checks failed (%s)", t.Fail, t.Checks, plural(t.Errors, "finding")))
	case t.Checks == 0:
		parts = append(parts, "no workload was judged")
	default:
		parts = append(parts, fmt.Sprintf("%d checks passed", t.Checks))
	}
	if t.Warnings > 0 {
		parts = append(parts, plural(t.Warnings, "warning"))
	}
	if t.PlatformErrors > 0 {
		parts = append(parts, fmt.Sprintf("%s not judged: %s", plural(t.PlatformErrors, "platform"), strings.Join(slices.Sorted(maps.Keys(r.PlatformErrors)), ", ")))
	}
	return strings.Join(parts, ", ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// findingLine is a finding in one line: severity, code, pod and rows, then
// the message.
func findingLine(f Finding) string {
	s := string(f.Severity) + " " + f.Code
	if f.Pod != "" {
		s += " (pod " + f.Pod + ")"
	}
	if len(f.Rows) > 0 {
		s += " [rows " + strings.Join(f.Rows, ", ") + "]"
	}
	return s + ": " + f.Message
}

// findingText is a finding with its fix, for JUnit bodies and tooltips.
func findingText(f Finding) string {
	s := findingLine(f)
	if f.Fix != "" {
		s += "\n  fix: " + f.Fix
	}
	return s
}

// WriteCheckJUnit writes junit.xml: one testsuite per platform, one
// testcase per workload on it named after the workload ("DaemonSet
// monitoring/agent on eks", classname the chart), its error findings as
// the failure (the first as the message, all with their fixes as the
// text), its warnings and placement in system-out. A platform that could
// not be judged gets a testcase "platform <p>" with an error.
func WriteCheckJUnit(w io.Writer, r *CheckReport) error {
	out := junitSuites{Name: "wink check", Time: seconds(r.Duration)}
	for _, p := range r.allPlatforms() {
		s := junitSuite{Name: p, Properties: []junitProperty{{"platform", p}}}
		if r.Kubernetes != "" {
			s.Properties = append(s.Properties, junitProperty{"kubernetes", r.Kubernetes})
		}
		if !r.Started.IsZero() {
			s.Timestamp = r.Started.UTC().Format("2006-01-02T15:04:05")
		}
		var total float64
		for _, wl := range r.Workloads {
			if wl.Platform != p {
				continue
			}
			total += wl.Duration
			c := junitCase{Classname: wl.Chart, Name: wl.Title() + " on " + p, Time: seconds(wl.Duration)}
			for _, prop := range [][2]string{{"platform", p}, {"release", wl.Release}, {"os", string(wl.OS)}, {"expected", wl.Expected}} {
				if prop[1] != "" {
					c.Properties = append(c.Properties, junitProperty{prop[0], prop[1]})
				}
			}
			var errs, warns []string
			for _, f := range wl.Findings {
				for _, row := range f.Rows {
					if !slices.ContainsFunc(c.Properties, func(p junitProperty) bool { return p == junitProperty{"row", row} }) {
						c.Properties = append(c.Properties, junitProperty{"row", row})
					}
				}
				if f.Severity == SeverityError {
					errs = append(errs, findingText(f))
				} else {
					warns = append(warns, findingText(f))
				}
			}
			if len(errs) > 0 {
				first := wl.Findings[slices.IndexFunc(wl.Findings, func(f Finding) bool { return f.Severity == SeverityError })]
				msg := first.Message
				if len(errs) > 1 {
					msg += fmt.Sprintf(" (and %d more)", len(errs)-1)
				}
				c.Failure = &junitMessage{Message: msg, Type: first.Code, Text: strings.Join(errs, "\n")}
				s.Failures++
			}
			if sysout := placementLine(wl.Placement) + strings.Join(warns, "\n"); sysout != "" {
				c.SystemOut = &junitText{sysout}
			}
			s.Cases = append(s.Cases, c)
			s.Tests++
		}
		if msg, failed := r.PlatformErrors[p]; failed {
			s.Cases = append(s.Cases, junitCase{Classname: strings.Join(r.Charts, " "), Name: "platform " + p, Time: seconds(0),
				Error: &junitMessage{Message: firstLine(msg), Type: "error", Text: msg}})
			s.Tests++
			s.Errors++
		}
		s.Time = seconds(total)
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Suites = append(out.Suites, s)
	}
	return encodeJUnit(w, out)
}

// placementLine is "pods: linux: 1, windows/2022: 2\n", or "" for none.
func placementLine(p map[string]int) string {
	if len(p) == 0 {
		return ""
	}
	return "pods: " + placementText(p) + "\n"
}

// placementText is "linux: 1, windows/2022: 2" (sorted), or "no pods".
func placementText(p map[string]int) string {
	if len(p) == 0 {
		return "no pods"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(p)) {
		parts = append(parts, fmt.Sprintf("%s: %d", k, p[k]))
	}
	return strings.Join(parts, ", ")
}

var verdictIcon = map[string]string{
	VerdictPass: "✅ pass", VerdictWarn: "⚠️ warn", VerdictFail: "❌ fail", VerdictError: "💥 not judged", VerdictAbsent: "— absent",
}

// WriteCheckMarkdown writes summary.md, fit for $GITHUB_STEP_SUMMARY: the
// verdict first, then the workload × platform matrix, the platforms that
// could not be judged, and the findings with their fixes, errors first.
func WriteCheckMarkdown(w io.Writer, r *CheckReport) error {
	var b strings.Builder
	icon := "✅"
	if r.Failed() {
		icon = "❌"
	}
	fmt.Fprintf(&b, "# %s wink check: %s\n\n", icon, r.Headline())
	platforms := r.allPlatforms()
	fmt.Fprintf(&b, "Charts %s on %s", codeList(r.Charts), strings.Join(platforms, ", "))
	if r.Kubernetes != "" {
		fmt.Fprintf(&b, " (Kubernetes %s)", r.Kubernetes)
	}
	fmt.Fprintf(&b, " in %s", FormatDuration(r.Duration))
	if !r.Started.IsZero() {
		fmt.Fprintf(&b, ", started %s", r.Started.UTC().Format("2006-01-02 15:04:05 MST"))
	}
	b.WriteString(".\n\n")

	matrix := r.Matrix()
	// The chart column only when there is more than one chart.
	charts := r.manyCharts()
	b.WriteString("| workload |")
	if charts {
		b.WriteString(" chart |")
	}
	for _, p := range platforms {
		b.WriteString(" " + p + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(platforms)))
	if charts {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, row := range matrix {
		fmt.Fprintf(&b, "| %s |", mdText(row.Title()))
		if charts {
			fmt.Fprintf(&b, " `%s` |", mdEscape(row.Chart))
		}
		for _, c := range row.Cells {
			cell := verdictIcon[c.Verdict]
			if c.Workload != nil {
				if n := len(c.Workload.Findings); n > 0 {
					cell += fmt.Sprintf(" (%d)", n)
				}
				cell += "<br>" + placementText(c.Workload.Placement)
			}
			b.WriteString(" " + cell + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")

	if len(r.PlatformErrors) > 0 {
		b.WriteString("## Platforms not judged\n\n")
		for _, p := range slices.Sorted(maps.Keys(r.PlatformErrors)) {
			fmt.Fprintf(&b, "### 💥 %s\n\n%s\n", p, fence(r.PlatformErrors[p]))
		}
	}

	for _, sev := range []Severity{SeverityError, SeverityWarning} {
		var section strings.Builder
		for _, wl := range r.Workloads {
			var lines []string
			for _, f := range wl.Findings {
				if f.Severity == sev {
					lines = append(lines, findingMarkdown(f))
				}
			}
			if len(lines) > 0 {
				fmt.Fprintf(&section, "### %s on %s\n\n`%s` (release `%s`)", mdText(wl.Title()), wl.Platform, wl.Chart, wl.Release)
				if wl.Expected != "" {
					fmt.Fprintf(&section, ", expected: %s", mdText(wl.Expected))
				}
				fmt.Fprintf(&section, "\n\n%s\n\n", strings.Join(lines, "\n"))
			}
		}
		if section.Len() > 0 {
			title := map[Severity]string{SeverityError: "❌ Findings", SeverityWarning: "⚠️ Warnings"}[sev]
			fmt.Fprintf(&b, "## %s\n\n%s", title, section.String())
		}
	}
	_, err := io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
}

// findingMarkdown is a finding as a list item: code, pod and rows, the
// message, and the fix.
func findingMarkdown(f Finding) string {
	s := "- **" + f.Code + "**"
	if f.Pod != "" {
		s += " · pod `" + f.Pod + "`"
	}
	if len(f.Rows) > 0 {
		s += " · rows " + strings.Join(f.Rows, ", ")
	}
	s += ": " + mdText(f.Message)
	if f.Fix != "" {
		s += "<br>**Fix:** " + mdText(f.Fix)
	}
	return s
}

// mdText is text of the cluster's or the chart's in a table cell or a list
// item: kept on one line, and its < written as &lt; so that GitHub shows a
// <name> in it instead of dropping it as an HTML tag.
func mdText(s string) string {
	return strings.ReplaceAll(mdEscape(s), "<", "&lt;")
}

func codeList(items []string) string {
	if len(items) == 0 {
		return "—"
	}
	return "`" + strings.Join(items, "`, `") + "`"
}
