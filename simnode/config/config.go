package config

import (
	"fmt"
	"os"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
	"wink.dev/wink/simnode/facts"
)

// Config is everything one simnode process serves. The harness writes it to
// <state>/simnode.yaml and starts `wink simnode --config <file>`.
type Config struct {
	// ClusterName prefixes node names: <cluster>-<pool>-<index>.
	ClusterName string `json:"clusterName"`
	// Kubeconfig simnode uses to reach the apiserver.
	Kubeconfig string `json:"kubeconfig"`
	// ControlPlaneVersion is the default kubeletVersion, e.g. v1.35.4.
	ControlPlaneVersion string `json:"controlPlaneVersion"`
	// Pools are the node pools, already defaulted and validated by the
	// harness.
	Pools []Pool `json:"pools"`
	// NodeAddressBase is the InternalIP of the first node; each next node
	// gets the next address.
	NodeAddressBase string `json:"nodeAddressBase"`
	// ListenAddress, when set, is the address every node's kubelet API
	// binds to instead of its own InternalIP (kind: the InternalIP is the
	// Docker network gateway, the listener 0.0.0.0).
	ListenAddress string `json:"listenAddress,omitempty"`
	// KubeletPort every node listens on (default 10250). When a node's port
	// is taken, it takes a free one and reports it in
	// status.daemonEndpoints.kubeletEndpoint.port.
	KubeletPort int `json:"kubeletPort,omitempty"`
	// ServingCACert and ServingCAKey sign each node's kubelet serving
	// certificate. When empty, simnode makes a CA of its own in StateDir.
	ServingCACert string `json:"servingCACert,omitempty"`
	ServingCAKey  string `json:"servingCAKey,omitempty"`
	// CSRServingCerts asks the cluster to sign each node's serving
	// certificate, as a kubelet with serverTLSBootstrap does: a
	// CertificateSigningRequest of signer kubernetes.io/kubelet-serving that
	// simnode approves itself. For clusters wink does not run (kind,
	// existing), whose apiserver may verify kubelet certificates against a
	// CA simnode has no key of. When the cluster does not sign, simnode
	// falls back to ServingCACert or a CA of its own.
	CSRServingCerts bool `json:"csrServingCerts,omitempty"`
	// ClientCAFile verifies client certificates on the kubelet API (the
	// apiserver's kubelet client certificate). Bearer tokens are checked
	// with TokenReview either way.
	ClientCAFile string `json:"clientCAFile,omitempty"`
	// EgressSocket, when set, is a Unix socket on which simnode serves the
	// apiserver's egress proxy (HTTP CONNECT, the apiserver's `cluster`
	// egress selection). Node InternalIPs are then simulated addresses that
	// need not exist on this machine: every kubelet API binds to a free port
	// on 127.0.0.1 and the proxy maps <InternalIP>:<port> to it
	// (simnode/egress).
	EgressSocket string `json:"egressSocket,omitempty"`
	// ClusterDialSocket, when set, is the Unix socket of an HTTP CONNECT
	// proxy inside the cluster's real network (the kind backend's
	// gateway): simulated containers reach pods of real nodes through it,
	// and the egress proxy then answers only for simulated addresses
	// instead of dialling others from this machine.
	ClusterDialSocket string `json:"clusterDialSocket,omitempty"`
	// StateDir holds simnode's own files (generated CA, certificates).
	StateDir string `json:"stateDir"`
	// StrictImages makes images the catalog does not know fail to pull
	// (wink.yaml images.strict, row B4).
	StrictImages bool `json:"strictImages,omitempty"`
	// ImageResolve is where image metadata comes from (wink.yaml
	// images.resolve, row B4): "registry" asks the image's registry on the
	// first pull of a reference; "offline" or "" uses ImageCacheDir and the
	// catalog only.
	ImageResolve string `json:"imageResolve,omitempty"`
	// ImageCacheDir is the registry cache shared by clusters:
	// $WINK_HOME/cache/images. Empty: answers are kept in memory only.
	ImageCacheDir string `json:"imageCacheDir,omitempty"`

	// PodStartDelay is the time from admission to Running and Ready (image
	// pull, container start). Default 200ms.
	PodStartDelay metav1.Duration `json:"podStartDelay,omitempty"`
	// PodStopDelay is the time a container takes to exit after SIGTERM.
	// Default 100ms.
	PodStopDelay metav1.Duration `json:"podStopDelay,omitempty"`
	// ClientQPS and ClientBurst limit simnode's API client (all nodes
	// share it). Default: no limit (a negative QPS says so too); a
	// positive QPS without a burst gets a burst of twice the QPS.
	ClientQPS   float32 `json:"clientQPS,omitempty"`
	ClientBurst int     `json:"clientBurst,omitempty"`
	// Shard, when its Count is over 1, serves only the nodes this process
	// owns (Shard.Owns, issue 19); the others belong to its siblings.
	// Addresses and kubelet ports are those of the whole cluster's node
	// order either way, so a node keeps them whichever shard serves it.
	Shard Shard `json:"shard,omitzero"`
	// Verbose logs virtual-kubelet's own informational messages too.
	Verbose bool `json:"verbose,omitempty"`
}

// Pool is a group of identical simulated nodes, as simnode serves them. The
// harness fills it from a defaulted wink.yaml node pool; simnode's node
// rules (simnode/rules) fill in what a pool leaves empty.
type Pool struct {
	// Name of the pool: nodes are named <cluster>-<pool>-<index>.
	Name string `json:"name"`
	// OS of the nodes: windows or linux.
	OS facts.OS `json:"os"`
	// WindowsBuild is the Windows Server build of a windows pool (N2, N3),
	// e.g. 10.0.20348.
	WindowsBuild string `json:"windowsBuild,omitempty"`
	// Count of nodes in the pool.
	Count int `json:"count"`
	// Labels added to every node, next to the kubelet's own (N1, N2).
	Labels map[string]string `json:"labels,omitempty"`
	// Taints registered with every node (N4).
	Taints []corev1.Taint `json:"taints,omitempty"`
	// Capacity, KubeReserved, SystemReserved and EvictionHard make the
	// node's capacity and allocatable (N5); evictionHard also sets the
	// eviction thresholds (B6). Capacity entries left out come from the
	// node rules; a nil EvictionHard takes the kubelet version's default.
	Capacity       corev1.ResourceList `json:"capacity,omitempty"`
	KubeReserved   corev1.ResourceList `json:"kubeReserved,omitempty"`
	SystemReserved corev1.ResourceList `json:"systemReserved,omitempty"`
	EvictionHard   map[string]string   `json:"evictionHard,omitempty"`
	// KubeletVersion the nodes report; empty: Config.ControlPlaneVersion.
	KubeletVersion string `json:"kubeletVersion,omitempty"`
	// ContainerRuntimeVersion, <runtime>://<version> (N3); empty: the node
	// profile's.
	ContainerRuntimeVersion string `json:"containerRuntimeVersion,omitempty"`
	// ShutdownGracePeriod and ShutdownGracePeriodCriticalPods are the
	// kubelet's graceful node shutdown settings (B15); nil: simnode/facts'
	// defaults (ShutdownGracePeriods), zero: no shutdown manager.
	ShutdownGracePeriod             *metav1.Duration `json:"shutdownGracePeriod,omitempty"`
	ShutdownGracePeriodCriticalPods *metav1.Duration `json:"shutdownGracePeriodCriticalPods,omitempty"`
	// Kubelet is how often and how fast the nodes write to the API (nil
	// fields: the kubelet's defaults).
	Kubelet *KubeletWritePath `json:"kubelet,omitempty"`
}

// KubeletWritePath is how often and how fast a pool's kubelets write to the
// API (events, the node lease and the node status) and to their disks
// (container log rotation): the KubeletConfiguration fields of the same
// names (pkg/kubelet/apis/config/v1beta1/defaults.go); nil or empty: the
// kubelet's default. wink.yaml's pools use this type as it is.
type KubeletWritePath struct {
	// EventRecordQPS and EventBurst rate limit the events each node writes
	// (the kubelet's event client). Default 50 and 100. As in the kubelet
	// (its client's rest.Config), 0 is client-go's default 5 and 10.
	EventRecordQPS *int32 `json:"eventRecordQPS,omitempty"`
	EventBurst     *int32 `json:"eventBurst,omitempty"`
	// NodeLeaseDurationSeconds is the node lease's duration; the lease is
	// renewed every quarter of it. Default 40 (renewed every 10 s).
	NodeLeaseDurationSeconds *int32 `json:"nodeLeaseDurationSeconds,omitempty"`
	// NodeStatusReportFrequency is how often a node whose status did not
	// change posts it anyway. Default 5m. A change is posted when it
	// happens.
	NodeStatusReportFrequency *metav1.Duration `json:"nodeStatusReportFrequency,omitempty"`
	// ContainerLogMaxSize, ContainerLogMaxFiles, ContainerLogMaxWorkers
	// and ContainerLogMonitorInterval are the container log manager's
	// rotation (issue 22): every containerLogMonitorInterval each running
	// container's log of containerLogMaxSize or more is rotated, keeping
	// containerLogMaxFiles files. Default 10Mi, 5, 1 and 10s.
	ContainerLogMaxSize         string           `json:"containerLogMaxSize,omitempty"`
	ContainerLogMaxFiles        *int32           `json:"containerLogMaxFiles,omitempty"`
	ContainerLogMaxWorkers      *int32           `json:"containerLogMaxWorkers,omitempty"`
	ContainerLogMonitorInterval *metav1.Duration `json:"containerLogMonitorInterval,omitempty"`
}

// ImageResolveRegistry is Config.ImageResolve's value for asking registries.
const ImageResolveRegistry = "registry"

// ImageCacheDir is the registry cache of a wink home (the parent of the
// clusters' state directories), shared by its clusters.
func ImageCacheDir(home string) string { return filepath.Join(home, "cache", "images") }

// DefaultWindowsBuild is the build of a windows pool that names none:
// Windows Server 2022 (N2). wink.yaml's defaulting uses it too.
const DefaultWindowsBuild = facts.DefaultWindowsBuild

// Load reads a simnode configuration file (YAML or JSON); a field it does
// not know is an error.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("simnode config: %w", err)
	}
	cfg := &Config{}
	if err := yaml.UnmarshalStrict(data, cfg); err != nil {
		return nil, fmt.Errorf("simnode config %s: %w", path, err)
	}
	return cfg, nil
}

// NodeName is the name of node index of pool in cluster:
// <cluster>-<pool>-<index>.
func NodeName(cluster, pool string, index int) string {
	return fmt.Sprintf("%s-%s-%d", cluster, pool, index)
}

// NodeNames returns the names of the nodes c describes, in pool order,
// index from 0.
func (c *Config) NodeNames() []string {
	var out []string
	for _, p := range c.Pools {
		for i := range p.Count {
			out = append(out, NodeName(c.ClusterName, p.Name, i))
		}
	}
	return out
}
