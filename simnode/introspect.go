package simnode

import (
	"net/http"

	kubeletconfigv1beta1 "k8s.io/kubelet/config/v1beta1"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/internal/kubeletmetrics"
	"wink.dev/wink/simnode/internal/nodes"
)

// introspection is a node's /configz and /metrics
// (kubeletapi.Introspection).
type introspection struct {
	config  *kubeletconfigv1beta1.KubeletConfiguration
	metrics *kubeletmetrics.Metrics
}

func (i *introspection) KubeletConfig() *kubeletconfigv1beta1.KubeletConfiguration {
	return i.config
}

func (i *introspection) MetricsHandler() http.Handler { return i.metrics.Handler() }

// newIntrospection resolves the pool's kubelet configuration the way the
// rest of simnode applies it: evictionHard as the eviction manager uses
// it (resources.go), the grace periods as the shutdown manager does.
func (s *shared) newIntrospection(spec nodes.Spec, info *nodes.Info, runningPods func() int) *introspection {
	evictionHard := spec.Pool.EvictionHard
	if evictionHard == nil {
		evictionHard = info.OS.EvictionHardDefault(info.KubeletVersion)
	}
	total, critical := facts.ShutdownGracePeriods(spec.Pool.ShutdownGracePeriod, spec.Pool.ShutdownGracePeriodCriticalPods)
	return &introspection{
		config: nodes.KubeletConfig(spec, info, nodes.KubeletSettings{
			EvictionHard:                    evictionHard,
			ShutdownGracePeriod:             total,
			ShutdownGracePeriodCriticalPods: critical,
		}),
		metrics: kubeletmetrics.New(info.Name, runningPods),
	}
}
