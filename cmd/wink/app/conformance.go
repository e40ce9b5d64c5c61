package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"wink.dev/wink/harness"
	"wink.dev/wink/harness/conformance"
	"wink.dev/wink/simnode/facts"
)

type conformanceFlags struct {
	common
	job          string
	kubeconfig   string
	e2eBinary    string
	ginkgoBinary string
	reportDir    string
	rerunFailed  string
	nodes        int
	args         []string
}

func newConformance(stdout, stderr io.Writer) *cobra.Command {
	var f conformanceFlags
	cat := conformance.Default()
	var jobs string
	for i, j := range cat.Jobs {
		if i > 0 {
			jobs += "\n"
		}
		jobs += fmt.Sprintf("  %-17s %s", j.Name, j.Description)
	}
	cmd := &cobra.Command{
		Use:   "conformance",
		Short: "Run SIG Windows' e2e jobs (upstream e2e.test) against a wink cluster",
		Long: `Run upstream e2e.test of the control plane's version (` + harness.KubernetesVersion + `) the way SIG
Windows' CI jobs of that release run it against real Windows clusters
(kubernetes/test-infra config/jobs/kubernetes-sigs/sig-windows, running
kubernetes-sigs/windows-testing capz/run-capz-e2e.sh): each job's focus,
skip and ginkgo processes are its prow job's, and what wink leaves out is
listed with its reason (harness/conformance/jobs.yaml):

` + jobs + `

Without --kubeconfig, wink brings up (or reuses) a cluster in SIG Windows
CI's shape: a Linux control-plane node tainted
node-role.kubernetes.io/control-plane:NoSchedule and untainted Windows
Server 2019 and 2022 nodes (the sig-windows profile); it stays up
afterwards (wink delete --name sig-windows).

e2e.test (and the ginkgo CLI for parallel jobs) is built once from the Go
module cache into the user cache directory (~/.cache/wink/e2e), unless
--e2e-binary is given.

--report-dir gets e2e's own reports (junit_01.xml, ginkgo/report.json),
its log (e2e.log) and wink's: junit.xml, results.json, summary.md and
report.html (each spec traced to catalog rows). --rerun-failed
results.json runs only the specs that failed there.

Exit code: 0 when every spec passed, 1 when any failed, 2 on usage errors.`,
		Example: `  wink conformance                                   # the sig-windows job on a new sig-windows cluster
  wink conformance --job windows-parallel --report-dir /tmp/par
  wink conformance --rerun-failed wink-conformance/results.json
  wink conformance --kubeconfig ~/.kube/config --e2e-binary ./e2e.test`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runConformance(cmd.Context(), f, stdout, stderr)
		},
	}
	f.bind(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.job, "job", "sig-windows", "the job to run: sig-windows, windows-parallel or windows-serial")
	fl.StringVar(&f.kubeconfig, "kubeconfig", "", "run against the cluster of this kubeconfig instead of a wink cluster")
	fl.StringVar(&f.e2eBinary, "e2e-binary", "", "a prebuilt e2e.test of the cluster's version (default: built from the Go module cache)")
	fl.StringVar(&f.ginkgoBinary, "ginkgo-binary", "", "a prebuilt ginkgo CLI for parallel jobs (default: built with e2e.test)")
	fl.StringVar(&f.reportDir, "report-dir", "wink-conformance", "directory for the reports and e2e's log")
	fl.StringVar(&f.rerunFailed, "rerun-failed", "", "a results.json of an earlier run: run only the specs that failed there")
	fl.IntVar(&f.nodes, "nodes", 0, "parallel ginkgo processes (default: the job's)")
	fl.StringArrayVar(&f.args, "e2e-arg", nil, "an extra flag for e2e.test, e.g. --e2e-arg=--ginkgo.label-filter=!Flaky (repeatable)")
	return cmd
}

func runConformance(ctx context.Context, f conformanceFlags, stdout, stderr io.Writer) error {
	cat := conformance.Default()
	job, err := cat.Job(f.job)
	if err != nil {
		return usageError{err}
	}
	if f.nodes > 0 {
		job.Nodes = f.nodes
	}
	if f.kubeconfig != "" && f.name != "" {
		return usageError{errors.New("--kubeconfig and --name both name a cluster: give one")}
	}
	var rerun []string
	if f.rerunFailed != "" {
		if rerun, err = conformance.FailedSpecs(f.rerunFailed); err != nil {
			return usageError{err}
		}
		if len(rerun) == 0 {
			fmt.Fprintf(stdout, "%s: nothing failed\n", f.rerunFailed)
			return nil
		}
	}
	reportDir, err := filepath.Abs(f.reportDir)
	if err != nil {
		return err
	}

	kubeconfig, numNodes := f.kubeconfig, 0
	if kubeconfig == "" {
		profile, err := conformance.SIGWindowsProfile()
		if err != nil {
			return err
		}
		opts := f.options(stderr)
		if opts.Name == "" {
			opts.Name = profile.Name
		}
		c, err := harness.Up(ctx, harness.UpOptions{Options: opts, Config: profile, Wait: 3 * time.Minute, Schedulable: true})
		if err != nil {
			return err
		}
		kubeconfig, numNodes = c.Kubeconfig, conformance.WindowsNodes(profile)
	} else if numNodes, err = windowsNodes(ctx, kubeconfig); err != nil {
		return err
	}

	cache, err := conformance.CacheDir()
	if err != nil && f.e2eBinary == "" {
		return err
	}
	bins, err := conformance.BuildE2E(ctx, conformance.BuildOptions{
		Version: harness.KubernetesVersion, Dir: cache, Ginkgo: job.Nodes > 1, Log: stderr, Progress: stderr,
		Have: conformance.Binaries{E2E: f.e2eBinary, Ginkgo: f.ginkgoBinary},
	})
	if err != nil {
		return err
	}

	out, err := cat.Run(ctx, conformance.Options{
		Job: job, Kubeconfig: kubeconfig, Binaries: bins, NumNodes: numNodes,
		ReportDir: reportDir, Rerun: rerun, Args: f.args, Progress: stderr,
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s; reports in %s\n", job.Name, out.Figures(), reportDir)
	if out.Failed() {
		return fmt.Errorf("%d of %d specs failed", out.Report.Totals.Fail, out.Report.Totals.Results)
	}
	return nil
}

// windowsNodes counts the cluster's Windows nodes (e2e's --num-nodes).
func windowsNodes(ctx context.Context, kubeconfig string) (int, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return 0, err
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return 0, err
	}
	l, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: facts.LabelOS + "=" + facts.Windows.String()})
	if err != nil {
		return 0, fmt.Errorf("listing Windows nodes: %w", err)
	}
	return len(l.Items), nil
}
