package reports

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// handmade is testdata/check.json: a check of two charts on eks and gke
// with findings of both severities, an expected placement, and openshift
// not judged (a platform error).
func handmade(t *testing.T) *CheckReport {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "check.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r CheckReport
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("testdata/check.json: %v", err)
	}
	return &r
}

func TestCheckWriters(t *testing.T) {
	goldenWriters(t, "golden.check.", handmade(t), map[string]func(io.Writer, *CheckReport) error{
		"junit.xml": WriteCheckJUnit, "results.json": WriteCheckJSON, "summary.md": WriteCheckMarkdown, "report.html": WriteCheckHTML,
	})
}

func TestWriteCheck(t *testing.T) {
	r := handmade(t)
	dir := filepath.Join(t.TempDir(), "out")
	if err := WriteCheck(dir, r); err != nil {
		t.Fatal(err)
	}
	for _, name := range CheckFiles {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := os.ReadFile(filepath.Join("testdata", "golden.check."+name)); !bytes.Equal(got, want) {
			t.Errorf("%s differs from testdata/golden.check.%s", name, name)
		}
	}
	// results.json reads back as the report it was written from.
	data, _ := os.ReadFile(filepath.Join(dir, "results.json"))
	var back CheckReport
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Headline() != r.Headline() || len(back.Workloads) != len(r.Workloads) {
		t.Errorf("results.json read back: %q, %d workloads; want %q, %d", back.Headline(), len(back.Workloads), r.Headline(), len(r.Workloads))
	}
}

func TestCheckMatrix(t *testing.T) {
	r := handmade(t)
	want := map[string][]string{ // workload → verdicts on eks, gke, openshift
		"DaemonSet monitoring/win-exporter": {VerdictFail, VerdictPass, VerdictError},
		"DaemonSet monitoring/log-shipper":  {VerdictFail, VerdictFail, VerdictError},
		"Deployment default/web":            {VerdictWarn, VerdictPass, VerdictError},
		"Deployment default/api":            {VerdictPass, VerdictPass, VerdictError},
	}
	rows := r.Matrix()
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for _, row := range rows {
		var got []string
		for _, c := range row.Cells {
			got = append(got, c.Verdict)
		}
		if !slices.Equal(got, want[row.Title()]) {
			t.Errorf("%s: %v, want %v", row.Title(), got, want[row.Title()])
		}
	}
	tot := r.Totals()
	if wantT := (CheckTotals{Checks: 8, Pass: 4, Warn: 1, Fail: 3, Errors: 4, Warnings: 1, PlatformErrors: 1}); tot != wantT {
		t.Errorf("totals %+v, want %+v", tot, wantT)
	}
	if !r.Failed() {
		t.Error("a check with error findings did not fail")
	}
	if h, want := r.Headline(), "3 of 8 checks failed (4 findings), 1 warning, 1 platform not judged: openshift"; h != want {
		t.Errorf("headline %q, want %q", h, want)
	}
}

func TestCheckVerdicts(t *testing.T) {
	warn := Finding{Severity: SeverityWarning, Code: "hostprocess-without-hostnetwork"}
	fail := Finding{Severity: SeverityError, Code: "crash-loop"}
	for _, tt := range []struct {
		name     string
		r        CheckReport
		failed   bool
		headline string
		verdicts []string
	}{
		{"clean", CheckReport{Platforms: []string{"aks"}, Workloads: []CheckWorkload{{Kind: "Job", Name: "j", Platform: "aks"}}},
			false, "1 checks passed", []string{VerdictPass}},
		{"warnings only pass", CheckReport{Platforms: []string{"aks"}, Workloads: []CheckWorkload{{Kind: "Job", Name: "j", Platform: "aks", Findings: []Finding{warn}}}},
			false, "1 checks passed, 1 warning", []string{VerdictWarn}},
		{"an error fails", CheckReport{Platforms: []string{"aks", "eks"}, Workloads: []CheckWorkload{{Kind: "Job", Name: "j", Platform: "eks", Findings: []Finding{warn, fail}}}},
			true, "1 of 1 checks failed (1 finding), 1 warning", []string{VerdictAbsent, VerdictFail}},
		{"a platform error fails", CheckReport{Platforms: []string{"gke"}, PlatformErrors: map[string]string{"gke": "chart does not render"}},
			true, "no workload was judged, 1 platform not judged: gke", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.r.Failed() != tt.failed {
				t.Errorf("Failed() = %v, want %v", tt.r.Failed(), tt.failed)
			}
			if h := tt.r.Headline(); h != tt.headline {
				t.Errorf("headline %q, want %q", h, tt.headline)
			}
			var got []string
			for _, row := range tt.r.Matrix() {
				for _, c := range row.Cells {
					got = append(got, c.Verdict)
				}
			}
			if !slices.Equal(got, tt.verdicts) {
				t.Errorf("verdicts %v, want %v", got, tt.verdicts)
			}
		})
	}
}

// TestCheckJUnit reads junit.xml back: one suite per platform, one case per
// workload named after it, the error findings as the failure.
func TestCheckJUnit(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCheckJUnit(&b, handmade(t)); err != nil {
		t.Fatal(err)
	}
	var got junitSuites
	if err := xml.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	var suites []string
	cases := map[string]junitCase{}
	for _, s := range got.Suites {
		suites = append(suites, s.Name)
		for _, c := range s.Cases {
			cases[c.Name] = c
		}
	}
	if !slices.Equal(suites, []string{"eks", "gke", "openshift"}) || got.Tests != 9 || got.Failures != 3 || got.Errors != 1 {
		t.Errorf("suites %v, %d tests, %d failures, %d errors; want eks, gke, openshift, 9, 3, 1", suites, got.Tests, got.Failures, got.Errors)
	}
	ex := cases["DaemonSet monitoring/win-exporter on eks"]
	if ex.Failure == nil || ex.Failure.Type != "daemonset-no-windows-pods" || !strings.HasSuffix(ex.Failure.Message, "(and 1 more)") ||
		!strings.Contains(ex.Failure.Text, "fix: add a toleration for the taint key \"os\"") || ex.Classname != "./charts/agent" {
		t.Errorf("failing case: %+v %+v", ex, ex.Failure)
	}
	if web := cases["Deployment default/web on eks"]; web.Failure != nil || web.SystemOut == nil || !strings.Contains(web.SystemOut.Text, "warning linux-only-security-context") {
		t.Errorf("a warning is system-out, not a failure: %+v", web)
	}
	if os := cases["platform openshift"]; os.Error == nil || !strings.Contains(os.Error.Text, `unknown build "2016"`) {
		t.Errorf("platform error case: %+v", os)
	}
}

// TestCheckChartColumn: the matrix names each row's chart only when the
// report has more than one.
func TestCheckChartColumn(t *testing.T) {
	one := CheckReport{Charts: []string{"./a"}, Platforms: []string{"eks"}, Workloads: []CheckWorkload{
		{Chart: "./a", Kind: "Job", Name: "j", Platform: "eks"}, {Chart: "./a", Kind: "Job", Name: "k", Platform: "eks"}}}
	two := CheckReport{Charts: []string{"./a", "./b"}, Platforms: []string{"eks"}, Workloads: []CheckWorkload{
		{Chart: "./a", Kind: "Job", Name: "j", Platform: "eks"}, {Chart: "./b", Kind: "Job", Name: "k", Platform: "eks"}}}
	for _, tt := range []struct {
		name   string
		r      CheckReport
		header string
		html   bool // the page names the chart in the row
	}{
		{"one chart", one, "| workload | eks |", false},
		{"two charts", two, "| workload | chart | eks |", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var md, page bytes.Buffer
			if err := WriteCheckMarkdown(&md, &tt.r); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(md.String(), tt.header+"\n") {
				t.Errorf("summary.md has no header %q:\n%s", tt.header, md.String())
			}
			if err := WriteCheckHTML(&page, &tt.r); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(page.String(), `<div class="muted"><code>./a</code></div>`); got != tt.html {
				t.Errorf("report.html names the chart in the row: %v, want %v", got, tt.html)
			}
		})
	}
}
