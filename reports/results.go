package reports

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"wink.dev/wink/simnode/facts"
)

// Status of a result.
type Status string

const (
	StatusPass Status = "pass"
	StatusFail Status = "fail"
	StatusSkip Status = "skip"
	// StatusNotCovered is a catalog row that no test cites.
	StatusNotCovered Status = "not covered"
)

// The traceability lines the suites log have simnode/facts' format.
const (
	labelsPrefix   = facts.LabelsPrefix
	evidencePrefix = facts.EvidencePrefix
	harnessPrefix  = facts.HarnessPrefix
)

// Labels are what a feature says about itself: the rows it checks, its area
// and what it needs ("simnode" or "any").
type Labels = facts.LabelsLine

// Evidence is one evidence line of a result.
type Evidence struct {
	facts.EvidenceLine
	// Test is the assessment (full test name) that logged it.
	Test string `json:"test,omitempty"`
}

// Assessment is one assessment of a feature (a subtest of the feature).
type Assessment struct {
	Name     string     `json:"name"`
	Test     string     `json:"test"`
	Status   Status     `json:"status"`
	Duration float64    `json:"duration_seconds"`
	Failure  string     `json:"failure,omitempty"`
	Evidence []Evidence `json:"evidence,omitempty"`
}

// Result is one feature (or one top-level test that has no features): the
// unit the reports count, with the rows it checks.
type Result struct {
	Package    string   `json:"package"`
	Test       string   `json:"test"` // the full Go test name, e.g. TestX/feature_name
	Feature    string   `json:"feature"`
	Rows       []string `json:"rows"`
	Area       string   `json:"area"`
	Needs      string   `json:"needs,omitempty"`
	Status     Status   `json:"status"`
	Duration   float64  `json:"duration_seconds"`
	Failure    string   `json:"failure,omitempty"`
	SkipReason string   `json:"skip_reason,omitempty"`
	// Deselected is a skip by the run's filters (--labels, --skip-labels,
	// --feature...), not by the test.
	Deselected  bool         `json:"deselected,omitempty"`
	Evidence    []Evidence   `json:"evidence,omitempty"`
	Assessments []Assessment `json:"assessments,omitempty"`
	Output      string       `json:"-"`
}

// PackageResult is one suite package (one test binary).
type PackageResult struct {
	Package  string  `json:"package"`
	Area     string  `json:"area"`
	Status   Status  `json:"status"`
	Duration float64 `json:"duration_seconds"`
	// Failure is the package's own output when it failed outside any test
	// (a cluster that did not come up, a panic, a build error).
	Failure string `json:"failure,omitempty"`
	// Harness is the cause when the package failed because its cluster
	// did not come up before its tests (a harness line): a problem of the
	// harness or the machine, not a result of the tests.
	Harness string `json:"harness_problem,omitempty"`
}

// RowResult is a catalog row with the results that check it.
type RowResult struct {
	facts.Row
	Status Status   `json:"status"`
	Tests  []string `json:"tests"` // Package + " " + Test of each result
	Known  bool     `json:"in_catalog"`
}

// Totals count results by status.
type Totals struct {
	Results   int `json:"results"`
	Pass      int `json:"pass"`
	Fail      int `json:"fail"`
	Skip      int `json:"skip"`
	Rows      int `json:"rows"`
	Covered   int `json:"rows_covered"`
	RowsFail  int `json:"rows_failing"`
	Packages  int `json:"packages"`
	PkgFailed int `json:"packages_failed"`
	// Harness counts the packages among PkgFailed whose cluster did not
	// come up (PackageResult.Harness).
	Harness int `json:"harness_problems"`
}

// Report is what every writer writes.
type Report struct {
	// Title heads the Markdown and HTML reports: "wink test" when empty.
	Title    string          `json:"title,omitempty"`
	Started  time.Time       `json:"started"`
	Finished time.Time       `json:"finished"`
	Duration float64         `json:"duration_seconds"`
	Totals   Totals          `json:"totals"`
	Packages []PackageResult `json:"packages"`
	Results  []Result        `json:"results"`
	Rows     []RowResult     `json:"rows"`
	// Incomplete says why the report holds only part of the run (it was
	// interrupted, or is still running); "" once every suite finished.
	Incomplete string `json:"incomplete,omitempty"`
}

// Heading is the report's title: Title, or "wink test".
func (r *Report) Heading() string {
	if r.Title != "" {
		return r.Title
	}
	return "wink test"
}

// Failed reports whether anything failed, harness problems included.
func (r *Report) Failed() bool { return r.Totals.Fail > 0 || r.Totals.PkgFailed > 0 }

// HarnessOnly reports whether everything that failed is a harness problem:
// no test failed, and every failed package's cluster did not come up.
func (r *Report) HarnessOnly() bool {
	return r.Totals.Harness > 0 && r.Totals.Fail == 0 && r.Totals.Harness == r.Totals.PkgFailed
}

// node is one Go test (or subtest) as the events describe it.
type node struct {
	name     string // full name
	depth    int    // number of slashes
	status   Status // "" while running
	elapsed  float64
	out      strings.Builder
	children []string
}

type pkgState struct {
	name    string
	status  Status
	elapsed float64
	out     strings.Builder // output outside any test
	nodes   map[string]*node
	order   []string // top-level tests in order of appearance
}

// Collector turns a stream of events (of one or several packages) into a
// Report. Feed it with Add.
type Collector struct {
	pkgs    map[string]*pkgState
	order   []string
	started time.Time
	last    time.Time
}

// NewCollector returns an empty collector.
func NewCollector() *Collector { return &Collector{pkgs: map[string]*pkgState{}} }

// Finished is what Add reports when a test, subtest or package ends.
type Finished struct {
	Package string
	Test    string // "" for the package itself
	// Depth is 0 for a top-level test, 1 for a feature, 2 for an
	// assessment; -1 for the package.
	Depth int
	Leaf  bool // no subtests
	// Deselected is a feature skipped by the run's filters (e2e-framework's
	// --labels, --skip-labels, --feature, --skip-features).
	Deselected bool
	Status     Status
	Elapsed    float64
	// Name is the feature's own name (from its labels) or the last element
	// of the test name with underscores as spaces.
	Name string
	// Failure is the test's output without framing, labels and evidence
	// lines; for a package, its output outside any test.
	Failure string
}

// Add adds one event; it returns what finished with it, if anything.
func (c *Collector) Add(e Event) *Finished {
	if !e.Time.IsZero() {
		if c.started.IsZero() || e.Time.Before(c.started) {
			c.started = e.Time
		}
		if e.Time.After(c.last) {
			c.last = e.Time
		}
	}
	p := c.pkgs[e.Package]
	if p == nil {
		p = &pkgState{name: e.Package, nodes: map[string]*node{}}
		c.pkgs[e.Package] = p
		c.order = append(c.order, e.Package)
	}
	if e.Test == "" {
		switch e.Action {
		case ActionOutput:
			p.out.WriteString(e.Output)
		case ActionPass, ActionFail, ActionSkip:
			p.status, p.elapsed = Status(e.Action), e.Elapsed
			return &Finished{Package: p.name, Depth: -1, Status: p.status, Elapsed: e.Elapsed, Name: path.Base(p.name), Failure: cleanOutput(p.out.String())}
		}
		return nil
	}
	n := p.node(e.Test)
	switch e.Action {
	case ActionOutput:
		n.out.WriteString(e.Output)
	case ActionPass, ActionFail, ActionSkip:
		n.status, n.elapsed = Status(e.Action), e.Elapsed
		f := &Finished{Package: p.name, Test: n.name, Depth: n.depth, Leaf: len(n.children) == 0, Status: n.status, Elapsed: n.elapsed, Name: displayName(n.name)}
		if l := parseLabels(n.out.String()); l != nil && l.Feature != "" {
			f.Name = l.Feature
		}
		f.Failure = cleanOutput(n.out.String())
		f.Deselected = n.status == StatusSkip && deselectedRe.MatchString(n.out.String())
		return f
	}
	return nil
}

// node finds or makes the node of test name, linking it to its parent.
func (p *pkgState) node(name string) *node {
	if n := p.nodes[name]; n != nil {
		return n
	}
	n := &node{name: name, depth: strings.Count(name, "/")}
	p.nodes[name] = n
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		parent := p.node(name[:i])
		parent.children = append(parent.children, name)
	} else {
		p.order = append(p.order, name)
	}
	return n
}

// Report builds the report, with the embedded catalog's rows.
func (c *Collector) Report() *Report { return c.ReportWith(facts.Rows()) }

// ReportWith builds the report against the given catalog rows.
func (c *Collector) ReportWith(spec []facts.Row) *Report {
	r := &Report{Started: c.started, Finished: c.last, Packages: []PackageResult{}, Results: []Result{}}
	if !c.started.IsZero() {
		r.Duration = c.last.Sub(c.started).Round(time.Millisecond).Seconds()
	}
	for _, name := range c.order {
		p := c.pkgs[name]
		pr := PackageResult{Package: name, Area: path.Base(name), Status: p.status, Duration: p.elapsed}
		var results []Result
		for _, top := range p.order {
			results = append(results, p.results(top)...)
		}
		if pr.Status == "" {
			pr.Status = StatusFail // the binary ended without a result
		}
		if pr.Status == StatusFail {
			failedTest := false
			for _, res := range results {
				failedTest = failedTest || res.Status == StatusFail
			}
			if !failedTest {
				pr.Failure = cleanOutput(p.out.String())
				pr.Harness = harnessCause(p.out.String())
				if pr.Failure == "" {
					pr.Failure = "the test binary failed without a test result (no output)"
				}
			}
		}
		for i := range results {
			if results[i].Area == "" {
				results[i].Area = pr.Area
			}
		}
		r.Packages = append(r.Packages, pr)
		r.Results = append(r.Results, results...)
	}
	r.Rows = rowResults(spec, r.Results)
	r.Totals = totals(r)
	return r
}

// results makes the results of one top-level test: one per feature
// subtest, or one for the test itself when it has none.
func (p *pkgState) results(top string) []Result {
	t := p.nodes[top]
	if len(t.children) == 0 {
		return []Result{p.result(t)}
	}
	var out []Result
	for _, name := range t.children {
		out = append(out, p.result(p.nodes[name]))
	}
	// A failure of the test itself (outside its features) is a result too.
	if status(t) == StatusFail && !slices.ContainsFunc(out, func(r Result) bool { return r.Status == StatusFail }) {
		r := p.result(t)
		r.Assessments, r.Evidence = nil, nil
		out = append(out, r)
	}
	return out
}

func status(n *node) Status {
	if n.status == "" {
		return StatusFail // never finished: killed, timed out or panicked
	}
	return n.status
}

func (p *pkgState) result(n *node) Result {
	out := n.out.String()
	res := Result{
		Package:  p.name,
		Test:     n.name,
		Feature:  displayName(n.name),
		Rows:     []string{},
		Status:   status(n),
		Duration: n.elapsed,
		Output:   out,
	}
	if l := parseLabels(out); l != nil {
		res.Feature, res.Rows, res.Area, res.Needs = orDefault(l.Feature, res.Feature), l.Rows, l.Area, l.Needs
	} else if name, l := parseSkippedLabels(out); l != nil {
		res.Feature, res.Rows, res.Area, res.Needs = orDefault(name, res.Feature), l.Rows, l.Area, l.Needs
	}
	if res.Rows == nil {
		res.Rows = []string{}
	}
	res.Evidence = parseEvidence(out, n.name)
	if res.Status == StatusSkip {
		res.SkipReason = skipReason(out)
		res.Deselected = deselectedRe.MatchString(out)
	}
	var walk func(names []string)
	walk = func(names []string) {
		for _, name := range names {
			a := p.nodes[name]
			aout := a.out.String()
			as := Assessment{Name: displayName(a.name), Test: a.name, Status: status(a), Duration: a.elapsed, Evidence: parseEvidence(aout, a.name)}
			if as.Status == StatusFail {
				as.Failure = cleanOutput(aout)
			}
			res.Assessments = append(res.Assessments, as)
			res.Evidence = append(res.Evidence, as.Evidence...)
			walk(a.children)
		}
	}
	walk(n.children)
	if res.Status == StatusFail {
		var parts []string
		if own := cleanOutput(out); own != "" {
			parts = append(parts, own)
		}
		for _, a := range res.Assessments {
			if a.Failure != "" {
				parts = append(parts, a.Name+":\n"+indent(a.Failure))
			}
		}
		if n.status == "" {
			parts = append(parts, "(no result: the test binary ended first — a timeout or a panic?)")
		}
		res.Failure = strings.Join(parts, "\n")
	}
	return res
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// displayName is the last element of a test name with Go's underscores
// turned back into spaces.
func displayName(test string) string {
	if i := strings.LastIndexByte(test, '/'); i >= 0 {
		test = test[i+1:]
	}
	return strings.ReplaceAll(test, "_", " ")
}

// lines splits output into lines, without their line ends.
func lines(out string) []string {
	return strings.Split(strings.TrimRight(out, "\n"), "\n")
}

func parseLabels(out string) *Labels {
	for _, line := range lines(out) {
		if i := strings.Index(line, labelsPrefix); i >= 0 {
			var l Labels
			if json.Unmarshal([]byte(strings.TrimSpace(line[i+len(labelsPrefix):])), &l) == nil {
				return &l
			}
		}
	}
	return nil
}

var (
	// e2e-framework's message for a feature skipped by --labels:
	// Skipping feature "name": unmatched labels "[area=[nodes] needs=[any] row=[N1 N2]]"
	skippedRe = regexp.MustCompile(`Skipping feature "(.*)": unmatched labels "\[(.*)\]"`)
	labelRe   = regexp.MustCompile(`(\S+?)=\[([^\]]*)\]`)
	// e2e-framework's messages for features its filters leave out.
	deselectedRe = regexp.MustCompile(`Skipping feature:? "[^\n]*": (unmatched labels|matched label provided in --skip-lables|name not matched|name matched)`)
)

// parseSkippedLabels reads the labels of a feature that e2e-framework
// skipped before its first step (so before it logged its labels).
func parseSkippedLabels(out string) (string, *Labels) {
	m := skippedRe.FindStringSubmatch(out)
	if m == nil {
		return "", nil
	}
	l := &Labels{}
	for _, kv := range labelRe.FindAllStringSubmatch(m[2], -1) {
		vals := strings.Fields(kv[2])
		switch kv[1] {
		case "row":
			l.Rows = vals
		case "area":
			l.Area = strings.Join(vals, ",")
		case "needs":
			l.Needs = strings.Join(vals, ",")
		}
	}
	return m[1], l
}

func parseEvidence(out, test string) []Evidence {
	var ev []Evidence
	for _, line := range lines(out) {
		if i := strings.Index(line, evidencePrefix); i >= 0 {
			var e Evidence
			if json.Unmarshal([]byte(strings.TrimSpace(line[i+len(evidencePrefix):])), &e) == nil {
				e.Test = test
				ev = append(ev, e)
			}
		}
	}
	return ev
}

// framing lines of verbose test output.
var framing = []string{"=== RUN", "=== PAUSE", "=== CONT", "=== NAME", "=== ATTR", "=== ARTIFACTS", "--- PASS", "--- FAIL", "--- SKIP"}

// cleanOutput keeps what a person reads in a failure: the output without
// framing, labels and evidence lines, unindented.
// harnessCause is the text of the first harness line of out, "" if none.
func harnessCause(out string) string {
	for _, line := range lines(out) {
		if _, cause, ok := strings.Cut(line, harnessPrefix); ok {
			return strings.TrimSpace(cause)
		}
	}
	return ""
}

func cleanOutput(out string) string {
	var keep []string
	for _, line := range lines(out) {
		t := strings.TrimSpace(line)
		if t == "" || t == "PASS" || t == "FAIL" || strings.HasPrefix(t, "FAIL\t") || strings.HasPrefix(t, "ok  \t") || strings.Contains(t, labelsPrefix) || strings.Contains(t, evidencePrefix) || strings.Contains(t, harnessPrefix) {
			continue
		}
		if slices.ContainsFunc(framing, func(f string) bool { return strings.HasPrefix(t, f) }) {
			continue
		}
		keep = append(keep, strings.TrimPrefix(line, "    "))
	}
	return strings.Join(keep, "\n")
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// skipReason is the first line of a skipped test's own output.
func skipReason(out string) string {
	clean := cleanOutput(out)
	first, _, _ := strings.Cut(clean, "\n")
	return strings.TrimSpace(fileLineRe.ReplaceAllString(first, ""))
}

// rowResults joins the catalog with the results: every catalog row (in
// catalog order), then rows the tests cite that the catalog does not have.
func rowResults(spec []facts.Row, results []Result) []RowResult {
	byRow := map[string][]int{}
	for i, r := range results {
		for _, id := range r.Rows {
			byRow[id] = append(byRow[id], i)
		}
	}
	var rows []RowResult
	seen := map[string]bool{}
	add := func(s facts.Row, known bool) {
		seen[s.ID] = true
		rr := RowResult{Row: s, Known: known, Tests: []string{}, Status: StatusNotCovered}
		for _, i := range byRow[s.ID] {
			res := results[i]
			rr.Tests = append(rr.Tests, res.Package+" "+res.Test)
			rr.Status = worse(rr.Status, StatusFor(res, s.ID))
		}
		rows = append(rows, rr)
	}
	for _, s := range spec {
		add(s, true)
	}
	var unknown []string
	for id := range byRow {
		if !seen[id] {
			unknown = append(unknown, id)
		}
	}
	sort.Strings(unknown)
	for _, id := range unknown {
		add(facts.Row{ID: id, Section: "not in the catalog"}, false)
	}
	return rows
}

// worse combines the statuses of a row's results: any failure fails the
// row; else a pass passes it; else it is skipped.
func worse(a, b Status) Status {
	rank := map[Status]int{StatusNotCovered: 0, StatusSkip: 1, StatusPass: 2, StatusFail: 3}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

func totals(r *Report) Totals {
	t := Totals{Results: len(r.Results), Packages: len(r.Packages)}
	for _, res := range r.Results {
		switch res.Status {
		case StatusPass:
			t.Pass++
		case StatusFail:
			t.Fail++
		case StatusSkip:
			t.Skip++
		}
	}
	for _, p := range r.Packages {
		if p.Status == StatusFail {
			t.PkgFailed++
		}
		if p.Harness != "" {
			t.Harness++
		}
	}
	for _, row := range r.Rows {
		if !row.Known {
			continue
		}
		t.Rows++
		if row.Status != StatusNotCovered {
			t.Covered++
		}
		if row.Status == StatusFail {
			t.RowsFail++
		}
	}
	return t
}

// fileLineRe is the file:line prefix of t.Log output.
var fileLineRe = regexp.MustCompile(`^\s*[\w.-]+\.go:\d+: `)

var rowWordRe = regexp.MustCompile(`\b[A-Z][0-9]*\b`)

// EvidenceFor is the evidence of res that concerns row: what names the row
// in its summary or its assessment's name, or, when nothing does, all of it.
func EvidenceFor(res Result, row string) []Evidence {
	var out []Evidence
	for _, e := range res.Evidence {
		if slices.Contains(rowWordRe.FindAllString(e.Summary+" "+displayName(e.Test), -1), row) {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return res.Evidence
	}
	return out
}

// StatusFor is the result of res for one of its rows: the assessments
// whose names cite the row decide (a feature checking B1, B2 and B3 with
// one assessment each fails B2 only), else the whole feature.
func StatusFor(res Result, row string) Status {
	st := StatusNotCovered
	for _, a := range res.Assessments {
		if slices.Contains(rowWordRe.FindAllString(a.Name, -1), row) {
			st = worse(st, a.Status)
		}
	}
	if st == StatusNotCovered {
		return res.Status
	}
	return st
}

// FormatDuration shows seconds the way the reports do: 0.04s, 12.3s, 2m05s.
func FormatDuration(sec float64) string {
	switch {
	case sec < 1:
		return strconv.FormatFloat(sec, 'f', 2, 64) + "s"
	case sec < 60:
		return strconv.FormatFloat(sec, 'f', 1, 64) + "s"
	}
	d := time.Duration(sec * float64(time.Second)).Round(time.Second)
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}
