package embedded

import (
	"net"
	"net/http"
	"path/filepath"
	"strconv"

	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/harness/internal/cluster"
	"wink.dev/wink/harness/internal/supervisor"
)

// metricsServer runs the real metrics-server (`wink component
// metrics-server`, harness/controlplane/metricsserver.go) on 127.0.0.1.
//
// Kubelets: it scrapes each node's /metrics/resource at InternalIP and the
// port in the node status, verifying the serving certificate with the
// kubelet CA and authenticating with its own client certificate
// (wink:metrics-server, authorised for nodes/metrics by the
// system:metrics-server ClusterRole). The InternalIPs exist only in the
// simulation, so it dials through simnode's egress proxy (--egress-socket,
// the same Unix socket the apiserver's `cluster` egress selection uses).
//
// Aggregation: the APIService v1beta1.metrics.k8s.io (addons/metrics-server.yaml)
// names the Service kube-system/metrics-server of type ExternalName with
// externalName 127.0.0.1 and the APIService port set to this port. Without
// --enable-aggregator-routing the aggregator resolves a service with
// ResolveCluster (k8s.io/apiserver/pkg/util/proxy), which for ExternalName
// answers https://<externalName>:<APIService port>, and the availability
// controller checks EndpointSlices only for ClusterIP services. The
// aggregator dials through the `cluster` egress selection, and simnode's
// proxy dials addresses it has no route for directly, so the request reaches
// 127.0.0.1:<port>. A ClusterIP Service would need an EndpointSlice, which
// rejects loopback addresses, and a route for the ClusterIP.
func metricsServer(st *cluster.State, p paths, health *http.Client) supervisor.Component {
	f := p.pki
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(st.Ports.MetricsServer))
	return supervisor.Component{
		Name: "metrics-server",
		Args: []string{"component", "metrics-server",
			"--kubeconfig=" + p.metrics,
			"--authentication-kubeconfig=" + p.metrics,
			"--authorization-kubeconfig=" + p.metrics,
			"--bind-address=127.0.0.1",
			"--secure-port=" + strconv.Itoa(st.Ports.MetricsServer),
			"--cert-dir=" + filepath.Join(p.certDir, "metrics-server"),
			"--requestheader-client-ca-file=" + f.FrontProxyCA.Cert,
			"--kubelet-certificate-authority=" + f.KubeletCA.Cert,
			"--kubelet-preferred-address-types=InternalIP",
			"--kubelet-use-node-status-port",
			"--egress-socket=" + p.egressSock,
			"--metric-resolution=" + cluster.MetricsResolutionFor(v1alpha1.NodeCount(st.Config.NodePools)).String(),
			"--kubelet-request-timeout=" + cluster.MetricsKubeletTimeout.String(),
		},
		// /livez is open to anonymous requests; /readyz waits for a first
		// scrape, which needs simnode's nodes.
		Ready: get(health, "https://"+addr+"/livez"),
	}
}
