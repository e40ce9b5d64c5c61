package app

import (
	"context"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/spf13/cobra"
	admissionregv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"wink.dev/wink/harness"
	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/suites/webhooks/reference"
)

// newWebhook is `wink webhook serve|install`: the reference admission
// webhook for Windows pods (package suites/webhooks/reference).
func newWebhook(stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "webhook",
		Short: "Run wink's reference admission webhook for Windows pods",
		Long: `The reference admission webhook applies the Kubernetes docs' practice for
Windows pods: the mutating webhook gives them the kubernetes.io/os=windows
nodeSelector and the os=windows:NoSchedule toleration; the validating webhook
refuses what no Windows node can run (emptyDir medium Memory, huge pages,
volumeDevices, mount propagation, hostNetwork without HostProcess, an image
built for another Windows build than the pod selects).`,
	}
	cmd.AddCommand(newWebhookServe(stdout, stderr), newWebhookInstall(stdout, stderr))
	return cmd
}

type webhookServerFlags struct {
	opts  reference.Options
	delay time.Duration
}

func (f *webhookServerFlags) bind(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.opts.Listen, "listen", "127.0.0.1:0", "address to listen on (port 0: a free port)")
	cmd.Flags().StringVar(&f.opts.CertDir, "cert-dir", "", "directory keeping ca.crt, tls.crt and tls.key (generated when absent; default: in memory)")
	cmd.Flags().StringSliceVar(&f.opts.Hosts, "host", nil, "names and addresses of the serving certificate (default: the --listen host and localhost)")
	cmd.Flags().DurationVar(&f.opts.Delay, "delay", 0, "hold every admission answer back this long (to test the apiserver's timeoutSeconds)")
}

func webhookLogf(w io.Writer) func(string, ...any) {
	return func(format string, args ...any) {
		fmt.Fprintf(w, time.Now().Format(time.TimeOnly)+" "+format+"\n", args...)
	}
}

func newWebhookServe(stdout, stderr io.Writer) *cobra.Command {
	var f webhookServerFlags
	var kubeconfig string
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve /mutate and /validate over TLS until interrupted",
		Long: `Serve the reference webhook's /mutate and /validate (AdmissionReview v1) over
TLS with a self-signed CA it generates into --cert-dir (or reuses from it).

With --inject-ca-bundle NAME it writes its CA into the caBundle of the
Mutating- and ValidatingWebhookConfiguration NAME once it listens (in a pod:
through the pod's ServiceAccount; see suites/webhooks/reference/deploy).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// A client looks RuntimeClasses up and injects the CA: from
			// --kubeconfig, or in-cluster when the CA is to be injected.
			if f.opts.InjectCABundle != "" || kubeconfig != "" {
				cs, err := webhookClient(kubeconfig)
				if err != nil {
					return err
				}
				f.opts.Client = cs
			}
			f.opts.Logf = webhookLogf(stderr)
			s, err := reference.Start(cmd.Context(), f.opts)
			if err != nil {
				return err
			}
			defer s.Close()
			fmt.Fprintf(stdout, "Serving the reference webhook on https://%s (%s, %s)\n", s.Addr(), reference.MutatePath, reference.ValidatePath)
			<-cmd.Context().Done()
			return nil
		},
	}
	f.bind(cmd)
	cmd.Flags().StringVar(&f.opts.InjectCABundle, "inject-ca-bundle", "", "name of the webhook configurations to write the CA into")
	cmd.Flags().StringVar(&kubeconfig, "kubeconfig", "", "kubeconfig for RuntimeClass look-ups and --inject-ca-bundle (default: in-cluster)")
	return cmd
}

func newWebhookInstall(stdout, stderr io.Writer) *cobra.Command {
	var f webhookServerFlags
	var c common
	var cfg reference.ConfigOptions
	var kubeconfig, failurePolicy string
	var keep bool
	cmd := &cobra.Command{
		Use:   "install",
		Short: "Serve the reference webhook here and register it on a cluster by URL",
		Long: `Start the reference webhook on this machine and register it on a wink cluster
(or --kubeconfig) by URL: a MutatingWebhookConfiguration and a
ValidatingWebhookConfiguration named --name, with the generated CA as caBundle,
--failure-policy, --timeout, and a namespaceSelector that leaves out
kube-system and namespaces labelled wink.dev/webhook=skip.

It runs until interrupted, then deletes both configurations (unless --keep).
It listens where the wink cluster's apiserver reaches this machine: 127.0.0.1
for the embedded backend, the kind network's gateway or this machine's address
for the kind and existing backends. With --kubeconfig, --listen on an address
the cluster can reach and name it with --host.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if cmd.Flags().Changed("cluster") {
				// The harness checks it too, but names --name.
				if err := v1alpha1.ValidateName("--cluster", c.name); err != nil {
					return usageError{err}
				}
			}
			switch admissionregv1.FailurePolicyType(failurePolicy) {
			case admissionregv1.Fail, admissionregv1.Ignore:
				cfg.FailurePolicy = admissionregv1.FailurePolicyType(failurePolicy)
			default:
				return usageError{fmt.Errorf("--failure-policy %q: want Fail or Ignore", failurePolicy)}
			}
			if kubeconfig == "" {
				path, err := harness.KubeconfigPath(c.options(io.Discard))
				if err != nil {
					return err
				}
				kubeconfig = path
				if !cmd.Flags().Changed("listen") {
					// Where this wink cluster's apiserver reaches this
					// machine: loopback, or the kind network's gateway.
					host, err := harness.HostAddress(c.options(io.Discard))
					if err != nil {
						return err
					}
					f.opts.Listen = net.JoinHostPort(host, "0")
				}
			}
			cs, err := webhookClient(kubeconfig)
			if err != nil {
				return err
			}
			f.opts.Client, f.opts.Logf = cs, webhookLogf(stderr)
			s, err := reference.Start(ctx, f.opts)
			if err != nil {
				return err
			}
			defer s.Close()
			cfg.URL, cfg.CABundle = "https://"+s.Addr(), s.CABundle()
			unregister, err := reference.Register(ctx, cs, cfg)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "Serving the reference webhook on https://%s\nRegistered MutatingWebhookConfiguration and ValidatingWebhookConfiguration %q (webhooks %s, %s; failurePolicy %s, timeoutSeconds %d)\n",
				s.Addr(), cfg.MutatingNameOrDefault(), cfg.MutatingName(), cfg.ValidatingName(), cfg.FailurePolicy, cfg.TimeoutSeconds)
			<-ctx.Done()
			if keep {
				fmt.Fprintln(stdout, "--keep: the webhook configurations stay registered (pod creation fails while nothing serves them, with failurePolicy Fail)")
				return nil
			}
			dctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			return unregister(dctx)
		},
	}
	f.bind(cmd)
	cmd.Flags().StringVar(&cfg.Name, "name", reference.DefaultName, "name of the webhook configurations")
	cmd.Flags().StringVar(&c.name, "cluster", "", `wink cluster to register on (default "wink")`)
	cmd.Flags().StringVar(&c.home, "home", "", "directory holding the clusters' state (default $WINK_HOME, else ~/.wink)")
	cmd.Flags().StringVar(&kubeconfig, "kubeconfig", "", "register on this cluster instead of a wink cluster")
	cmd.Flags().StringVar(&failurePolicy, "failure-policy", string(admissionregv1.Fail), "Fail or Ignore: what the apiserver does when the webhook cannot be called")
	cmd.Flags().Int32Var(&cfg.TimeoutSeconds, "timeout", reference.DefaultTimeoutSeconds, "timeoutSeconds of each webhook (1-30)")
	cmd.Flags().StringSliceVar(&cfg.ExcludeNamespaces, "exclude-namespace", []string{"kube-system"}, "namespaces never sent to the webhook")
	cmd.Flags().BoolVar(&keep, "keep", false, "leave the configurations registered on exit")
	return cmd
}

func webhookClient(kubeconfig string) (kubernetes.Interface, error) {
	var rc *rest.Config
	var err error
	if kubeconfig == "" {
		rc, err = rest.InClusterConfig()
	} else {
		rc, err = clientcmd.BuildConfigFromFlags("", kubeconfig)
	}
	if err != nil {
		return nil, fmt.Errorf("webhook: cluster client: %w", err)
	}
	return kubernetes.NewForConfig(rc)
}
