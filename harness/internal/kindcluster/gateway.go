package kindcluster

import (
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"wink.dev/wink/harness/internal/cluster"
	"wink.dev/wink/harness/internal/embedded"
	"wink.dev/wink/harness/internal/kindgateway"
	"wink.dev/wink/harness/internal/simnodeplan"
)

// The gateway container (harness/internal/kindgateway) holds the simulated
// nodes' InternalIPs on kind's network and joins simnode's network to
// kind's. It shares a directory of the state directory with simnode, which
// holds both ends' Unix sockets.
const (
	// gatewayLabel marks a gateway container; its value is the kind
	// cluster's name.
	gatewayLabel = "dev.wink.gateway"
	// addressesLabel is the gateway's block of node addresses,
	// <first>+<count>.
	addressesLabel = "dev.wink.gateway.addresses"
	// binaryLabel is the digest of the wink executable the gateway runs:
	// another wink makes the gateway again (on the same addresses).
	binaryLabel = "dev.wink.gateway.binary"
	// gatewayRelayPort is where the gateway's redirected connections
	// arrive, inside its own network namespace.
	gatewayRelayPort = 15001
	// gatewayDir is the shared directory inside the container.
	gatewayDir = "/run/wink"
	// gatewayBinary is wink's executable inside the container.
	gatewayBinary = "/usr/local/bin/wink-gateway"
)

// GatewayName is the gateway container of kind cluster kindName.
func GatewayName(kindName string) string { return kindName + "-gateway" }

// GatewayDir is the directory the gateway shares with simnode.
func GatewayDir(st *cluster.State) string { return filepath.Join(st.Dir, "run", "gateway") }

// Network is simnode's network on the kind backend: node addresses on
// kind's network held by the gateway, the kubelet APIs on loopback behind
// simnode's egress proxy, and kind's pods reached through the gateway.
func Network(st *cluster.State) simnodeplan.Network {
	dir := GatewayDir(st)
	return simnodeplan.Network{
		EgressSocket:      filepath.Join(dir, "egress.sock"),
		ClusterDialSocket: filepath.Join(dir, "cluster.sock"),
	}
}

// chooseBlock is the block of count node addresses in subnet: from
// configured (networking.nodeAddressBase) when set, else the highest block
// that overlaps none of used (Docker gives containers addresses from the
// bottom of the subnet up, so the top stays free longest).
func chooseBlock(subnet netip.Prefix, count int, used []kindgateway.Block, configured string) (kindgateway.Block, error) {
	if !subnet.Addr().Is4() || count < 1 {
		return kindgateway.Block{}, fmt.Errorf("no IPv4 subnet for %d node addresses", count)
	}
	subnet = subnet.Masked()
	fits := func(b kindgateway.Block) error {
		if !subnet.Contains(b.First) || !subnet.Contains(b.Last()) || b.First == subnet.Addr() {
			return fmt.Errorf("%d node addresses from %s do not fit kind's network %s", b.Count, b.First, subnet)
		}
		for _, u := range used {
			if b.Overlaps(u) {
				return fmt.Errorf("%d node addresses from %s overlap %s, in use on kind's network", b.Count, b.First, u)
			}
		}
		return nil
	}
	if configured != "" {
		first, err := netip.ParseAddr(configured)
		if err != nil || !first.Is4() {
			return kindgateway.Block{}, fmt.Errorf("networking.nodeAddressBase %q is not an IPv4 address of kind's network %s", configured, subnet)
		}
		b := kindgateway.Block{First: first, Count: count}
		if err := fits(b); err != nil {
			return kindgateway.Block{}, fmt.Errorf("networking.nodeAddressBase: %w", err)
		}
		return b, nil
	}
	// The broadcast address, then the last usable one.
	top := subnet.Addr().As4()
	for i := subnet.Bits(); i < 32; i++ {
		top[i/8] |= 1 << (7 - i%8)
	}
	last := netip.AddrFrom4(top).Prev()
	for last.IsValid() && subnet.Contains(last) {
		first := last
		for range count - 1 {
			first = first.Prev()
		}
		b := kindgateway.Block{First: first, Count: count}
		if !first.IsValid() || !subnet.Contains(first) || first == subnet.Addr() {
			break
		}
		clash := false
		for _, u := range used {
			if b.Overlaps(u) {
				clash, last = true, u.First.Prev()
				break
			}
		}
		if !clash {
			return b, nil
		}
	}
	return kindgateway.Block{}, fmt.Errorf("kind's network %s has no %d free addresses for simulated nodes", subnet, count)
}

// containerInspect is the part of `docker inspect` ensureGateway reads.
type containerInspect struct {
	Config struct {
		Labels map[string]string `json:"Labels"`
	} `json:"Config"`
	State struct {
		Running bool `json:"Running"`
	} `json:"State"`
}

// docker runs the docker CLI and returns its output, or its error output
// in the error.
func docker(ctx context.Context, args ...string) (string, error) {
	cmd := dockerCommand(ctx, args...)
	var stdout, stderr strings.Builder
	cmd.SetStdout(&stdout).SetStderr(&stderr)
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("docker %s: %s: %w", args[0], strings.TrimSpace(stderr.String()), err)
	}
	return stdout.String(), nil
}

// ensureGateway starts the gateway of st's kind cluster, or keeps the one
// running when it holds enough addresses for st's nodes, and returns the
// first node address. image is the cluster's node image (it has ip and
// iptables); kubeconfig reaches the cluster (kind's nodes' podCIDRs).
func ensureGateway(ctx context.Context, st *cluster.State, image, kubeconfig string) (netip.Addr, error) {
	kindName := ClusterName(st.Config.Name)
	name := GatewayName(kindName)
	nodes := nodeCount(st)
	digest, err := binaryDigest(st.Binary)
	if err != nil {
		return netip.Addr{}, err
	}
	configured := st.Config.Networking.NodeAddressBase
	if out, err := docker(ctx, "inspect", name); err == nil {
		var c []containerInspect
		if err := json.Unmarshal([]byte(out), &c); err == nil && len(c) == 1 && c[0].Config.Labels[gatewayLabel] == kindName {
			labels := c[0].Config.Labels
			if b, err := kindgateway.ParseBlock(labels[addressesLabel]); err == nil && b.Count == nodes {
				if labels[binaryLabel] == digest {
					if !c[0].State.Running {
						if _, err := docker(ctx, "start", name); err != nil {
							return netip.Addr{}, err
						}
					}
					return b.First, nil
				}
				if configured == "" {
					configured = b.First.String() // another wink, the same addresses
				}
			}
		}
		// Another size (the node pools changed) or another wink: made again.
		if _, err := docker(ctx, "rm", "-f", name); err != nil {
			return netip.Addr{}, err
		}
	}
	b, err := freeBlock(ctx, nodes, configured)
	if err != nil {
		return netip.Addr{}, err
	}
	routes, err := kindRoutes(ctx, kubeconfig, kindName)
	if err != nil {
		return netip.Addr{}, err
	}
	dir := GatewayDir(st)
	args := []string{"create", "--name", name, "--network", NetworkName(),
		"--label", gatewayLabel + "=" + kindName, "--label", addressesLabel + "=" + b.String(), "--label", binaryLabel + "=" + digest,
		"--cap-add", "NET_ADMIN", "--restart", "unless-stopped",
		"--volume", dir + ":" + gatewayDir, "--entrypoint", gatewayBinary, image,
		"kind", "gateway", "--relay-port", strconv.Itoa(gatewayRelayPort),
		"--inbound", gatewayDir + "/egress.sock", "--outbound", gatewayDir + "/cluster.sock",
		"--addresses", b.String()}
	for _, r := range routes {
		args = append(args, "--route", r.String())
	}
	if _, err := docker(ctx, args...); err != nil {
		return netip.Addr{}, err
	}
	if _, err := docker(ctx, "cp", st.Binary, name+":"+gatewayBinary); err != nil {
		_, _ = docker(context.WithoutCancel(ctx), "rm", "-f", name)
		return netip.Addr{}, err
	}
	if _, err := docker(ctx, "start", name); err != nil {
		return netip.Addr{}, err
	}
	return b.First, nil
}

// removeGateway removes st's gateway container, if any.
func removeGateway(ctx context.Context, st *cluster.State) error {
	name := GatewayName(ClusterName(st.Config.Name))
	if _, err := docker(ctx, "inspect", name); err != nil {
		return nil
	}
	_, err := docker(ctx, "rm", "-f", name)
	return err
}

// nodeCount is the number of simulated nodes of st's pools.
func nodeCount(st *cluster.State) int {
	n := 0
	for _, p := range simnodeplan.Pools(st.Config.NodePools) {
		n += p.Count
	}
	return max(n, 1)
}

// freeBlock chooses count addresses on kind's network (chooseBlock).
func freeBlock(ctx context.Context, count int, configured string) (kindgateway.Block, error) {
	out, err := docker(ctx, "network", "inspect", NetworkName())
	if err != nil {
		return kindgateway.Block{}, err
	}
	var nets []networkInspect
	if err := json.Unmarshal([]byte(out), &nets); err != nil || len(nets) != 1 {
		return kindgateway.Block{}, fmt.Errorf("docker network inspect %s: unexpected output", NetworkName())
	}
	var used []kindgateway.Block
	for _, c := range nets[0].Containers {
		if p, err := netip.ParsePrefix(c.IPv4Address); err == nil {
			used = append(used, kindgateway.Block{First: p.Addr(), Count: 1})
		}
	}
	labels, err := docker(ctx, "ps", "-a", "--filter", "label="+gatewayLabel, "--format", `{{.Label "`+addressesLabel+`"}}`)
	if err != nil {
		return kindgateway.Block{}, err
	}
	for _, l := range strings.Fields(labels) {
		if b, err := kindgateway.ParseBlock(l); err == nil {
			used = append(used, b)
		}
	}
	for _, c := range nets[0].IPAM.Config {
		if p, err := netip.ParsePrefix(c.Subnet); err == nil && p.Addr().Is4() {
			return chooseBlock(p, count, used, configured)
		}
	}
	return kindgateway.Block{}, fmt.Errorf("docker network %s has no IPv4 subnet", NetworkName())
}

// kindRoutes are routes to kind's own nodes' podCIDRs through their
// InternalIPs (kind's nodes are the containers labelled with the cluster).
func kindRoutes(ctx context.Context, kubeconfig, kindName string) ([]kindgateway.Route, error) {
	out, err := docker(ctx, "ps", "--filter", "label=io.x-k8s.kind.cluster="+kindName, "--format", "{{.Names}}")
	if err != nil {
		return nil, err
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, err
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	var routes []kindgateway.Route
	for _, name := range strings.Fields(out) {
		n, err := client.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return nil, fmt.Errorf("kind node %s: %w", name, err)
		}
		via := internalIP(n)
		for _, c := range n.Spec.PodCIDRs {
			p, err := netip.ParsePrefix(c)
			if err == nil && p.Addr().Is4() && via.IsValid() {
				routes = append(routes, kindgateway.Route{Prefix: p.Masked(), Via: via})
			}
		}
	}
	return routes, nil
}

func internalIP(n *corev1.Node) netip.Addr {
	for _, a := range n.Status.Addresses {
		if ip, err := netip.ParseAddr(a.Address); err == nil && a.Type == corev1.NodeInternalIP && ip.Is4() {
			return ip
		}
	}
	return netip.Addr{}
}

// binaryDigest is the digest of wink's executable, after checking that it
// runs in the gateway container, whose C library may not be this
// machine's: it must be statically linked.
func binaryDigest(path string) (string, error) {
	f, err := elf.Open(path)
	if err != nil {
		return "", fmt.Errorf("wink executable %s: %w", path, err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return "", errors.New("the kind backend runs wink's executable " + path + " in its gateway container, which needs a statically linked binary: build it with CGO_ENABLED=0 (make build does)")
		}
	}
	r, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer r.Close()
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", fmt.Errorf("wink executable %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// checkSocketPaths checks that st's state directory can hold the
// gateway's Unix sockets (a longer path fails only when simnode listens).
func checkSocketPaths(st *cluster.State) error {
	n := Network(st)
	for _, p := range []string{n.EgressSocket, n.ClusterDialSocket} {
		if len(p) > embedded.MaxSocketPath {
			return fmt.Errorf("state directory %s is too deep: the socket %s would be %d bytes, and a Unix socket path has at most %d; "+
				"set WINK_HOME (or --home) to a shorter directory, e.g. WINK_HOME=/tmp/wink", st.Dir, p, len(p), embedded.MaxSocketPath)
		}
	}
	return nil
}
