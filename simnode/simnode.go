package simnode

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/server/dynamiccertificates"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"

	"wink.dev/wink/simnode/config"
	"wink.dev/wink/simnode/egress"
	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/images"
	"wink.dev/wink/simnode/images/registry"
	"wink.dev/wink/simnode/internal/events"
	"wink.dev/wink/simnode/internal/kubeletapi"
	"wink.dev/wink/simnode/internal/nodes"
	"wink.dev/wink/simnode/internal/pods"
	"wink.dev/wink/simnode/internal/pods/wire"
	"wink.dev/wink/simnode/network"
	"wink.dev/wink/simnode/rules"
	"wink.dev/wink/simnode/shell/process"
)

// Defaults.
const (
	DefaultKubeletPort   = 10250
	DefaultPodStartDelay = 200 * time.Millisecond
	DefaultPodStopDelay  = 100 * time.Millisecond
	// UnlimitedClientQPS is ClientQPS's default: no client-side rate
	// limit (client-go's rest.Config takes a negative QPS for none). One
	// simnode client serves every node, each of which would have a
	// kubelet's own client (kubeAPIQPS 50, burst 100); a shared limit
	// would make a node wait on its neighbours' writes. kwok runs its
	// clients unlimited too (--disable-qps-limits).
	UnlimitedClientQPS = -1
	podSyncWorkers     = 2
)

func withDefaults(c *config.Config) (*config.Config, error) {
	out := *c
	if out.ClusterName == "" {
		return nil, fmt.Errorf("simnode config: clusterName is required")
	}
	if out.StateDir == "" {
		return nil, fmt.Errorf("simnode config: stateDir is required")
	}
	if out.NodeAddressBase == "" {
		return nil, fmt.Errorf("simnode config: nodeAddressBase is required")
	}
	if _, err := netip.ParseAddr(out.NodeAddressBase); err != nil {
		return nil, fmt.Errorf("simnode config: nodeAddressBase: %w", err)
	}
	if (out.ServingCACert == "") != (out.ServingCAKey == "") {
		return nil, fmt.Errorf("simnode config: servingCACert and servingCAKey go together")
	}
	if out.KubeletPort == 0 {
		out.KubeletPort = DefaultKubeletPort
	}
	if out.PodStartDelay.Duration == 0 {
		out.PodStartDelay.Duration = DefaultPodStartDelay
	}
	if out.PodStopDelay.Duration == 0 {
		out.PodStopDelay.Duration = DefaultPodStopDelay
	}
	if out.ClientQPS == 0 {
		out.ClientQPS = UnlimitedClientQPS
	}
	if out.ClientBurst == 0 && out.ClientQPS > 0 {
		out.ClientBurst = int(2 * out.ClientQPS)
	}
	if err := out.Shard.Validate(); err != nil {
		return nil, fmt.Errorf("simnode config: %w", err)
	}
	seen := map[string]bool{}
	for _, name := range out.NodeNames() {
		if seen[name] {
			return nil, fmt.Errorf("simnode config: node name %s is used twice", name)
		}
		seen[name] = true
	}
	return &out, nil
}

// nodeSpecs lists the nodes in pool order, so that their addresses stay the
// same across restarts. InternalIPs are NodeAddressBase, +1, ... — except
// with a ListenAddress (kind, existing clusters), where the nodes are really
// served from this one machine: they all share NodeAddressBase and each
// node's kubelet API gets its own port, KubeletPort + n.
func nodeSpecs(c *config.Config) ([]nodes.Spec, error) {
	ip, err := netip.ParseAddr(c.NodeAddressBase)
	if err != nil {
		return nil, fmt.Errorf("nodeAddressBase: %w", err)
	}
	shared := c.ListenAddress != ""
	var out []nodes.Spec
	n := 0 // the node's place in the cluster's node order
	for _, p := range c.Pools {
		for i := range p.Count {
			if !ip.IsValid() {
				return nil, fmt.Errorf("nodeAddressBase %s: out of addresses", c.NodeAddressBase)
			}
			spec := nodes.Spec{
				ClusterName:           c.ClusterName,
				Pool:                  p,
				Index:                 i,
				InternalIP:            net.IP(ip.AsSlice()),
				DefaultKubeletVersion: c.ControlPlaneVersion,
				KubeletPort:           int32(c.KubeletPort),
			}
			if shared {
				spec.KubeletPort += int32(n)
			} else {
				ip = ip.Next()
			}
			n++
			// Issue 19: a shard serves only the nodes it owns, each at
			// the address and port of its place in the whole cluster.
			if c.Shard.Owns(config.NodeName(c.ClusterName, p.Name, i)) {
				out = append(out, spec)
			}
		}
	}
	return out, nil
}

// Run serves every node of every pool until ctx is done. It logs to
// stderr.
func Run(ctx context.Context, cfg *config.Config) error {
	cfg, err := withDefaults(cfg)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil)).With("component", "simnode")
	servePprof(ctx, log)
	vkLevel := slog.LevelWarn
	if cfg.Verbose {
		vkLevel = slog.LevelInfo
	}
	vkLogger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: vkLevel})).With("component", "virtual-kubelet")

	// Without a kubeconfig, in a pod (the in-cluster chart, issue 19):
	// the service account's (client-go's in-cluster fallback).
	restCfg, err := clientcmd.BuildConfigFromFlags("", cfg.Kubeconfig)
	if err != nil {
		return fmt.Errorf("kubeconfig %q: %w", cfg.Kubeconfig, err)
	}
	restCfg.QPS, restCfg.Burst = cfg.ClientQPS, cfg.ClientBurst
	restCfg.UserAgent = "wink-simnode"
	// Protobuf, as a kubelet talks to the apiserver (its
	// --kube-api-content-type default, cmd/kubelet/app/options): every
	// lease, status patch and event costs the apiserver a protobuf decode
	// instead of a JSON one (issue 20). simnode uses only built-in types.
	restCfg.ContentType = "application/vnd.kubernetes.protobuf"
	restCfg.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	restCfg.Wrap(limitInflight(maxInflight))
	client, err := kubernetes.NewForConfig(restCfg)
	if err != nil {
		return fmt.Errorf("kubernetes client: %w", err)
	}
	if cfg.ControlPlaneVersion == "" {
		// The chart names no version: the nodes' kubeletVersion is the
		// apiserver's, as the harness makes it.
		v, err := client.Discovery().ServerVersion()
		if err != nil {
			return fmt.Errorf("apiserver version: %w", err)
		}
		cfg.ControlPlaneVersion = v.GitVersion
	}
	return run(ctx, cfg, client, log, vkLogger)
}

// shared is what all nodes of the process share.
type shared struct {
	cfg         *config.Config
	client      kubernetes.Interface
	rules       *rules.Rules
	pods        informers.SharedInformerFactory
	others      informers.SharedInformerFactory
	broadcaster record.EventBroadcaster
	events      *events.Sink
	ca          *kubeletapi.CA
	clientCA    dynamiccertificates.CAContentProvider
	// verified holds the client certificate chains the nodes' kubelet
	// APIs verified (kubeletapi.VerifiedCerts).
	verified *kubeletapi.VerifiedCerts
	// csr is what the nodes learnt of the cluster's serving signer.
	csr csrSigning
	// routes map each node's <InternalIP>:<kubelet port> to its listener
	// when the egress proxy is on (Config.EgressSocket).
	routes *egress.Routes
	// providers maps node name to its *pods.Provider.
	providers sync.Map
	// localAccounts maps node name to its machine's local groups
	// (*shell.MemAccounts), kept across boots.
	localAccounts sync.Map
	// nodeProviders maps node name to its running boot's *nodes.Provider.
	nodeProviders sync.Map
	// powers maps node name to its *power (power.go).
	powers sync.Map
	// network is the process's one HNS model (H1-H9), over the shared
	// informers; its Listens and HTTP answers come from the providers.
	network *network.Model
	images  *images.Catalog
	// registry resolves image metadata before the catalog (nil: catalog only).
	registry wire.Resolver
	log      *slog.Logger
	vkLog    *slog.Logger
}

func run(ctx context.Context, cfg *config.Config, client kubernetes.Interface, log *slog.Logger, vkLog *slog.Logger) error {
	specs, err := nodeSpecs(cfg)
	if err != nil {
		return err
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// What the simulated processes hold is bounded (process.
		// MachineMemory, issue 18); a soft limit above it and what the
		// nodes need makes the collector return their garbage before the
		// heap doubles, whatever the pods run.
		debug.SetMemoryLimit(2*process.MachineMemory + int64(len(specs))<<20)
	}
	s := &shared{cfg: cfg, client: client, rules: rules.Default(), log: log, vkLog: vkLog, csr: csrSigning{turns: make(chan struct{}, csrParallel)}}

	// One pod informer for all nodes (pods bound to some node), and one
	// each of ConfigMaps, Secrets, Services and Nodes.
	s.pods = informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithTweakListOptions(func(o *metav1.ListOptions) {
		o.FieldSelector = "spec.nodeName!="
	}))
	s.others = informers.NewSharedInformerFactory(client, 0)
	podInformer := s.pods.Core().V1().Pods()
	// resources (stats, metrics, eviction): per-node pod index, see resources.go.
	if err := addPodIndex(podInformer.Informer()); err != nil {
		return err
	}
	s.others.Core().V1().Nodes().Informer()
	s.others.Core().V1().ConfigMaps().Informer()
	s.others.Core().V1().Secrets().Informer()
	s.others.Core().V1().Services().Informer()
	s.others.Discovery().V1().EndpointSlices().Informer()
	s.others.Node().V1().RuntimeClasses().Informer()
	// The informers stop with ctx, and Shutdown waits for them: ctx ends
	// before Shutdown when run returns early with an error, which would
	// otherwise hang there unsaid.
	ctx, cancel := context.WithCancel(ctx)
	s.pods.Start(ctx.Done())
	s.others.Start(ctx.Done())
	defer func() {
		cancel()
		s.pods.Shutdown()
		s.others.Shutdown()
	}()
	for typ, ok := range s.pods.WaitForCacheSync(ctx.Done()) {
		if !ok {
			return fmt.Errorf("informer for %v did not sync", typ)
		}
	}
	for typ, ok := range s.others.WaitForCacheSync(ctx.Done()) {
		if !ok {
			return fmt.Errorf("informer for %v did not sync", typ)
		}
	}

	// One broadcaster (its correlator aggregates and spam-filters per
	// source host and object, as each kubelet's own does); the sink writes
	// each node's events apart, at its kubelet's eventRecordQPS/eventBurst.
	s.events = events.NewSink(ctx, client.CoreV1().Events(""), log.With("part", "events"))
	s.broadcaster = record.NewBroadcaster(record.WithContext(ctx))
	s.broadcaster.StartRecordingToSink(s.events)
	defer s.broadcaster.Shutdown()

	if cfg.ServingCACert != "" {
		s.ca, err = kubeletapi.LoadCA(cfg.ServingCACert, cfg.ServingCAKey)
	} else {
		// Shards on one machine share StateDir (a node's disk stays
		// where it is when it changes owner); each keeps a CA of its own,
		// so that none races another to create it.
		pki := "pki"
		if cfg.Shard.Count > 1 {
			pki = fmt.Sprintf("pki-shard-%d", cfg.Shard.Index)
		}
		s.ca, err = kubeletapi.LoadOrCreateCA(filepath.Join(cfg.StateDir, pki))
	}
	if err != nil {
		return err
	}
	s.verified = kubeletapi.NewVerifiedCerts()
	if s.clientCA, err = kubeletapi.ClientCA(cfg.ClientCAFile); err != nil {
		return err
	}

	// One handler on the shared informer hands status-only pod updates
	// (virtual-kubelet ignores them) to the pod's node.
	if _, err := s.pods.Core().V1().Pods().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, obj interface{}) {
			pod, ok := obj.(*corev1.Pod)
			if !ok {
				return
			}
			if p, ok := s.providers.Load(pod.Spec.NodeName); ok {
				p.(*pods.Provider).Observe(pod)
			}
		},
	}); err != nil {
		return fmt.Errorf("pod informer: %w", err)
	}

	// Node annotations switch the simulated machines (power.go).
	if _, err := s.others.Core().V1().Nodes().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			s.syncClientAllocatable(obj)
			s.notifyPower(obj)
		},
		UpdateFunc: func(old, obj interface{}) {
			s.reassertReady(obj)
			s.syncClientAllocatable(obj)
			o, ok1 := old.(*corev1.Node)
			n, ok2 := obj.(*corev1.Node)
			if ok1 && ok2 && o.Annotations[ShutdownAnnotation] == n.Annotations[ShutdownAnnotation] {
				_, had := o.Annotations[ShutdownAnnotation]
				_, has := n.Annotations[ShutdownAnnotation]
				if had == has {
					return
				}
			}
			s.notifyPower(obj)
		},
	}); err != nil {
		return fmt.Errorf("node informer: %w", err)
	}

	s.images = images.Default()
	s.registry = imageResolver(cfg)
	var netOpts network.Options
	if cfg.Kubeconfig != "" || os.Getenv("KUBERNETES_SERVICE_HOST") != "" {
		// Containers' requests to the kubernetes Service reach the real
		// apiserver (agnhost inclusterclient, OIDC discovery).
		rc, err := clientcmd.BuildConfigFromFlags("", cfg.Kubeconfig)
		if err != nil {
			return fmt.Errorf("kubeconfig %s: %w", cfg.Kubeconfig, err)
		}
		if netOpts.APIServer, err = wire.APIServer(rc.Host); err != nil {
			return fmt.Errorf("kubeconfig %s: %w", cfg.Kubeconfig, err)
		}
	}
	// Behind a gateway to the cluster's real network (the kind backend),
	// nodes no wink simnode of this cluster serves (kind's own) are real:
	// their pods are reached through it. Elsewhere every node counts as
	// simulated (a cluster may join simnodes of other configurations).
	if cfg.ClusterDialSocket != "" {
		netOpts.SimulatedNode = wire.SimulatedNodes(cfg.NodeNames())
		netOpts.ClusterDial = egress.Dialer(cfg.ClusterDialSocket)
	}
	s.network = network.New(&network.Listers{
		PodLister:           s.pods.Core().V1().Pods().Lister(),
		ServiceLister:       s.others.Core().V1().Services().Lister(),
		EndpointSliceLister: s.others.Discovery().V1().EndpointSlices().Lister(),
		NodeLister:          s.others.Core().V1().Nodes().Lister(),
	}, wire.NetworkOptions(netOpts, func(node string) *pods.Provider {
		if p, ok := s.providers.Load(node); ok {
			return p.(*pods.Provider)
		}
		return nil
	}))

	log.Info("serving nodes", "cluster", cfg.ClusterName, "nodes", len(specs), "shard", cfg.Shard.Index, "shards", max(cfg.Shard.Count, 1))
	g, gctx := errgroup.WithContext(ctx)
	if cfg.EgressSocket != "" {
		s.routes = &egress.Routes{}
		// The apiserver's calls to simulated servers at their pod or
		// Service address (admission webhooks, simnode/agnhost).
		s.routes.SetResolver(s.network)
		if cfg.ClusterDialSocket != "" {
			s.routes.SimulatedOnly()
		}
		g.Go(func() error { return egress.Serve(gctx, cfg.EgressSocket, s.routes, log.With("part", "egress")) })
	}
	for _, spec := range specs {
		g.Go(func() error { return s.runNode(gctx, spec) })
	}
	return g.Wait()
}

// runNode serves one node until ctx is done: boot after boot of its
// simulated machine. A boot ends when the node shuts down
// (ShutdownAnnotation, power.go); the machine then stays off until it is
// switched on again, with the next bootID (N3).
func (s *shared) runNode(ctx context.Context, spec nodes.Spec) error {
	name := config.NodeName(spec.ClusterName, spec.Pool.Name, spec.Index)
	stateDir := filepath.Join(s.cfg.StateDir, "nodes", name)
	nodeLister := s.others.Core().V1().Nodes().Lister()
	pw := newPower(name, stateDir, func() *corev1.Node {
		if n, err := nodeLister.Get(name); err == nil {
			return n
		}
		return nil
	}, s.client, s.broadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: "wink-simnode", Host: name}))
	s.powers.Store(name, pw)
	defer s.powers.Delete(name)
	for boot := 0; ; boot++ {
		off, err := pw.off()
		if err != nil {
			return err
		}
		if off {
			s.log.Info("node is powered off", "node", name, "annotation", ShutdownAnnotation)
			if err := pw.waitOn(ctx); err != nil {
				if ctx.Err() != nil {
					return nil
				}
				return err
			}
			s.log.Info("node is powered on", "node", name)
		}
		// After the first boot of this process the shared pod informer
		// already carries the handler of a pod controller that is gone
		// (virtual-kubelet never removes it): later boots watch their
		// node's pods with an informer of their own.
		if err := s.bootWhenRegistered(ctx, spec, pw, boot > 0); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

// csrTimeout bounds the wait for the cluster to sign a node's serving
// certificate (Config.CSRServingCerts) until it has signed one: a cluster
// that signs may take minutes for thousands of nodes (5,000 in two shards,
// issue 20), so once it has signed a node's, the others wait up to
// csrMaxWait; once one has waited csrTimeout for a cluster that signed
// none, the others do not ask. At most csrParallel nodes ask at once, each
// node's wait starting with its turn: thousands asking at once had the
// first approvals queue behind every other node's request, and none was
// signed within csrTimeout.
const (
	csrTimeout  = 15 * time.Second
	csrMaxWait  = 5 * time.Minute
	csrParallel = 32
)

// csrSigning is what simnode learnt of the cluster's signer of kubelet
// serving certificates, and the nodes' turns to ask it.
type csrSigning struct {
	signed, refused atomic.Bool
	turns           chan struct{}
}

// servingCert is the node's kubelet serving certificate: with
// CSRServingCerts, one the cluster signs (kubeletapi.CSRServingCert), or,
// when the cluster does not, one of simnode's CA, said in the log (an
// apiserver that verifies kubelet certificates then refuses it: logs and
// exec fail, and `wink up` says so); otherwise one of simnode's CA.
func (s *shared) servingCert(ctx context.Context, name string, ip net.IP, stateDir string, log *slog.Logger) (tls.Certificate, error) {
	if !s.cfg.CSRServingCerts {
		return s.ca.ServingCert(name, ip)
	}
	select {
	case s.csr.turns <- struct{}{}:
	case <-ctx.Done():
		return tls.Certificate{}, ctx.Err()
	}
	defer func() { <-s.csr.turns }()
	if s.csr.refused.Load() {
		return s.ca.ServingCert(name, ip)
	}
	wait, cancel := context.WithCancel(ctx)
	defer cancel()
	timer := time.AfterFunc(csrTimeout, func() {
		if !s.csr.signed.Load() {
			cancel()
		}
	})
	cert, err := kubeletapi.CSRServingCert(wait, s.client, name, ip, filepath.Join(stateDir, "pki"), csrMaxWait)
	timer.Stop()
	switch {
	case err == nil:
		s.csr.signed.Store(true)
		return cert, nil
	case ctx.Err() != nil:
		return tls.Certificate{}, ctx.Err()
	case wait.Err() != nil && !s.csr.signed.Load():
		s.csr.refused.Store(true) // not signed in time, nor any other
	}
	log.Warn("the cluster did not sign the kubelet serving certificate; using simnode's own CA, which an apiserver with --kubelet-certificate-authority does not trust", "err", err)
	return s.ca.ServingCert(name, ip)
}

// waitNodeStatus waits (at most nodeStatusWait) until the Node in the
// informer satisfies ok: a shutting-down kubelet's last status is posted
// before the machine goes.
func (s *shared) waitNodeStatus(ctx context.Context, name string, ok func(*corev1.Node) bool) {
	deadline := time.Now().Add(nodeStatusWait)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if n, err := s.others.Core().V1().Nodes().Lister().Get(name); err == nil && ok(n) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// nodeStatusWait bounds waitNodeStatus.
const nodeStatusWait = 10 * time.Second

// pullBandwidth turns image sizes into pull times: 1 GB/s, so that a
// servercore image takes seconds and nanoserver a fraction of one.
const pullBandwidth = 1 << 30

// serviceAccountToken is the kubelet's TokenRequest for projected
// serviceAccountToken volumes, bound to the pod.
func (s *shared) serviceAccountToken(ctx context.Context, ns, sa, audience string, exp int64, pod *corev1.Pod) (string, error) {
	req := &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{
		ExpirationSeconds: &exp,
		BoundObjectRef:    &authenticationv1.BoundObjectReference{Kind: "Pod", APIVersion: "v1", Name: pod.Name, UID: pod.UID},
	}}
	if audience != "" {
		req.Spec.Audiences = []string{audience}
	}
	tr, err := s.client.CoreV1().ServiceAccounts(ns).CreateToken(ctx, sa, req, metav1.CreateOptions{})
	if err != nil {
		return "", err
	}
	return tr.Status.Token, nil
}

// notifyPower wakes the power switch of the node obj.
func (s *shared) notifyPower(obj interface{}) {
	n, ok := obj.(*corev1.Node)
	if !ok {
		return
	}
	if pw, ok := s.powers.Load(n.Name); ok {
		pw.(*power).notify()
	}
}

// reassertReady pushes the node's own status again when the apiserver's
// copy says it is not Ready while the node is (the node lifecycle
// controller set Ready=Unknown after the process was stopped or frozen, or
// cut off from the apiserver, longer than the node monitor grace period),
// as the kubelet does: every nodeStatusUpdateFrequency it compares the
// status it would write with the apiserver's and patches at once when they
// differ (k8s.io/kubernetes@v1.35.4 pkg/kubelet/kubelet_node_status.go
// tryUpdateNodeStatus, nodeStatusHasChanged), so the node is Ready again
// within seconds, not at the next nodeStatusReportFrequency (5 min).
// Issue 19: a stopped shard's nodes come back.
func (s *shared) reassertReady(obj interface{}) {
	n, ok := obj.(*corev1.Node)
	if !ok || facts.NodeReady(n) {
		return
	}
	p, ok := s.nodeProviders.Load(n.Name)
	if !ok {
		return
	}
	np := p.(*nodes.Provider)
	if facts.NodeReady(np.Node()) {
		np.Update(func(*corev1.Node) {})
	}
}

// syncClientAllocatable sets the allocatable of the extended resources a
// client advertised in the node's status capacity (kubectl patch, a device
// plugin's operator, upstream's e2enode.AddExtendedResource) and drops
// those gone from it, as the kubelet's status update does
// (nodes.SyncClientAllocatable; issue 21, row N5).
func (s *shared) syncClientAllocatable(obj interface{}) {
	n, ok := obj.(*corev1.Node)
	if !ok {
		return
	}
	p, ok := s.nodeProviders.Load(n.Name)
	if !ok {
		return
	}
	np := p.(*nodes.Provider)
	if !nodes.SyncClientAllocatable(np.Node(), n) {
		return
	}
	np.Update(func(own *corev1.Node) { nodes.SyncClientAllocatable(own, n) })
}

// keepTransitionTimes keeps the lastTransitionTime of conditions whose
// status did not change since the node was last served (the kubelet's
// condition setters only move it on a change).
func keepTransitionTimes(node, existing *corev1.Node) {
	for i, c := range node.Status.Conditions {
		for _, old := range existing.Status.Conditions {
			if old.Type == c.Type && old.Status == c.Status && !old.LastTransitionTime.IsZero() {
				node.Status.Conditions[i].LastTransitionTime = old.LastTransitionTime
			}
		}
	}
}

// imageResolver is the registry resolver of cfg.ImageResolve (B4): nil
// when offline without a cache, so pulls read the catalog alone.
func imageResolver(cfg *config.Config) wire.Resolver {
	offline := cfg.ImageResolve != config.ImageResolveRegistry
	if offline && cfg.ImageCacheDir == "" {
		return nil
	}
	r := &registry.Resolver{Offline: offline}
	if cfg.ImageCacheDir != "" {
		r.Cache = &registry.Cache{Dir: cfg.ImageCacheDir}
	}
	return r
}

// errRegistration is a boot that ended before its Node was registered.
var errRegistration = errors.New("error registering the node")

// Registration back-off, the kubelet's (kubelet_node_status.go
// registerWithAPIServer: 100 ms, doubling, at most 7 s).
const (
	registrationRetryFirst = 100 * time.Millisecond
	registrationRetryMax   = 7 * time.Second
)

// bootWhenRegistered is bootNode, tried again with the kubelet's back-off
// while the Node cannot be registered: thousands of nodes registering at
// once get 429s from API Priority and Fairness, and one of them must not
// end the process. Nothing of the failed attempt stays (its pod controller
// never ran, so the shared informer has no handler of it).
func (s *shared) bootWhenRegistered(ctx context.Context, spec nodes.Spec, pw *power, ownPodInformer bool) error {
	step := registrationRetryFirst
	for {
		err := s.bootNode(ctx, spec, pw, ownPodInformer)
		if !errors.Is(err, errRegistration) {
			return err
		}
		s.log.Warn("node not registered; trying again", "err", err, "in", step)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(step):
		}
		step = min(2*step, registrationRetryMax)
	}
}

// podQueueLimiter is the rate limiter of a node's virtual-kubelet pod
// queues: the back-off of a failing pod (5 ms doubling to 1000 s, as
// client-go's default), no overall rate.
func podQueueLimiter() workqueue.TypedRateLimiter[any] {
	return workqueue.NewTypedItemExponentialFailureRateLimiter[any](5*time.Millisecond, 1000*time.Second)
}
