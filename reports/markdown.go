package reports

import (
	"fmt"
	"io"
	"strings"
)

var statusIcon = map[Status]string{
	StatusPass: "✅ pass", StatusFail: "❌ fail", StatusSkip: "⏭️ skip", StatusNotCovered: "⬜ not covered",
}

// byKey indexes results by Package + " " + Test, the form RowResult.Tests uses.
func (r *Report) byKey() map[string]Result {
	m := make(map[string]Result, len(r.Results))
	for _, res := range r.Results {
		m[res.Package+" "+res.Test] = res
	}
	return m
}

// Headline says in one line how the run went.
func (r *Report) Headline() string {
	h := r.outcome()
	if r.Incomplete != "" {
		h = "INCOMPLETE (" + r.Incomplete + "): " + h
	}
	return h
}

func (r *Report) outcome() string {
	t := r.Totals
	switch {
	case r.HarnessOnly():
		return fmt.Sprintf("harness problem: %d suite(s) could not bring their cluster up; %d passed, %d skipped", t.Harness, t.Pass, t.Skip)
	case t.Fail > 0 || t.PkgFailed > 0:
		return fmt.Sprintf("%d of %d failed", t.Fail, t.Results) + pkgFailures(r)
	case t.Results == 0:
		return "no tests ran"
	}
	return fmt.Sprintf("%d passed, %d skipped", t.Pass, t.Skip)
}

func pkgFailures(r *Report) string {
	n := 0
	for _, p := range r.Packages {
		if p.Failure != "" && p.Harness == "" {
			n++
		}
	}
	var s string
	if n > 0 {
		s = fmt.Sprintf(", %d suite(s) failed before their tests", n)
	}
	if r.Totals.Harness > 0 {
		s += fmt.Sprintf(", %d suite(s) could not bring their cluster up (harness problem)", r.Totals.Harness)
	}
	return s
}

// WriteMarkdown writes summary.md, fit for $GITHUB_STEP_SUMMARY: totals and
// time, failures first (with their messages), the results, then the row
// coverage table (row → tests → result), not-covered rows included.
func WriteMarkdown(w io.Writer, r *Report) error {
	var b strings.Builder
	icon := "✅"
	if r.Failed() {
		icon = "❌"
	}
	t := r.Totals
	fmt.Fprintf(&b, "# %s %s: %s\n\n", icon, r.Heading(), r.Headline())
	fmt.Fprintf(&b, "| results | pass | fail | skip | suites | rows covered | time |\n|---|---|---|---|---|---|---|\n")
	fmt.Fprintf(&b, "| %d | %d | %d | %d | %d (%d failed) | %d of %d (%d failing) | %s |\n\n",
		t.Results, t.Pass, t.Fail, t.Skip, t.Packages, t.PkgFailed, t.Covered, t.Rows, t.RowsFail, FormatDuration(r.Duration))
	if !r.Started.IsZero() {
		fmt.Fprintf(&b, "Started %s, finished %s.\n\n", r.Started.UTC().Format("2006-01-02 15:04:05 MST"), r.Finished.UTC().Format("15:04:05 MST"))
	}

	if r.Failed() {
		b.WriteString("## Failures\n\n")
		for _, p := range r.Packages {
			switch {
			case p.Harness != "":
				fmt.Fprintf(&b, "### ⚠️ suite %s: harness problem, its cluster did not come up (no test ran)\n\n`%s` · %s\n\n%s\n", p.Area, p.Package, mdEscape(p.Harness), fence(p.Failure))
			case p.Failure != "":
				fmt.Fprintf(&b, "### ❌ suite %s failed before its tests\n\n`%s`\n\n%s\n", p.Area, p.Package, fence(p.Failure))
			}
		}
		for _, res := range r.Results {
			if res.Status != StatusFail {
				continue
			}
			fmt.Fprintf(&b, "### ❌ %s: %s\n\n", res.Area, mdEscape(res.Feature))
			fmt.Fprintf(&b, "`%s` · `%s` · rows %s · %s\n\n%s\n", res.Package, res.Test, rowList(res.Rows), FormatDuration(res.Duration), fence(res.Failure))
		}
	}

	b.WriteString("## Results\n\n| area | feature | rows | result | time |\n|---|---|---|---|---|\n")
	for _, res := range r.Results {
		result := statusIcon[res.Status]
		if res.Deselected {
			result += ": not selected (--labels, --rows)"
		} else if res.Status == StatusSkip && res.SkipReason != "" {
			result += ": " + mdEscape(res.SkipReason)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", res.Area, mdEscape(res.Feature), rowList(res.Rows), result, FormatDuration(res.Duration))
	}

	b.WriteString("\n## Row coverage\n\n| row | behaviour | tests | result |\n|---|---|---|---|\n")
	byKey := r.byKey()
	for _, row := range r.Rows {
		var tests []string
		for _, k := range row.Tests {
			tests = append(tests, mdEscape(byKey[k].Area+": "+byKey[k].Feature))
		}
		if len(tests) == 0 {
			tests = []string{"—"}
		}
		behaviour := mdEscape(row.Behaviour)
		if !row.Known {
			behaviour = "*not in the catalog*"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", row.ID, behaviour, strings.Join(tests, "<br>"), statusIcon[row.Status])
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func rowList(rows []string) string {
	if len(rows) == 0 {
		return "—"
	}
	return strings.Join(rows, ", ")
}

// mdEscape makes text safe in a table cell.
func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// fence puts text in a code block that its own backticks cannot close.
func fence(s string) string {
	f := "```"
	for strings.Contains(s, f) {
		f += "`"
	}
	return f + "text\n" + strings.TrimRight(s, "\n") + "\n" + f + "\n"
}
