// Package existing is the backend for a cluster that wink does not run: any
// cluster a kubeconfig reaches. wink only adds simulated nodes to it (one
// simnode process on this machine), and deleting the wink cluster leaves the
// cluster itself alone.
//
// The cluster's apiserver reaches the simulated kubelets at their InternalIP,
// so that must be an address of this machine the cluster can route to:
// networking.nodeAddressBase when it is set, otherwise the local address this
// machine uses towards the apiserver, or (when that is a loopback address,
// e.g. a port-forwarded or kind apiserver) the first non-loopback IPv4
// address of an interface that is up. simnode listens on 0.0.0.0.
package existing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"k8s.io/client-go/discovery"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"wink.dev/wink/harness/internal/cluster"
	"wink.dev/wink/harness/internal/pki"
	"wink.dev/wink/harness/internal/simnodeplan"
	"wink.dev/wink/harness/internal/supervisor"
)

// ListenAddress is where simnode's kubelet APIs listen: every interface.
const ListenAddress = "0.0.0.0"

// Backend is the existing-cluster cluster.Backend.
type Backend struct{}

var _ cluster.Backend = (*Backend)(nil)

// New returns the existing-cluster backend.
func New() *Backend {
	return &Backend{}
}

// KubeconfigPath is the copy of the user's kubeconfig in the state directory.
func KubeconfigPath(st *cluster.State) string {
	return filepath.Join(st.Dir, "kubeconfig")
}

// Prepare copies the current context of the kubeconfig named by the config
// field kubeconfig (or, when it is empty, of $KUBECONFIG or ~/.kube/config,
// as kubectl finds it) into the state directory, with the files it names
// embedded and mode 0600; checks that the apiserver answers; and sets
// st.Ports.NodeAddressBase (see the package documentation). It returns the
// copy's path.
func (b *Backend) Prepare(ctx context.Context, st *cluster.State, progress io.Writer) (string, error) {
	src, err := expandHome(st.Config.Kubeconfig)
	if err != nil {
		return "", fmt.Errorf("existing backend: %w", err)
	}
	data, server, err := CopyKubeconfig(src)
	if err != nil {
		return "", fmt.Errorf("existing backend: %w", err)
	}
	dst := KubeconfigPath(st)
	if err := os.MkdirAll(st.Dir, 0o700); err != nil {
		return "", fmt.Errorf("existing backend: %w", err)
	}
	if err := pki.WriteFile(dst, data, 0o600); err != nil {
		return "", fmt.Errorf("existing backend: %w", err)
	}
	version, err := ping(ctx, dst)
	if err != nil {
		return "", fmt.Errorf("existing backend: the apiserver %s does not answer: %w", server, err)
	}
	if err := CheckAccess(ctx, dst); err != nil {
		return "", fmt.Errorf("existing backend: cluster %s: %w", server, err)
	}
	addr, err := nodeAddressBase(st.Config.Networking.NodeAddressBase, server)
	if err != nil {
		return "", fmt.Errorf("existing backend: choosing the simulated nodes' address: %w (set networking.nodeAddressBase)", err)
	}
	st.Ports.NodeAddressBase = addr
	fmt.Fprintf(progress, "Using the cluster at %s (%s); simulated nodes from %s\n", server, version, addr)
	return dst, nil
}

// Components returns simnode's setup task and process (see simnodeplan),
// with the copied kubeconfig. Its user needs to create nodes, leases, events,
// TokenReviews and SubjectAccessReviews and to update pod status: the
// ClusterRole wink:simnode lists what exactly.
func (b *Backend) Components(st *cluster.State) ([]supervisor.Component, error) {
	if st.Ports.NodeAddressBase == "" {
		return nil, errors.New("existing backend: no node address (Prepare has not run)")
	}
	return simnodeplan.Components(st, KubeconfigPath(st), simnodeplan.Network{ListenAddress: ListenAddress}), nil
}

// Delete does nothing: the cluster is not wink's. The simulated Node objects
// stay until their leases expire and the node lifecycle controller marks them
// NotReady; remove them with kubectl if they should go.
func (b *Backend) Delete(ctx context.Context, st *cluster.State) error {
	return nil
}

// CopyKubeconfig loads the kubeconfig at path (kubectl's rules when path is
// empty), keeps only its current context, embeds the files it refers to, and
// returns it serialised together with its apiserver URL.
func CopyKubeconfig(path string) (data []byte, server string, err error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = path
	name := path
	if name == "" {
		name = "the default kubeconfig ($KUBECONFIG or ~/.kube/config)"
	}
	cfg, err := rules.Load()
	if err != nil {
		return nil, "", fmt.Errorf("kubeconfig %s: %w", name, err)
	}
	if cfg.CurrentContext == "" {
		return nil, "", fmt.Errorf("kubeconfig %s has no current context", name)
	}
	if err := clientcmdapi.MinifyConfig(cfg); err != nil {
		return nil, "", fmt.Errorf("kubeconfig %s: %w", name, err)
	}
	if err := clientcmdapi.FlattenConfig(cfg); err != nil {
		return nil, "", fmt.Errorf("kubeconfig %s: %w", name, err)
	}
	// Validate what client-go will use, e.g. a context naming a cluster
	// that is not there.
	if _, err := clientcmd.NewDefaultClientConfig(*cfg, nil).ClientConfig(); err != nil {
		return nil, "", fmt.Errorf("kubeconfig %s: %w", name, err)
	}
	data, err = clientcmd.Write(*cfg)
	if err != nil {
		return nil, "", fmt.Errorf("kubeconfig %s: %w", name, err)
	}
	kctx := cfg.Contexts[cfg.CurrentContext]
	return data, cfg.Clusters[kctx.Cluster].Server, nil
}

// ping returns the apiserver's version, within 10 seconds.
func ping(ctx context.Context, kubeconfig string) (string, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return "", err
	}
	cfg.Timeout = 10 * time.Second
	client, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return "", err
	}
	data, err := client.RESTClient().Get().AbsPath("/version").Do(ctx).Raw()
	if err != nil {
		return "", err
	}
	var v struct {
		GitVersion string `json:"gitVersion"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return "", fmt.Errorf("/version: %w", err)
	}
	return v.GitVersion, nil
}

// expandHome expands a leading ~/ to the home directory.
func expandHome(path string) (string, error) {
	rest, ok := strings.CutPrefix(path, "~/")
	if !ok {
		return path, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, rest), nil
}

// nodeAddressBase is configured when set (even a loopback address, right
// when the apiserver runs on this machine), otherwise HostAddress(server).
func nodeAddressBase(configured, server string) (string, error) {
	if configured != "" {
		return configured, nil
	}
	ip, err := HostAddress(server)
	if err != nil {
		return "", err
	}
	return ip.String(), nil
}

// HostAddress is this machine's address as the apiserver at server (a URL)
// would see it: the source address the kernel picks for the route to the
// apiserver (a UDP "connection" sends nothing), or, when that is a loopback
// address, FirstIPv4.
func HostAddress(server string) (net.IP, error) {
	u, err := url.Parse(server)
	if err != nil {
		return nil, fmt.Errorf("apiserver URL %q: %w", server, err)
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "443"
	}
	if host != "" {
		if conn, err := net.Dial("udp", net.JoinHostPort(host, port)); err == nil {
			local := conn.LocalAddr().(*net.UDPAddr).IP
			_ = conn.Close()
			if !local.IsLoopback() && !local.IsUnspecified() {
				return local, nil
			}
		}
	}
	return FirstIPv4()
}

// FirstIPv4 is the first IPv4 address, neither loopback nor link-local, of a
// network interface that is up, in interface order.
func FirstIPv4() (net.IP, error) {
	ifaces, err := net.Interfaces()
	if err != nil {
		return nil, err
	}
	for _, iface := range ifaces {
		if iface.Flags&net.FlagUp == 0 || iface.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, err := iface.Addrs()
		if err != nil {
			continue
		}
		if ip := firstIPv4(addrs); ip != nil {
			return ip, nil
		}
	}
	return nil, errors.New("no network interface has a non-loopback IPv4 address")
}

// firstIPv4 is the first usable IPv4 address of addrs.
func firstIPv4(addrs []net.Addr) net.IP {
	for _, a := range addrs {
		var ip net.IP
		switch v := a.(type) {
		case *net.IPNet:
			ip = v.IP
		case *net.IPAddr:
			ip = v.IP
		}
		if ip4 := ip.To4(); ip4 != nil && !ip4.IsLoopback() && !ip4.IsLinkLocalUnicast() && !ip4.IsUnspecified() {
			return ip4
		}
	}
	return nil
}
