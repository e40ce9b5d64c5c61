package simnode

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"wink.dev/wink/harness/config/v1alpha1"
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
	// Pools are the node pools, already defaulted and validated.
	Pools []v1alpha1.NodePool `json:"pools"`
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
	// on 127.0.0.1 and the proxy maps <InternalIP>:<port> to it. Owned by
	// the lead (simnode/egress).
	EgressSocket string `json:"egressSocket,omitempty"`
	// StateDir holds simnode's own files (generated CA, certificates).
	StateDir string `json:"stateDir"`
	// StrictImages makes images the catalog does not know fail to pull
	// (wink.yaml images.strict, row B4).
	StrictImages bool `json:"strictImages,omitempty"`

	// PodStartDelay is the time from admission to Running and Ready (image
	// pull, container start). Default 200ms.
	PodStartDelay metav1.Duration `json:"podStartDelay,omitempty"`
	// PodStopDelay is the time a container takes to exit after SIGTERM.
	// Default 100ms.
	PodStopDelay metav1.Duration `json:"podStopDelay,omitempty"`
	// ClientQPS and ClientBurst limit simnode's API client (all nodes
	// share it). Defaults: 50 + 5 per node, burst twice that.
	ClientQPS   float32 `json:"clientQPS,omitempty"`
	ClientBurst int     `json:"clientBurst,omitempty"`
	// Verbose logs virtual-kubelet's own informational messages too.
	Verbose bool `json:"verbose,omitempty"`
}
