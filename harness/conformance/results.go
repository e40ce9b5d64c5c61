package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"wink.dev/wink/reports"
	"wink.dev/wink/simnode/facts"
)

// ginkgoReport is what wink reads of ginkgo's JSON report
// (github.com/onsi/ginkgo/v2/types.Report, as e2e.test writes it with
// --report-complete-ginkgo to <report-dir>/ginkgo/report.json).
type ginkgoReport struct {
	SuiteDescription string
	SuiteSucceeded   bool
	StartTime        time.Time
	EndTime          time.Time
	SpecReports      []ginkgoSpec
}

type ginkgoSpec struct {
	ContainerHierarchyTexts []string
	LeafNodeType            string
	LeafNodeText            string
	State                   string
	StartTime               time.Time
	RunTime                 time.Duration
	NumAttempts             int
	Failure                 struct {
		Message  string
		Location struct {
			FileName   string
			LineNumber int
		}
		ForwardedPanic string
	}
}

// FullText is the spec's text as ginkgo's focus and skip match it.
func (s ginkgoSpec) FullText() string {
	var parts []string
	for _, t := range append(append([]string{}, s.ContainerHierarchyTexts...), s.LeafNodeText) {
		if t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " ")
}

// Spec is one spec's outcome.
type Spec struct {
	Text    string
	State   string    // passed, failed, skipped, pending, panicked, interrupted, aborted, timedout
	Started time.Time // zero when the report does not say
	Elapsed time.Duration
	// Message is the failure (or skip) message and where it happened.
	Message string
	// Setup is a suite node (BeforeSuite...), not a spec.
	Setup bool
}

// Failed reports whether the state is a failure.
func (s Spec) Failed() bool {
	switch s.State {
	case "failed", "panicked", "interrupted", "aborted", "timedout":
		return true
	}
	return false
}

// readGinkgoReport reads the specs that ran (or skipped themselves at run
// time); specs the focus and skip filtered out are left out.
func readGinkgoReport(path string) ([]Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rs []ginkgoReport
	if err := json.Unmarshal(data, &rs); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []Spec
	for _, r := range rs {
		for _, s := range r.SpecReports {
			setup := s.LeafNodeType != "It"
			if s.State == "skipped" && (s.Failure.Message == "" || setup) {
				continue // filtered out, or a setup node of a skipped run
			}
			if setup && s.State == "passed" {
				continue
			}
			msg := s.Failure.Message
			if s.Failure.ForwardedPanic != "" {
				msg += "\n" + s.Failure.ForwardedPanic
			}
			if s.Failure.Location.FileName != "" {
				msg += fmt.Sprintf("\nIn %s at %s:%d", s.LeafNodeType, s.Failure.Location.FileName, s.Failure.Location.LineNumber)
			}
			text := s.FullText()
			if setup {
				text = "[" + s.LeafNodeType + "] " + text
			}
			out = append(out, Spec{Text: strings.TrimSpace(text), State: s.State, Started: s.StartTime, Elapsed: s.RunTime, Message: strings.TrimSpace(msg), Setup: setup})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Text < out[j].Text })
	return out, nil
}

// testName makes a spec's text a test name for wink's reports, which read
// "/" as the subtest separator.
func testName(text string) string { return strings.ReplaceAll(text, "/", "∕") }

// Report turns the specs of a job into wink's report: one package
// (e2e.test/<job>), one result per spec, each traced to the catalog rows
// of c.RowsFor.
func (c *Catalog) Report(job string, specs []Spec, started, finished time.Time) *reports.Report {
	pkg := "e2e.test/" + job
	col := reports.NewCollector()
	t := started
	add := func(e reports.Event) {
		e.Package = pkg
		if e.Time.IsZero() {
			e.Time = t
		}
		col.Add(e)
	}
	add(reports.Event{Action: reports.ActionStart})
	failed := false
	for _, s := range specs {
		// Parallel processes run specs side by side: each is placed at
		// its own start, not after the one before it.
		t = started
		if !s.Started.IsZero() {
			t = s.Started
		}
		name := testName(s.Text)
		labels, _ := json.Marshal(reports.Labels{Feature: s.Text, Rows: c.RowsFor(s.Text), Area: "conformance", Needs: "any"})
		add(reports.Event{Action: reports.ActionRun, Test: name})
		add(reports.Event{Action: reports.ActionOutput, Test: name, Output: facts.LabelsPrefix + string(labels) + "\n"})
		if s.Message != "" {
			add(reports.Event{Action: reports.ActionOutput, Test: name, Output: s.Message + "\n"})
		}
		action := reports.ActionPass
		switch {
		case s.Failed():
			action, failed = reports.ActionFail, true
		case s.State == "skipped" || s.State == "pending":
			action = reports.ActionSkip
		}
		if end := t.Add(s.Elapsed); end.Before(finished) {
			t = end
		} else {
			t = finished
		}
		add(reports.Event{Action: action, Test: name, Elapsed: s.Elapsed.Seconds()})
	}
	final := reports.ActionPass
	if failed {
		final = reports.ActionFail
	}
	add(reports.Event{Action: final, Time: finished, Elapsed: finished.Sub(started).Seconds()})
	r := col.Report()
	r.Title = "wink conformance " + job
	return r
}

// FailedSpecs are the texts of the failed specs of a results.json (wink's
// JSON report), for --rerun-failed.
func FailedSpecs(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := reports.ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []string
	for _, res := range r.Results {
		if res.Status == reports.StatusFail && strings.HasPrefix(res.Package, "e2e.test/") {
			out = append(out, strings.ReplaceAll(res.Test, "∕", "/"))
		}
	}
	if len(out) == 0 && len(r.Results) == 0 {
		return nil, fmt.Errorf("%s: no results (is it a results.json of wink conformance?)", path)
	}
	return out, nil
}
