package embedded

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"sigs.k8s.io/yaml"

	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/harness/internal/cluster"
	"wink.dev/wink/harness/internal/pki"
	"wink.dev/wink/harness/internal/simnodeplan"
	"wink.dev/wink/harness/internal/supervisor"
)

// Version is the upstream Kubernetes version the embedded control plane runs.
const Version = "v1.35.4"

// DefaultNodeAddressBase is the InternalIP of the first simulated node. The
// addresses exist only in the simulation: the apiserver reaches the simulated
// kubelets through simnode's egress proxy (see egressConfig), so they need not
// be bound on this machine, and unlike loopback addresses they are valid in
// EndpointSlices (hostNetwork pods use their node's IP).
const DefaultNodeAddressBase = "172.18.0.2"

// ControlPlaneClientQPS and ControlPlaneClientBurst are the client-side
// rate limits of kube-controller-manager (--kube-api-qps/--kube-api-burst)
// and kube-scheduler (clientConnection.qps/burst): high enough that they
// never bind, as kwok's --disable-qps-limits sets them (5000/10000). The
// defaults (20/30 for the controller manager, 50/100 for the scheduler)
// guard a shared apiserver from thousands of clients; a wink cluster's
// apiserver has a handful, and API Priority and Fairness. At the defaults
// a new cluster's controllers wait 4-5 s for their ServiceAccount tokens
// (--use-service-account-credentials: about a hundred requests) and every
// binding and its event wait on the scheduler's limiter (50 pods/s).
const (
	ControlPlaneClientQPS   = 5000
	ControlPlaneClientBurst = 10000
)

// ProfilingEnv names the environment variable that, set to true when a
// cluster comes up, makes its kube-apiserver serve /debug/pprof (to
// authenticated clients the cluster's RBAC allows, e.g. the admin
// kubeconfig) and its etcd serve /debug/pprof on its client URLs: how the
// benchmarks show where the control plane's CPU goes (suites/bench,
// WINK_BENCH_PROFILE). Unset, as by default, both are off.
const ProfilingEnv = "WINK_PROFILING"

// profiling reports whether $WINK_PROFILING asks for the control plane's
// profiles.
func profiling() bool {
	on, _ := strconv.ParseBool(os.Getenv(ProfilingEnv))
	return on
}

// Backend runs etcd, kube-apiserver, kube-controller-manager and
// kube-scheduler as children of the wink binary.
type Backend struct{}

var _ cluster.Backend = Backend{}

// paths are the files of an embedded cluster's state directory.
type paths struct {
	pki        *pki.Files
	kubeconfig string // admin
	kcm        string
	scheduler  string
	schedCfg   string // KubeSchedulerConfiguration
	simnode    string // kubeconfig of simnode
	metrics    string // kubeconfig of metrics-server
	simnodeCfg string
	egress     string
	egressSock string
	etcdData   string
	certDir    string
}

func layout(st *cluster.State) paths {
	return paths{
		pki:        pki.Layout(filepath.Join(st.Dir, "pki")),
		kubeconfig: filepath.Join(st.Dir, "kubeconfig"),
		kcm:        filepath.Join(st.Dir, "kubeconfigs", "controller-manager.conf"),
		scheduler:  filepath.Join(st.Dir, "kubeconfigs", "scheduler.conf"),
		schedCfg:   filepath.Join(st.Dir, "kube-scheduler.yaml"),
		simnode:    filepath.Join(st.Dir, "kubeconfigs", "simnode.conf"),
		metrics:    filepath.Join(st.Dir, "kubeconfigs", "metrics-server.conf"),
		simnodeCfg: filepath.Join(st.Dir, "simnode.yaml"),
		egress:     filepath.Join(st.Dir, "egress-selector.yaml"),
		egressSock: EgressSocket(st.Dir),
		etcdData:   filepath.Join(st.Dir, "etcd"),
		certDir:    filepath.Join(st.Dir, "run", "certs"),
	}
}

// Prepare writes certificates, kubeconfigs, the egress selector and simnode
// configuration. It reuses what a previous run wrote.
func (Backend) Prepare(_ context.Context, st *cluster.State, progress io.Writer) (string, error) {
	if st.Ports.NodeAddressBase == "" {
		st.Ports.NodeAddressBase = DefaultNodeAddressBase
	}
	if st.Ports.MetricsServer == 0 {
		// A state.json from before metrics-server had a port of its own.
		ports, err := cluster.FreePorts(filepath.Dir(st.Dir), 1)
		if err != nil {
			return "", err
		}
		st.Ports.MetricsServer = ports[0]
	}
	net := st.Config.Networking
	opts, err := pki.DefaultOptions(net.ServiceSubnet, net.DNSDomain)
	if err != nil {
		return "", err
	}
	// The advertise address is the kubernetes Service's endpoint and the
	// host of the OIDC discovery's jwks_uri: clients in pods verify the
	// certificate for it (kubeadm puts it in the SANs too).
	opts.APIServerIPs = append(opts.APIServerIPs, advertiseIP(st))
	p := layout(st)
	files, err := pki.Ensure(p.pki.Dir, opts)
	if err != nil {
		return "", fmt.Errorf("certificates: %w", err)
	}
	fmt.Fprintln(progress, " ✓ Certificates")
	server := "https://127.0.0.1:" + strconv.Itoa(st.Ports.APIServer)
	for _, kc := range []struct {
		path, user string
		pair       pki.KeyPair
	}{
		{p.kubeconfig, "kubernetes-admin", files.Admin},
		{p.kcm, "system:kube-controller-manager", files.ControllerManager},
		{p.scheduler, "system:kube-scheduler", files.Scheduler},
		{p.simnode, "wink:simnode", files.Simnode},
		{p.metrics, pki.MetricsServerCommonName, files.MetricsServer},
	} {
		if err := os.MkdirAll(filepath.Dir(kc.path), 0o700); err != nil {
			return "", err
		}
		if err := pki.WriteKubeconfig(kc.path, server, st.Config.Name, files.CA.Cert, kc.pair.Cert, kc.pair.Key, kc.user); err != nil {
			return "", err
		}
	}
	for _, dir := range []string{filepath.Dir(p.egressSock), p.certDir, filepath.Join(st.Dir, "simnode")} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", err
		}
	}
	if err := os.WriteFile(p.egress, egressConfig(p.egressSock), 0o600); err != nil {
		return "", err
	}
	schedCfg, err := schedulerConfig(p.scheduler)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(p.schedCfg, schedCfg, 0o600); err != nil {
		return "", err
	}
	cfg := simnodeplan.NewConfig(st, p.simnode, "", Version)
	// simnode signs its nodes' serving certificates with the kubelet CA
	// the apiserver verifies them against: no CSRs here.
	cfg.ServingCACert, cfg.ServingCAKey = files.KubeletCA.Cert, files.KubeletCA.Key
	cfg.CSRServingCerts = false
	cfg.ClientCAFile = files.CA.Cert
	cfg.EgressSocket = p.egressSock
	if err := simnodeplan.WriteConfig(p.simnodeCfg, cfg); err != nil {
		return "", err
	}
	fmt.Fprintln(progress, " ✓ Kubeconfigs")
	return p.kubeconfig, nil
}

// egressConfig routes the apiserver's traffic to the cluster network (kubelets,
// pods/proxy, services/proxy) through simnode's HTTP CONNECT proxy, the way
// konnectivity does on clusters whose nodes the control plane cannot route to.
func egressConfig(socket string) []byte {
	return []byte(`apiVersion: apiserver.k8s.io/v1beta1
kind: EgressSelectorConfiguration
egressSelections:
- name: cluster
  connection:
    proxyProtocol: HTTPConnect
    transport:
      uds:
        udsName: ` + socket + `
- name: controlplane
  connection:
    proxyProtocol: Direct
- name: etcd
  connection:
    proxyProtocol: Direct
`)
}

// Scheduler profiles of the embedded kube-scheduler. The second one lets
// `wink test --scheduler-name wink-scheduler` run the scheduling suite
// against a scheduler that is not default-scheduler, the way a vendor's
// scheduler is certified: same plugins, another name.
const (
	DefaultSchedulerProfile = "default-scheduler"
	SecondSchedulerProfile  = "wink-scheduler"
)

// schedulerConfig is the KubeSchedulerConfiguration of the embedded
// kube-scheduler: the defaults under two profile names. With --config the
// scheduler ignores its deprecated flags (--kubeconfig, --profiling), so
// they are fields here (cmd/kube-scheduler/app/options Options.ApplyTo).
func schedulerConfig(kubeconfig string) ([]byte, error) {
	return yaml.Marshal(map[string]any{
		"apiVersion": "kubescheduler.config.k8s.io/v1",
		"kind":       "KubeSchedulerConfiguration",
		// Client-side limits off in effect (ControlPlaneClientQPS).
		"clientConnection": map[string]any{"kubeconfig": kubeconfig, "qps": ControlPlaneClientQPS, "burst": ControlPlaneClientBurst},
		"leaderElection":   map[string]any{"leaderElect": false},
		"enableProfiling":  false,
		"profiles": []map[string]any{
			{"schedulerName": DefaultSchedulerProfile},
			{"schedulerName": SecondSchedulerProfile},
		},
	})
}

// Components are etcd, kube-apiserver, the bootstrap objects, then the
// controller manager, the scheduler and simnode.
func (Backend) Components(st *cluster.State) ([]supervisor.Component, error) {
	p := layout(st)
	f := p.pki
	n := st.Config.Networking
	loop := "127.0.0.1"
	etcdClient := "https://" + net.JoinHostPort(loop, strconv.Itoa(st.Ports.EtcdClient))
	etcdPeer := "https://" + net.JoinHostPort(loop, strconv.Itoa(st.Ports.EtcdPeer))
	apiserverURL := "https://" + net.JoinHostPort(loop, strconv.Itoa(st.Ports.APIServer))

	etcdHealth, err := httpsGetter(f.EtcdCA.Cert, f.APIServerEtcdClient)
	if err != nil {
		return nil, err
	}
	apiHealth, err := httpsGetter(f.CA.Cert, f.Admin)
	if err != nil {
		return nil, err
	}
	// The controller manager and scheduler serve with self-signed
	// certificates; their /healthz is open to anonymous requests.
	selfSigned := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // local health probe of a self-signed endpoint
	}}

	return []supervisor.Component{
		{
			Name: "etcd",
			Env:  controlPlaneGC(),
			Args: []string{"component", "etcd",
				"--name=" + st.Config.Name,
				"--data-dir=" + p.etcdData,
				"--listen-client-urls=" + etcdClient,
				"--advertise-client-urls=" + etcdClient,
				"--listen-peer-urls=" + etcdPeer,
				"--initial-advertise-peer-urls=" + etcdPeer,
				"--initial-cluster=" + st.Config.Name + "=" + etcdPeer,
				"--cert-file=" + f.EtcdServer.Cert, "--key-file=" + f.EtcdServer.Key,
				"--client-cert-auth=true", "--trusted-ca-file=" + f.EtcdCA.Cert,
				"--peer-cert-file=" + f.EtcdPeer.Cert, "--peer-key-file=" + f.EtcdPeer.Key,
				"--peer-client-cert-auth=true", "--peer-trusted-ca-file=" + f.EtcdCA.Cert,
				"--snapshot-count=10000",
				"--log-level=warn",
				"--enable-pprof=" + strconv.FormatBool(profiling()),
			},
			Ready: get(etcdHealth, etcdClient+"/health"),
		},
		{
			Name: "kube-apiserver",
			Env:  controlPlaneGC(),
			Args: []string{"component", "kube-apiserver",
				"--advertise-address=" + advertiseAddress(st),
				"--bind-address=" + loop,
				"--secure-port=" + strconv.Itoa(st.Ports.APIServer),
				"--allow-privileged=true",
				"--authorization-mode=Node,RBAC",
				"--enable-admission-plugins=NodeRestriction",
				"--client-ca-file=" + f.CA.Cert,
				"--tls-cert-file=" + f.APIServer.Cert, "--tls-private-key-file=" + f.APIServer.Key,
				"--etcd-servers=" + etcdClient,
				"--etcd-cafile=" + f.EtcdCA.Cert,
				"--etcd-certfile=" + f.APIServerEtcdClient.Cert, "--etcd-keyfile=" + f.APIServerEtcdClient.Key,
				"--kubelet-client-certificate=" + f.APIServerKubeletClient.Cert,
				"--kubelet-client-key=" + f.APIServerKubeletClient.Key,
				"--kubelet-certificate-authority=" + f.KubeletCA.Cert,
				"--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname",
				"--egress-selector-config-file=" + p.egress,
				"--proxy-client-cert-file=" + f.FrontProxyClient.Cert,
				"--proxy-client-key-file=" + f.FrontProxyClient.Key,
				"--requestheader-client-ca-file=" + f.FrontProxyCA.Cert,
				"--requestheader-allowed-names=front-proxy-client",
				"--requestheader-extra-headers-prefix=X-Remote-Extra-",
				"--requestheader-group-headers=X-Remote-Group",
				"--requestheader-username-headers=X-Remote-User",
				"--service-account-issuer=https://kubernetes.default.svc." + n.DNSDomain,
				"--service-account-key-file=" + f.ServiceAccountPub,
				"--service-account-signing-key-file=" + f.ServiceAccountKey,
				"--service-cluster-ip-range=" + n.ServiceSubnet,
				"--profiling=" + strconv.FormatBool(profiling()),
			},
			Ready: get(apiHealth, apiserverURL+"/readyz"),
		},
		{
			Name: "bootstrap",
			Task: func(ctx context.Context) error { return Bootstrap(ctx, p.kubeconfig, st) },
		},
		{
			Name: "kube-controller-manager",
			Args: []string{"component", "kube-controller-manager",
				"--kubeconfig=" + p.kcm,
				"--authentication-kubeconfig=" + p.kcm,
				"--authorization-kubeconfig=" + p.kcm,
				"--bind-address=" + loop,
				"--secure-port=" + strconv.Itoa(st.Ports.ControllerManager),
				"--cert-dir=" + filepath.Join(p.certDir, "kube-controller-manager"),
				"--client-ca-file=" + f.CA.Cert,
				"--requestheader-client-ca-file=" + f.FrontProxyCA.Cert,
				"--root-ca-file=" + f.CA.Cert,
				"--service-account-private-key-file=" + f.ServiceAccountKey,
				"--use-service-account-credentials=true",
				// Each signer's CA: the cluster CA, except for kubelet
				// serving certificates, which the apiserver verifies
				// against the kubelet CA (--kubelet-certificate-authority):
				// nodes that join by CSR (simnode of another wink cluster,
				// backend existing) are then trusted as simnode's own.
				"--cluster-signing-kubelet-serving-cert-file=" + f.KubeletCA.Cert,
				"--cluster-signing-kubelet-serving-key-file=" + f.KubeletCA.Key,
				"--cluster-signing-kubelet-client-cert-file=" + f.CA.Cert,
				"--cluster-signing-kubelet-client-key-file=" + f.CA.Key,
				"--cluster-signing-kube-apiserver-client-cert-file=" + f.CA.Cert,
				"--cluster-signing-kube-apiserver-client-key-file=" + f.CA.Key,
				"--cluster-signing-legacy-unknown-cert-file=" + f.CA.Cert,
				"--cluster-signing-legacy-unknown-key-file=" + f.CA.Key,
				"--cluster-name=" + st.Config.Name,
				"--allocate-node-cidrs=true",
				"--cluster-cidr=" + n.PodSubnet,
				"--node-cidr-mask-size=" + strconv.Itoa(n.NodeCIDRMaskSize),
				"--service-cluster-ip-range=" + n.ServiceSubnet,
				"--controllers=*,bootstrapsigner,tokencleaner",
				"--leader-elect=false",
				"--profiling=false",
				// Client-side limits off in effect (ControlPlaneClientQPS).
				"--kube-api-qps=" + strconv.Itoa(ControlPlaneClientQPS),
				"--kube-api-burst=" + strconv.Itoa(ControlPlaneClientBurst),
				"--node-monitor-grace-period=" + nodeMonitorGracePeriod(st.Config.NodePools).String(),
			},
			Ready:    get(selfSigned, "https://"+net.JoinHostPort(loop, strconv.Itoa(st.Ports.ControllerManager))+"/healthz"),
			Parallel: true,
		},
		{
			Name: "kube-scheduler",
			Args: []string{"component", "kube-scheduler",
				"--config=" + p.schedCfg,
				"--authentication-kubeconfig=" + p.scheduler,
				"--authorization-kubeconfig=" + p.scheduler,
				"--bind-address=" + loop,
				"--secure-port=" + strconv.Itoa(st.Ports.Scheduler),
				"--cert-dir=" + filepath.Join(p.certDir, "kube-scheduler"),
			},
			Ready:    get(selfSigned, "https://"+net.JoinHostPort(loop, strconv.Itoa(st.Ports.Scheduler))+"/healthz"),
			Parallel: true,
		},
		{
			Name: "simnode",
			Args: []string{"simnode", "--config", p.simnodeCfg},
			// Ready once its nodes are: `wink status` shows simnode as its
			// nodes are (issue 21), without holding up the next component.
			Ready:    simnodeplan.NodesReady(p.kubeconfig, st.Config.Name, st.Config.NodePools),
			Parallel: true,
		},
		metricsServer(st, p, selfSigned),
	}, nil
}

// Delete has nothing to remove outside the state directory.
func (Backend) Delete(context.Context, *cluster.State) error { return nil }

// advertiseAddress is the address published in the `kubernetes` Service's
// endpoints. EndpointSlices may not hold loopback addresses, so it is the
// address just below the first node's: the simulated control-plane host.
// advertiseIP is advertiseAddress as an IP.
func advertiseIP(st *cluster.State) net.IP { return net.ParseIP(advertiseAddress(st)) }

func advertiseAddress(st *cluster.State) string {
	ip := net.ParseIP(st.Ports.NodeAddressBase).To4()
	if ip == nil || ip[3] < 2 {
		return "172.18.0.1"
	}
	ip[3]--
	return ip.String()
}

// httpsGetter is a client that trusts caFile and presents the client pair.
func httpsGetter(caFile string, client pki.KeyPair) (*http.Client, error) {
	ca, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca)
	cert, err := tls.LoadX509KeyPair(client.Cert, client.Key)
	if err != nil {
		return nil, err
	}
	return &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{cert}},
	}}, nil
}

// get is a readiness probe: a GET that must answer 200.
func get(c *http.Client, url string) func(context.Context) error {
	return func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("%s: %s", url, resp.Status)
		}
		return nil
	}
}

// nodeMonitorGracePeriod is how long the node lifecycle controller waits
// for a node's lease before it marks the node Unknown: its default, 50 s
// (pkg/controller/nodelifecycle/config/v1alpha1/defaults.go), for the
// kubelet's default lease of 40 s renewed every 10 s, and the same ratio
// (5/4 of the lease) for a pool whose kubelet block sets a longer
// nodeLeaseDurationSeconds, as a cluster operator who lengthens the
// kubelets' leases lengthens the grace (kwokctl's --heartbeat-factor scales
// both alike). Without it, a pool renewing every 50 s (a 200 s lease, a
// fifth of the writes) would go Unknown between renewals.
func nodeMonitorGracePeriod(pools []v1alpha1.NodePool) time.Duration {
	grace := 50 * time.Second
	for _, p := range pools {
		if p.Kubelet == nil || p.Kubelet.NodeLeaseDurationSeconds == nil {
			continue
		}
		if g := time.Duration(*p.Kubelet.NodeLeaseDurationSeconds) * time.Second * 5 / 4; g > grace {
			grace = g
		}
	}
	return grace
}

// controlPlaneGC is the Go garbage collector's setting for the apiserver
// and etcd: GOGC=200 (Go's default is 100) unless the user's environment
// sets GOGC. A test cluster has memory to spare and its apiserver's CPU
// bounds every throughput figure: GC was 13.6 % of the apiserver's CPU
// at steady state with 1,000 nodes (docs/benchmarks.md); collecting half as
// often trades a larger heap for that CPU: a 4-node cluster with 60 pods
// held kube-apiserver 476 MiB against 354 MiB, etcd 201 against 178 MiB.
// Nothing a client sees changes (issue 20).
func controlPlaneGC() []string {
	if _, set := os.LookupEnv("GOGC"); set {
		return nil
	}
	return []string{"GOGC=200"}
}
