package embedded

import (
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"time"

	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/harness/internal/cluster"
	"wink.dev/wink/harness/internal/supervisor"
)

// MetricsResolution is how often metrics-server scrapes the kubelets
// (default 60s; its own manifests use 15s): its minimum, as on a test
// cluster, since `kubectl top` and the HPA see a new pod's CPU only after
// two scrapes (B16, A24). Clusters of more than maxScrapesPerSecond × 10
// nodes get a longer one (metricsResolution).
const MetricsResolution = 10 * time.Second

// maxScrapesPerSecond bounds metrics-server's scrapes of the simulated
// kubelets. metrics-server sizes itself at about 1 millicore per node at
// its manifests' 15 s; at 10 s, 5,000 nodes were 500 scrapes a second: a
// third of a core in metrics-server and more in simnode's kubelet APIs, on
// a 2-core machine where that many nodes already keep the apiserver busy
// (issue 20). 50 a second is 500 nodes at 10 s.
const maxScrapesPerSecond = 50

// metricsResolution is MetricsResolution, or for a cluster of more than
// 500 nodes one scrape of each node every nodes/maxScrapesPerSecond
// seconds (5,000 nodes: 100 s): `kubectl top` and the HPA see a new pod's
// usage that much later on such a cluster.
func metricsResolution(nodes int) time.Duration {
	return max(MetricsResolution, time.Duration(nodes)*time.Second/maxScrapesPerSecond)
}

// metricsKubeletTimeout is metrics-server's --kubelet-request-timeout
// (default 10s), which must stay under 90% of the resolution. The simulated
// kubelets answer /metrics/resource in milliseconds.
const metricsKubeletTimeout = "5s"

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
			"--metric-resolution=" + metricsResolution(v1alpha1.NodeCount(st.Config.NodePools)).String(),
			"--kubelet-request-timeout=" + metricsKubeletTimeout,
		},
		// /livez is open to anonymous requests; /readyz waits for a first
		// scrape, which needs simnode's nodes.
		Ready: get(health, "https://"+addr+"/livez"),
	}
}
