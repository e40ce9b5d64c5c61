package conformance

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"wink.dev/wink/harness"
	"wink.dev/wink/reports"
)

// TestCatalog checks jobs.yaml: the jobs, valid patterns, and specs the
// issue names: SIG Windows' 1.35 serial job skips [Beta], the async
// preemption spec and the HPA specs, runs the GracefulNodeShutdown spec;
// wink leaves GMSA Full out, with its reason.
func TestCatalog(t *testing.T) {
	c := Default()
	for _, tc := range []struct {
		job, spec  string
		runs, wink bool
	}{
		{"sig-windows", "[sig-windows] [Feature:Windows] Cpu Resources [Serial] Container limits should not be exceeded after waiting 2 minutes", true, true},
		{"sig-windows", "[sig-windows] [Feature:Windows] GMSA Full [Serial] [Slow] GMSA support works end to end", true, false},
		{"sig-windows", "[sig-node] Pods should be submitted and removed [NodeConformance] [Conformance]", false, false},
		{"windows-parallel", "[sig-node] Pods should be submitted and removed [NodeConformance] [Conformance]", true, true},
		{"windows-parallel", "[sig-node] Something [LinuxOnly] [NodeConformance]", false, false},
		{"windows-parallel", "[sig-windows] [Feature:Windows] Memory Limits [Serial] [Slow] Allocatable node memory should be equal", false, false},
		{"windows-serial", "[sig-windows] [Feature:Windows] Memory Limits [Serial] [Slow] Allocatable node memory should be equal", true, true},
		{"windows-serial", "[sig-windows] [Feature:Windows] GracefulNodeShutdown [Serial] [Disruptive] [Slow] should be able to gracefully shutdown pods with various grace periods", true, true},
		{"windows-serial", "[sig-windows] [Feature:Windows] GMSA Full [Serial] [Slow] GMSA support works end to end", true, false},
		{"windows-serial", "[sig-scheduling] SchedulerPreemption [Serial] validates various priority Pods preempt expectedly with the async preemption [Beta] [FeatureGate:SchedulerAsyncPreemption]", false, false},
		{"windows-serial", "[sig-autoscaling] [Feature:HPA] Horizontal pod autoscaling (scale resource: CPU) [Serial] [Slow] Deployment (Pod Resource) Should scale from 1 pod to 3 pods and then from 3 pods to 5 pods using Average Utilization for aggregation", false, false},
	} {
		j, err := c.Job(tc.job)
		if err != nil {
			t.Fatal(err)
		}
		x := "Kubernetes e2e suite " + tc.spec
		_, left := j.WinkSkips(x)
		if runs := j.Selects(x); runs != tc.runs || (runs && !left) != tc.wink {
			t.Errorf("%s selects %q: %v, wink runs it: %v; want %v, %v", tc.job, tc.spec, runs, runs && !left, tc.runs, tc.wink)
		}
	}
	if _, err := c.Job("nope"); err == nil || !strings.Contains(err.Error(), "sig-windows, windows-parallel, windows-serial") {
		t.Errorf("unknown job: %v", err)
	}
	if got := c.RowsFor("[sig-windows] [Feature:WindowsHostProcessContainers] HostProcess containers should run as localgroup accounts"); strings.Join(got, ",") != "B10,B9" {
		t.Errorf("rows %v, want B10,B9", got)
	}
	for _, bad := range []string{"jobs: [{name: a, focus: '(', nodes: 1}]", "jobs: [{name: a, nodes: 0}]", "jobs: [{name: a, nodes: 1}, {name: a, nodes: 1}]", "jobs: [{name: a, nodes: 1, wink_skip: [{match: x}]}]", "rows: [{match: x}]", "jobz: []"} {
		if _, err := LoadCatalog([]byte(bad)); err == nil {
			t.Errorf("LoadCatalog(%q) accepted", bad)
		}
	}
}

// TestBuildOnlyWhatIsMissing: a given or cached binary is never rebuilt
// (with no go on PATH, any build would fail with ErrNoGo).
func TestBuildOnlyWhatIsMissing(t *testing.T) {
	dir := t.TempDir()
	cached := filepath.Join(dir, "v1.35.4", "e2e.test")
	if err := os.MkdirAll(filepath.Dir(cached), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cached, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", "")
	for _, tt := range []struct {
		name    string
		opts    BuildOptions
		want    Binaries
		wantErr error
	}{
		{"both given", BuildOptions{Ginkgo: true, Have: Binaries{E2E: "/x/e2e.test", Ginkgo: "/x/ginkgo"}}, Binaries{E2E: "/x/e2e.test", Ginkgo: "/x/ginkgo"}, nil},
		{"e2e cached, ginkgo given", BuildOptions{Ginkgo: true, Have: Binaries{Ginkgo: "/x/ginkgo"}}, Binaries{E2E: cached, Ginkgo: "/x/ginkgo"}, nil},
		{"e2e cached, serial job", BuildOptions{}, Binaries{E2E: cached}, nil},
		{"e2e given, ginkgo missing", BuildOptions{Ginkgo: true, Have: Binaries{E2E: "/x/e2e.test"}}, Binaries{}, ErrNoGo},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Version, tt.opts.Dir = "v1.35.4", dir
			got, err := BuildE2E(context.Background(), tt.opts)
			if !errors.Is(err, tt.wantErr) || got != tt.want {
				t.Errorf("BuildE2E = %+v, %v; want %+v, %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// TestBuildAnnounced (issue 21): a build says what it builds, where, and
// how long it has taken against the expected time, until it is built; a
// cached binary is reused without a word. The go on PATH is a stand-in
// that writes the binaries.
func TestBuildAnnounced(t *testing.T) {
	bin, dir := t.TempDir(), t.TempDir()
	gomod := filepath.Join(bin, "kubernetes.mod")
	if err := os.WriteFile(gomod, []byte("module k8s.io/kubernetes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fake := `#!/bin/sh
case "$1 $2" in
"mod download") echo '{"GoMod": "` + gomod + `"}' ;;
"test -c") sleep 0.3; : > "$4" ;;
esac
`
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":/usr/bin:/bin")
	var progress strings.Builder
	opts := BuildOptions{Version: "v1.35.4", Dir: dir, Progress: &progress, ProgressEvery: 50 * time.Millisecond}
	if Built(opts) {
		t.Fatal("Built before the build")
	}
	got, err := BuildE2E(context.Background(), opts)
	if err != nil || got.E2E != filepath.Join(dir, "v1.35.4", "e2e.test") {
		t.Fatalf("BuildE2E = %+v, %v", got, err)
	}
	out := progress.String()
	for _, want := range []string{
		"Building upstream e2e.test of Kubernetes v1.35.4 from the Go module cache into " + filepath.Join(dir, "v1.35.4") + ": once, about 15m0s on 2 cores",
		"  e2e.test: building, ",
		" of about 15m0s\n",
		"  e2e.test: built in ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("progress lacks %q:\n%s", want, out)
		}
	}
	if !Built(opts) {
		t.Fatal("not Built after the build")
	}
	progress.Reset()
	if _, err := BuildE2E(context.Background(), opts); err != nil || progress.Len() != 0 {
		t.Errorf("a cached build: %v, progress %q", err, progress.String())
	}
}

func TestBuildModule(t *testing.T) {
	staging := parseStaging([]byte("module k8s.io/kubernetes\n\nreplace (\n\tk8s.io/api => ./staging/src/k8s.io/api\n\tk8s.io/kubelet => ./staging/src/k8s.io/kubelet\n\tgithub.com/x/y => github.com/x/y v1.0.0\n)\n"))
	if strings.Join(staging, ",") != "k8s.io/api,k8s.io/kubelet" {
		t.Fatalf("staging %v", staging)
	}
	mod := buildModule("v1.35.4", staging)
	for _, want := range []string{"require k8s.io/kubernetes v1.35.4\n", "\tk8s.io/api => k8s.io/api v0.35.4\n", "\tk8s.io/kubelet => k8s.io/kubelet v0.35.4\n"} {
		if !strings.Contains(mod, want) {
			t.Errorf("go.mod lacks %q:\n%s", want, mod)
		}
	}
}

// TestReport reads a ginkgo report as e2e.test writes it and checks wink's
// report and the rerun of its failures.
func TestReport(t *testing.T) {
	specs, err := readGinkgoReport("testdata/report.json")
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, s := range specs {
		texts = append(texts, s.State+" "+s.Text)
	}
	want := []string{
		"failed [sig-windows] [Feature:WindowsHostProcessContainers] [MinimumKubeletVersion:1.22] HostProcess containers should run as localgroup accounts",
		"passed [sig-windows] [Feature:Windows] Cpu Resources [Serial] Container limits should not be exceeded after waiting 2 minutes",
		"skipped [sig-windows] [Feature:Windows] Eviction [Serial] [Slow] [Disruptive] should evict a pod when a node experiences memory pressure",
		"passed [sig-windows] a/b with a slash",
	}
	if strings.Join(texts, "\n") != strings.Join(want, "\n") {
		t.Fatalf("specs:\n%s\nwant:\n%s", strings.Join(texts, "\n"), strings.Join(want, "\n"))
	}
	start := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	r := Default().Report("sig-windows", specs, start, start.Add(5*time.Minute))
	if r.Totals.Pass != 2 || r.Totals.Fail != 1 || r.Totals.Skip != 1 || !r.Failed() {
		t.Errorf("totals %+v", r.Totals)
	}
	for _, res := range r.Results {
		if strings.Contains(res.Test, "localgroup") && (strings.Join(res.Rows, ",") != "B10,B9" || !strings.Contains(res.Failure, "host_process.go:790")) {
			t.Errorf("localgroup result: rows %v failure %q", res.Rows, res.Failure)
		}
	}
	dir := t.TempDir()
	if err := writeReports(dir, r); err != nil {
		t.Fatal(err)
	}
	failed, err := FailedSpecs(filepath.Join(dir, "results.json"))
	if err != nil || len(failed) != 1 || failed[0] != specs[0].Text {
		t.Fatalf("FailedSpecs = %v, %v", failed, err)
	}
	focus, skip := focusSkip(Options{Job: Job{Focus: "x", Skip: "y"}, Rerun: failed})
	re := regexp.MustCompile(focus)
	if skip != "" || !re.MatchString("Kubernetes e2e suite "+specs[0].Text) || re.MatchString("Kubernetes e2e suite "+specs[1].Text) || re.MatchString("Kubernetes e2e suite x"+specs[0].Text) {
		t.Errorf("rerun focus %q skip %q", focus, skip)
	}
	for _, f := range []string{"junit.xml", "summary.md", "report.html"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	var buf bytes.Buffer
	if err := reports.WriteJUnit(&buf, r); err != nil || !strings.Contains(buf.String(), "localgroup") {
		t.Errorf("junit: %v", err)
	}
}

// TestReportOfParallelSpecs: specs that ran side by side (ginkgo
// processes) are placed at their own start times, so the report's time is
// the job's wall time, not the sum of the specs'; its title names the job.
func TestReportOfParallelSpecs(t *testing.T) {
	start := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	var specs []Spec
	for i := 0; i < 6; i++ {
		specs = append(specs, Spec{Text: fmt.Sprintf("spec %d", i), State: "passed", Started: start.Add(time.Second), Elapsed: 4 * time.Minute})
	}
	r := Default().Report("windows-parallel", specs, start, start.Add(5*time.Minute))
	if r.Duration != 300 || !r.Finished.Equal(start.Add(5*time.Minute)) {
		t.Errorf("duration %vs, finished %v; want 300s, %v", r.Duration, r.Finished, start.Add(5*time.Minute))
	}
	var md bytes.Buffer
	if err := reports.WriteMarkdown(&md, r); err != nil || !strings.HasPrefix(md.String(), "# ✅ wink conformance windows-parallel: 6 passed") {
		t.Errorf("summary.md starts %q (%v)", strings.SplitN(md.String(), "\n", 2)[0], err)
	}
}

func TestProgress(t *testing.T) {
	out := strings.Join([]string{
		"------------------------------",
		"[sig-windows] [Feature:Windows] Cpu Resources [Serial] Container limits should not be exceeded after waiting 2 minutes",
		"/go/cpu_limits.go:47",
		"  STEP: Creating one pod",
		"• [125.123 seconds]",
		"------------------------------",
		"[sig-windows] HostProcess containers should run as localgroup accounts",
		"• [FAILED] [30.001 seconds]",
		"------------------------------",
		"[sig-windows] Eviction should evict",
		"S [SKIPPED] [0.002 seconds]",
		"\x1b[38;5;243m------------------------------\x1b[0m",
		"\x1b[1m[sig-node] Pods should be updated [NodeConformance] [Conformance] [sig-node, NodeConformance, Conformance]\x1b[0m",
		"\x1b[38;5;10m• [4.100 seconds]\x1b[0m",
		// the ginkgo CLI (parallel): skipped specs, then the end line
		// before the text
		"------------------------------",
		"SSSSSSSSSSSSSSSSSSSS",
		"------------------------------",
		"• [FAILED] [5.369 seconds]",
		"[sig-storage] Projected downwardAPI [It] should provide container's cpu limit [NodeConformance] [Conformance] [sig-storage, NodeConformance, Conformance]",
		"/go/projected_downwardapi.go:195",
		"------------------------------",
		"SSSS",
	}, "\n")
	var w bytes.Buffer
	progress(strings.NewReader(out), 5, &w)
	want := "[1/5] passed   125.1s [sig-windows] [Feature:Windows] Cpu Resources [Serial] Container limits should not be exceeded after waiting 2 minutes\n" +
		"[2/5] failed    30.0s [sig-windows] HostProcess containers should run as localgroup accounts\n" +
		"[3/5] skipped    0.0s [sig-windows] Eviction should evict\n" +
		"[4/5] passed     4.1s [sig-node] Pods should be updated [NodeConformance] [Conformance]\n" +
		"[5/5] failed     5.4s [sig-storage] Projected downwardAPI [It] should provide container's cpu limit [NodeConformance] [Conformance]\n"
	if w.String() != want {
		t.Errorf("progress:\n%s\nwant:\n%s", w.String(), want)
	}
}

func TestProfile(t *testing.T) {
	c, err := SIGWindowsProfile()
	if err != nil {
		t.Fatal(err)
	}
	if n := WindowsNodes(c); n != 2 {
		t.Errorf("windows nodes %d, want 2", n)
	}
	for _, p := range c.NodePools {
		switch p.OS {
		case "linux":
			if len(p.Taints) != 1 || p.Taints[0].Key != "node-role.kubernetes.io/control-plane" {
				t.Errorf("linux pool taints %v", p.Taints)
			}
		case "windows":
			if len(p.Taints) != 0 {
				t.Errorf("windows pool %s taints %v, want none", p.Name, p.Taints)
			}
		}
	}
}

var update = flag.Bool("update", false, "rewrite testdata/selection from e2e.test's dry runs")

// e2eForTest is $WINK_E2E_BINARY, or e2e.test of the control plane's
// version built once into $WINK_E2E_CACHE (default: CacheDir, which `wink
// conformance` uses too).
func e2eForTest(ctx context.Context, t *testing.T) string {
	if e2e := os.Getenv("WINK_E2E_BINARY"); e2e != "" {
		return e2e
	}
	dir := os.Getenv("WINK_E2E_CACHE")
	if dir == "" {
		c, err := CacheDir()
		if err != nil {
			t.Skipf("no WINK_E2E_BINARY, no WINK_E2E_CACHE and %v", err)
		}
		dir = c
	}
	var log strings.Builder
	bins, err := BuildE2E(ctx, BuildOptions{Version: harness.KubernetesVersion, Dir: dir, Log: &log})
	if errors.Is(err, ErrNoGo) {
		t.Skipf("no e2e.test: WINK_E2E_BINARY is not set, none is built in %s, and %v", dir, err)
	}
	if err != nil {
		t.Fatalf("building e2e.test %s into %s: %v\n%s", harness.KubernetesVersion, dir, err, log.String())
	}
	return bins.E2E
}

// TestSelectionIsTheDryRun: each job's focus and skip (jobs.yaml) select,
// in Go, exactly the specs `e2e.test --ginkgo.dry-run` selects with them,
// and so do they with the job's wink skips as a second --ginkgo.skip; the
// selection is testdata/selection/<job>.txt (-update rewrites it), so that
// a change of e2e.test or of jobs.yaml shows there. sig-windows is checked
// to be the [sig-windows] specs windows-parallel or windows-serial runs.
func TestSelectionIsTheDryRun(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Minute)
	defer cancel()
	e2e := e2eForTest(ctx, t)
	c := Default()
	var all []DrySpec
	for _, j := range c.Jobs {
		o := Options{Job: j, Binaries: Binaries{E2E: e2e}, NumNodes: 2}
		specs, err := c.DryRun(ctx, o, j.Focus, j.Skip)
		if err != nil {
			t.Fatal(err)
		}
		all = specs
		winked := specs
		if len(j.WinkSkip) > 0 {
			if winked, err = c.DryRun(ctx, o, j.Focus, j.Skip, j.winkSkip()); err != nil {
				t.Fatal(err)
			}
		}
		if len(winked) != len(specs) {
			t.Fatalf("%s: the dry runs listed %d and %d specs", j.Name, len(specs), len(winked))
		}
		// ginkgo shuffles the specs of each run: they are matched by
		// text (a few texts are shared by several specs).
		winkRuns := map[string]int{}
		for _, s := range winked {
			if s.Selected {
				winkRuns[s.Text]++
			}
		}
		var lines []string
		selected, run := 0, 0
		for _, s := range specs {
			if got := j.Selects(s.SuiteAndText); got != s.Selected {
				t.Errorf("%s: jobs.yaml selects %q: %v; the dry run: %v", j.Name, s.Text, got, s.Selected)
			}
			_, left := j.WinkSkips(s.SuiteAndText)
			if s.Selected && !left {
				winkRuns[s.Text]--
			}
			switch {
			case s.Selected && left:
				selected++
				lines = append(lines, "wink_skip "+s.Text)
			case s.Selected:
				selected++
				run++
				lines = append(lines, s.Text)
			}
		}
		for text, n := range winkRuns {
			if n != 0 {
				t.Errorf("%s: with the wink skips the dry run selects %q %d times more than jobs.yaml", j.Name, text, n)
			}
		}
		sort.Strings(lines)
		got := fmt.Sprintf("# %s: e2e.test %s holds %d specs; the job's focus and skip select %d; wink runs %d\n%s\n",
			j.Name, harness.KubernetesVersion, len(specs), selected, run, strings.Join(lines, "\n"))
		golden := filepath.Join("testdata", "selection", j.Name+".txt")
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s selects other specs than %s (go test -run TestSelectionIsTheDryRun -update rewrites it):\n%s", j.Name, golden, firstDiff(string(want), got))
		}
	}

	sig, _ := c.Job("sig-windows")
	par, _ := c.Job("windows-parallel")
	ser, _ := c.Job("windows-serial")
	windows := regexp.MustCompile(`\[sig-windows\]`)
	for _, s := range all {
		x := s.SuiteAndText
		if want := windows.MatchString(x) && (par.Selects(x) || ser.Selects(x)); sig.Selects(x) != want {
			t.Errorf("sig-windows selects %q: %v; windows-parallel or windows-serial: %v", s.Text, sig.Selects(x), want)
		}
	}
}

// firstDiff is the first line where got and want differ, with its number.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n  want %q\n  got  %q", i+1, wl, gl)
		}
	}
	return ""
}
