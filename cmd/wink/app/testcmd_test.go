package app

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"wink.dev/wink/reports"
)

func TestE2EArgs(t *testing.T) {
	tests := []struct {
		name       string
		flags      testFlags
		kubeconfig string
		want       []string
		usage      bool
	}{
		{name: "nothing", want: nil},
		{name: "kubeconfig", kubeconfig: "/k/config", want: []string{"--kubeconfig=/k/config"}},
		{name: "labels", flags: testFlags{labels: []string{"needs=any", "area=nodes"}}, want: []string{"--labels=needs=any,area=nodes"}},
		// e2e-framework v0.7.0: values of one key are ORed, keys ANDed.
		{name: "rows", flags: testFlags{rows: []string{"N1", "B4"}}, want: []string{"--labels=row=N1,row=B4"}},
		{name: "rows and labels", flags: testFlags{labels: []string{"needs=any"}, rows: []string{"E"}}, want: []string{"--labels=needs=any,row=E"}},
		{name: "skips", flags: testFlags{skipLabels: []string{"needs=simnode"}, skipRows: []string{"H4"}}, want: []string{"--skip-labels=needs=simnode,row=H4"}},
		{name: "parallel", flags: testFlags{parallel: true}, kubeconfig: "/k", want: []string{"--kubeconfig=/k", "--parallel"}},
		{name: "label without value", flags: testFlags{labels: []string{"needs"}}, usage: true},
		{name: "label with two =", flags: testFlags{labels: []string{"a=b=c"}}, usage: true},
		{name: "unknown row", flags: testFlags{rows: []string{"N99"}}, usage: true},
		{name: "lower-case row", flags: testFlags{skipRows: []string{"n1"}}, usage: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.flags.e2eArgs(tt.kubeconfig)
			var usage usageError
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
	cmd := bin.command(t.Context(), "/src", []string{"--labels=row=N1"}, 30*time.Minute, false)
	if want := []string{"/b/nodes.test", "-test.v=test2json", "-test.count=1", "-test.timeout=30m0s", "--labels=row=N1"}; !slices.Equal(cmd.Args, want) || cmd.Dir != "/src/suites/nodes" {
		t.Errorf("binary: %q in %s, want %q", cmd.Args, cmd.Dir, want)
	}
	src := suiteRun{Area: "nodes"}
	cmd = src.command(t.Context(), "/src", []string{"--labels=row=N1"}, time.Minute, true)
	if want := []string{"go", "test", "-json", "-count=1", "-timeout=1m0s", "./suites/nodes", "-args", "--labels=row=N1", "--dry-run"}; !slices.Equal(cmd.Args, want) || cmd.Dir != "/src" {
		t.Errorf("go test: %q in %s, want %q", cmd.Args, cmd.Dir, want)
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
	var usage usageError
	if err := selectSuites(plan, []string{"storage"}); !errors.As(err, &usage) || !strings.Contains(err.Error(), "there are: scheduling, nodes") {
		t.Errorf("err %v", err)
	}
}

func TestRunSuitesKeepsLifecycleAlone(t *testing.T) {
	var order []string
	suites := []suiteRun{{Area: "lifecycle"}, {Area: "nodes"}}
	runSuites(suites, true, true, func(s suiteRun) { order = append(order, s.Area) })
	if !slices.Equal(order, []string{"nodes", "lifecycle"}) {
		t.Errorf("order %v", order)
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
