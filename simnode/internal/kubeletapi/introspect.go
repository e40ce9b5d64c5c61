package kubeletapi

import (
	"net/http"

	kubeletconfigv1beta1 "k8s.io/kubelet/config/v1beta1"
)

// Introspection is what /configz and /metrics need from a node.
type Introspection interface {
	// KubeletConfig is the configuration the node's kubelet runs with.
	KubeletConfig() *kubeletconfigv1beta1.KubeletConfiguration
	// MetricsHandler serves the kubelet's own /metrics (Prometheus text).
	MetricsHandler() http.Handler
}

// configz is the body of the kubelet's /configz (component-base configz:
// one key per registered component, the kubelet's is "kubeletconfig").
type configz struct {
	KubeletConfig *kubeletconfigv1beta1.KubeletConfiguration `json:"kubeletconfig"`
}

// WithIntrospection serves the kubelet's /configz (authorised as
// nodes/proxy, as every path the kubelet does not map to stats, metrics or
// log) and /metrics (nodes/metrics) from in, and every other path from
// next. e2e reads both through the apiserver's node proxy: the Windows
// memory-limit and eviction specs decode /configz, the HostProcess metrics
// spec and the framework's failure dump (HighLatencyKubeletOperations)
// parse /metrics.
func WithIntrospection(next http.Handler, in Introspection) http.Handler {
	metrics := in.MetricsHandler()
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch req.URL.Path {
		case "/configz":
			if req.Method != http.MethodGet {
				http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
				return
			}
			writeJSON(w, configz{KubeletConfig: in.KubeletConfig()})
		case "/metrics", "/metrics/":
			if req.Method != http.MethodGet {
				http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
				return
			}
			metrics.ServeHTTP(w, req)
		default:
			next.ServeHTTP(w, req)
		}
	})
}
