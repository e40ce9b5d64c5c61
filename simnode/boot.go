package simnode

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"time"

	vklog "github.com/virtual-kubelet/virtual-kubelet/log"
	"github.com/virtual-kubelet/virtual-kubelet/node"
	"golang.org/x/sync/errgroup"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	corev1informers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes/scheme"
	corev1listers "k8s.io/client-go/listers/core/v1"

	"wink.dev/wink/simnode/config"
	"wink.dev/wink/simnode/egress"
	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/internal/events"
	"wink.dev/wink/simnode/internal/kubeletapi"
	"wink.dev/wink/simnode/internal/logs"
	"wink.dev/wink/simnode/internal/nodes"
	"wink.dev/wink/simnode/internal/pods"
	"wink.dev/wink/simnode/internal/pods/containerenv"
	"wink.dev/wink/simnode/internal/pods/wire"
	"wink.dev/wink/simnode/internal/shutdown"
	"wink.dev/wink/simnode/internal/statuspatch"
	"wink.dev/wink/simnode/internal/volumes"
)

// nodeBoot is one boot of a simulated node: what bootNode's steps make, in
// order, and the later steps use.
type nodeBoot struct {
	name     string
	spec     nodes.Spec
	log      *slog.Logger
	stateDir string
	bootID   string

	// buildNode: the Node object and what the previous boot left in the API.
	nodeObj      *corev1.Node
	info         *nodes.Info
	nodeProvider *nodes.Provider
	nodeLister   corev1listers.NodeLister
	// registered: the Node is new; rebooted: the Node shows another boot's
	// bootID (setters.go MachineInfo), its pods' containers did not survive.
	registered, rebooted, wasReady bool

	recorder    events.Filtered
	nodeRef     *corev1.ObjectReference
	podInformer corev1informers.PodInformer

	// newRuntime and newShutdownManager.
	activePods  func() []*corev1.Pod
	intro       *introspection
	logs        *logs.Store
	podProvider *pods.Provider
	shutdownMgr *shutdown.Manager
}

// bootNode serves one boot of a node until ctx is done or the node shut
// down (then the machine is marked off and bootNode returns nil).
func (s *shared) bootNode(ctx context.Context, spec nodes.Spec, pw *power, ownPodInformer bool) error {
	name := config.NodeName(spec.ClusterName, spec.Pool.Name, spec.Index)
	b := &nodeBoot{name: name, spec: spec, log: s.log.With("node", name), stateDir: filepath.Join(s.cfg.StateDir, "nodes", name)}
	ctx, endBoot := context.WithCancel(ctx)
	defer endBoot()
	ctx = vklog.WithLogger(ctx, newVKLogger(s.vkLog.With("node", name)))

	bootID, err := nodes.LoadBootID(b.stateDir)
	if err != nil {
		return fmt.Errorf("node %s: %w", name, err)
	}
	b.bootID, b.spec.BootID = bootID, bootID
	listener, err := s.listenKubelet(b)
	if err != nil {
		return fmt.Errorf("node %s: %w", name, err)
	}
	defer listener.Close()
	if err := s.buildNode(b); err != nil {
		return err
	}
	stopInformer, err := s.podInformer(ctx, b, ownPodInformer)
	defer func() {
		endBoot() // the informer stops with ctx, which its shutdown waits for
		stopInformer()
	}()
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	osPower := &osShutdown{pw: pw, ctx: ctx, log: b.log.With("part", "power")}
	defer osPower.stop()
	s.newRuntime(b, osPower)
	s.newShutdownManager(b)
	s.providers.Store(name, b.podProvider)
	defer s.providers.Delete(name)
	s.nodeProviders.Store(name, b.nodeProvider)
	defer s.nodeProviders.Delete(name)
	s.seedPods(b)
	nc, pc, err := s.newControllers(b)
	if err != nil {
		return err
	}
	srv, nodeRes, err := s.newKubeletAPI(ctx, b, listener)
	if err != nil {
		return err
	}
	return s.serveBoot(ctx, b, pw, endBoot, srv, nodeRes, nc, pc)
}

// listenKubelet opens the kubelet API's listener and sets the port the node
// reports. The kubelet API listens on InternalIP:KubeletPort (or
// ListenAddress), falling back to a free port that the node then reports.
// With the egress proxy, the InternalIP is simulated: the node reports
// KubeletPort and the proxy hands the connections to
// <InternalIP>:<KubeletPort> to the node's server without a socket of its
// own (egress.ConnListener): 5,000 nodes need no 5,000 listening
// descriptors (issue 20).
func (s *shared) listenKubelet(b *nodeBoot) (net.Listener, error) {
	if s.routes != nil {
		b.spec.KubeletPort = int32(s.cfg.KubeletPort)
		simulated := net.JoinHostPort(b.spec.InternalIP.String(), strconv.Itoa(s.cfg.KubeletPort))
		addr, err := net.ResolveTCPAddr("tcp", simulated)
		if err != nil {
			return nil, err
		}
		l := egress.NewConnListener(addr)
		s.routes.SetListener(simulated, l)
		return l, nil
	}
	host, wantPort := b.spec.InternalIP.String(), int(b.spec.KubeletPort)
	if s.cfg.ListenAddress != "" {
		host = s.cfg.ListenAddress
	}
	listener, port, err := kubeletapi.Listen(host, wantPort)
	if err != nil {
		return nil, err
	}
	b.spec.KubeletPort = int32(port)
	return listener, nil
}

// buildNode builds the Node object of this boot (N1–N7) and reads what the
// API holds of the previous one.
func (s *shared) buildNode(b *nodeBoot) error {
	nodeObj, info, err := nodes.Build(s.rules, b.spec, time.Now())
	if err != nil {
		return err
	}
	b.nodeObj, b.info, b.registered = nodeObj, info, true
	b.nodeLister = s.others.Core().V1().Nodes().Lister()
	if existing, err := b.nodeLister.Get(b.name); err == nil {
		keepTransitionTimes(nodeObj, existing)
		b.registered = false
		old := existing.Status.NodeInfo.BootID
		b.rebooted = old != "" && old != b.bootID
		b.wasReady = facts.NodeReady(existing)
	}
	b.nodeProvider = nodes.NewProvider(nodeObj)
	b.recorder = events.Filtered{EventRecorder: s.broadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: "kubelet", Host: b.name})}
	// The kubelet's nodeRef (kubelet.go): no UID, no namespace.
	b.nodeRef = &corev1.ObjectReference{APIVersion: "v1", Kind: "Node", Name: b.name}
	return nil
}

// podInformer sets the informer of the node's pods: the shared one, or,
// with own, one of the boot's own, watching only the node's pods, synced
// before it returns. stop shuts the own informer down once ctx is done;
// call it also when podInformer fails.
func (s *shared) podInformer(ctx context.Context, b *nodeBoot, own bool) (stop func(), err error) {
	b.podInformer = s.pods.Core().V1().Pods()
	if !own {
		return func() {}, nil
	}
	f := informers.NewSharedInformerFactoryWithOptions(s.client, 0, informers.WithTweakListOptions(func(o *metav1.ListOptions) {
		o.FieldSelector = "spec.nodeName=" + b.name
	}))
	b.podInformer = f.Core().V1().Pods()
	b.podInformer.Informer()
	f.Start(ctx.Done())
	for typ, ok := range f.WaitForCacheSync(ctx.Done()) {
		if !ok {
			return f.Shutdown, fmt.Errorf("node %s: informer for %v did not sync", b.name, typ)
		}
	}
	return f.Shutdown, nil
}

// newRuntime makes the node's pod runtime (simnode/internal/pods) with its
// disk, volumes, shell, images and network. Containers survive a restart of
// simnode as a real node's survive a kubelet restart: container logs at
// <node>/root/var/log/pods (C:\var\log\pods), and the runtime's records,
// emptyDirs and container layers under <node>/runtime.
func (s *shared) newRuntime(b *nodeBoot, osPower *osShutdown) {
	b.intro = s.newIntrospection(b.spec, b.info, func() int { return len(b.activePods()) })
	// The container log manager rotates with the node's /configz values
	// (issue 22); serveBoot starts it.
	store := logs.NewFileStore(filepath.Join(b.stateDir, "root"), nodes.LogRotationOf(b.intro.config))
	b.logs = store
	runtimeDir := filepath.Join(b.stateDir, "runtime")
	volNode := volumes.NewNode(b.info.OS)
	volNode.SetStateDir(runtimeDir)
	// The logs are on the host's disk where the kubelet keeps them, for
	// HostProcess containers and hostPath volumes (log collectors).
	volNode.SetLogDirs(map[string]string{"/var/log/pods": store.PodsDir(), "/var/log/containers": store.ContainersDir()})
	volNode.SetHostname(b.name)
	volNode.SetAllocatable(b.nodeObj.Status.Allocatable)
	cmLister := s.others.Core().V1().ConfigMaps().Lister()
	secretLister := s.others.Core().V1().Secrets().Lister()
	b.activePods = func() []*corev1.Pod {
		var out []*corev1.Pod
		for _, p := range s.nodePods(b.name) {
			if p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed {
				out = append(out, p)
			}
		}
		return out
	}
	b.podProvider = pods.NewProvider(pods.Config{
		Node:   b.info,
		Rules:  s.rules,
		Client: s.client,
		Pods:   s.pods.Core().V1().Pods().Lister(),
		NodeObject: func() *corev1.Node {
			if n, err := b.nodeLister.Get(b.name); err == nil {
				return n
			}
			return b.nodeProvider.Node()
		},
		Recorder:   b.recorder,
		Logs:       store,
		StartDelay: s.cfg.PodStartDelay.Duration,
		StopDelay:  s.cfg.PodStopDelay.Duration,
		Log:        b.log,
		// The simulated runtime (issue: containers run their commands).
		Shell:  wire.Shell{},
		Images: wire.Images{Catalog: s.images, Strict: s.cfg.StrictImages, Registry: s.registry, Secrets: secretLister},
		Volumes: wire.Volumes{Node: volNode, Source: wire.Source{
			ConfigMaps: cmLister, Secrets: secretLister, Token: s.serviceAccountToken,
		}},
		Network: wire.Network{Model: s.network},
		Objects: containerenv.Objects{
			ConfigMaps: cmLister, Secrets: secretLister,
			Services: s.others.Core().V1().Services().Lister(),
		},
		RuntimeClasses: wire.RuntimeClasses(s.others.Node().V1().RuntimeClasses().Lister()),
		PullBandwidth:  pullBandwidth,
		ShuttingDown:   func() bool { return b.shutdownMgr.ShuttingDown() },
		Rebooted:       b.rebooted,
		StateDir:       runtimeDir,
		Metrics:        b.intro.metrics,
		Host:           pods.HostConfig{Accounts: s.accounts(b.name), Power: osPower, BootTime: time.Now()},
	})
}

// newShutdownManager makes the node shutdown manager (B15), which kills
// the pods through the runtime.
func (s *shared) newShutdownManager(b *nodeBoot) {
	b.shutdownMgr = shutdown.New(shutdown.Config{
		Rules:      s.rules,
		Node:       b.info,
		ActivePods: b.activePods,
		Kill:       b.podProvider.Terminate,
		NotReady: func() {
			var changed bool
			b.nodeProvider.Update(func(n *corev1.Node) { changed = nodes.SetShuttingDown(n, s.rules, time.Now()) })
			if changed {
				b.recorder.Event(b.nodeRef, corev1.EventTypeNormal, nodes.EventNodeNotReady, s.rules.NodeShutdown.NotReadyMessage(b.name))
			}
		},
		Recorder: b.recorder,
		Log:      b.log.With("part", "shutdown"),
		// The pool's kubelet configuration (B15); nil takes the rules'.
		ShutdownGracePeriod:             b.spec.Pool.ShutdownGracePeriod,
		ShutdownGracePeriodCriticalPods: b.spec.Pool.ShutdownGracePeriodCriticalPods,
	})
}

// seedPods gives the runtime the node's pods the informer already holds
// (their containers resume, or are gone after a reboot) and collects the
// garbage of pods that are gone.
func (s *shared) seedPods(b *nodeBoot) {
	existing, err := b.podInformer.Lister().List(labels.Everything())
	if err != nil {
		return
	}
	var mine []*corev1.Pod
	for _, p := range existing {
		if p.Spec.NodeName == b.name {
			mine = append(mine, p)
		}
	}
	b.podProvider.Seed(mine)
	b.podProvider.CollectGarbage(mine)
}

// newControllers makes virtual-kubelet's node controller (status, lease)
// and pod controller (the node's pods, run by the runtime).
func (s *shared) newControllers(b *nodeBoot) (*node.NodeController, *node.PodController, error) {
	// The kubelet's write path, from the pool's KubeletConfiguration
	// (nodes.WritePath): the lease renewed every quarter of its duration
	// (10 s by default), an unchanged status posted every
	// nodeStatusReportFrequency (5 m), a change when it happens (the
	// kubelet notices one within nodeStatusUpdateFrequency, 10 s), events
	// at eventRecordQPS/eventBurst (50/100).
	wp := nodes.WritePathOf(b.intro.config)
	s.events.SetLimit(b.name, events.Limit{QPS: wp.EventQPS, Burst: wp.EventBurst})
	nc, err := node.NewNodeController(b.nodeProvider, b.nodeObj, s.client.CoreV1().Nodes(),
		node.WithNodeEnableLeaseV1(s.client.CoordinationV1().Leases(corev1.NamespaceNodeLease), wp.LeaseDurationSeconds),
		node.WithNodeStatusUpdateInterval(wp.StatusReport),
	)
	if err != nil {
		return nil, nil, fmt.Errorf("node %s: node controller: %w", b.name, err)
	}
	pc, err := node.NewPodController(node.PodControllerConfig{
		// Status writes as the kubelet's status manager makes them
		// (statuspatch): a patch from the status the API shows, none when
		// nothing changed.
		PodClient:         statuspatch.New(s.client.CoreV1(), b.podInformer.Lister()),
		PodInformer:       b.podInformer,
		EventRecorder:     b.recorder,
		Provider:          b.podProvider,
		ConfigMapInformer: s.others.Core().V1().ConfigMaps(),
		SecretInformer:    s.others.Core().V1().Secrets(),
		ServiceInformer:   s.others.Core().V1().Services(),
		PodEventFilterFunc: func(_ context.Context, p *corev1.Pod) bool {
			return p.Spec.NodeName == b.name
		},
		// Environment variables are resolved by the simulated runtime
		// itself (pods/env.go, as makeEnvironmentVariables); virtual-
		// kubelet's resolution would mark a pod ProviderFailed on a missing
		// ConfigMap, which no kubelet does.
		SkipDownwardAPIResolution: true,
		// virtual-kubelet's default queue limiter (client-go's
		// DefaultTypedControllerRateLimiter) holds each node's pod syncs
		// and status writes to 10/s after a burst of 100, which no kubelet
		// does (its pod workers and status manager have no such limit):
		// only the per-pod back-off of a failing item stays.
		SyncPodsFromKubernetesRateLimiter:    podQueueLimiter(),
		SyncPodStatusFromProviderRateLimiter: podQueueLimiter(),
		DeletePodsFromKubernetesRateLimiter:  podQueueLimiter(),
	})
	if err != nil {
		return nil, nil, fmt.Errorf("node %s: pod controller: %w", b.name, err)
	}
	return nc, pc, nil
}

// newKubeletAPI makes the node's kubelet API server on listener, with its
// serving certificate, webhook authentication and the resources (stats,
// metrics, eviction: resources.go).
func (s *shared) newKubeletAPI(ctx context.Context, b *nodeBoot, listener net.Listener) (*kubeletapi.Server, *nodeResources, error) {
	auth, err := kubeletapi.WebhookAuth(s.client, b.name, s.clientCA, s.verified)
	if err != nil {
		return nil, nil, err
	}
	cert, err := s.servingCert(ctx, b.name, b.spec.InternalIP, b.stateDir, b.log)
	if err != nil {
		return nil, nil, err
	}
	nodeRes := s.newNodeResources(b.name, b.spec, b.info, b.nodeProvider, b.podProvider, b.recorder, b.log)
	srv := kubeletapi.NewServer(listener, cert, auth, nodeRes.handler(kubeletapi.WithIntrospection(kubeletapi.Lazy(func() http.Handler { return kubeletapi.Handler(b.podProvider) }), b.intro)), b.log)
	return srv, nodeRes, nil
}

// serveBoot runs the boot's parts until ctx is done or one fails: the
// kubelet API, the resources, the node controller, the pod controller once
// the node is registered (after the node's events), and the machine's power
// switch (power.go): a shutdown runs the node shutdown manager (B15), marks
// the machine off and ends the boot.
func (s *shared) serveBoot(ctx context.Context, b *nodeBoot, pw *power, endBoot func(), srv *kubeletapi.Server, nodeRes *nodeResources, nc *node.NodeController, pc *node.PodController) error {
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return srv.Serve(gctx) })
	g.Go(func() error { return nodeRes.run(gctx) })
	b.logs.Start(gctx)
	g.Go(func() error {
		if err := nc.Run(gctx); err != nil && gctx.Err() == nil {
			select {
			case <-nc.Ready():
			default:
				// Not registered (an apiserver that sheds load, 429):
				// runNode tries again, as the kubelet does.
				return fmt.Errorf("node %s: %w: %w", b.name, errRegistration, err)
			}
			return fmt.Errorf("node %s: node controller: %w", b.name, err)
		}
		return nil
	})
	g.Go(func() error {
		select {
		case <-nc.Ready():
		case <-nc.Done():
			return nil
		case <-gctx.Done():
			return nil
		}
		s.registrationEvents(b)
		if err := pc.Run(gctx, podSyncWorkers); err != nil && gctx.Err() == nil {
			return fmt.Errorf("node %s: pod controller: %w", b.name, err)
		}
		return nil
	})
	g.Go(func() error {
		select {
		case <-nc.Ready():
		case <-gctx.Done():
			return nil
		}
		if !pw.waitShutdown(gctx) {
			return nil
		}
		b.log.Info("node shutting down", "kubeletVersion", b.info.KubeletVersion, "gracefulShutdown", b.shutdownMgr.Enabled())
		b.shutdownMgr.Shutdown(gctx)
		if b.shutdownMgr.Enabled() {
			s.waitNodeStatus(gctx, b.name, func(n *corev1.Node) bool { return !facts.NodeReady(n) })
		}
		if gctx.Err() != nil {
			return nil
		}
		if err := pw.markOff(b.bootID); err != nil {
			return err
		}
		b.log.Info("node is down", "bootID", b.bootID)
		endBoot()
		return nil
	})
	return g.Wait()
}

// registrationEvents records the node's events of a boot once it is
// registered: the kubelet's start events, Rebooted (N3: setters.go
// MachineInfo and ReadyCondition; a NotReady or silent node is Ready
// again), and NodeReady for a node that was not Ready before.
func (s *shared) registrationEvents(b *nodeBoot) {
	b.log.Info("node registered", "internalIP", b.info.InternalIP, "kubeletPort", b.spec.KubeletPort, "kubeletVersion", b.nodeObj.Status.NodeInfo.KubeletVersion, "os", b.info.OS, "new", b.registered, "bootID", b.bootID)
	for _, e := range s.rules.NodeEventsFor(b.info.OS, b.name, b.registered) {
		b.recorder.Event(b.nodeRef, corev1.EventTypeNormal, e.Reason, e.Message)
	}
	if b.rebooted {
		b.recorder.Event(b.nodeRef, corev1.EventTypeWarning, s.rules.Reboot.EventReason, s.rules.Reboot.EventMessage(b.name, b.bootID))
	}
	if !b.registered && !b.wasReady {
		b.recorder.Event(b.nodeRef, corev1.EventTypeNormal, nodes.EventNodeReady, s.rules.Reboot.ReadyMessage(b.name))
	}
}
