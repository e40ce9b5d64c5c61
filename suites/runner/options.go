package runner

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/suites/suite/undertest"
)

// suitePackage is the import path of the suite of an area.
const suitePackage = "wink.dev/wink/suites/"

// notSuites are the packages under suites/ that `wink test` does not run: shared
// helpers, benchmarks and their profiling helper (bench/profile), the
// reference webhook (the webhooks suite tests it), the conformance suite's
// upstream specs (it runs them) and this runner. `make suites` names a
// binary by its package's last element, nested or not.
var notSuites = []string{"suite", "bench", "profile", "reference", "upstream", "runner"}

// upstreamBinary is the conformance suite's upstream specs among the suite
// binaries (suites/conformance/upstream).
const upstreamBinary = "upstream.test"

// Options say which suites run, against which cluster, and where the
// reports go: the flags of `wink test`.
type Options struct {
	// Name and Home name a running wink cluster to test (its admin
	// kubeconfig); Home defaults as harness.Options' does.
	Name string
	Home string
	// Kubeconfig is the cluster to test. Without it or Name, each suite
	// brings up an embedded cluster of its own.
	Kubeconfig string
	// Output is the directory of the reports (reports.Files).
	Output string
	// Labels, SkipLabels (key=value), Rows and SkipRows (catalog row IDs)
	// select features; Suites selects suites (areas), in order.
	Labels     []string
	SkipLabels []string
	Rows       []string
	SkipRows   []string
	Suites     []string
	// Parallel runs suites concurrently, and features within them.
	Parallel bool
	// SuiteDir holds prebuilt suite binaries <area>.test.
	SuiteDir string
	// Timeout is the time limit of each suite.
	Timeout time.Duration
	// SchedulerName is the scheduler under test of the scheduling suite
	// (WINK_SCHEDULER_NAME).
	SchedulerName string
	// WebhookConfig is the configuration file of the webhook under test of
	// the webhooks suite (WINK_WEBHOOK_CONFIG).
	WebhookConfig string
}

var (
	rowIDRe = regexp.MustCompile(`^[A-Z][0-9]*$`)
	labelRe = regexp.MustCompile(`^[^=,\s]+=[^=,\s]+$`)
)

// e2eArgs translates the flags into the e2e-framework flags every suite
// binary gets after its -test.* flags. --rows becomes --labels row=X,row=Y
// (e2e-framework v0.7.0: the values of one key match any, different keys
// must all match), --skip-rows becomes --skip-labels row=X.
func (f *Options) e2eArgs(kubeconfig string) ([]string, error) {
	labels, err := checkLabels("--labels", f.Labels)
	if err != nil {
		return nil, err
	}
	skip, err := checkLabels("--skip-labels", f.SkipLabels)
	if err != nil {
		return nil, err
	}
	for flag, rows := range map[string][]string{"--rows": f.Rows, "--skip-rows": f.SkipRows} {
		if err := checkRows(flag, rows); err != nil {
			return nil, err
		}
	}
	for _, r := range f.Rows {
		labels = append(labels, "row="+r)
	}
	for _, r := range f.SkipRows {
		skip = append(skip, "row="+r)
	}
	var args []string
	if kubeconfig != "" {
		args = append(args, "--kubeconfig="+kubeconfig)
	}
	if len(labels) > 0 {
		args = append(args, "--labels="+strings.Join(labels, ","))
	}
	if len(skip) > 0 {
		args = append(args, "--skip-labels="+strings.Join(skip, ","))
	}
	if f.Parallel {
		args = append(args, "--parallel")
	}
	return args, nil
}

func checkLabels(flag string, labels []string) ([]string, error) {
	var out []string
	for _, l := range labels {
		l = strings.TrimSpace(l)
		if !labelRe.MatchString(l) {
			return nil, UsageError{fmt.Errorf("%s %q: want key=value, e.g. area=nodes or needs=any", flag, l)}
		}
		out = append(out, l)
	}
	return out, nil
}

func checkRows(flag string, rows []string) error {
	for _, r := range rows {
		if !rowIDRe.MatchString(r) || !facts.Known(r) {
			return UsageError{fmt.Errorf("%s: %q is not a row of the behaviour catalog (rows look like N1, A17, B4, H2, S3, E)", flag, r)}
		}
	}
	return nil
}

// targets checks the scheduler and the webhook under test that
// --scheduler-name and --webhook-config name (without them,
// $WINK_SCHEDULER_NAME and $WINK_WEBHOOK_CONFIG) and returns them as the
// suites get them: the webhook configuration as an absolute path, since the
// suites run in their package directories. clusterGiven says whether the
// suites run against a cluster given by --kubeconfig or --name rather than
// embedded clusters of their own.
func (f *Options) targets(clusterGiven bool) (scheduler, webhookConfig string, err error) {
	scheduler, from := strings.TrimSpace(f.SchedulerName), "--scheduler-name"
	if scheduler == "" {
		scheduler, from = undertest.SchedulerName(), "$"+undertest.SchedulerEnv
	}
	if scheduler != "" {
		if err := undertest.CheckSchedulerName(scheduler); err != nil {
			return "", "", UsageError{fmt.Errorf("%s: %w", from, err)}
		}
		if !clusterGiven && !undertest.IsEmbeddedScheduler(scheduler) {
			return "", "", UsageError{fmt.Errorf("%s %q: the embedded clusters the suites bring up run only the schedulers %s; run yours against a cluster and give that cluster with --kubeconfig or --name",
				from, scheduler, strings.Join(undertest.EmbeddedSchedulers, " and "))}
		}
	}
	webhookConfig, from = f.WebhookConfig, "--webhook-config"
	if webhookConfig == "" {
		webhookConfig, from = os.Getenv(undertest.WebhookConfigEnv), "$"+undertest.WebhookConfigEnv
	}
	if webhookConfig != "" {
		if _, err := undertest.LoadWebhookConfig(webhookConfig); err != nil {
			return "", "", UsageError{fmt.Errorf("%s: %w", from, err)}
		}
		webhookConfig = absPath(webhookConfig)
	}
	return scheduler, webhookConfig, nil
}

// targetLines say what the suites test besides the cluster, or that a
// target was given for a suite that does not run.
func (f *Options) targetLines(plan *testPlan) []string {
	selected := func(area string) bool {
		return slices.ContainsFunc(plan.Suites, func(s suiteRun) bool { return s.Area == area })
	}
	var lines []string
	for _, t := range []struct{ value, area, what, flag string }{
		{f.SchedulerName, "scheduling", "Scheduler under test", "--scheduler-name"},
		{f.WebhookConfig, "webhooks", "Webhook under test", "--webhook-config"},
	} {
		switch {
		case t.value == "":
		case selected(t.area):
			lines = append(lines, fmt.Sprintf("%s: %s (suite %s)", t.what, t.value, t.area))
		default:
			lines = append(lines, fmt.Sprintf("  (%s %s: only the %s suite uses it, and it does not run)", t.flag, t.value, t.area))
		}
	}
	return lines
}

// UsageError is an error in the options, found before anything runs.
type UsageError struct{ error }

func (e UsageError) Unwrap() error { return e.error }
