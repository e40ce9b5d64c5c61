package v1alpha1

import (
	"net/netip"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/version"

	simconfig "wink.dev/wink/simnode/config"
	"wink.dev/wink/simnode/facts"
)

// Defaults of the cluster and its networking.
const (
	DefaultName             = "wink"
	DefaultBackend          = BackendEmbedded
	DefaultPodSubnet        = "10.244.0.0/16"
	DefaultNodeCIDRMaskSize = 24
	DefaultServiceSubnet    = "10.96.0.0/12"
	DefaultDNSDomain        = "cluster.local"
)

// Defaults of a node pool.
const (
	// DefaultWindowsBuild is the build of windows pools: Windows Server 2022.
	DefaultWindowsBuild = simconfig.DefaultWindowsBuild
	// DefaultWindowsContainerRuntimeVersion is what Windows nodes report in
	// nodeInfo.containerRuntimeVersion (N3), as simnode's node profiles do.
	DefaultWindowsContainerRuntimeVersion = facts.WindowsContainerRuntimeVersion
	// DefaultLinuxContainerRuntimeVersion is what Linux nodes report.
	DefaultLinuxContainerRuntimeVersion = facts.LinuxContainerRuntimeVersion
	// EvictionMemoryAvailable is the evictionHard signal subtracted from
	// allocatable memory (N5).
	EvictionMemoryAvailable = facts.EvictionMemoryAvailable
	// EvictionNodeFSAvailable is the evictionHard signal subtracted from
	// allocatable ephemeral-storage.
	EvictionNodeFSAvailable = facts.EvictionNodeFSAvailable
	// DefaultShutdownGracePeriod and DefaultShutdownGracePeriodCriticalPods
	// are a pool's graceful node shutdown (B15) when it sets neither,
	// simnode/facts' (simnode's shutdown manager has the same).
	DefaultShutdownGracePeriod             = facts.DefaultShutdownGracePeriod
	DefaultShutdownGracePeriodCriticalPods = facts.DefaultShutdownGracePeriodCriticalPods
)

// Default fills every unset field of c with its default and keeps what the
// user set; it is the entry point of defaulting and the same as
// SetDefaults_Cluster. It leaves APIVersion and Kind alone (they identify the
// file and are checked by Validate) and leaves KubeletVersion empty: the
// harness fills in the control plane's version.
//
// Defaulting is idempotent, and kept apart from validation as in kind:
// Default never fails, Validate reports what is wrong afterwards.
func Default(c *Cluster) {
	SetDefaults_Cluster(c)
}

// SetDefaults_Cluster defaults the cluster: name "wink", backend "embedded",
// the networking defaults (SetDefaults_Networking), the default node pools
// when NodePools is nil (not when it is an explicit empty list), and then
// every pool (SetDefaults_NodePool).
func SetDefaults_Cluster(c *Cluster) {
	if c.Name == "" {
		c.Name = DefaultName
	}
	if c.Backend == "" {
		c.Backend = DefaultBackend
	}
	if c.Simnode.Shards == 0 {
		c.Simnode.Shards = 1
	}
	if c.Images.Resolve == "" {
		c.Images.Resolve = ImageResolveRegistry
	}
	podSubnetUnset := c.Networking.PodSubnet == "" && c.Networking.NodeCIDRMaskSize == 0
	SetDefaults_Networking(&c.Networking)
	if c.NodePools == nil {
		c.NodePools = defaultNodePools()
	}
	for i := range c.NodePools {
		SetDefaults_NodePool(&c.NodePools[i])
	}
	if podSubnetUnset {
		c.Networking.PodSubnet = podSubnetFor(NodeCount(c.NodePools))
	}
}

// NodeCount is how many nodes the pools have (a count not set or negative
// counts none).
func NodeCount(pools []NodePool) int {
	n := 0
	for _, p := range pools {
		if p.Count != nil && *p.Count > 0 {
			n += *p.Count
		}
	}
	return n
}

// podSubnetFor is the default podSubnet of a cluster of n nodes:
// DefaultPodSubnet while its /24s suffice (256 nodes), else the shortest
// prefix around it that gives every node its /24 (issue 20: a 5,000-node
// pool gets 10.224.0.0/11 instead of an error). MaxNodes needs 13 bits,
// within the 16 kube-controller-manager allows between cluster and node
// CIDR.
func podSubnetFor(n int) string {
	def := netip.MustParsePrefix(DefaultPodSubnet)
	bits := def.Bits()
	for bits > 8 && n > 1<<(DefaultNodeCIDRMaskSize-bits) {
		bits--
	}
	return netip.PrefixFrom(def.Addr(), bits).Masked().String()
}

// SetDefaults_Networking defaults the address ranges: podSubnet
// 10.244.0.0/16, nodeCIDRMaskSize 24, serviceSubnet 10.96.0.0/12, dnsDomain
// cluster.local. NodeAddressBase stays empty: the harness chooses it.
func SetDefaults_Networking(n *Networking) {
	if n.PodSubnet == "" {
		n.PodSubnet = DefaultPodSubnet
	}
	if n.NodeCIDRMaskSize == 0 {
		n.NodeCIDRMaskSize = DefaultNodeCIDRMaskSize
	}
	if n.ServiceSubnet == "" {
		n.ServiceSubnet = DefaultServiceSubnet
	}
	if n.DNSDomain == "" {
		n.DNSDomain = DefaultDNSDomain
	}
}

// SetDefaults_NodePool defaults one pool, field by field and, for resource
// lists and evictionHard, entry by entry:
//
//   - count 1;
//   - capacity cpu 4, memory 16Gi, pods 110, ephemeral-storage 100Gi;
//   - kubeReserved nothing (the kubelet's default);
//   - windows pools: windowsBuild 10.0.20348, taints os=windows:NoSchedule
//     when Taints is nil (an explicit [] keeps none), systemReserved memory
//     2Gi and cpu 500m (the docs recommend at least 2 GiB, N5),
//     evictionHard memory.available the kubelet's (simnode/facts
//     EvictionHardDefault: 500Mi, 100Mi when kubeletVersion is set and
//     older than v1.31, as those kubelets had the Linux default),
//     containerRuntimeVersion the Windows containerd of simnode/facts;
//   - linux pools: evictionHard memory.available the kubelet's (100Mi),
//     containerRuntimeVersion the Linux containerd of simnode/facts;
//   - shutdownGracePeriod and shutdownGracePeriodCriticalPods as
//     simnode/facts ShutdownGracePeriods resolves them (B15): 30s and 10s
//     when neither is set; shutdownGracePeriodCriticalPods 0s (the
//     kubelet's default) when only shutdownGracePeriod is set, and
//     shutdownGracePeriod 30s when only shutdownGracePeriodCriticalPods is.
//
// A pool without an OS gets only the OS-independent defaults; Validate
// reports the missing OS.
func SetDefaults_NodePool(p *NodePool) {
	if p.Count == nil {
		one := 1
		p.Count = &one
	}
	p.Capacity = withDefaults(p.Capacity, corev1.ResourceList{
		corev1.ResourceCPU:              resource.MustParse("4"),
		corev1.ResourceMemory:           resource.MustParse("16Gi"),
		corev1.ResourcePods:             resource.MustParse("110"),
		corev1.ResourceEphemeralStorage: resource.MustParse("100Gi"),
	})
	switch p.OS {
	case OSWindows:
		if p.WindowsBuild == "" {
			p.WindowsBuild = DefaultWindowsBuild
		}
		if p.Taints == nil {
			p.Taints = []corev1.Taint{WindowsTaint()}
		}
		p.SystemReserved = withDefaults(p.SystemReserved, corev1.ResourceList{
			corev1.ResourceMemory: resource.MustParse("2Gi"),
			corev1.ResourceCPU:    resource.MustParse("500m"),
		})
		p.EvictionHard = withDefaultEviction(p.EvictionHard, p.OS, p.KubeletVersion)
		if p.ContainerRuntimeVersion == "" {
			p.ContainerRuntimeVersion = DefaultWindowsContainerRuntimeVersion
		}
	case OSLinux:
		p.EvictionHard = withDefaultEviction(p.EvictionHard, p.OS, p.KubeletVersion)
		if p.ContainerRuntimeVersion == "" {
			p.ContainerRuntimeVersion = DefaultLinuxContainerRuntimeVersion
		}
	}
	total, critical := facts.ShutdownGracePeriods(p.ShutdownGracePeriod, p.ShutdownGracePeriodCriticalPods)
	p.ShutdownGracePeriod = &metav1.Duration{Duration: total}
	p.ShutdownGracePeriodCriticalPods = &metav1.Duration{Duration: critical}
}

// WindowsTaint is the taint that windows pools register by default (N4):
// os=windows:NoSchedule (facts.WindowsTaint).
func WindowsTaint() corev1.Taint { return facts.WindowsTaint() }

// defaultNodePools are the pools of a config that names none.
func defaultNodePools() []NodePool {
	count := func(n int) *int { return &n }
	return []NodePool{
		{Name: "win2022", OS: OSWindows, WindowsBuild: WindowsServer2022, Count: count(2)},
		{Name: "win2019", OS: OSWindows, WindowsBuild: WindowsServer2019, Count: count(1)},
		{Name: "linux", OS: OSLinux, Count: count(1)},
	}
}

// withDefaults returns list with every entry of defaults it lacks; it makes
// the list when it is nil and never shares defaults' quantities.
func withDefaults(list, defaults corev1.ResourceList) corev1.ResourceList {
	if list == nil {
		list = make(corev1.ResourceList, len(defaults))
	}
	for name, q := range defaults {
		if _, ok := list[name]; !ok {
			list[name] = q.DeepCopy()
		}
	}
	return list
}

// withDefaultEviction returns evictionHard with memory.available set to
// the kubelet's default for os at kubeletVersion when it lacks that signal.
// An empty or malformed version is the newest kubelet's: the first means
// the control plane's version, the second is Validate's to report.
func withDefaultEviction(evictionHard map[string]string, os facts.OS, kubeletVersion string) map[string]string {
	if _, ok := evictionHard[EvictionMemoryAvailable]; ok {
		return evictionHard
	}
	var kubelet *version.Version
	if kubeletVersion != "" {
		kubelet, _ = version.ParseSemantic(kubeletVersion)
	}
	if evictionHard == nil {
		evictionHard = make(map[string]string, 1)
	}
	evictionHard[EvictionMemoryAvailable] = os.EvictionHardDefault(kubelet)[EvictionMemoryAvailable]
	return evictionHard
}
