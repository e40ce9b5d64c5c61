package reports

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// recorded is the report of testdata/events.jsonl (see testdata/record.sh).
func recorded(t *testing.T) *Report {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := NewCollector()
	if err := DecodeEvents(f, "", func(e Event) { c.Add(e) }); err != nil {
		t.Fatal(err)
	}
	return c.Report()
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./reports -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test ./reports -update rewrites it); got:\n%s", name, got)
	}
}

// goldenWriters runs each writer on r and compares its output with
// testdata/<prefix><name>.
func goldenWriters[R any](t *testing.T, prefix string, r R, writers map[string]func(io.Writer, R) error) {
	t.Helper()
	for name, write := range writers {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := write(&b, r); err != nil {
				t.Fatal(err)
			}
			golden(t, prefix+name, b.Bytes())
		})
	}
}

func TestWriters(t *testing.T) {
	goldenWriters(t, "golden.", recorded(t), map[string]func(io.Writer, *Report) error{
		"junit.xml": WriteJUnit, "results.json": WriteJSON, "summary.md": WriteMarkdown, "report.html": WriteHTML,
	})
}

func TestReport(t *testing.T) {
	r := recorded(t)
	if !r.Failed() {
		t.Error("the recorded run failed, the report says not")
	}
	want := Totals{Results: 6, Pass: 3, Fail: 2, Skip: 1, Packages: 2, PkgFailed: 2}
	got := r.Totals
	got.Rows, got.Covered, got.RowsFail = 0, 0, 0
	if got != want {
		t.Errorf("totals %+v, want %+v", got, want)
	}
	res := map[string]Result{}
	for _, x := range r.Results {
		res[x.Test] = x
	}
	// Labels and evidence, including a line test2json split in pieces.
	ni := res["TestNodeIdentity/nodes_look_like_their_kubelets"]
	if ni.Feature != "nodes look like their kubelets" || !slices.Equal(ni.Rows, []string{"N1", "N2", "N3"}) || ni.Area != "nodes" || ni.Needs != "simnode" {
		t.Errorf("labels: %+v", ni)
	}
	if len(ni.Evidence) != 2 || !strings.Contains(ni.Evidence[0].Detail, "pool.example.com/label-39") {
		t.Errorf("evidence: %+v", ni.Evidence)
	}
	// A feature skipped by --labels keeps its rows (from e2e-framework's message).
	al := res["TestAllocatable/allocatable_and_conditions_follow_the_kubelet_version"]
	if al.Status != StatusSkip || !slices.Equal(al.Rows, []string{"N5", "N6", "N7"}) || al.Feature != "allocatable and conditions follow the kubelet version" {
		t.Errorf("skipped feature: %+v", al)
	}
	adm := res["TestKubeletAdmission/the_Windows_kubelet_refuses_pods_it_cannot_run"]
	if adm.Status != StatusFail || !strings.Contains(adm.Failure, `[B2] status reason ""`) || strings.Contains(adm.Failure, "wink:evidence") {
		t.Errorf("failure: %q", adm.Failure)
	}
	if ev := EvidenceFor(adm, "B1"); len(ev) != 1 || ev[0].Kind != "event" {
		t.Errorf("evidence for B1: %+v", ev)
	}
	if plain := res["TestPlain"]; plain.Status != StatusPass || len(plain.Rows) != 0 || plain.Area != "fakesuite" {
		t.Errorf("plain test: %+v", plain)
	}
	var setup PackageResult
	for _, p := range r.Packages {
		if p.Area == "fakesetup" {
			setup = p
		}
	}
	if setup.Status != StatusFail || !strings.Contains(setup.Failure, "apiserver not ready") {
		t.Errorf("package failure: %+v", setup)
	}
	rows := map[string]RowResult{}
	for _, row := range r.Rows {
		rows[row.ID] = row
	}
	for id, want := range map[string]Status{"N1": StatusPass, "B1": StatusPass, "B2": StatusFail, "S3": StatusSkip, "N5": StatusSkip, "H4": StatusNotCovered, "A17": StatusPass} {
		if rows[id].Status != want {
			t.Errorf("row %s: %s, want %s", id, rows[id].Status, want)
		}
	}
}

// TestConverterMatchesGoTool converts a suite binary's -test.v=test2json
// output and compares with what `go tool test2json -t` made of it.
func TestConverterMatchesGoTool(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "fakesuite.test2json"))
	if err != nil {
		t.Fatal(err)
	}
	wantData, err := os.ReadFile(filepath.Join("testdata", "fakesuite.test2json.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := ReadEvents(bytes.NewReader(wantData))
	if err != nil {
		t.Fatal(err)
	}
	const pkg = "wink.dev/wink/reports/testdata/fakesuite"
	var got []Event
	c := NewConverter(pkg, nil, func(e Event) { got = append(got, e) })
	// Write in odd-sized chunks, as a pipe would deliver them.
	for len(raw) > 0 {
		n := min(len(raw), 777)
		c.Write(raw[:n])
		raw = raw[n:]
	}
	c.Exited(errors.New("exit status 1"))
	c.Close()
	norm := func(events []Event) []Event {
		out := slices.Clone(events)
		for i := range out {
			out[i].Time = time.Time{}
			if out[i].Test == "" {
				out[i].Elapsed = 0 // the package's wall time
			}
		}
		return out
	}
	if g, w := dump(norm(got)), dump(norm(want)); g != w {
		t.Errorf("events differ\n got:\n%s\nwant:\n%s", g, w)
	}
	// And the report is the same as from `go test -json`.
	col := NewCollector()
	for _, e := range got {
		col.Add(e)
	}
	if r := col.Report(); r.Totals.Results != 6 || r.Totals.Fail != 2 {
		t.Errorf("report from converted events: %+v", r.Totals)
	}
}

// A suite whose cluster did not come up before its tests (a harness line in
// its output, then exit 1 without a test) is a harness problem, named with
// its cause in every report, not a failed test; a report written before
// the run ends says it is incomplete.
func TestHarnessProblem(t *testing.T) {
	col := NewCollector()
	pkg := "wink.dev/wink/suites/nodes"
	now := time.Now()
	for _, e := range []Event{
		{Time: now, Action: ActionStart, Package: pkg},
		{Time: now, Action: ActionOutput, Package: pkg, Output: "E1128 11:02:03 Setup failure: cluster \"wink-nodes\" is not up\n"},
		{Time: now, Action: ActionOutput, Package: pkg, Output: harnessPrefix + "cluster \"wink-nodes\" is not up: 0 of 4 nodes Ready in time\n"},
		{Time: now, Action: ActionFail, Package: pkg, Elapsed: 130},
	} {
		col.Add(e)
	}
	r := col.Report()
	r.Incomplete = "interrupted: 1 of 2 suites finished"
	if !r.HarnessOnly() || r.Totals.Harness != 1 || r.Packages[0].Harness != `cluster "wink-nodes" is not up: 0 of 4 nodes Ready in time` {
		t.Fatalf("totals %+v, package %+v: want one harness problem with its cause", r.Totals, r.Packages[0])
	}
	if h := r.Headline(); !strings.HasPrefix(h, "INCOMPLETE (interrupted: 1 of 2 suites finished): harness problem: 1 suite(s) could not bring their cluster up") {
		t.Errorf("headline %q", h)
	}
	var junit, md strings.Builder
	if err := WriteJUnit(&junit, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(junit.String(), `type="harness"`) || !strings.Contains(junit.String(), "harness problem: cluster") {
		t.Errorf("junit.xml does not mark the harness problem:\n%s", junit.String())
	}
	if !strings.Contains(md.String(), "suite nodes: harness problem, its cluster did not come up") {
		t.Errorf("summary.md does not name the harness problem:\n%s", md.String())
	}
}
