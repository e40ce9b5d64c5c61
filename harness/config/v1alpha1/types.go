package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	simconfig "wink.dev/wink/simnode/config"
	"wink.dev/wink/simnode/facts"
)

// APIVersion and Kind identify a wink cluster configuration file.
const (
	APIVersion = "wink.dev/v1alpha1"
	Kind       = "Cluster"
)

// Cluster is the whole wink.yaml: which backend runs the control plane and
// which simulated nodes join it.
type Cluster struct {
	// APIVersion must be wink.dev/v1alpha1 (APIVersion). Not defaulted.
	APIVersion string `json:"apiVersion"`
	// Kind must be Cluster (Kind). Not defaulted.
	Kind string `json:"kind"`

	// Name of the cluster. The --name flag overrides it. Default "wink".
	Name string `json:"name,omitempty"`

	// Backend chooses who runs the control plane: "embedded" (default, no
	// Docker), "kind" (a kind cluster through the kind Go library) or
	// "existing" (any cluster given by Kubeconfig; wink only adds nodes).
	Backend Backend `json:"backend,omitempty"`

	// Kubeconfig is the cluster to join when Backend is "existing".
	Kubeconfig string `json:"kubeconfig,omitempty"`

	// KindBackend holds the settings of the kind backend (backend: kind).
	// Its YAML key is kindBackend: "kind" is taken by the Kind field above.
	KindBackend *KindBackend `json:"kindBackend,omitempty"`

	// Networking of the embedded control plane and of the simulated nodes.
	Networking Networking `json:"networking,omitempty"`

	// NodePools are the simulated nodes. Default (when the field is absent):
	// two Windows Server 2022 nodes (pool win2022), one Windows Server 2019
	// node (win2019), all tainted os=windows:NoSchedule, and one Linux node
	// (linux). An explicit empty list (nodePools: []) means no nodes; omitzero
	// keeps that distinction when the config is written back.
	NodePools []NodePool `json:"nodePools,omitzero"`

	// Simnode sets how the simulated nodes are served.
	Simnode Simnode `json:"simnode,omitzero"`

	// Images sets how simulated nodes treat images the catalog
	// (fixtures/images.yaml) does not know.
	Images Images `json:"images,omitzero"`
}

// Backend names a cluster backend.
type Backend string

// The cluster backends.
const (
	BackendEmbedded Backend = "embedded"
	BackendKind     Backend = "kind"
	BackendExisting Backend = "existing"
)

// KindBackend configures the kind backend.
type KindBackend struct {
	// NodeImage is the kind node image. Default: kind's default for its version.
	NodeImage string `json:"nodeImage,omitempty"`
}

// Networking holds the address ranges of the cluster.
type Networking struct {
	// PodSubnet is the cluster CIDR that node IPAM splits into node podCIDRs.
	// Default 10.244.0.0/16.
	PodSubnet string `json:"podSubnet,omitempty"`
	// NodeCIDRMaskSize is the size of each node's podCIDR. Default 24.
	NodeCIDRMaskSize int `json:"nodeCIDRMaskSize,omitempty"`
	// ServiceSubnet is the Service ClusterIP range. Default 10.96.0.0/12.
	ServiceSubnet string `json:"serviceSubnet,omitempty"`
	// DNSDomain is the cluster DNS domain. Default cluster.local.
	DNSDomain string `json:"dnsDomain,omitempty"`
	// NodeAddressBase is the first address given to simulated nodes as their
	// InternalIP; each next node gets the next address. Default: 172.18.0.2
	// for the embedded backend (simulated addresses, reached through
	// simnode's egress proxy); for kind and existing clusters, an address
	// of this machine that the cluster reaches, shared by every node.
	NodeAddressBase string `json:"nodeAddressBase,omitempty"`
}

// OS is a node operating system: windows or linux (facts.OS).
type OS = facts.OS

// Node operating systems.
const (
	OSWindows = facts.Windows
	OSLinux   = facts.Linux
)

// Windows Server builds that simulated Windows nodes can run (row N2,
// simnode/facts).
const (
	WindowsServer2019 = facts.WindowsServer2019
	WindowsServer2022 = facts.WindowsServer2022
	WindowsServer2025 = facts.WindowsServer2025
)

// NodePool is a group of identical simulated nodes.
type NodePool struct {
	// Name of the pool, a DNS-1123 label unique in the cluster; nodes are
	// named <cluster>-<pool>-<index>. Required.
	Name string `json:"name"`
	// OS of the nodes: windows or linux. Required.
	OS OS `json:"os"`
	// WindowsBuild is the Windows Server build (windows pools only):
	// 10.0.17763 (2019), 10.0.20348 (2022) or 10.0.26100 (2025). It sets
	// the build label (N2), osImage and kernelVersion (N3). Default 10.0.20348.
	WindowsBuild string `json:"windowsBuild,omitempty"`
	// Count of nodes in the pool. Default 1; 0 keeps the pool without nodes.
	Count *int `json:"count,omitempty"`
	// Labels added to every node of the pool, next to the kubelet's own (N1, N2).
	Labels map[string]string `json:"labels,omitempty"`
	// Taints registered with every node (N4), like --register-with-taints.
	// Default for windows pools (when the field is absent):
	// os=windows:NoSchedule. Set to [] for none; omitzero keeps an explicit
	// empty list when the config is written back.
	Taints []corev1.Taint `json:"taints,omitzero"`
	// Capacity of each node: cpu, memory, pods, ephemeral-storage. Each
	// missing entry is defaulted: cpu 4, memory 16Gi, pods 110,
	// ephemeral-storage 100Gi.
	Capacity corev1.ResourceList `json:"capacity,omitempty"`
	// KubeReserved is subtracted from capacity (N5), like --kube-reserved:
	// cpu, memory, ephemeral-storage. Default: nothing, as the kubelet's.
	KubeReserved corev1.ResourceList `json:"kubeReserved,omitempty"`
	// SystemReserved is subtracted from capacity (N5), like
	// --system-reserved: cpu, memory, ephemeral-storage. Default for windows
	// pools, entry by entry: memory 2Gi (the docs recommend at least 2 GiB)
	// and cpu 500m; nothing for linux pools. Write 0 to reserve nothing.
	SystemReserved corev1.ResourceList `json:"systemReserved,omitempty"`
	// EvictionHard thresholds, as the kubelet's evictionHard: a quantity or
	// a percentage of capacity per signal (memory.available,
	// nodefs.available, nodefs.inodesFree, imagefs.available,
	// pid.available). memory.available is subtracted from allocatable
	// memory, nodefs.available from allocatable ephemeral-storage (N5).
	// Default memory.available: 500Mi on Windows (kubelet >= v1.31,
	// pkg/kubelet/eviction/defaults_windows.go; 100Mi for an older
	// kubeletVersion) and 100Mi on Linux.
	EvictionHard map[string]string `json:"evictionHard,omitempty"`
	// KubeletVersion the nodes report, e.g. v1.30.2, from v1.29.0 to v1.35.x.
	// It chooses which version-dependent rows apply (N6/N7, B6). Default
	// (empty): the control plane's, filled in by the harness.
	KubeletVersion string `json:"kubeletVersion,omitempty"`
	// ContainerRuntimeVersion, <runtime>://<version> (N3). Default
	// containerd://1.7.27 on Windows and containerd://2.1.4 on Linux.
	ContainerRuntimeVersion string `json:"containerRuntimeVersion,omitempty"`
	// ShutdownGracePeriod is the kubelet's shutdownGracePeriod (B15): how
	// long a node's shutdown is delayed for its pods to terminate, a
	// duration such as "30s", zero or at least 1s. "0s" turns the node
	// shutdown manager off, as the kubelet's own default does: the machine
	// goes down and the pods are left as they are. Default 30s (with
	// shutdownGracePeriodCriticalPods 10s, the Kubernetes docs' example,
	// simnode/facts') when neither field is set.
	ShutdownGracePeriod *metav1.Duration `json:"shutdownGracePeriod,omitempty"`
	// ShutdownGracePeriodCriticalPods is the kubelet's
	// shutdownGracePeriodCriticalPods (B15): the last part of
	// shutdownGracePeriod, kept for critical pods (priority 2000000000 and
	// up); the others get the rest. At most shutdownGracePeriod, zero or at
	// least 1s. Default 10s when shutdownGracePeriod is not set either, else
	// 0s (the kubelet's default).
	ShutdownGracePeriodCriticalPods *metav1.Duration `json:"shutdownGracePeriodCriticalPods,omitempty"`
	// Kubelet holds the pool's kubelet write-path settings, fields of the
	// KubeletConfiguration of the same names; what is unset is the
	// kubelet's default (pkg/kubelet/apis/config/v1beta1/defaults.go).
	Kubelet *KubeletWritePath `json:"kubelet,omitempty"`
}

// KubeletWritePath is simnode/config's: a pool's kubelet block is handed
// to its nodes as wink.yaml says it.
type KubeletWritePath = simconfig.KubeletWritePath

// Simnode sets how the simulated nodes are served (issue 19).
type Simnode struct {
	// Shards is the number of simnode processes that share the nodes,
	// each serving the nodes it owns (simnode/config.Owner: every node has
	// exactly one owner), so that more than one core serves them. Default
	// 1. More than 1 needs backend kind or existing: the embedded
	// apiserver reaches its nodes through one simnode's egress proxy.
	Shards int `json:"shards,omitempty"`
}

// Images is the image policy of the simulated nodes (row B4).
type Images struct {
	// Strict makes images the catalog does not know fail to pull
	// (ErrImagePull, "not found"), as on a node whose registry lacks them.
	// Default false: an unknown image is taken as a Windows image of the
	// host's build on Windows nodes and a Linux image on Linux nodes, and a
	// pod can declare an unknown image's OS and build with the annotations
	// wink.dev/image-os.<container> and wink.dev/image-build.<container>.
	Strict bool `json:"strict,omitempty"`
	// Resolve says where a simulated node learns what an image is (its
	// manifest list: each platform's os, os.version and architecture, and
	// its config: ENTRYPOINT, CMD, Env, WorkingDir, User, ExposedPorts):
	// "registry" (default) asks the image's registry on the first pull of a
	// reference, with the pod's imagePullSecrets and the user's docker
	// config, and keeps the answer in $WINK_HOME/cache/images, shared by
	// clusters; a registry that does not answer within a few seconds falls
	// back to the catalog (fixtures/images.yaml) with one Warning event.
	// "offline" uses the cache and the catalog only and never the network.
	Resolve ImageResolve `json:"resolve,omitempty"`
}

// ImageResolve says where image metadata comes from (images.resolve).
type ImageResolve string

// Values of images.resolve.
const (
	ImageResolveRegistry ImageResolve = "registry"
	ImageResolveOffline  ImageResolve = "offline"
)
