package cluster

import "time"

// MetricsResolution is how often metrics-server scrapes the kubelets
// (default 60s; its own manifests use 15s): its minimum, as on a test
// cluster, since `kubectl top` and the HPA see a new pod's CPU only after
// two scrapes (B16, A24). Clusters of more than maxScrapesPerSecond × 10
// nodes get a longer one (MetricsResolutionFor). Every backend that runs
// metrics-server uses it.
const MetricsResolution = 10 * time.Second

// maxScrapesPerSecond bounds metrics-server's scrapes of the simulated
// kubelets. metrics-server sizes itself at about 1 millicore per node at
// its manifests' 15 s; at 10 s, 5,000 nodes were 500 scrapes a second: a
// third of a core in metrics-server and more in simnode's kubelet APIs, on
// a 2-core machine where that many nodes already keep the apiserver busy.
// 50 a second is 500 nodes at 10 s.
const maxScrapesPerSecond = 50

// MetricsResolutionFor is MetricsResolution, or for a cluster of more than
// 500 nodes one scrape of each node every nodes/maxScrapesPerSecond
// seconds (5,000 nodes: 100 s): `kubectl top` and the HPA see a new pod's
// usage that much later on such a cluster.
func MetricsResolutionFor(nodes int) time.Duration {
	return max(MetricsResolution, time.Duration(nodes)*time.Second/maxScrapesPerSecond)
}

// MetricsKubeletTimeout is metrics-server's --kubelet-request-timeout
// (default 10s), which must stay under 90% of the resolution. The simulated
// kubelets answer /metrics/resource in milliseconds.
const MetricsKubeletTimeout = 5 * time.Second
