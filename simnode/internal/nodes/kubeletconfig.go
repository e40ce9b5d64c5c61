package nodes

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubeletconfigv1beta1 "k8s.io/kubelet/config/v1beta1"
	"k8s.io/utils/ptr"

	"wink.dev/wink/simnode/internal/logs"
)

// KubeletSettings are the resolved settings of a pool's kubelet that are
// not in the Spec itself: the effective evictionHard (the pool's or the
// kubelet's default, facts.OS.EvictionHardDefault, N5/B6) and shutdown
// grace periods (B15).
type KubeletSettings struct {
	EvictionHard                    map[string]string
	ShutdownGracePeriod             time.Duration
	ShutdownGracePeriodCriticalPods time.Duration
}

// KubeletConfig is the KubeletConfiguration the node's kubelet runs with,
// as its /configz shows it (kubelet server: {"kubeletconfig": <v1beta1
// KubeletConfiguration>}, no kind or apiVersion): the pool's reservations
// and eviction thresholds (N5, from which allocatable follows), its
// shutdown grace periods (B15), and the kubelet defaults a Windows node
// runs with (no cgroups per QoS, nothing enforced on node allocatable,
// as the kubelet's Windows flags of SIG Windows' clusters set), and the
// pool's write path (Pool.Kubelet: event rate limit, lease duration, node
// status report frequency; the kubelet's defaults from
// pkg/kubelet/apis/config/v1beta1/defaults.go where unset), which simnode
// runs the node with (WritePath).
func KubeletConfig(s Spec, info *Info, k KubeletSettings) *kubeletconfigv1beta1.KubeletConfiguration {
	c := &kubeletconfigv1beta1.KubeletConfiguration{
		Address:       "0.0.0.0",
		Port:          s.KubeletPort,
		ReadOnlyPort:  0,
		StaticPodPath: "",
		Authentication: kubeletconfigv1beta1.KubeletAuthentication{
			Anonymous: kubeletconfigv1beta1.KubeletAnonymousAuthentication{Enabled: ptr.To(false)},
			Webhook: kubeletconfigv1beta1.KubeletWebhookAuthentication{
				Enabled:  ptr.To(true),
				CacheTTL: metav1.Duration{Duration: 2 * time.Minute},
			},
		},
		Authorization: kubeletconfigv1beta1.KubeletAuthorization{
			Mode: kubeletconfigv1beta1.KubeletAuthorizationModeWebhook,
			Webhook: kubeletconfigv1beta1.KubeletWebhookAuthorization{
				CacheAuthorizedTTL:   metav1.Duration{Duration: 5 * time.Minute},
				CacheUnauthorizedTTL: metav1.Duration{Duration: 30 * time.Second},
			},
		},
		SyncFrequency:                    metav1.Duration{Duration: time.Minute},
		FileCheckFrequency:               metav1.Duration{Duration: 20 * time.Second},
		HTTPCheckFrequency:               metav1.Duration{Duration: 20 * time.Second},
		StreamingConnectionIdleTimeout:   metav1.Duration{Duration: 4 * time.Hour},
		VolumeStatsAggPeriod:             metav1.Duration{Duration: time.Minute},
		RuntimeRequestTimeout:            metav1.Duration{Duration: 2 * time.Minute},
		CPUManagerPolicy:                 "none",
		MemoryManagerPolicy:              "None",
		TopologyManagerPolicy:            "none",
		TopologyManagerScope:             "container",
		ContainerLogMaxSize:              "10Mi",
		ContainerLogMaxFiles:             ptr.To[int32](5),
		ContainerLogMaxWorkers:           ptr.To[int32](1),
		ContainerLogMonitorInterval:      &metav1.Duration{Duration: 10 * time.Second},
		KubeAPIQPS:                       ptr.To[int32](50),
		KubeAPIBurst:                     100,
		NodeStatusUpdateFrequency:        metav1.Duration{Duration: 10 * time.Second},
		NodeStatusReportFrequency:        metav1.Duration{Duration: 5 * time.Minute},
		NodeLeaseDurationSeconds:         40,
		EventRecordQPS:                   ptr.To[int32](50),
		EventBurst:                       100,
		ImageMinimumGCAge:                metav1.Duration{Duration: 2 * time.Minute},
		ImageGCHighThresholdPercent:      ptr.To[int32](85),
		ImageGCLowThresholdPercent:       ptr.To[int32](80),
		EvictionPressureTransitionPeriod: metav1.Duration{Duration: 5 * time.Minute},
		CgroupDriver:                     "cgroupfs",
		CgroupsPerQOS:                    ptr.To(!info.OS.IsWindows()),
		HairpinMode:                      kubeletconfigv1beta1.PromiscuousBridge,
		MaxPods:                          int32(quantity(s.Pool.Capacity, corev1.ResourcePods)),
		PodPidsLimit:                     ptr.To[int64](-1),
		ResolverConfig:                   ptr.To("/etc/resolv.conf"),
		ContainerRuntimeEndpoint:         "unix:///run/containerd/containerd.sock",
		SerializeImagePulls:              ptr.To(true),
		EvictionHard:                     copyMap(k.EvictionHard),
		SystemReserved:                   quantities(s.Pool.SystemReserved),
		KubeReserved:                     quantities(s.Pool.KubeReserved),
		EnforceNodeAllocatable:           []string{"pods"},
		ShutdownGracePeriod:              metav1.Duration{Duration: k.ShutdownGracePeriod},
		ShutdownGracePeriodCriticalPods:  metav1.Duration{Duration: k.ShutdownGracePeriodCriticalPods},
		RegisterNode:                     ptr.To(true),
		FailSwapOn:                       ptr.To(true),
	}
	if info.OS.IsWindows() {
		c.ContainerRuntimeEndpoint = "npipe://./pipe/containerd-containerd"
		c.ResolverConfig = ptr.To("")
		c.EnforceNodeAllocatable = []string{}
		c.FailSwapOn = ptr.To(false)
	}
	if k := s.Pool.Kubelet; k != nil {
		if k.EventRecordQPS != nil {
			c.EventRecordQPS = ptr.To(*k.EventRecordQPS)
		}
		if k.EventBurst != nil {
			c.EventBurst = *k.EventBurst
		}
		if k.NodeLeaseDurationSeconds != nil {
			c.NodeLeaseDurationSeconds = *k.NodeLeaseDurationSeconds
		}
		if k.NodeStatusReportFrequency != nil {
			c.NodeStatusReportFrequency = *k.NodeStatusReportFrequency
		}
		if k.ContainerLogMaxSize != "" {
			c.ContainerLogMaxSize = k.ContainerLogMaxSize
		}
		if k.ContainerLogMaxFiles != nil {
			c.ContainerLogMaxFiles = ptr.To(*k.ContainerLogMaxFiles)
		}
		if k.ContainerLogMaxWorkers != nil {
			c.ContainerLogMaxWorkers = ptr.To(*k.ContainerLogMaxWorkers)
		}
		if k.ContainerLogMonitorInterval != nil {
			c.ContainerLogMonitorInterval = &metav1.Duration{Duration: k.ContainerLogMonitorInterval.Duration}
		}
	}
	for _, t := range s.Pool.Taints {
		c.RegisterWithTaints = append(c.RegisterWithTaints, t)
	}
	return c
}

func quantity(l corev1.ResourceList, name corev1.ResourceName) int64 {
	q, ok := l[name]
	if !ok {
		return 0
	}
	return q.Value()
}

func quantities(l corev1.ResourceList) map[string]string {
	if len(l) == 0 {
		return nil
	}
	out := make(map[string]string, len(l))
	for k, v := range l {
		out[string(k)] = v.String()
	}
	return out
}

func copyMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// WritePath is how a node runs its writes to the API, from its
// KubeletConfiguration c: the lease renewed every quarter of
// nodeLeaseDurationSeconds (pkg/kubelet/kubelet.go
// nodeLeaseRenewIntervalFraction 0.25), an unchanged status posted every
// nodeStatusReportFrequency, events at eventRecordQPS/eventBurst.
type WritePath struct {
	LeaseDurationSeconds int32
	StatusReport         time.Duration
	EventQPS, EventBurst int32
}

// WritePathOf reads c's write-path settings.
func WritePathOf(c *kubeletconfigv1beta1.KubeletConfiguration) WritePath {
	w := WritePath{
		LeaseDurationSeconds: c.NodeLeaseDurationSeconds,
		StatusReport:         c.NodeStatusReportFrequency.Duration,
		EventBurst:           c.EventBurst,
	}
	if c.EventRecordQPS != nil {
		w.EventQPS = *c.EventRecordQPS
	}
	return w
}

// LogRotationOf reads c's container log rotation (issue 22), as the
// kubelet's NewContainerLogManager parses it: containerLogMaxSize a
// quantity. A size that does not parse, or a negative one (rotation off),
// keeps the default size: simnode's logs are always bounded.
func LogRotationOf(c *kubeletconfigv1beta1.KubeletConfiguration) logs.Rotation {
	r := logs.DefaultRotation
	if q, err := resource.ParseQuantity(c.ContainerLogMaxSize); err == nil {
		if v, ok := q.AsInt64(); ok && v > 0 {
			r.MaxSize = v
		}
	}
	if c.ContainerLogMaxFiles != nil && *c.ContainerLogMaxFiles > 1 {
		r.MaxFiles = int(*c.ContainerLogMaxFiles)
	}
	if c.ContainerLogMaxWorkers != nil && *c.ContainerLogMaxWorkers > 0 {
		r.MaxWorkers = int(*c.ContainerLogMaxWorkers)
	}
	if c.ContainerLogMonitorInterval != nil && c.ContainerLogMonitorInterval.Duration > 0 {
		r.MonitorInterval = c.ContainerLogMonitorInterval.Duration
	}
	return r
}
