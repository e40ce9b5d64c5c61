package app

import (
	"errors"
	"io"
	"time"

	"github.com/spf13/cobra"

	"wink.dev/wink/suites/runner"
	"wink.dev/wink/suites/suite/undertest"
)

// newTest is `wink test`: the flags of suites/runner's Options.
func newTest(stdout io.Writer) *cobra.Command {
	var f runner.Options
	cmd := &cobra.Command{
		Use:   "test",
		Short: "Run the e2e suites and write JUnit, JSON, Markdown and HTML reports",
		Long: `Run the e2e suites (one per area: nodes, scheduling, lifecycle, ...) against
the cluster given by --kubeconfig or --name, or, without either, against an
embedded cluster that each suite brings up and deletes. Progress shows as
[n/N] lines, failures as they happen.

The suites run from prebuilt test binaries (bin/suites/<area>.test, built by
` + "`make suites`" + `) when there are some, else from a checkout, built once with ` + "`go test -c`" + `.

--scheduler-name points the scheduling suite at another scheduler: every pod
and workload it creates names that scheduler (spec.schedulerName), so that
rows S1-S5, A17, N4 and N5 certify it; a probe pod fails the suite early,
naming the scheduler, when none of that name runs. Embedded clusters run
default-scheduler and wink-scheduler; for your own scheduler give the
cluster it runs in with --kubeconfig or --name.

--webhook-config points the webhooks suite at your admission webhook: a YAML
file with one MutatingWebhookConfiguration and one
ValidatingWebhookConfiguration (see suites/webhooks/README.md).

Inside a checkout, prebuilt suite binaries older than the sources they are
built from are not run: the suites run from source instead, with a note.

--output gets junit.xml, results.json, summary.md (for $GITHUB_STEP_SUMMARY),
report.html (the traceability matrix: catalog row → tests → result →
evidence) and events.jsonl (the raw test events). They are rewritten as each
suite ends, marked incomplete until the run ends, so that an interrupted or
killed run leaves what it finished.

Suites run at once as this machine holds them (--parallel: its CPUs and
memory, and the clusters each suite keeps up), and clusters are brought up
one per CPU at a time. A suite whose cluster does not come up is reported as
a harness problem with its cause, not as failed tests.

Exit code: 0 when everything passed, 1 when anything failed, 2 on usage
errors, 3 when no test failed but a suite could not bring its cluster up.`,
		Example: `  wink test                                  # every suite, embedded clusters
  wink test --name wink --suites nodes       # the nodes suite against a running wink cluster
  wink test --rows B1,B2,B3 --output /tmp/r  # only the features that check rows B1-B3
  wink test --suites scheduling --scheduler-name wink-scheduler   # the embedded clusters' second scheduler profile
  wink test --kubeconfig k --suites scheduling --scheduler-name my-scheduler
  wink test --name wink --suites webhooks --webhook-config vendor-webhook.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("parallel") {
				// Each suite brings up a cluster of its own: they
				// cannot interfere, and run concurrently by default.
				f.Parallel = f.Kubeconfig == "" && f.Name == ""
			}
			err := runner.Run(cmd.Context(), f, stdout)
			var usage runner.UsageError
			if errors.As(err, &usage) {
				return usageError{err}
			}
			return err
		},
	}
	cmd.PreRunE = func(cmd *cobra.Command, _ []string) error { return checkName(cmd, f.Name) }
	fl := cmd.Flags()
	fl.StringVar(&f.Name, "name", "", "run against this wink cluster (its admin kubeconfig); it must be up")
	fl.StringVar(&f.Home, "home", "", "directory holding the clusters' state (default $WINK_HOME, else ~/.wink)")
	fl.StringVar(&f.Kubeconfig, "kubeconfig", "", "run against the cluster of this kubeconfig (default: each suite brings up an embedded cluster)")
	fl.StringVar(&f.Output, "output", "wink-report", "directory for junit.xml, results.json, summary.md, report.html and events.jsonl")
	fl.StringSliceVar(&f.Labels, "labels", nil, "run only features with these labels, key=value (values of one key: any; different keys: all), e.g. needs=any")
	fl.StringSliceVar(&f.SkipLabels, "skip-labels", nil, "skip features with any of these labels, key=value, e.g. needs=simnode")
	fl.StringSliceVar(&f.Rows, "rows", nil, "run only features that check any of these catalog rows, e.g. N1,B4")
	fl.StringSliceVar(&f.SkipRows, "skip-rows", nil, "skip features that check any of these catalog rows")
	fl.StringSliceVar(&f.Suites, "suites", nil, "run only these suites (areas), e.g. nodes,scheduling (default: all)")
	fl.BoolVar(&f.Parallel, "parallel", false, "run suites concurrently, as many as this machine's CPUs and memory hold (and e2e-framework's --parallel); against a shared cluster, lifecycle still runs alone (default: true when each suite brings up its own embedded cluster, false with --kubeconfig or --name)")
	fl.StringVar(&f.SuiteDir, "suite-dir", "", "directory of prebuilt suite binaries <area>.test (default: bin/suites beside the wink binary, else ./bin/suites)")
	fl.DurationVar(&f.Timeout, "timeout", 30*time.Minute, "time limit of each suite (its -test.timeout)")
	fl.StringVar(&f.SchedulerName, "scheduler-name", "", "the scheduling suite's pods and workloads name this scheduler (spec.schedulerName); embedded clusters run default-scheduler and wink-scheduler (default: $"+undertest.SchedulerEnv+", else default-scheduler)")
	fl.StringVar(&f.WebhookConfig, "webhook-config", "", "the webhooks suite tests the webhook of this file (one Mutating- and one ValidatingWebhookConfiguration) instead of wink's reference webhook (default: $"+undertest.WebhookConfigEnv+")")
	return cmd
}
