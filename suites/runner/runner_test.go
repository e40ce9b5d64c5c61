package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"wink.dev/wink/reports"
)

func TestE2EArgs(t *testing.T) {
	tests := []struct {
		name       string
		flags      Options
		kubeconfig string
		want       []string
		usage      bool
	}{
		{name: "nothing", want: nil},
		{name: "kubeconfig", kubeconfig: "/k/config", want: []string{"--kubeconfig=/k/config"}},
		{name: "labels", flags: Options{Labels: []string{"needs=any", "area=nodes"}}, want: []string{"--labels=needs=any,area=nodes"}},
		// e2e-framework v0.7.0: values of one key are ORed, keys ANDed.
		{name: "rows", flags: Options{Rows: []string{"N1", "B4"}}, want: []string{"--labels=row=N1,row=B4"}},
		{name: "rows and labels", flags: Options{Labels: []string{"needs=any"}, Rows: []string{"E"}}, want: []string{"--labels=needs=any,row=E"}},
		{name: "skips", flags: Options{SkipLabels: []string{"needs=simnode"}, SkipRows: []string{"H4"}}, want: []string{"--skip-labels=needs=simnode,row=H4"}},
		{name: "parallel", flags: Options{Parallel: true}, kubeconfig: "/k", want: []string{"--kubeconfig=/k", "--parallel"}},
		{name: "label without value", flags: Options{Labels: []string{"needs"}}, usage: true},
		{name: "label with two =", flags: Options{Labels: []string{"a=b=c"}}, usage: true},
		{name: "unknown row", flags: Options{Rows: []string{"N99"}}, usage: true},
		{name: "lower-case row", flags: Options{SkipRows: []string{"n1"}}, usage: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.flags.e2eArgs(tt.kubeconfig)
			var usage UsageError
			if tt.usage {
				if !errors.As(err, &usage) {
					t.Fatalf("err %v, want a usage error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("args %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSuiteCommand(t *testing.T) {
	bin := suiteRun{Area: "nodes", Binary: "/b/nodes.test", Dir: "/src/suites/nodes"}
	cmd := bin.command(t.Context(), []string{"--labels=row=N1"}, 30*time.Minute, false)
	if want := []string{"/b/nodes.test", "-test.v=test2json", "-test.count=1", "-test.timeout=30m0s", "--labels=row=N1"}; !slices.Equal(cmd.Args, want) || cmd.Dir != "/src/suites/nodes" {
		t.Errorf("run: %q in %s, want %q", cmd.Args, cmd.Dir, want)
	}
	cmd = bin.command(t.Context(), []string{"--labels=row=N1"}, time.Minute, true)
	if want := []string{"/b/nodes.test", "-test.v=test2json", "-test.count=1", "-test.timeout=1m0s", "--labels=row=N1", "--dry-run"}; !slices.Equal(cmd.Args, want) {
		t.Errorf("dry run: %q, want %q", cmd.Args, want)
	}
}

func TestSelectSuites(t *testing.T) {
	plan := &testPlan{Suites: []suiteRun{{Area: "lifecycle"}, {Area: "nodes"}, {Area: "scheduling"}}}
	if err := selectSuites(plan, []string{"scheduling", "nodes"}); err != nil {
		t.Fatal(err)
	}
	if len(plan.Suites) != 2 || plan.Suites[0].Area != "scheduling" {
		t.Errorf("suites %v", plan.Suites)
	}
	var usage UsageError
	if err := selectSuites(plan, []string{"storage"}); !errors.As(err, &usage) || !strings.Contains(err.Error(), "there are: scheduling, nodes") {
		t.Errorf("err %v", err)
	}
}

func TestRunSuitesKeepsLifecycleAlone(t *testing.T) {
	var order []string
	suites := []suiteRun{{Area: "lifecycle"}, {Area: "nodes"}}
	runSuites(suites, true, true, 8, func(s suiteRun) { order = append(order, s.Area) })
	if !slices.Equal(order, []string{"nodes", "lifecycle"}) {
		t.Errorf("order %v", order)
	}
}

// The suites keep at most the budget's clusters up at once, counting the
// clusters each keeps (check: six), longest first; one that needs more than
// the whole budget runs once nothing else does.
func TestRunSuitesWithinBudget(t *testing.T) {
	var suites []suiteRun
	for _, a := range []string{"nodes", "check", "storage", "existing", "lifecycle", "webhooks"} {
		suites = append(suites, suiteRun{Area: a})
	}
	for _, budget := range []int{1, 4, 8} {
		var mu sync.Mutex
		used, peak := 0, 0
		var started []string
		runSuites(suites, true, false, budget, func(s suiteRun) {
			_, c := costOf(s.Area)
			mu.Lock()
			started = append(started, s.Area)
			used += c
			over := used > budget && used != c
			peak = max(peak, used)
			mu.Unlock()
			if over {
				t.Errorf("budget %d: %s started with %d clusters up", budget, s.Area, used)
			}
			time.Sleep(20 * time.Millisecond)
			mu.Lock()
			used -= c
			mu.Unlock()
		})
		if len(started) != len(suites) {
			t.Errorf("budget %d: started %v, want all", budget, started)
		}
		if want := []string{"existing", "lifecycle", "check", "webhooks", "nodes", "storage"}; budget == 1 && !slices.Equal(started, want) {
			t.Errorf("budget 1: started %v, want %v (longest first)", started, want)
		}
		if budget == 8 && peak < 6 {
			t.Errorf("budget 8: at most %d clusters were up at once: the suites did not share the machine", peak)
		}
	}
}

func TestClusterBudget(t *testing.T) {
	for _, c := range []struct {
		cpus      int
		available uint64
		want      int
	}{
		{2, 0, 8},
		{2, 24 << 30, 8},
		{2, 5 << 30, 5},   // a runner with little memory
		{2, 512 << 20, 1}, // at least one
		{16, 64 << 30, 64},
	} {
		if got := clusterBudget(c.cpus, c.available); got != c.want {
			t.Errorf("clusterBudget(%d CPUs, %d MiB) = %d, want %d", c.cpus, c.available>>20, got, c.want)
		}
	}
}

// TestProgress feeds the printer a fake event stream of a suite binary.
func TestProgress(t *testing.T) {
	const pkg = "wink.dev/wink/suites/scheduling"
	raw := "\x16=== RUN   TestAdmission\n" +
		"\x16=== RUN   TestAdmission/kubelet_refuses\n" +
		"    suite.go:42: wink:labels {\"feature\":\"the kubelet refuses\",\"rows\":[\"B1\",\"B2\"],\"area\":\"scheduling\",\"needs\":\"any\"}\n" +
		"\x16=== RUN   TestAdmission/kubelet_refuses/B1\n" +
		"    admission_test.go:70: wink:evidence {\"kind\":\"event\",\"summary\":\"Warning PodOSNotSupported\",\"detail\":\"...\"}\n" +
		"\x16--- PASS: TestAdmission/kubelet_refuses/B1 (1.20s)\n" +
		"\x16=== NAME  TestAdmission/kubelet_refuses\n" +
		"\x16=== RUN   TestAdmission/kubelet_refuses/B2\n" +
		"    admission_test.go:80: [B2] status reason \"\"\n" +
		"\x16--- FAIL: TestAdmission/kubelet_refuses/B2 (0.50s)\n" +
		"\x16=== NAME  TestAdmission/kubelet_refuses\n" +
		"\x16--- FAIL: TestAdmission/kubelet_refuses (1.70s)\n" +
		"\x16=== NAME  TestAdmission\n" +
		"\x16--- FAIL: TestAdmission (1.70s)\n" +
		"\x16=== RUN   TestDocs\n" +
		"\x16=== RUN   TestDocs/win-webserver\n" +
		"    env.go:232: Skipping feature \"win-webserver\": unmatched labels \"[area=[scheduling] row=[S2]]\"\n" +
		"\x16--- SKIP: TestDocs/win-webserver (0.00s)\n" +
		"\x16=== NAME  TestDocs\n" +
		"\x16--- PASS: TestDocs (0.00s)\n" +
		"\x16=== RUN   TestPlain\n" +
		"    nodes_test.go:9: needs wink's simulated nodes\n" +
		"\x16--- SKIP: TestPlain (0.00s)\n" +
		"\x16FAIL\n"
	var out bytes.Buffer
	p := newProgress(&out, 3)
	col := reports.NewCollector()
	conv := reports.NewConverter(pkg, nil, func(e reports.Event) { p.finished(col.Add(e)) })
	conv.Write([]byte(raw))
	conv.Exited(errors.New("exit status 1"))
	conv.Close()
	want := `    FAIL B2
        admission_test.go:80: [B2] status reason ""
[1/3] scheduling: the kubelet refuses … FAIL (1.7s)
[2/3] scheduling: TestPlain … SKIP (0.00s): needs wink's simulated nodes
`
	if out.String() != want {
		t.Errorf("progress:\n%s\nwant:\n%s", out.String(), want)
	}
	if r := col.Report(); !r.Failed() || r.Totals.Fail != 1 || r.Totals.Skip != 2 {
		t.Errorf("report totals %+v", r.Totals)
	}
}

// vendorWebhook is a webhook configuration file as suites/webhooks/README.md
// asks for: one MutatingWebhookConfiguration, one
// ValidatingWebhookConfiguration.
const vendorWebhook = `# the webhook under test
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: vendor-mutating
webhooks:
- name: mutate.vendor.example.com
  admissionReviewVersions: ["v1"]
  sideEffects: None
  clientConfig:
    url: https://127.0.0.1:9443/mutate
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: vendor-validating
webhooks:
- name: validate.vendor.example.com
  admissionReviewVersions: ["v1"]
  sideEffects: None
  clientConfig:
    url: https://127.0.0.1:9443/validate
`

// TestTargets: --scheduler-name (the scheduling suite's scheduler under
// test, rows S1–S5, A17, N4, N5) and --webhook-config (the webhooks suite's
// webhook under test, rows S1, S2, S4, B11, H7, B4), and the environment
// variables they default to.
func TestTargets(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := write("vendor.yaml", vendorWebhook)
	mutatingOnly := write("mutating.yaml", strings.SplitN(vendorWebhook, "---\n", 2)[0])
	twoMutating := write("two.yaml", strings.SplitN(vendorWebhook, "---\n", 2)[0]+"---\n"+vendorWebhook)
	pod := write("pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n")
	notYAML := write("broken.yaml", "apiVersion: admissionregistration.k8s.io/v1\nkind: [\n")
	missing := filepath.Join(dir, "absent.yaml")
	t.Chdir(dir)

	tests := []struct {
		name          string
		flags         Options
		env           map[string]string
		clusterGiven  bool
		wantScheduler string
		wantWebhook   string
		// wantErr are parts of the usage error; nil: no error.
		wantErr []string
	}{
		{name: "nothing"},
		{name: "embedded second profile", flags: Options{SchedulerName: "wink-scheduler"}, wantScheduler: "wink-scheduler"},
		{name: "embedded default profile", flags: Options{SchedulerName: "default-scheduler"}, wantScheduler: "default-scheduler"},
		{name: "vendor scheduler on a given cluster", flags: Options{SchedulerName: "vendor-scheduler"}, clusterGiven: true, wantScheduler: "vendor-scheduler"},
		{
			name: "vendor scheduler on embedded clusters", flags: Options{SchedulerName: "vendor-scheduler"},
			wantErr: []string{`--scheduler-name "vendor-scheduler"`, "default-scheduler and wink-scheduler", "--kubeconfig or --name"},
		},
		{
			name: "not a DNS subdomain", flags: Options{SchedulerName: "Vendor_Scheduler"}, clusterGiven: true,
			wantErr: []string{"--scheduler-name", `"Vendor_Scheduler" is not a valid spec.schedulerName`},
		},
		{name: "scheduler from the environment", env: map[string]string{"WINK_SCHEDULER_NAME": "wink-scheduler"}, wantScheduler: "wink-scheduler"},
		{
			name: "the flag wins over the environment", flags: Options{SchedulerName: "default-scheduler"},
			env: map[string]string{"WINK_SCHEDULER_NAME": "vendor"}, wantScheduler: "default-scheduler",
		},
		{
			name: "bad scheduler from the environment", env: map[string]string{"WINK_SCHEDULER_NAME": "vendor"},
			wantErr: []string{`$WINK_SCHEDULER_NAME "vendor"`},
		},
		{name: "webhook config", flags: Options{WebhookConfig: good}, wantWebhook: good},
		{name: "relative webhook config made absolute", flags: Options{WebhookConfig: "vendor.yaml"}, wantWebhook: good},
		{name: "webhook config from the environment", env: map[string]string{"WINK_WEBHOOK_CONFIG": "vendor.yaml"}, wantWebhook: good},
		{
			name: "missing webhook config", flags: Options{WebhookConfig: missing},
			wantErr: []string{"--webhook-config: webhook configuration " + missing + ": no such file or directory", "give the path of a YAML file"},
		},
		{
			name: "missing webhook config from the environment", env: map[string]string{"WINK_WEBHOOK_CONFIG": missing},
			wantErr: []string{"$WINK_WEBHOOK_CONFIG: webhook configuration " + missing},
		},
		{
			name: "only a mutating configuration", flags: Options{WebhookConfig: mutatingOnly},
			wantErr: []string{mutatingOnly + ": no ValidatingWebhookConfiguration", "want one MutatingWebhookConfiguration and one ValidatingWebhookConfiguration", "suites/webhooks/README.md"},
		},
		{
			name: "two mutating configurations", flags: Options{WebhookConfig: twoMutating},
			wantErr: []string{twoMutating + ": document 2: a second MutatingWebhookConfiguration"},
		},
		{
			name: "a pod, not a webhook configuration", flags: Options{WebhookConfig: pod},
			wantErr: []string{pod + ": document 1 is a v1 Pod, not a webhook configuration", "want one MutatingWebhookConfiguration"},
		},
		{name: "not YAML", flags: Options{WebhookConfig: notYAML}, wantErr: []string{notYAML + ": document 1:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("WINK_SCHEDULER_NAME", "")
			t.Setenv("WINK_WEBHOOK_CONFIG", "")
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			scheduler, webhook, err := tt.flags.targets(tt.clusterGiven)
			if tt.wantErr != nil {
				var usage UsageError
				if !errors.As(err, &usage) {
					t.Fatalf("err %v, want a usage error", err)
				}
				for _, part := range tt.wantErr {
					if !strings.Contains(err.Error(), part) {
						t.Errorf("err %q\nlacks %q", err, part)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if scheduler != tt.wantScheduler || webhook != tt.wantWebhook {
				t.Errorf("targets %q, %q; want %q, %q", scheduler, webhook, tt.wantScheduler, tt.wantWebhook)
			}
		})
	}
}

// TestTestEnv: the suites get the targets through the environment, the
// webhook configuration as the absolute path targets made of it.
func TestTestEnv(t *testing.T) {
	t.Setenv("WINK_HOME", t.TempDir())
	env, cleanup, err := testEnv(Options{SchedulerName: "wink-scheduler", WebhookConfig: "/abs/vendor.yaml"}, "/k/config")
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	for _, want := range []string{"WINK_SCHEDULER_NAME=wink-scheduler", "WINK_WEBHOOK_CONFIG=/abs/vendor.yaml"} {
		if !slices.Contains(env, want) {
			t.Errorf("suite environment lacks %s", want)
		}
	}
}

// TestTargetLines: a target of a suite that does not run is said so.
func TestTargetLines(t *testing.T) {
	f := Options{SchedulerName: "wink-scheduler", WebhookConfig: "/v.yaml"}
	got := f.targetLines(&testPlan{Suites: []suiteRun{{Area: "scheduling"}}})
	want := []string{
		"Scheduler under test: wink-scheduler (suite scheduling)",
		"  (--webhook-config /v.yaml: only the webhooks suite uses it, and it does not run)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("lines %q, want %q", got, want)
	}
}

// TestFindSuitesStale: inside a checkout, suite binaries older than a file
// they are built from, or lacking a suite, are built again with a note;
// README.md and docs/ are not built from.
func TestFindSuitesStale(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs a Go toolchain: stale binaries run from source")
	}
	base := time.Now().Add(-time.Hour)
	tests := []struct {
		name     string
		touch    string // a file made newer than the binaries, "" for none
		suiteDir bool   // --suite-dir bin/suites
		added    string // a suite added since the binaries were built
		mode     string
		note     string
	}{
		{name: "up to date", mode: "binaries"},
		{name: "a test file changed", touch: "suites/nodes/nodes_test.go", mode: "go test", note: "older than suites/nodes/nodes_test.go"},
		{name: "a shared package changed", touch: "harness/harness.go", mode: "go test", note: "older than harness/harness.go"},
		{name: "go.sum changed", touch: "go.sum", mode: "go test", note: "older than go.sum"},
		{name: "an embedded fixture changed", touch: "fixtures/docs/win-webserver.yaml", mode: "go test", note: "older than fixtures/docs/win-webserver.yaml"},
		{name: "the README changed", touch: "README.md", mode: "binaries"},
		{name: "docs changed", touch: "docs/architecture.md", mode: "binaries"},
		{name: "the binaries themselves", touch: "bin/suites/nodes.test", mode: "binaries"},
		{name: "a suite without a binary", added: "storage", mode: "go test", note: "lack the suites storage: building them"},
		{name: "--suite-dir keeps them, with a warning", touch: "suites/nodes/nodes_test.go", suiteDir: true, mode: "binaries", note: "WARNING: the suite binaries in bin/suites are older than suites/nodes/nodes_test.go"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			files := map[string]string{
				"go.mod":                           "module wink.dev/wink\n",
				"go.sum":                           "",
				"README.md":                        "",
				"docs/architecture.md":             "",
				"harness/harness.go":               "package harness\n",
				"fixtures/embed.go":                "package fixtures\n",
				"fixtures/docs/win-webserver.yaml": "",
				"suites/nodes/nodes_test.go":       "package nodes\n",
				"bin/suites/nodes.test":            "",
				// Test binaries of packages that are no suite.
				"bin/suites/bench.test":   "",
				"bin/suites/profile.test": "",
			}
			if tt.added != "" {
				files["suites/"+tt.added+"/"+tt.added+"_test.go"] = "package " + tt.added + "\n"
			}
			for name, data := range files {
				path := filepath.Join(root, name)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(path, base, base); err != nil {
					t.Fatal(err)
				}
			}
			if tt.touch != "" {
				later := base.Add(time.Minute)
				if err := os.Chtimes(filepath.Join(root, tt.touch), later, later); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(root)
			f := Options{}
			if tt.suiteDir {
				f.SuiteDir = filepath.Join("bin", "suites")
			}
			plan, err := findSuites(&f)
			if err != nil {
				t.Fatal(err)
			}
			want := 1
			if tt.added != "" {
				want = 2
			}
			if plan.Mode != tt.mode || len(plan.Suites) != want || plan.Suites[0].Area != "nodes" {
				t.Errorf("mode %q suites %+v, want %q and nodes (and the added suite)", plan.Mode, plan.Suites, tt.mode)
			}
			if tt.note == "" && plan.Note != "" || !strings.Contains(plan.Note, tt.note) {
				t.Errorf("note %q, want %q", plan.Note, tt.note)
			}
			if tt.mode == "go test" && plan.Suites[0].Binary != "" {
				t.Errorf("a stale binary is still run: %s", plan.Suites[0].Binary)
			}
		})
	}
}

// An interrupted `wink test` leaves the reports of the suites that ended,
// marked incomplete; so does one killed outright, from the reports written
// as each suite ended.
func TestInterruptedRunLeavesPartialReports(t *testing.T) {
	dir := t.TempDir()
	suite := func(name, then string) {
		script := "#!/bin/sh\ncase \"$*\" in *--dry-run*) exit 0;; esac\n" +
			"printf '\\026=== RUN   TestA\\n\\026--- PASS: TestA (0.00s)\\n'\n" + then + "\n"
		if err := os.WriteFile(filepath.Join(dir, name+".test"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	suite("nodes", "printf '\\026PASS\\n'")
	started := filepath.Join(dir, "storage-started")
	suite("storage", "touch "+started+"; exec sleep 60")
	out := filepath.Join(t.TempDir(), "report")
	// A given cluster: nothing is brought up (the fake suites use none).
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kubeconfig, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{SuiteDir: dir, Output: out, Kubeconfig: kubeconfig, Timeout: time.Minute}, io.Discard)
	}()

	read := func() reports.Report {
		var r reports.Report
		data, err := os.ReadFile(filepath.Join(out, "results.json"))
		if err == nil {
			err = json.Unmarshal(data, &r)
		}
		if err != nil {
			return reports.Report{}
		}
		return r
	}
	deadline := time.Now().Add(30 * time.Second)
	for read().Incomplete != "running: 1 of 2 suites ended" {
		if time.Now().After(deadline) {
			t.Fatalf("no report after the first suite ended; last: %+v", read())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if r := read(); r.Totals.Pass != 1 {
		t.Errorf("the report while storage runs: totals %+v, want nodes' one pass", r.Totals)
	}
	for _, err := os.Stat(started); err != nil; _, err = os.Stat(started) {
		if time.Now().After(deadline) {
			t.Fatal("the second suite did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "interrupted") {
			t.Errorf("err %v, want interrupted", err)
		}
	case <-time.After(45 * time.Second):
		t.Fatal("the run did not end after it was interrupted")
	}
	r := read()
	// storage's test passed before it was stopped; the suite itself did
	// not end well.
	if r.Incomplete != "interrupted: 1 of 2 suites ended" || r.Totals.Pass != 2 || r.Totals.PkgFailed != 1 {
		t.Errorf("final report: incomplete %q, totals %+v", r.Incomplete, r.Totals)
	}
	md, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil || !strings.Contains(string(md), "INCOMPLETE (interrupted: 1 of 2 suites ended)") {
		t.Errorf("summary.md does not say it is incomplete (%v):\n%s", err, md)
	}
}
