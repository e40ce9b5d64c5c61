package embedded

import (
	"context"
	"embed"
	"net"
	"net/netip"
	"strconv"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"wink.dev/wink/harness/internal/apply"
	"wink.dev/wink/harness/internal/cluster"
)

//go:embed addons/*.yaml
var addons embed.FS

// addonValues fill the addon templates.
type addonValues struct {
	DNSDomain     string
	DNSServiceIP  string
	PodSubnet     string
	APIServerHost string
	Version       string
	// MetricsServerPort is metrics-server's port on 127.0.0.1.
	MetricsServerPort int
}

// Bootstrap applies the objects a kubeadm cluster starts with (RBAC for the
// components, CoreDNS and kube-proxy) with server-side apply, so running it
// again on every start converges instead of failing.
func Bootstrap(ctx context.Context, kubeconfig string, st *cluster.State) error {
	objs, err := Addons(st)
	if err != nil {
		return err
	}
	return apply.Objects(ctx, kubeconfig, objs)
}

// Addons renders the embedded addon manifests for a cluster.
func Addons(st *cluster.State) ([]*unstructured.Unstructured, error) {
	n := st.Config.Networking
	dnsIP, err := nthAddress(n.ServiceSubnet, 10)
	if err != nil {
		return nil, err
	}
	values := addonValues{
		DNSDomain:         n.DNSDomain,
		DNSServiceIP:      dnsIP,
		PodSubnet:         n.PodSubnet,
		APIServerHost:     net.JoinHostPort(advertiseAddress(st), strconv.Itoa(443)),
		Version:           Version,
		MetricsServerPort: st.Ports.MetricsServer,
	}
	files, err := addons.ReadDir("addons")
	if err != nil {
		return nil, err
	}
	var objs []*unstructured.Unstructured
	for _, f := range files {
		name := "addons/" + f.Name()
		text, err := addons.ReadFile(name)
		if err != nil {
			return nil, err
		}
		o, err := apply.Render(name, string(text), values)
		if err != nil {
			return nil, err
		}
		objs = append(objs, o...)
	}
	flows, err := simnodeFlowSchemas()
	if err != nil {
		return nil, err
	}
	return append(objs, flows...), nil
}

// nthAddress is the n-th address of a CIDR (10.96.0.0/12, 10 → 10.96.0.10).
func nthAddress(cidr string, n int) (string, error) {
	prefix, err := netip.ParsePrefix(cidr)
	if err != nil {
		return "", err
	}
	addr := prefix.Masked().Addr()
	for range n {
		addr = addr.Next()
	}
	return addr.String(), nil
}
