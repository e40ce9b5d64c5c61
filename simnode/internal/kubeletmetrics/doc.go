// Package kubeletmetrics is a simulated node's kubelet /metrics: the
// kubelet metric families that e2e and operators read (the container start
// counters of pkg/kubelet/metrics, HostProcess ones included, and the
// running pods), in the Prometheus text format the kubelet serves.
package kubeletmetrics
