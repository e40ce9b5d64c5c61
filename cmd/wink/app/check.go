package app

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"wink.dev/wink/harness/check"
	"wink.dev/wink/reports"
)

// errFindings makes `wink check` exit 1 after it has printed the findings.
var errFindings = errors.New("findings: see above and the reports")

// newCheck is `wink check`: the flags of harness/check's Options.
func newCheck(stdout, stderr io.Writer) *cobra.Command {
	var o check.Options
	var output string
	cmd := &cobra.Command{
		Use:   "check CHART...",
		Short: "Install Helm charts on clusters shaped like managed platforms and judge every workload",
		Long: `Install each CHART (a directory, a .tgz, repo/name from your Helm repositories,
or an oci:// reference) with Helm, as ` + "`helm install`" + ` does, run its ` + "`helm test`" + `
hooks, and judge every workload from what the cluster did: pods Pending on a
taint of this platform or a selector no node has, DaemonSets with no pod on the
Windows nodes they target, Linux pods landing on Windows nodes, images with no
entry for a node's Windows build, crash loops, failed hooks, pods refused by
the apiserver or the kubelet. Each finding names the workload, the platform,
the cluster's exact words and the fix.

Each --platform is a profile of a managed platform's Windows nodes (` + strings.Join(check.PlatformNames(), ", ") + `:
taints, labels, Windows builds; harness/check/platforms.yaml cites each
convention); several make a matrix, brought up side by side as fresh embedded
clusters and deleted afterwards. --config's nodePools extend a profile (a new
pool name) or replace its pool of the same name. --kubeconfig or --name judge
on a given cluster instead.

--expect F declares deliberate placement (apiVersion: wink.dev/v1alpha1,
kind: CheckExpectations; workloads: [{kind, name, os: linux|windows|any,
notOn: [windows-2019, ...], allow: [finding codes]}]).

--output gets the reports (results.json, junit.xml, summary.md, report.html).

Exit code: 0 when no workload has an error finding, 1 on findings, 2 on
usage errors (bad flags, unknown platform, missing chart).`,
		Example: `  wink check ./charts/agent -f ci/windows-values.yaml --platform eks --platform gke
  wink check oci://registry.example.com/charts/agent --version 1.2.0 --platform aks
  wink check myrepo/agent --name wink --expect ci/expect.yaml`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError{errors.New("no CHART given: name a chart directory, a .tgz, repo/name or an oci:// reference, e.g. `wink check ./charts/agent`")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Charts = args
			o.Progress = stderr
			rep, err := check.Run(cmd.Context(), o)
			if check.IsUsageError(err) {
				return usageError{err}
			}
			if rep != nil {
				printFindings(stdout, rep)
				if werr := reports.WriteCheck(output, rep); werr != nil {
					return errors.Join(err, fmt.Errorf("writing the reports into %s: %w", output, werr))
				}
				fmt.Fprintf(stdout, "reports: %s\n", output)
			}
			if err != nil {
				return err
			}
			if check.Failed(rep) {
				return errFindings
			}
			return nil
		},
	}
	cmd.PreRunE = func(cmd *cobra.Command, _ []string) error { return checkName(cmd, o.Name) }
	fl := cmd.Flags()
	fl.StringArrayVarP(&o.ValuesFiles, "values", "f", nil, "values file for every chart, as helm install -f (repeatable)")
	fl.StringArrayVar(&o.Set, "set", nil, "value k=v for every chart, as helm install --set (repeatable)")
	fl.StringVarP(&o.Namespace, "namespace", "n", "default", "namespace of the releases")
	fl.StringArrayVar(&o.Platforms, "platform", nil, "platform profile: "+strings.Join(check.PlatformNames(), ", ")+" (repeatable; default generic)")
	fl.StringVar(&o.Kubeconfig, "kubeconfig", "", "judge on the cluster of this kubeconfig instead of fresh embedded clusters")
	fl.StringVar(&o.Name, "name", "", "judge on this running wink cluster instead of fresh embedded clusters")
	fl.StringVar(&o.Home, "home", "", "directory holding the clusters' state (default $WINK_HOME, else ~/.wink)")
	fl.StringVar(&o.Config, "config", "", "wink.yaml whose nodePools extend or replace each profile's pools, and whose images settings apply")
	fl.StringVar(&output, "output", "wink-check-report", "directory for the reports")
	fl.DurationVar(&o.Timeout, "timeout", check.DefaultTimeout, "per chart and platform: install, hooks, tests and the wait for the workloads to settle")
	fl.StringVar(&o.Expect, "expect", "", "YAML file declaring intended placement per workload (kind CheckExpectations)")
	fl.StringVar(&o.ChartVersion, "version", "", "chart version of repo/name and oci:// charts (default: the newest)")
	fl.BoolVar(&o.PlainHTTP, "plain-http", false, "reach oci:// registries over HTTP, as helm --plain-http")
	return cmd
}

// printFindings prints one line per workload and platform, and each
// finding with its fix.
func printFindings(w io.Writer, r *reports.CheckReport) {
	for _, wl := range r.Workloads {
		state := "ok"
		if wl.Failed() {
			state = "FAIL"
		} else if len(wl.Findings) > 0 {
			state = "warn"
		}
		fmt.Fprintf(w, "%-4s [%s] %s %s/%s\n", state, wl.Platform, wl.Kind, wl.Namespace, wl.Name)
		for _, f := range wl.Findings {
			fmt.Fprintf(w, "       %s %s: %s\n       fix: %s\n", f.Severity, f.Code, f.Message, f.Fix)
		}
	}
	for p, e := range r.PlatformErrors {
		fmt.Fprintf(w, "FAIL [%s] %s\n", p, e)
	}
}
