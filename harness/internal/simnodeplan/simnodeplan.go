// Package simnodeplan runs simnode against a control plane that wink does not
// run itself (the kind and existing backends): it writes <state>/simnode.yaml,
// creates the RBAC simnode relies on, and describes the simnode process for
// the supervisor.
package simnodeplan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilversion "k8s.io/apimachinery/pkg/util/version"
	apimachineryversion "k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"

	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/harness/internal/cluster"
	"wink.dev/wink/harness/internal/pki"
	"wink.dev/wink/harness/internal/supervisor"
	simconfig "wink.dev/wink/simnode/config"
	"wink.dev/wink/simnode/facts"
)

// Names of the components and of the RBAC objects.
const (
	// SetupComponent is the task that writes simnode.yaml and the RBAC.
	SetupComponent = "simnode-setup"
	// SimnodeComponent is the simnode process.
	SimnodeComponent = "simnode"
	// ClusterRoleName names the ClusterRole with what simnode does through
	// the apiserver, and the ClusterRoleBinding that grants it to the user
	// wink:simnode.
	ClusterRoleName = "wink:simnode"
	// SimnodeUser is the user the ClusterRoleBinding wink:simnode names (the
	// CN of the embedded backend's simnode certificate).
	SimnodeUser = pki.SimnodeCommonName
	// KubeletAPIAdminBindingName grants system:kubelet-api-admin to the
	// apiserver's kubelet client, kube-apiserver-kubelet-client, so that
	// simnode's SubjectAccessReview allows logs, exec and port-forward.
	KubeletAPIAdminBindingName = "wink:kube-apiserver-kubelet-client"
)

// ConfigPath is where simnode's configuration is written: <state>/simnode.yaml.
func ConfigPath(st *cluster.State) string {
	return filepath.Join(st.Dir, "simnode.yaml")
}

// StateDir is simnode's own directory: <state>/simnode.
func StateDir(st *cluster.State) string {
	return filepath.Join(st.Dir, "simnode")
}

// ClientCAPath is where the cluster CA taken from the kubeconfig is written,
// for simnode to verify the apiserver's kubelet client certificate.
func ClientCAPath(st *cluster.State) string {
	return filepath.Join(StateDir(st), "client-ca.crt")
}

// Network is how a cluster's apiserver and pods reach simnode's nodes
// (simnode's Config fields of the same names).
type Network struct {
	// ListenAddress is where the kubelet APIs listen: "0.0.0.0" for an
	// existing cluster, whose apiserver reaches this machine at
	// st.Ports.NodeAddressBase; empty behind an egress proxy.
	ListenAddress string
	// EgressSocket and ClusterDialSocket join the simulated network to a
	// real one through a gateway (the kind backend).
	EgressSocket, ClusterDialSocket string
}

// Components returns the supervisor's plan for simnode against the cluster of
// kubeconfig: the SetupComponent task (see Setup), then the simnode process,
// ready when all its nodes are Ready, on the network n.
func Components(st *cluster.State, kubeconfig string, n Network) []supervisor.Component {
	out := []supervisor.Component{{
		Name: SetupComponent,
		Task: func(ctx context.Context) error {
			return Setup(ctx, st, kubeconfig, n)
		},
	}}
	return append(out, Processes(st, kubeconfig)...)
}

// Processes are the simnode processes of st: one, SimnodeComponent, or with
// simnode.shards: N (issue 19) one per shard, simnode-0 … simnode-<N-1>,
// each serving the nodes it owns (simnode/config.Owner), started together;
// the last is ready when every node of the cluster is Ready.
func Processes(st *cluster.State, kubeconfig string) []supervisor.Component {
	shards := max(st.Config.Simnode.Shards, 1)
	var out []supervisor.Component
	for i := range shards {
		c := supervisor.Component{Name: SimnodeComponent, Args: []string{"simnode", "--config", ConfigPath(st)}}
		if shards > 1 {
			c.Name = fmt.Sprintf("%s-%d", SimnodeComponent, i)
			c.Args = append(c.Args, "--shard-index", fmt.Sprint(i), "--shard-count", fmt.Sprint(shards))
			c.Parallel = i < shards-1
		}
		if i == shards-1 {
			c.Ready = NodesReady(kubeconfig, st.Config.Name, st.Config.NodePools)
		}
		out = append(out, c)
	}
	return out
}

// Setup reads the control plane's version, creates the RBAC simnode relies on
// when missing (see RBAC) and writes simnode.yaml (and the client CA when the
// kubeconfig has one). It is idempotent.
func Setup(ctx context.Context, st *cluster.State, kubeconfig string, n Network) error {
	restCfg, err := restConfig(kubeconfig)
	if err != nil {
		return err
	}
	client, err := kubernetes.NewForConfig(restCfg)
	if err != nil {
		return fmt.Errorf("simnode setup: %w", err)
	}
	version, err := serverVersion(ctx, client)
	if err != nil {
		return fmt.Errorf("simnode setup: apiserver %s: %w", restCfg.Host, err)
	}
	if err := EnsureRBAC(ctx, client); err != nil {
		return fmt.Errorf("simnode setup: %w", err)
	}
	cfg := NewConfig(st, kubeconfig, n.ListenAddress, version)
	cfg.EgressSocket, cfg.ClusterDialSocket = n.EgressSocket, n.ClusterDialSocket
	if err := os.MkdirAll(cfg.StateDir, 0o700); err != nil {
		return fmt.Errorf("simnode setup: %w", err)
	}
	if ca := caData(restCfg); len(ca) > 0 {
		cfg.ClientCAFile = ClientCAPath(st)
		if err := pki.WriteFile(cfg.ClientCAFile, ca, pki.CertMode); err != nil {
			return fmt.Errorf("simnode setup: %w", err)
		}
	}
	return WriteConfig(ConfigPath(st), cfg)
}

// NewConfig returns simnode's configuration for st: its pools, cluster name,
// NodeAddressBase (st.Ports.NodeAddressBase) and state directory.
// ClientCAFile is left to the caller.
func NewConfig(st *cluster.State, kubeconfig, listenAddress, controlPlaneVersion string) *simconfig.Config {
	return &simconfig.Config{
		ClusterName:         st.Config.Name,
		Kubeconfig:          kubeconfig,
		ControlPlaneVersion: controlPlaneVersion,
		Pools:               Pools(st.Config.NodePools),
		NodeAddressBase:     st.Ports.NodeAddressBase,
		ListenAddress:       listenAddress,
		StateDir:            StateDir(st),
		StrictImages:        st.Config.Images.Strict,
		ImageResolve:        string(st.Config.Images.Resolve),
		ImageCacheDir:       simconfig.ImageCacheDir(filepath.Dir(st.Dir)),
		CSRServingCerts:     true,
	}
}

// Pools converts the pools of a defaulted wink.yaml into simnode's own
// (simnode/config): the one place where the user's schema meets simnode's.
func Pools(pools []v1alpha1.NodePool) []simconfig.Pool {
	out := make([]simconfig.Pool, 0, len(pools))
	for _, p := range pools {
		count := 1
		if p.Count != nil {
			count = *p.Count
		}
		out = append(out, simconfig.Pool{
			Name:                            p.Name,
			OS:                              p.OS,
			WindowsBuild:                    p.WindowsBuild,
			Count:                           count,
			Labels:                          p.Labels,
			Taints:                          p.Taints,
			Capacity:                        p.Capacity,
			KubeReserved:                    p.KubeReserved,
			SystemReserved:                  p.SystemReserved,
			EvictionHard:                    p.EvictionHard,
			KubeletVersion:                  p.KubeletVersion,
			ContainerRuntimeVersion:         p.ContainerRuntimeVersion,
			ShutdownGracePeriod:             p.ShutdownGracePeriod,
			ShutdownGracePeriodCriticalPods: p.ShutdownGracePeriodCriticalPods,
			Kubelet:                         p.Kubelet,
		})
	}
	return out
}

// NodeNames are the names of the nodes of cfg's pools, as simnode names
// them.
func NodeNames(cfg *v1alpha1.Cluster) []string {
	return (&simconfig.Config{ClusterName: cfg.Name, Pools: Pools(cfg.NodePools)}).NodeNames()
}

// WriteConfig writes cfg as YAML to path, atomically, mode 0600.
func WriteConfig(path string, cfg *simconfig.Config) error {
	data, err := yaml.Marshal(cfg)
	if err != nil {
		return fmt.Errorf("simnode config: %w", err)
	}
	if err := pki.WriteFile(path, data, 0o600); err != nil {
		return fmt.Errorf("simnode config: %w", err)
	}
	return nil
}

// restConfig loads kubeconfig's current context, with a request timeout so
// that a task or a readiness probe never hangs.
func restConfig(kubeconfig string) (*rest.Config, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig %s: %w", kubeconfig, err)
	}
	cfg.Timeout = 15 * time.Second
	cfg.UserAgent = "wink"
	return cfg, nil
}

// caData returns the CA the kubeconfig trusts for the apiserver, which on
// kubeadm clusters (kind) also signs the apiserver's kubelet client
// certificate.
func caData(cfg *rest.Config) []byte {
	if len(cfg.CAData) > 0 {
		return cfg.CAData
	}
	if cfg.CAFile != "" {
		if data, err := os.ReadFile(cfg.CAFile); err == nil {
			return data
		}
	}
	return nil
}

// serverVersion returns the apiserver's version, e.g. v1.35.4: the default
// kubelet version of the simulated nodes (see ReleaseVersion). (The
// discovery client's ServerVersion takes no context.)
func serverVersion(ctx context.Context, client kubernetes.Interface) (string, error) {
	data, err := client.Discovery().RESTClient().Get().AbsPath("/version").Do(ctx).Raw()
	if err != nil {
		return "", err
	}
	var v apimachineryversion.Info
	if err := json.Unmarshal(data, &v); err != nil {
		return "", fmt.Errorf("/version: %w", err)
	}
	return ReleaseVersion(v)
}

// ReleaseVersion is the release an apiserver's /version names: its
// gitVersion (v1.35.4, v1.33.5-eks-1a2b3c, v1.34.1+k3s1), or, when that is
// no release (an apiserver built without version stamping says
// v0.0.0-master+$Format:%H$), v<major>.<minor>.0 from its major and minor
// fields (GKE's minor reads "35+").
func ReleaseVersion(v apimachineryversion.Info) (string, error) {
	if sv, err := utilversion.ParseSemantic(v.GitVersion); err == nil && sv.Major() >= 1 {
		return v.GitVersion, nil
	}
	major, minor := strings.TrimSuffix(v.Major, "+"), strings.TrimSuffix(v.Minor, "+")
	if sv, err := utilversion.ParseSemantic("v" + major + "." + minor + ".0"); err == nil && sv.Major() >= 1 {
		return fmt.Sprintf("v%d.%d.0", sv.Major(), sv.Minor()), nil
	}
	return "", fmt.Errorf("/version names no Kubernetes release: gitVersion %q, major %q, minor %q", v.GitVersion, v.Major, v.Minor)
}

// RBAC returns the objects EnsureRBAC creates:
//
//   - ClusterRole wink:simnode: what simnode does through the apiserver
//     (modelled on system:node, plus TokenReview and SubjectAccessReview for
//     its kubelet API).
//   - ClusterRoleBinding wink:simnode: that role for the user wink:simnode.
//     On kind and existing clusters simnode uses the kubeconfig given to
//     wink, which is cluster-admin on kind, so this binding is not what lets
//     it in there; it is for a restricted kubeconfig whose user is
//     wink:simnode.
//   - ClusterRoleBinding wink:kube-apiserver-kubelet-client:
//     system:kubelet-api-admin for the user kube-apiserver-kubelet-client,
//     the apiserver's identity towards kubelets on kubeadm clusters. kubeadm
//     (and so kind) already puts it in the group kubeadm:cluster-admins; the
//     binding covers clusters that do not.
func RBAC() ([]*rbacv1.ClusterRole, []*rbacv1.ClusterRoleBinding) {
	labels := map[string]string{"app.kubernetes.io/managed-by": "wink"}
	role := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: ClusterRoleName, Labels: labels},
		Rules:      simconfig.APIRules(),
	}
	bindings := []*rbacv1.ClusterRoleBinding{
		{
			ObjectMeta: metav1.ObjectMeta{Name: ClusterRoleName, Labels: labels},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: ClusterRoleName},
			Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: SimnodeUser}},
		},
		{
			ObjectMeta: metav1.ObjectMeta{Name: KubeletAPIAdminBindingName, Labels: labels},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "system:kubelet-api-admin"},
			Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: pki.APIServerKubeletClientCommonName}},
		},
	}
	return []*rbacv1.ClusterRole{role}, bindings
}

// EnsureRBAC creates the objects of RBAC that are missing and brings the
// rules of an existing wink:simnode ClusterRole up to date. Bindings that
// exist are left alone (their roleRef cannot change).
func EnsureRBAC(ctx context.Context, client kubernetes.Interface) error {
	roles, bindings := RBAC()
	var errs []error
	for _, want := range roles {
		have, err := client.RbacV1().ClusterRoles().Get(ctx, want.Name, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			_, err = client.RbacV1().ClusterRoles().Create(ctx, want, metav1.CreateOptions{})
			if apierrors.IsAlreadyExists(err) {
				err = nil
			}
		case err == nil && !rulesEqual(have.Rules, want.Rules):
			have.Rules = want.Rules
			_, err = client.RbacV1().ClusterRoles().Update(ctx, have, metav1.UpdateOptions{})
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("ClusterRole %s: %w", want.Name, err))
		}
	}
	for _, want := range bindings {
		_, err := client.RbacV1().ClusterRoleBindings().Create(ctx, want, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			errs = append(errs, fmt.Errorf("ClusterRoleBinding %s: %w", want.Name, err))
		}
	}
	return errors.Join(errs...)
}

// rulesEqual compares two rule lists field by field.
func rulesEqual(a, b []rbacv1.PolicyRule) bool {
	return slices.EqualFunc(a, b, func(x, y rbacv1.PolicyRule) bool {
		return slices.Equal(x.Verbs, y.Verbs) && slices.Equal(x.APIGroups, y.APIGroups) &&
			slices.Equal(x.Resources, y.Resources) && slices.Equal(x.ResourceNames, y.ResourceNames) &&
			slices.Equal(x.NonResourceURLs, y.NonResourceURLs)
	})
}

// NodesReady returns a readiness probe that succeeds once every node of
// pools (named <cluster>-<pool>-<index>) is registered and Ready.
func NodesReady(kubeconfig, clusterName string, pools []v1alpha1.NodePool) func(ctx context.Context) error {
	var (
		mu     sync.Mutex
		client kubernetes.Interface
	)
	return func(ctx context.Context) error {
		mu.Lock()
		defer mu.Unlock()
		if client == nil {
			restCfg, err := restConfig(kubeconfig)
			if err != nil {
				return err
			}
			c, err := kubernetes.NewForConfig(restCfg)
			if err != nil {
				return err
			}
			client = c
		}
		nodes, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			return fmt.Errorf("listing nodes: %w", err)
		}
		return CheckNodesReady(nodes.Items, clusterName, pools)
	}
}

// CheckNodesReady says which pools of clusterName do not yet have all their
// nodes (as simnode names them) Ready; nil when all do.
func CheckNodesReady(nodes []corev1.Node, clusterName string, pools []v1alpha1.NodePool) error {
	byName := make(map[string]*corev1.Node, len(nodes))
	for i := range nodes {
		byName[nodes[i].Name] = &nodes[i]
	}
	var errs []error
	for _, pool := range pools {
		names := (&simconfig.Config{ClusterName: clusterName, Pools: Pools([]v1alpha1.NodePool{pool})}).NodeNames()
		ready := 0
		for _, name := range names {
			if n := byName[name]; n != nil && facts.NodeReady(n) {
				ready++
			}
		}
		if ready < len(names) {
			errs = append(errs, fmt.Errorf("pool %s: %d of %d nodes Ready", pool.Name, ready, len(names)))
		}
	}
	return errors.Join(errs...)
}
