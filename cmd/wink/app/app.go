package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"wink.dev/wink/harness"
	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/harness/controlplane"
	"wink.dev/wink/simnode"
	simconfig "wink.dev/wink/simnode/config"
	"wink.dev/wink/suites/runner"
)

// Version is wink's own version, set at link time with
// -ldflags "-X wink.dev/wink/cmd/wink/app.Version=...".
var Version = "v0.1.0-dev"

// Exit codes CI can rely on.
const (
	ExitOK    = 0
	ExitError = 1
	ExitUsage = 2
	// ExitHarness is `wink test`'s code when no test failed but a suite
	// could not bring its cluster up.
	ExitHarness = 3
)

// Main runs wink with args (without the program name) and returns the exit
// code. The hidden `component` entry hands the process to an upstream
// control-plane component.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "component" {
		if len(args) < 2 {
			fmt.Fprintf(stderr, "usage: wink component NAME [flags]: NAME is one of %v\n", controlplane.Names())
			return ExitUsage
		}
		return controlplane.Run(args[1], args[2:])
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := Run(ctx, args, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "ERROR: %v\n", err)
		var usage usageError
		if errors.As(err, &usage) || harness.IsOptionError(err) {
			return ExitUsage
		}
		var problem runner.HarnessProblem
		if errors.As(err, &problem) {
			return ExitHarness
		}
		return ExitError
	}
	return ExitOK
}

type usageError struct{ error }

// rootOnlyFlag is a flag only the root command has: a subcommand refuses it.
type rootOnlyFlag struct{}

func (rootOnlyFlag) String() string { return "false" }
func (rootOnlyFlag) Type() string   { return "bool" }
func (rootOnlyFlag) Set(string) error {
	return errors.New("unknown flag: --version (wink --version prints wink's version)")
}

// Run runs the wink command line.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	return root.ExecuteContext(ctx)
}

// common are the flags every cluster command shares.
type common struct {
	name string
	home string
}

func (c *common) bind(cmd *cobra.Command) {
	cmd.Flags().StringVar(&c.name, "name", "", `cluster name (default "wink", or the name in --config)`)
	cmd.Flags().StringVar(&c.home, "home", "", "directory holding the clusters' state (default $WINK_HOME, else ~/.wink)")
	cmd.PreRunE = c.check
}

// check refuses --name given empty: the default cluster is named by
// leaving --name out. Every other name is checked by the harness (one
// place for every command), before anything touches disk.
func (c *common) check(cmd *cobra.Command, _ []string) error { return checkName(cmd, c.name) }

// checkName refuses an explicitly empty --name (harness.Options checks the
// rest of the name when it is used).
func checkName(cmd *cobra.Command, name string) error {
	if cmd.Flags().Changed("name") && name == "" {
		return usageError{v1alpha1.ValidateName("--name", name)}
	}
	return nil
}

func (c *common) options(progress io.Writer) harness.Options {
	return harness.Options{Name: c.name, Home: c.home, Progress: progress}
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "wink",
		Short: "Kubernetes clusters with simulated Windows nodes",
		Long: `wink brings up a Kubernetes control plane (upstream ` + harness.KubernetesVersion + `) with simulated
Windows Server and Linux nodes, so that charts, webhooks and schedulers can be
tested against Windows nodes without Windows hosts or Docker.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       Version,
	}
	root.SetVersionTemplate("wink {{.Version}} (Kubernetes " + harness.KubernetesVersion + ")\n")
	// component-base's verflag registers --version on pflag's global
	// CommandLine set (imported with the control plane), which cobra adds
	// to the root's persistent flags: a flag of the same name here keeps it
	// off wink's commands (pflag adds only names not yet defined). The
	// root's own --version prints wink's version (issue 21); the hidden
	// persistent one keeps the subcommands' help free of it and refuses it.
	root.Flags().BoolP("version", "v", false, "print wink's version and the Kubernetes version it runs")
	root.PersistentFlags().Var(rootOnlyFlag{}, "version", "")
	root.PersistentFlags().Lookup("version").NoOptDefVal = "true"
	_ = root.PersistentFlags().MarkHidden("version")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(
		newUp(stderr), newDown(stderr), newDelete(stderr), newStatus(stdout),
		newKubeconfig(stdout), newVersion(stdout), newSupervise(), newSimnode(),
	)
	root.AddCommand(newTest(stdout))
	root.AddCommand(newWebhook(stdout, stderr))
	root.AddCommand(newConformance(stdout, stderr))
	root.AddCommand(newCheck(stdout, stderr))
	root.AddCommand(newKind(stdout))
	return root
}

func newUp(progress io.Writer) *cobra.Command {
	var c common
	var opts harness.UpOptions
	cmd := &cobra.Command{
		Use:   "up",
		Short: "Bring a cluster up (or find it up) and wait until every node is Ready",
		Long: `Bring a cluster up and wait until every simulated node is Ready.

A stopped cluster comes back as it was left (its etcd data is kept) unless
--fresh is given. A running cluster is left running.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Options = c.options(progress)
			_, err := harness.Up(cmd.Context(), opts)
			return err
		},
	}
	c.bind(cmd)
	cmd.Flags().StringVar(&opts.ConfigPath, "config", "", "wink.yaml cluster configuration (default: the cluster's saved one, else two Windows Server 2022 nodes, one 2019 node and one Linux node)")
	cmd.Flags().BoolVar(&opts.Fresh, "fresh", false, "delete the cluster's state, etcd data included, before bringing it up")
	cmd.Flags().DurationVar(&opts.Wait, "wait", 3*time.Minute, "how long to wait for every node to be Ready")
	return cmd
}

func newDown(progress io.Writer) *cobra.Command {
	var c common
	cmd := &cobra.Command{
		Use:   "down",
		Short: "Stop a cluster's processes, keeping its state for the next `wink up`",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return harness.Down(cmd.Context(), c.options(progress))
		},
	}
	c.bind(cmd)
	return cmd
}

func newDelete(progress io.Writer) *cobra.Command {
	var c common
	cmd := &cobra.Command{
		Use:   "delete",
		Short: "Stop a cluster and delete its state (and its kind cluster, for the kind backend)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return harness.Delete(cmd.Context(), c.options(progress))
		},
	}
	c.bind(cmd)
	return cmd
}

func newStatus(stdout io.Writer) *cobra.Command {
	var c common
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show whether a cluster runs, and the state of each of its components",
		Args:  cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			s, err := harness.GetStatus(c.options(io.Discard))
			if err != nil {
				return err
			}
			state := "stopped"
			if s.Running {
				state = "running"
			}
			fmt.Fprintf(stdout, "Cluster %q: %s\nState:      %s\nKubeconfig: %s\n", s.Name, state, s.Dir, s.Kubeconfig)
			if len(s.Leftovers) > 0 {
				fmt.Fprintf(stdout, "Left running by a supervisor that is gone: %s (`wink up` or `wink down` stops them)\n", strings.Join(s.Leftovers, ", "))
			}
			if len(s.Components) == 0 {
				return nil
			}
			w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "\nCOMPONENT\tSTATE\tPID\tRESTARTS\tSINCE")
			for _, comp := range s.Components {
				pid := "-"
				if comp.PID > 0 {
					pid = fmt.Sprint(comp.PID)
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\n", comp.Name, comp.State, pid, comp.Restarts, comp.Since.Format(time.TimeOnly))
			}
			return w.Flush()
		},
	}
	c.bind(cmd)
	return cmd
}

func newKubeconfig(stdout io.Writer) *cobra.Command {
	var c common
	cmd := &cobra.Command{
		Use:   "kubeconfig",
		Short: "Print the path of a cluster's admin kubeconfig",
		Long:  "Print the path of a cluster's admin kubeconfig, for kubectl --kubeconfig \"$(wink kubeconfig)\".",
		Args:  cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			path, err := harness.KubeconfigPath(c.options(io.Discard))
			if err != nil {
				return err
			}
			fmt.Fprintln(stdout, path)
			return nil
		},
	}
	c.bind(cmd)
	return cmd
}

func newVersion(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print wink's version and the Kubernetes version it runs",
		Args:  cobra.NoArgs,
		Run: func(_ *cobra.Command, _ []string) {
			fmt.Fprintf(stdout, "wink %s (Kubernetes %s)\n", Version, harness.KubernetesVersion)
		},
	}
}

func newSupervise() *cobra.Command {
	var c common
	cmd := &cobra.Command{
		Use:    "supervise",
		Short:  "Run a cluster's components (started by `wink up`)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return harness.Supervise(cmd.Context(), c.options(io.Discard))
		},
	}
	c.bind(cmd)
	return cmd
}

func newSimnode() *cobra.Command {
	var (
		path, nodeAddress, statefulSet, ownStateDir string
		shard                                       simconfig.Shard
	)
	cmd := &cobra.Command{
		Use:    "simnode",
		Short:  "Serve a cluster's simulated nodes (started by the supervisor, or by the in-cluster chart)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := simconfig.Load(path)
			if err != nil {
				return err
			}
			if ownStateDir != "" {
				return simnode.OwnStateDir(cfg.StateDir, ownStateDir)
			}
			if nodeAddress != "" {
				// In a pod (issue 19): every node of this replica has the
				// pod's IP and a kubelet port of its own.
				cfg.NodeAddressBase, cfg.ListenAddress = nodeAddress, nodeAddress
			}
			if cmd.Flags().Changed("shard-count") || cmd.Flags().Changed("shard-index") {
				cfg.Shard = shard
			}
			if statefulSet == "" {
				return simnode.Run(cmd.Context(), cfg)
			}
			ns, name, ok := strings.Cut(statefulSet, "/")
			if !ok || ns == "" || name == "" {
				return fmt.Errorf("--statefulset %q: want <namespace>/<name>", statefulSet)
			}
			return simnode.RunStatefulSet(cmd.Context(), cfg, ns, name, shard.Index)
		},
	}
	cmd.Flags().StringVar(&path, "config", "", "simnode configuration written by the harness or the chart")
	cmd.Flags().StringVar(&nodeAddress, "node-address", "", "InternalIP of every node, and the address their kubelet APIs listen on (the pod's IP)")
	cmd.Flags().IntVar(&shard.Index, "shard-index", 0, "this process's shard (the StatefulSet ordinal with --statefulset)")
	cmd.Flags().IntVar(&shard.Count, "shard-count", 0, "how many processes share the nodes (without --statefulset)")
	cmd.Flags().StringVar(&statefulSet, "statefulset", "", "<namespace>/<name> of the StatefulSet whose replicas share the nodes: the shard count follows its replicas")
	cmd.Flags().StringVar(&ownStateDir, "own-state-dir", "", "UID:GID: make the configuration's stateDir owned by them and exit (the chart's init container, as root)")
	_ = cmd.MarkFlagRequired("config")
	return cmd
}
