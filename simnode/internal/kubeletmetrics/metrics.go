package kubeletmetrics

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Container types, the container_type label of the kubelet's start
// counters (kuberuntime_manager.go SyncPod: metricLabel).
const (
	ContainerTypeContainer = "container"
	ContainerTypeInit      = "init_container"
	ContainerTypeEphemeral = "ephemeral_container"
)

// Metrics is one node's kubelet metrics registry.
type Metrics struct {
	reg       *prometheus.Registry
	started   *prometheus.CounterVec
	errors    *prometheus.CounterVec
	hpStarted *prometheus.CounterVec
	hpErrors  *prometheus.CounterVec
}

// New returns the registry of node nodeName; runningPods, when not nil,
// answers kubelet_running_pods at each scrape.
func New(nodeName string, runningPods func() int) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	// Names, help texts and labels of pkg/kubelet/metrics/metrics.go
	// (Subsystem "kubelet").
	m.started = prometheus.NewCounterVec(prometheus.CounterOpts{
		Subsystem: "kubelet", Name: "started_containers_total",
		Help: "[ALPHA] Cumulative number of containers started",
	}, []string{"container_type"})
	m.errors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Subsystem: "kubelet", Name: "started_containers_errors_total",
		Help: "[ALPHA] Cumulative number of errors when starting containers",
	}, []string{"container_type", "code"})
	m.hpStarted = prometheus.NewCounterVec(prometheus.CounterOpts{
		Subsystem: "kubelet", Name: "started_host_process_containers_total",
		Help: "[ALPHA] Cumulative number of hostprocess containers started. This metric will only be collected on Windows.",
	}, []string{"container_type"})
	m.hpErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Subsystem: "kubelet", Name: "started_host_process_containers_errors_total",
		Help: "[ALPHA] Cumulative number of errors when starting hostprocess containers. This metric will only be collected on Windows.",
	}, []string{"container_type", "code"})
	nodeNameGauge := prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Subsystem: "kubelet", Name: "node_name",
		Help: "[ALPHA] The node's name. The count is always 1.",
	}, []string{"node"})
	nodeNameGauge.WithLabelValues(nodeName).Set(1)
	m.reg.MustRegister(m.started, m.errors, m.hpStarted, m.hpErrors, nodeNameGauge)
	if runningPods != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Subsystem: "kubelet", Name: "running_pods",
			Help: "[ALPHA] Number of pods that have a running pod sandbox",
		}, func() float64 { return float64(runningPods()) }))
	}
	return m
}

// ContainerStarted counts a container start attempt
// (StartedContainersTotal; StartedHostProcessContainersTotal too for a
// HostProcess container).
func (m *Metrics) ContainerStarted(containerType string, hostProcess bool) {
	m.started.WithLabelValues(containerType).Inc()
	if hostProcess {
		m.hpStarted.WithLabelValues(containerType).Inc()
	}
}

// ContainerStartFailed counts a failed start; code is the kubelet's error
// (CreateContainerConfigError, CreateContainerError, RunContainerError,
// ErrImagePull, ...).
func (m *Metrics) ContainerStartFailed(containerType, code string, hostProcess bool) {
	m.errors.WithLabelValues(containerType, code).Inc()
	if hostProcess {
		m.hpErrors.WithLabelValues(containerType, code).Inc()
	}
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
