// Package kindcluster is the kind backend: the control plane is a kind
// cluster made with the sigs.k8s.io/kind Go library (never the kind binary),
// and the simulated nodes are one simnode process on the host that the kind
// apiserver reaches through the Docker network's gateway.
//
// Networking. kind puts its node containers on the Docker network "kind" (or
// $KIND_EXPERIMENTAL_DOCKER_NETWORK). The simulated nodes join it through a
// gateway container of their own (GatewayName, harness/internal/kindgateway,
// gateway.go): it holds each node's InternalIP, a block at the top of the
// network's subnet (or from networking.nodeAddressBase), relays what kind's
// nodes and pods send to those addresses and to the simulated pods behind
// them to simnode's egress proxy, and serves simnode a proxy into kind's pod
// network. simnode's kubelet APIs listen on loopback only; both proxies are
// Unix sockets in a directory of the state directory the container mounts.
// The host is the network's gateway address (st.Ports.HostAddress), read
// with the docker CLI (`docker network inspect`, through kind's exec
// package), not the Docker API: kind's docker provider drives the same CLI,
// so DOCKER_HOST and docker contexts are honoured alike and no Docker
// client module is needed. The gateway mounts a directory of this machine,
// so the engine must be local (not Docker Desktop's VM or a remote host).
//
// Kubelet API. kind's kubeadm apiserver runs with
// --kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname (kubeadm's
// default), so it dials InternalIP:port; kind's kubeadm config sets no
// --kubelet-certificate-authority, so the apiserver does not verify kubelet
// serving certificates and simnode's own CA serves. The apiserver's kubelet
// client certificate (CN kube-apiserver-kubelet-client, O
// kubeadm:cluster-admins) is signed by the cluster CA, which the kubeconfig
// carries and simnode receives as its client CA.
package kindcluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/kind/pkg/apis/config/v1alpha4"
	kind "sigs.k8s.io/kind/pkg/cluster"
	"sigs.k8s.io/kind/pkg/exec"
	kindlog "sigs.k8s.io/kind/pkg/log"

	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/harness/internal/cluster"
	"wink.dev/wink/harness/internal/dockershim"
	"wink.dev/wink/harness/internal/pki"
	"wink.dev/wink/harness/internal/simnodeplan"
	"wink.dev/wink/harness/internal/supervisor"
)

const (
	// WaitForReady bounds how long Create waits for the control plane.
	WaitForReady = 2 * time.Minute
	// DockerTimeout bounds DockerAvailable.
	DockerTimeout = 3 * time.Second
	// defaultNetwork is kind's Docker network (docker provider's
	// fixedNetworkName), overridden by networkEnv.
	defaultNetwork = "kind"
	networkEnv     = "KIND_EXPERIMENTAL_DOCKER_NETWORK"
	// defaultDNSDomain is kubeadm's default DNS domain.
	defaultDNSDomain = "cluster.local"
)

// Backend is the kind cluster.Backend.
type Backend struct{}

var _ cluster.Backend = (*Backend)(nil)

// New returns the kind backend.
func New() *Backend {
	return &Backend{}
}

// ClusterName is the kind cluster of a wink cluster: wink-<name>. Its node
// containers are wink-<name>-control-plane etc.
func ClusterName(name string) string {
	return "wink-" + name
}

// KubeconfigPath is the admin kubeconfig of the kind cluster in the state
// directory.
func KubeconfigPath(st *cluster.State) string {
	return filepath.Join(st.Dir, "kubeconfig")
}

// Prepare reuses the kind cluster wink-<name> when it exists and creates it
// otherwise, writes its kubeconfig (context wink-<name>, mode 0600) into the
// state directory, installs metrics-server in it (metrics-server.yaml), and
// sets st.Ports.NodeAddressBase to networking.nodeAddressBase or, when that
// is empty, to the host's address on the kind Docker network (NodeAddress).
// It returns the kubeconfig path.
func (b *Backend) Prepare(ctx context.Context, st *cluster.State, progress io.Writer) (string, error) {
	if err := DockerAvailable(ctx); err != nil {
		return "", fmt.Errorf("kind backend: %w", err)
	}
	engine, err := useEngine(ctx, st)
	if err != nil {
		return "", fmt.Errorf("kind backend: %w", err)
	}
	name := ClusterName(st.Config.Name)
	kubeconfig := KubeconfigPath(st)
	provider := newProvider(progress)

	clusters, err := provider.List()
	if err != nil {
		return "", fmt.Errorf("kind backend: listing kind clusters: %w", err)
	}
	switch {
	case slices.Contains(clusters, name) && !created(st):
		return "", fmt.Errorf("kind backend: a kind cluster %q exists that this wink cluster did not create; wink leaves it alone: delete it (kind delete cluster --name %s) or give this cluster another name", name, name)
	case slices.Contains(clusters, name):
		fmt.Fprintf(progress, "Reusing kind cluster %q\n", name)
	default:
		if err := checkNodeImage(ctx, st.Config); err != nil {
			return "", fmt.Errorf("kind backend: %w", err)
		}
		if err := os.MkdirAll(st.Dir, 0o700); err != nil {
			return "", fmt.Errorf("kind backend: %w", err)
		}
		// Marked before kind starts, so that a failed create is still
		// this cluster's to delete.
		if err := os.WriteFile(filepath.Join(st.Dir, createdFile), []byte(name+"\n"), 0o600); err != nil {
			return "", fmt.Errorf("kind backend: %w", err)
		}
		if err := provider.Create(name, createOptions(st.Config, engine, kubeconfig)...); err != nil {
			return "", fmt.Errorf("kind backend: creating kind cluster %q: %w", name, err)
		}
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}

	raw, err := provider.KubeConfig(name, false)
	if err != nil {
		return "", fmt.Errorf("kind backend: kubeconfig of kind cluster %q (are its containers running? `docker start %s-control-plane`): %w", name, name, err)
	}
	data, err := renameContext([]byte(raw), pki.ContextName(st.Config.Name))
	if err != nil {
		return "", fmt.Errorf("kind backend: kubeconfig of kind cluster %q: %w", name, err)
	}
	if err := pki.WriteFile(kubeconfig, data, 0o600); err != nil {
		return "", fmt.Errorf("kind backend: %w", err)
	}

	if err := installMetricsServer(ctx, kubeconfig, st.Config); err != nil {
		return "", fmt.Errorf("kind backend: installing metrics-server: %w", err)
	}

	host, err := NodeAddress(ctx)
	if err != nil {
		return "", fmt.Errorf("kind backend: %w", err)
	}
	st.Ports.HostAddress = host.String()
	if err := checkSocketPaths(st); err != nil {
		return "", fmt.Errorf("kind backend: %w", err)
	}
	if err := os.MkdirAll(GatewayDir(st), 0o700); err != nil {
		return "", fmt.Errorf("kind backend: %w", err)
	}
	image, err := docker(ctx, "inspect", "--format", "{{.Config.Image}}", name+"-control-plane")
	if err != nil {
		return "", fmt.Errorf("kind backend: the node image of kind cluster %q: %w", name, err)
	}
	first, err := ensureGateway(ctx, st, strings.TrimSpace(image), kubeconfig)
	if err != nil {
		return "", fmt.Errorf("kind backend: network gateway: %w", err)
	}
	st.Ports.NodeAddressBase = first.String()
	return kubeconfig, nil
}

// createdFile, in the state directory, marks the kind cluster as made by
// this wink cluster: wink deletes no kind cluster it did not create.
const createdFile = "kind-cluster"

// created reports whether this wink cluster created its kind cluster.
func created(st *cluster.State) bool {
	_, err := os.Stat(filepath.Join(st.Dir, createdFile))
	return err == nil
}

// useEngine probes the Docker engine once (dockershim.Setup, kept under
// the wink home) and, where it refuses --privileged, puts the docker shim
// first on this process's PATH, where kind's docker provider looks its
// CLI up on every call. The shim passes every other command through.
func useEngine(ctx context.Context, st *cluster.State) (dockershim.Engine, error) {
	dir, engine, err := dockershim.Setup(ctx, filepath.Dir(st.Dir), st.Binary)
	if err != nil || dir == "" {
		return engine, err
	}
	path := os.Getenv("PATH")
	if !slices.Contains(filepath.SplitList(path), dir) {
		if err := os.Setenv("PATH", dir+string(filepath.ListSeparator)+path); err != nil {
			return engine, err
		}
	}
	return engine, nil
}

// WinkNodeImage is the repository of wink's own kind node image (make
// kind-node-image), which no registry serves.
const WinkNodeImage = "wink.dev/kind-node"

// checkNodeImage refuses, before kind starts, a wink node image that is
// not in the engine: kind would try to pull it and fail after a minute.
func checkNodeImage(ctx context.Context, cfg *v1alpha1.Cluster) error {
	if cfg.KindBackend == nil || !strings.HasPrefix(cfg.KindBackend.NodeImage, WinkNodeImage+":") {
		return nil
	}
	image := cfg.KindBackend.NodeImage
	if err := dockerCommand(ctx, "image", "inspect", image).Run(); err != nil {
		return fmt.Errorf("kindBackend.nodeImage %s is not in the Docker engine and no registry serves it: build it with `make kind-node-image` (KIND_NODE_TAG=%s)", image, image)
	}
	return nil
}

// Components returns simnode's setup task and process (see simnodeplan),
// with the kind kubeconfig, which is cluster-admin.
func (b *Backend) Components(st *cluster.State) ([]supervisor.Component, error) {
	if st.Ports.NodeAddressBase == "" {
		return nil, errors.New("kind backend: no node address (Prepare has not run)")
	}
	return simnodeplan.Components(st, KubeconfigPath(st), Network(st)), nil
}

// Delete deletes the kind cluster wink-<name>; deleting one that does not
// exist is not an error. kind also removes its entries from the state
// directory's kubeconfig (none, since Prepare renames them), so call it before
// removing the state directory.
func (b *Backend) Delete(ctx context.Context, st *cluster.State) error {
	if err := DockerAvailable(ctx); err != nil {
		return fmt.Errorf("kind backend: %w", err)
	}
	if !created(st) {
		return nil // not ours: left alone
	}
	if _, err := useEngine(ctx, st); err != nil {
		return fmt.Errorf("kind backend: %w", err)
	}
	name := ClusterName(st.Config.Name)
	if err := removeGateway(ctx, st); err != nil {
		return fmt.Errorf("kind backend: %w", err)
	}
	// An explicit kubeconfig path keeps kind away from $KUBECONFIG and
	// ~/.kube/config.
	if err := newProvider(io.Discard).Delete(name, KubeconfigPath(st)); err != nil {
		return fmt.Errorf("kind backend: deleting kind cluster %q: %w", name, err)
	}
	return nil
}

// newProvider returns a kind provider on Docker that logs to progress.
// Docker rather than kind's DetectNodeProvider, because NodeAddress needs the
// docker CLI; DockerAvailable has checked it.
func newProvider(progress io.Writer) *kind.Provider {
	return kind.NewProvider(
		kind.ProviderWithLogger(&logger{w: progress}),
		kind.ProviderWithDocker(),
	)
}

// createOptions are the options of provider.Create for cfg on engine.
func createOptions(cfg *v1alpha1.Cluster, engine dockershim.Engine, kubeconfig string) []kind.CreateOption {
	opts := []kind.CreateOption{
		kind.CreateWithV1Alpha4Config(KindConfig(cfg, engine)),
		kind.CreateWithWaitForReady(WaitForReady),
		// Explicit, so that kind never merges into $KUBECONFIG or
		// ~/.kube/config.
		kind.CreateWithKubeconfigPath(kubeconfig),
	}
	if cfg.KindBackend != nil && cfg.KindBackend.NodeImage != "" {
		opts = append(opts, kind.CreateWithNodeImage(cfg.KindBackend.NodeImage))
	}
	return opts
}

// KindConfig is the kind configuration of cfg: one control-plane node (the
// worker nodes are simulated), wink's pod and Service subnets and, when it is
// not cluster.local, its DNS domain as a kubeadm patch. The node image is
// given separately (CreateWithNodeImage). networking.nodeCIDRMaskSize is not
// passed on: kind's controller manager uses kubeadm's default, 24, which is
// wink's default too.
//
// On a cgroup v1 host the kubelet is told failCgroupV1: false (kubelet
// 1.35 refuses v1 by default), and where the engine cannot grant
// CAP_SYS_RESOURCE containerd leaves the oom_score_adj it cannot lower
// (restrict_oom_score_adj, as kind does in a user namespace); wink's node
// image does both at boot as well, for the kind CLI.
func KindConfig(cfg *v1alpha1.Cluster, engine dockershim.Engine) *v1alpha4.Cluster {
	c := &v1alpha4.Cluster{
		TypeMeta: v1alpha4.TypeMeta{Kind: "Cluster", APIVersion: "kind.x-k8s.io/v1alpha4"},
		Nodes:    []v1alpha4.Node{{Role: v1alpha4.ControlPlaneRole}},
		Networking: v1alpha4.Networking{
			PodSubnet:     cfg.Networking.PodSubnet,
			ServiceSubnet: cfg.Networking.ServiceSubnet,
		},
	}
	if d := cfg.Networking.DNSDomain; d != "" && d != defaultDNSDomain {
		c.KubeadmConfigPatches = append(c.KubeadmConfigPatches, fmt.Sprintf(
			"kind: ClusterConfiguration\nnetworking:\n  dnsDomain: %q\n", d))
	}
	if engine.CgroupV1 {
		c.KubeadmConfigPatches = append(c.KubeadmConfigPatches, "kind: KubeletConfiguration\nfailCgroupV1: false\n")
	}
	if slices.Contains(engine.DropCaps, "SYS_RESOURCE") {
		c.ContainerdConfigPatches = append(c.ContainerdConfigPatches,
			"[plugins.\"io.containerd.grpc.v1.cri\"]\n  restrict_oom_score_adj = true\n")
	}
	return c
}

// renameContext rewrites a kind kubeconfig (one cluster, user and context,
// all named kind-<cluster>) so that all three are named context, as the
// embedded backend's are.
func renameContext(raw []byte, context string) ([]byte, error) {
	cfg, err := clientcmd.Load(raw)
	if err != nil {
		return nil, err
	}
	cur, ok := cfg.Contexts[cfg.CurrentContext]
	if !ok {
		return nil, fmt.Errorf("no current context %q", cfg.CurrentContext)
	}
	c, ok := cfg.Clusters[cur.Cluster]
	if !ok {
		return nil, fmt.Errorf("context %q names no cluster", cfg.CurrentContext)
	}
	u, ok := cfg.AuthInfos[cur.AuthInfo]
	if !ok {
		return nil, fmt.Errorf("context %q names no user", cfg.CurrentContext)
	}
	out := clientcmdapi.NewConfig()
	out.Clusters[context] = c
	out.AuthInfos[context] = u
	out.Contexts[context] = &clientcmdapi.Context{Cluster: context, AuthInfo: context}
	out.CurrentContext = context
	return clientcmd.Write(*out)
}

// DockerAvailable says, within DockerTimeout, why Docker cannot be used: no
// docker CLI on PATH, or no Docker engine answering it. Nil means both are
// there.
func DockerAvailable(ctx context.Context) error {
	if _, err := osexec.LookPath("docker"); err != nil {
		return fmt.Errorf("no docker CLI: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, DockerTimeout)
	defer cancel()
	lines, err := exec.CombinedOutputLines(dockerCommand(ctx, "version", "--format", "{{.Server.Version}}"))
	if ctx.Err() != nil {
		return fmt.Errorf("the Docker engine did not answer `docker version` in time: %w", ctx.Err())
	}
	if err != nil {
		msg := strings.TrimSpace(strings.Join(lines, " "))
		if msg == "" {
			return fmt.Errorf("the Docker engine does not answer: %w", err)
		}
		return fmt.Errorf("the Docker engine does not answer: %s: %w", msg, err)
	}
	return nil
}

// dockerCommand is `docker args...` through kind's exec package (whose errors
// carry the output), killed when ctx ends. WaitDelay bounds the wait for its
// output pipes after that, which kind's exec leaves unbounded: a child the CLI
// started could otherwise hold them open past the deadline.
func dockerCommand(ctx context.Context, args ...string) exec.Cmd {
	cmd := &exec.LocalCmd{Cmd: osexec.CommandContext(ctx, "docker", args...)}
	cmd.WaitDelay = 500 * time.Millisecond
	return cmd
}

// NetworkName is the Docker network of kind's node containers: "kind", or
// $KIND_EXPERIMENTAL_DOCKER_NETWORK as kind's docker provider reads it.
func NetworkName() string {
	if n := os.Getenv(networkEnv); n != "" {
		return n
	}
	return defaultNetwork
}

// NodeAddress returns the address kind's node containers reach the host on:
// the gateway of the Docker network NetworkName, read with
// `docker network inspect`.
func NodeAddress(ctx context.Context) (net.IP, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	network := NetworkName()
	out, err := docker(ctx, "network", "inspect", network)
	if err != nil {
		return nil, err
	}
	ip, err := ParseGateway([]byte(out))
	if err != nil {
		return nil, fmt.Errorf("docker network %s: %w", network, err)
	}
	return ip, nil
}

// networkInspect is the part of `docker network inspect` output that
// ParseGateway and the gateway's address allocation (freeBlock) read.
type networkInspect struct {
	Name string `json:"Name"`
	IPAM struct {
		Config []struct {
			Subnet  string `json:"Subnet"`
			Gateway string `json:"Gateway"`
		} `json:"Config"`
	} `json:"IPAM"`
	Containers map[string]struct {
		IPv4Address string `json:"IPv4Address"`
	} `json:"Containers"`
}

// ParseGateway reads the output of `docker network inspect <network>` (a JSON
// array of one network) and returns its IPv4 gateway, or its IPv6 gateway
// when it has no IPv4 subnet. A subnet without a Gateway field gets Docker's
// default, the subnet's first address.
func ParseGateway(data []byte) (net.IP, error) {
	var networks []networkInspect
	if err := json.Unmarshal(data, &networks); err != nil {
		return nil, fmt.Errorf("parsing docker network inspect output: %w", err)
	}
	if len(networks) != 1 {
		return nil, fmt.Errorf("docker network inspect returned %d networks, want 1", len(networks))
	}
	var v4, v6 net.IP
	var errs []error
	for _, c := range networks[0].IPAM.Config {
		gw := net.ParseIP(c.Gateway)
		if gw == nil {
			_, subnet, err := net.ParseCIDR(c.Subnet)
			if err != nil {
				errs = append(errs, fmt.Errorf("IPAM config %q/%q: %w", c.Subnet, c.Gateway, err))
				continue
			}
			gw = firstAddress(subnet)
		}
		if gw.To4() != nil {
			if v4 == nil {
				v4 = gw.To4()
			}
		} else if v6 == nil {
			v6 = gw
		}
	}
	switch {
	case v4 != nil:
		return v4, nil
	case v6 != nil:
		return v6, nil
	}
	return nil, errors.Join(append([]error{fmt.Errorf("network %q has no gateway in its IPAM config", networks[0].Name)}, errs...)...)
}

// firstAddress is the subnet's network address plus one.
func firstAddress(subnet *net.IPNet) net.IP {
	ip := slices.Clone(subnet.IP)
	if v4 := ip.To4(); v4 != nil {
		ip = v4
	}
	for i := len(ip) - 1; i >= 0; i-- {
		ip[i]++
		if ip[i] != 0 {
			break
		}
	}
	return ip
}

// logger is a kind log.Logger that writes user-facing messages (V(0),
// warnings, errors) to w, one line each.
type logger struct {
	mu sync.Mutex
	w  io.Writer
}

var _ kindlog.Logger = (*logger)(nil)

func (l *logger) print(prefix, msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !strings.HasSuffix(msg, "\n") {
		msg += "\n"
	}
	_, _ = io.WriteString(l.w, prefix+msg)
}

// Warn implements kindlog.Logger.
func (l *logger) Warn(message string) { l.print("WARNING: ", message) }

// Warnf implements kindlog.Logger.
func (l *logger) Warnf(format string, args ...any) {
	l.print("WARNING: ", fmt.Sprintf(format, args...))
}

// Error implements kindlog.Logger.
func (l *logger) Error(message string) { l.print("ERROR: ", message) }

// Errorf implements kindlog.Logger.
func (l *logger) Errorf(format string, args ...any) {
	l.print("ERROR: ", fmt.Sprintf(format, args...))
}

// V implements kindlog.Logger: only level 0 is shown.
func (l *logger) V(level kindlog.Level) kindlog.InfoLogger {
	return infoLogger{l: l, enabled: level <= 0}
}

// infoLogger is the kindlog.InfoLogger of one level.
type infoLogger struct {
	l       *logger
	enabled bool
}

// Info implements kindlog.InfoLogger.
func (i infoLogger) Info(message string) {
	if i.enabled {
		i.l.print("", message)
	}
}

// Infof implements kindlog.InfoLogger.
func (i infoLogger) Infof(format string, args ...any) {
	if i.enabled {
		i.l.print("", fmt.Sprintf(format, args...))
	}
}

// Enabled implements kindlog.InfoLogger.
func (i infoLogger) Enabled() bool { return i.enabled }
