package controlplane

// metrics-server (sigs.k8s.io/metrics-server v0.7.2) as one more component.
//
// The module's library packages (pkg/server, pkg/scraper, pkg/storage,
// pkg/api) build against k8s.io/* v0.35.4, but its command's options package
// (cmd/metrics-server/app/options) does not: it sets
// genericapiserver.Config.Version, which apiserver v0.31 replaced with
// EffectiveVersion. No newer release fits: v0.8.0 is not in the checksum
// database and v0.9.0 requires k8s.io/* v0.36.2 and go 1.26.4. So this file
// is the command rebuilt from v0.7.2's cmd/metrics-server/app (start.go,
// options/options.go, options/kubelet_client.go, Apache-2.0, The Kubernetes
// Authors) with two changes:
//
//   - EffectiveVersion is set as v0.9.0's options.go sets it;
//   - --egress-socket (wink's own flag): metrics-server dials the kubelets
//     through simnode's egress proxy (HTTP CONNECT on a Unix socket, see
//     simnode/egress), because the nodes' InternalIPs exist only in the
//     simulation. rest.Config.Dial carries the dialer into the kubelet
//     client's transport (rest.TransportFor); the apiserver client dials
//     directly.

import (
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	openapinamer "k8s.io/apiserver/pkg/endpoints/openapi"
	genericapiserver "k8s.io/apiserver/pkg/server"
	genericoptions "k8s.io/apiserver/pkg/server/options"
	utilcompatibility "k8s.io/apiserver/pkg/util/compatibility"
	"k8s.io/client-go/pkg/version"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	cliflag "k8s.io/component-base/cli/flag"
	"k8s.io/component-base/logs"
	logsapi "k8s.io/component-base/logs/api/v1"
	openapicommon "k8s.io/kube-openapi/pkg/common"
	openapiutil "k8s.io/kube-openapi/pkg/util"
	"sigs.k8s.io/metrics-server/pkg/api"
	generatedopenapi "sigs.k8s.io/metrics-server/pkg/api/generated/openapi"
	"sigs.k8s.io/metrics-server/pkg/scraper/client"
	"sigs.k8s.io/metrics-server/pkg/server"
	"sigs.k8s.io/metrics-server/pkg/utils"

	"wink.dev/wink/simnode/egress"
)

// metricsServerOptions are metrics-server's flags (options.Options and
// options.KubeletClientOptions of v0.7.2) plus --egress-socket.
type metricsServerOptions struct {
	SecureServing  *genericoptions.SecureServingOptionsWithLoopback
	Authentication *genericoptions.DelegatingAuthenticationOptions
	Authorization  *genericoptions.DelegatingAuthorizationOptions
	Audit          *genericoptions.AuditOptions
	Logging        *logs.Options

	MetricResolution time.Duration
	Kubeconfig       string

	KubeletUseNodeStatusPort     bool
	KubeletPort                  int
	InsecureKubeletTLS           bool
	KubeletPreferredAddressTypes []string
	KubeletCAFile                string
	KubeletClientKeyFile         string
	KubeletClientCertFile        string
	KubeletRequestTimeout        time.Duration
	NodeSelector                 string

	EgressSocket string
}

func newMetricsServerOptions() *metricsServerOptions {
	o := &metricsServerOptions{
		SecureServing:         genericoptions.NewSecureServingOptions().WithLoopback(),
		Authentication:        genericoptions.NewDelegatingAuthenticationOptions(),
		Authorization:         genericoptions.NewDelegatingAuthorizationOptions(),
		Audit:                 genericoptions.NewAuditOptions(),
		Logging:               logs.NewOptions(),
		MetricResolution:      60 * time.Second,
		KubeletPort:           10250,
		KubeletRequestTimeout: 10 * time.Second,
	}
	for _, t := range utils.DefaultAddressTypePriority {
		o.KubeletPreferredAddressTypes = append(o.KubeletPreferredAddressTypes, string(t))
	}
	return o
}

func (o *metricsServerOptions) flags() (fss cliflag.NamedFlagSets) {
	ms := fss.FlagSet("metrics server")
	ms.DurationVar(&o.MetricResolution, "metric-resolution", o.MetricResolution, "The resolution at which metrics-server will retain metrics, must set value at least 10s.")
	ms.StringVar(&o.Kubeconfig, "kubeconfig", o.Kubeconfig, "The path to the kubeconfig used to connect to the Kubernetes API server and the Kubelets.")
	ms.StringVar(&o.EgressSocket, "egress-socket", o.EgressSocket, "wink: reach the kubelets through this HTTP CONNECT proxy (Unix socket of simnode's egress proxy).")
	kc := fss.FlagSet("kubelet client")
	kc.BoolVar(&o.InsecureKubeletTLS, "kubelet-insecure-tls", o.InsecureKubeletTLS, "Do not verify CA of serving certificates presented by Kubelets.  For testing purposes only.")
	kc.BoolVar(&o.KubeletUseNodeStatusPort, "kubelet-use-node-status-port", o.KubeletUseNodeStatusPort, "Use the port in the node status. Takes precedence over --kubelet-port flag.")
	kc.IntVar(&o.KubeletPort, "kubelet-port", o.KubeletPort, "The port to use to connect to Kubelets.")
	kc.StringSliceVar(&o.KubeletPreferredAddressTypes, "kubelet-preferred-address-types", o.KubeletPreferredAddressTypes, "The priority of node address types to use when determining which address to use to connect to a particular node")
	kc.StringVar(&o.KubeletCAFile, "kubelet-certificate-authority", "", "Path to the CA to use to validate the Kubelet's serving certificates.")
	kc.StringVar(&o.KubeletClientKeyFile, "kubelet-client-key", "", "Path to a client key file for TLS.")
	kc.StringVar(&o.KubeletClientCertFile, "kubelet-client-certificate", "", "Path to a client cert file for TLS.")
	kc.DurationVar(&o.KubeletRequestTimeout, "kubelet-request-timeout", o.KubeletRequestTimeout, "The length of time to wait before giving up on a single request to Kubelet.")
	kc.StringVarP(&o.NodeSelector, "node-selector", "l", o.NodeSelector, "Selector (label query) to filter on, not including uninitialized ones.")
	o.SecureServing.AddFlags(fss.FlagSet("apiserver secure serving"))
	o.Authentication.AddFlags(fss.FlagSet("apiserver authentication"))
	o.Authorization.AddFlags(fss.FlagSet("apiserver authorization"))
	o.Audit.AddFlags(fss.FlagSet("apiserver audit log"))
	logsapi.AddFlags(o.Logging, fss.FlagSet("logging"))
	return fss
}

func (o *metricsServerOptions) validate() []error {
	var errs []error
	if o.KubeletCAFile != "" && o.InsecureKubeletTLS {
		errs = append(errs, fmt.Errorf("cannot use both --kubelet-certificate-authority and --kubelet-insecure-tls"))
	}
	if (o.KubeletClientKeyFile != "") != (o.KubeletClientCertFile != "") {
		errs = append(errs, fmt.Errorf("need both --kubelet-client-key and --kubelet-client-certificate"))
	}
	if o.KubeletRequestTimeout <= 0 {
		errs = append(errs, fmt.Errorf("kubelet-request-timeout should be positive"))
	}
	if o.MetricResolution < 10*time.Second {
		errs = append(errs, fmt.Errorf("metric-resolution should be a time duration at least 10s, but value %v provided", o.MetricResolution))
	}
	if o.MetricResolution*9/10 < o.KubeletRequestTimeout {
		errs = append(errs, fmt.Errorf("metric-resolution should be larger than kubelet-request-timeout, but metric-resolution value %v kubelet-request-timeout value %v provided", o.MetricResolution, o.KubeletRequestTimeout))
	}
	if err := logsapi.ValidateAndApply(o.Logging, nil); err != nil {
		errs = append(errs, err)
	}
	return errs
}

func (o *metricsServerOptions) apiserverConfig() (*genericapiserver.Config, error) {
	if err := o.SecureServing.MaybeDefaultWithSelfSignedCerts("localhost", nil, []net.IP{net.ParseIP("127.0.0.1")}); err != nil {
		return nil, fmt.Errorf("error creating self-signed certificates: %v", err)
	}
	c := genericapiserver.NewConfig(api.Codecs)
	if err := o.SecureServing.ApplyTo(&c.SecureServing, &c.LoopbackClientConfig); err != nil {
		return nil, err
	}
	if err := o.Authentication.ApplyTo(&c.Authentication, c.SecureServing, nil); err != nil {
		return nil, err
	}
	if err := o.Authorization.ApplyTo(&c.Authorization); err != nil {
		return nil, err
	}
	if err := o.Audit.ApplyTo(c); err != nil {
		return nil, err
	}
	v := strings.Split(version.Get().String(), "-")[0]
	c.OpenAPIConfig = genericapiserver.DefaultOpenAPIConfig(openAPIDefinitions, openapinamer.NewDefinitionNamer(api.Scheme))
	c.OpenAPIV3Config = genericapiserver.DefaultOpenAPIV3Config(openAPIDefinitions, openapinamer.NewDefinitionNamer(api.Scheme))
	c.OpenAPIConfig.Info.Title = "Kubernetes metrics-server"
	c.OpenAPIV3Config.Info.Title = "Kubernetes metrics-server"
	c.OpenAPIConfig.Info.Version = v
	c.OpenAPIV3Config.Info.Version = v
	c.EffectiveVersion = utilcompatibility.DefaultBuildEffectiveVersion()
	return c, nil
}

// openAPIDefinitions are v0.7.2's generated definitions, keyed by Go type
// path (k8s.io/metrics/pkg/apis/metrics/v1beta1.NodeMetrics), and again by
// the model names that k8s.io/* v0.34+ types report through
// OpenAPIModelName (io.k8s.metrics.pkg.apis.metrics.v1beta1.NodeMetrics),
// which is what the v0.35 OpenAPI builder looks up for the served types.
func openAPIDefinitions(ref openapicommon.ReferenceCallback) map[string]openapicommon.OpenAPIDefinition {
	defs := generatedopenapi.GetOpenAPIDefinitions(ref)
	out := make(map[string]openapicommon.OpenAPIDefinition, 2*len(defs))
	for name, d := range defs {
		out[name] = d
		out[openapiutil.ToRESTFriendlyName(name)] = d
	}
	return out
}

func (o *metricsServerOptions) restConfig() (*rest.Config, error) {
	var cfg *rest.Config
	var err error
	if o.Kubeconfig != "" {
		cfg, err = clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
			&clientcmd.ClientConfigLoadingRules{ExplicitPath: o.Kubeconfig}, &clientcmd.ConfigOverrides{}).ClientConfig()
	} else {
		cfg, err = rest.InClusterConfig()
	}
	if err != nil {
		return nil, fmt.Errorf("unable to construct lister client config: %v", err)
	}
	cfg.ContentType = "application/vnd.kubernetes.protobuf"
	if err := rest.SetKubernetesDefaults(cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// kubeletConfig is KubeletClientOptions.Config, plus the egress dialer.
func (o *metricsServerOptions) kubeletConfig(restConfig *rest.Config) *client.KubeletClientConfig {
	c := &client.KubeletClientConfig{
		Scheme:            "https",
		DefaultPort:       o.KubeletPort,
		UseNodeStatusPort: o.KubeletUseNodeStatusPort,
		Client:            *rest.CopyConfig(restConfig),
	}
	for _, t := range o.KubeletPreferredAddressTypes {
		c.AddressTypePriority = append(c.AddressTypePriority, corev1.NodeAddressType(t))
	}
	if o.InsecureKubeletTLS {
		c.Client.TLSClientConfig.Insecure = true
		c.Client.TLSClientConfig.CAData = nil
		c.Client.TLSClientConfig.CAFile = ""
	}
	if o.KubeletCAFile != "" {
		c.Client.TLSClientConfig.CAFile = o.KubeletCAFile
		c.Client.TLSClientConfig.CAData = nil
	}
	if o.KubeletClientCertFile != "" {
		c.Client.TLSClientConfig.CertFile = o.KubeletClientCertFile
		c.Client.TLSClientConfig.CertData = nil
	}
	if o.KubeletClientKeyFile != "" {
		c.Client.TLSClientConfig.KeyFile = o.KubeletClientKeyFile
		c.Client.TLSClientConfig.KeyData = nil
	}
	if o.EgressSocket != "" {
		c.Client.Dial = egress.Dialer(o.EgressSocket)
	}
	return c
}

// newMetricsServerCommand is metrics-server's NewMetricsServerCommand.
func newMetricsServerCommand() *cobra.Command {
	o := newMetricsServerOptions()
	cmd := &cobra.Command{
		Use:          "metrics-server",
		Short:        "Launch metrics-server",
		SilenceUsage: true,
		RunE: func(*cobra.Command, []string) error {
			if errs := o.validate(); len(errs) > 0 {
				return errs[0]
			}
			apiserver, err := o.apiserverConfig()
			if err != nil {
				return err
			}
			restConfig, err := o.restConfig()
			if err != nil {
				return err
			}
			cfg := server.Config{
				Apiserver:        apiserver,
				Rest:             restConfig,
				Kubelet:          o.kubeletConfig(restConfig),
				MetricResolution: o.MetricResolution,
				ScrapeTimeout:    o.KubeletRequestTimeout,
				NodeSelector:     o.NodeSelector,
			}
			s, err := cfg.Complete()
			if err != nil {
				return err
			}
			return s.RunUntil(genericapiserver.SetupSignalHandler())
		},
	}
	fs := cmd.Flags()
	for _, f := range o.flags().FlagSets {
		fs.AddFlagSet(f)
	}
	return cmd
}
