package kubeletapi

import (
	"bytes"
	"encoding/json"
	"net/http"

	statsapi "k8s.io/kubelet/pkg/apis/stats/v1alpha1"
)

// Stats is what the stats and resource metrics routes need from a node
// (simnode/internal/resources).
type Stats interface {
	// Summary is the node's Summary API, sampled now.
	Summary() *statsapi.Summary
	// ResourceMetrics writes /metrics/resource (Prometheus text), sampled
	// now.
	ResourceMetrics(w *bytes.Buffer) error
}

// WithStats serves the kubelet's /stats/summary and /metrics/resource from
// s, and every other path from next (the routes of Handler). The routes are
// registered here, not through virtual-kubelet's AttachPodMetricsRoutes
// (which registers "/" twice). The authorisation attributes come from the
// path as the kubelet's do (nodeutil.NodeRequestAttr): /stats/... is
// nodes/stats, /metrics/... is nodes/metrics.
func WithStats(next http.Handler, s Stats) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch req.URL.Path {
		case "/stats/summary", "/stats/summary/":
			// ?only_cpu_and_memory=true answers GetCPUAndMemoryStats
			// (kubelet server/stats/handler.go handleSummary).
			if req.Method != http.MethodGet && req.Method != http.MethodPost {
				http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
				return
			}
			summary := s.Summary()
			if req.URL.Query().Get("only_cpu_and_memory") == "true" {
				onlyCPUAndMemory(summary)
			}
			writeJSON(w, summary)
		case "/metrics/resource", "/metrics/resource/":
			if req.Method != http.MethodGet {
				http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
				return
			}
			var buf bytes.Buffer
			if err := s.ResourceMetrics(&buf); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
			_, _ = w.Write(buf.Bytes())
		default:
			next.ServeHTTP(w, req)
		}
	})
}

// onlyCPUAndMemory drops what GetCPUAndMemoryStats does not fill.
func onlyCPUAndMemory(s *statsapi.Summary) {
	s.Node.Fs, s.Node.Runtime, s.Node.Network, s.Node.Rlimit = nil, nil, nil, nil
	for i := range s.Pods {
		p := &s.Pods[i]
		p.EphemeralStorage, p.VolumeStats, p.Network, p.ProcessStats = nil, nil, nil, nil
		for j := range p.Containers {
			p.Containers[j].Rootfs, p.Containers[j].Logs, p.Containers[j].Accelerators, p.Containers[j].UserDefinedMetrics = nil, nil, nil, nil
		}
	}
}

// writeJSON answers with v as JSON, as the kubelet's JSON endpoints do.
func writeJSON(w http.ResponseWriter, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(data)
}
