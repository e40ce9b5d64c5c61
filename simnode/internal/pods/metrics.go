package pods

import "wink.dev/wink/simnode/facts"

// containerType is the container_type label of the kubelet's start
// counters.
func containerType(c *container) string {
	if c.init || c.sidecar {
		return "init_container"
	}
	return "container"
}

func (m *machine) countStarted(rec *record, c *container) {
	if m.rt.metrics != nil {
		m.rt.metrics.ContainerStarted(containerType(c), m.node.OS.IsWindows() && facts.HostProcess(rec.pod))
	}
}

func (m *machine) countStartFailed(rec *record, c *container, code string) {
	if m.rt.metrics != nil {
		m.rt.metrics.ContainerStartFailed(containerType(c), code, m.node.OS.IsWindows() && facts.HostProcess(rec.pod))
	}
}
