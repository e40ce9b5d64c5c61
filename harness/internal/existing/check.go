package existing

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"wink.dev/wink/harness/internal/cluster"
	"wink.dev/wink/harness/internal/simnodeplan"
	"wink.dev/wink/simnode/facts"
)

// access is one thing the kubeconfig's user must be allowed to do.
type access struct {
	verb, group, resource, subresource string
}

func (a access) String() string {
	r := a.resource
	if a.subresource != "" {
		r += "/" + a.subresource
	}
	if a.group != "" {
		r += "." + a.group
	}
	return a.verb + " " + r
}

// needed is what simnode and its setup do with the kubeconfig's user:
// setup creates the ClusterRole and ClusterRoleBindings of
// simnodeplan.RBAC (and so must hold what they grant), simnode registers
// nodes, renews their leases, writes pod status and events, and checks the
// kubelet API's callers with TokenReview and SubjectAccessReview.
var needed = []access{
	{"create", "rbac.authorization.k8s.io", "clusterroles", ""},
	{"create", "rbac.authorization.k8s.io", "clusterrolebindings", ""},
	{"create", "", "nodes", ""},
	{"patch", "", "nodes", "status"},
	{"watch", "", "pods", ""},
	{"update", "", "pods", "status"},
	{"create", "coordination.k8s.io", "leases", ""},
	{"create", "", "events", ""},
	{"create", "authentication.k8s.io", "tokenreviews", ""},
	{"create", "authorization.k8s.io", "subjectaccessreviews", ""},
}

// CheckAccess asks the apiserver (SelfSubjectAccessReview) whether the
// kubeconfig's user may do what simnode needs, and says at once what it may
// not.
func CheckAccess(ctx context.Context, kubeconfig string) error {
	client, err := clientFor(kubeconfig, 10*time.Second)
	if err != nil {
		return err
	}
	var denied []string
	for _, a := range needed {
		review := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
			ResourceAttributes: &authorizationv1.ResourceAttributes{Verb: a.verb, Group: a.group, Resource: a.resource, Subresource: a.subresource},
		}}
		res, err := client.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, review, metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("asking the apiserver what the kubeconfig's user may do: %w", err)
		}
		if !res.Status.Allowed {
			denied = append(denied, a.String())
		}
	}
	if len(denied) > 0 {
		return fmt.Errorf("the kubeconfig's user may not %s: wink adds nodes with a kubeconfig of cluster-admin rights (kind's and kubeadm's admin kubeconfig have them)",
			strings.Join(denied, ", "))
	}
	return nil
}

// Verify checks what a Ready node does not show: that the apiserver
// reaches every node's kubelet API (logs, exec, port-forward, metrics go
// that way), through its node proxy (GET nodes/<node>/proxy/healthz). It
// returns nil once it does for every node (of a large cluster, those of
// verifySample), and an error naming the node, its address and the fix once
// one has failed for verifyGrace (verifyBusyGrace when it timed out). Each round
// lists the nodes once and asks the Ready ones, posted since since
// (facts.NodeReadySince), that it has not yet reached, verifyParallel at a
// time: thousands of nodes (issue 20) take seconds, not a Get and a proxy
// request each at the client's default rate.
func (b *Backend) Verify(ctx context.Context, st *cluster.State, kubeconfig string, since time.Time) error {
	client, err := clientFor(kubeconfig, proxyTimeout)
	if err != nil {
		return err
	}
	pending := map[string]bool{}
	for _, n := range verifySample(simnodeplan.NodeNames(st.Config)) {
		pending[n] = true
	}
	failing := map[string]time.Time{}
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for len(pending) > 0 {
		list, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{ResourceVersion: "0"})
		if err == nil {
			if err := reach(ctx, client, list.Items, since, pending, failing); err != nil || ctx.Err() != nil {
				return err
			}
		}
		if len(pending) == 0 {
			break
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
	return nil
}

// reach asks the node proxy of each node of nodes still pending that is
// Ready as posted since since, verifyParallel at a time, and takes those
// that answer off pending. It returns the error of the first node that has
// failed for verifyGrace; when the user may not use the node proxy there is
// nothing to check with, and it empties pending.
func reach(ctx context.Context, client kubernetes.Interface, nodes []corev1.Node, since time.Time, pending map[string]bool, failing map[string]time.Time) error {
	var (
		mu        sync.Mutex
		forbidden bool
		failed    error
		g         errgroup.Group
	)
	g.SetLimit(verifyParallel)
	var ask []*corev1.Node
	for i := range nodes {
		// Not registered, or not posted by the simnode now serving it
		// (`wink up` again: the node still shows the address and port
		// of the simnode that served it before): Up's own wait counts
		// that.
		if pending[nodes[i].Name] && facts.NodeReadySince(&nodes[i], since) {
			ask = append(ask, &nodes[i])
		}
	}
	for _, node := range ask {
		g.Go(func() error {
			err := client.CoreV1().RESTClient().Get().Resource("nodes").Name(node.Name).SubResource("proxy").Suffix("healthz").Do(ctx).Error()
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				delete(pending, node.Name)
			case isProxyForbidden(err):
				forbidden = true // the user may not use the node proxy
			case ctx.Err() != nil:
			default:
				grace := verifyGrace
				if utilnet.IsTimeout(err) {
					grace = verifyBusyGrace
				}
				first, ok := failing[node.Name]
				if !ok {
					failing[node.Name] = time.Now()
				} else if time.Since(first) >= grace && failed == nil {
					failed = kubeletUnreachable(node, err)
				}
			}
			return nil
		})
	}
	_ = g.Wait()
	if forbidden {
		clear(pending)
		return nil
	}
	return failed
}

// verifySample is the nodes Verify asks: all of up to verifyMax, else
// verifyMax of them spread evenly, the first and the last included. Each
// request through the node proxy is a connection the apiserver keeps for a
// while, through the embedded backend's egress proxy two descriptors more:
// 5,000 nodes asked at once took simnode past its limit of open files.
// Nodes take their ports in order, so a spread finds a range the cluster
// does not route.
func verifySample(names []string) []string {
	if len(names) <= verifyMax {
		return names
	}
	out := make([]string, 0, verifyMax)
	for i := range verifyMax {
		out = append(out, names[i*(len(names)-1)/(verifyMax-1)])
	}
	return out
}

// Timing of Verify.
const (
	// proxyTimeout bounds one request through the node proxy: a port the
	// cluster cannot reach often drops packets rather than refusing. It is
	// longer than the embedded backend's egress proxy takes to give up
	// dialling (10 s), so that the apiserver's answer says why.
	proxyTimeout = 15 * time.Second
	// verifyGrace is how long the kubelet API of a node, posted by the
	// simnode now serving it, may be unreachable before Verify says so:
	// the apiserver and simnode of a loaded machine answer late. (A node
	// Ready as an earlier simnode left it is not asked: reach.)
	verifyGrace = 10 * time.Second
	// verifyBusyGrace is verifyGrace for a node whose requests time out
	// rather than fail: an apiserver that dials a node in vain takes 30 s
	// to give up, and one busy with thousands of nodes coming up (issue 20:
	// 5,000 in two shards) answers late.
	verifyBusyGrace = time.Minute
	// verifyParallel is how many nodes Verify asks at once.
	verifyParallel = 16
	// verifyMax is how many nodes Verify asks at most (verifySample).
	verifyMax = 200
)

// isProxyForbidden: the apiserver (not the kubelet) refused the user the
// node proxy.
func isProxyForbidden(err error) bool {
	return apierrors.IsForbidden(err) && strings.Contains(err.Error(), `"nodes/proxy"`)
}

// kubeletUnreachable says why the apiserver does not reach node's kubelet
// API, and what to do.
func kubeletUnreachable(node *corev1.Node, err error) error {
	addr := ""
	for _, a := range node.Status.Addresses {
		if a.Type == corev1.NodeInternalIP {
			addr = a.Address
		}
	}
	port := node.Status.DaemonEndpoints.KubeletEndpoint.Port
	msg := err.Error()
	var fix string
	switch {
	case strings.Contains(msg, "x509") || strings.Contains(msg, "certificate"):
		fix = "the apiserver does not trust the node's serving certificate: it verifies kubelets (--kubelet-certificate-authority) and the cluster did not sign simnode's CertificateSigningRequest for signer kubernetes.io/kubelet-serving (see logs/simnode.log)"
	case apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err):
		fix = "the node's kubelet API refused the apiserver: grant the apiserver's kubelet client identity the ClusterRole system:kubelet-api-admin"
	default:
		fix = fmt.Sprintf("the cluster must reach this machine at %s on TCP port %d (each node has a port of its own): open those ports to the cluster, or set networking.nodeAddressBase to an address of this machine that the cluster routes to",
			addr, port)
	}
	return fmt.Errorf("the apiserver cannot reach the kubelet API of node %s at %s:%d: %s; %s", node.Name, addr, port, msg, fix)
}

// clientFor is a clientset for kubeconfig whose requests end after timeout.
func clientFor(kubeconfig string, timeout time.Duration) (kubernetes.Interface, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig %s: %w", kubeconfig, err)
	}
	cfg.Timeout = timeout
	cfg.UserAgent = "wink"
	cfg.ContentType = runtime.ContentTypeJSON // any apiserver (and the tests' stand-in) speaks it
	if cfg.QPS == 0 {
		// Verify's requests are bounded by verifyParallel; client-go's
		// default 5 per second would make thousands of nodes minutes.
		cfg.QPS, cfg.Burst = 500, 1000
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig %s: %w", kubeconfig, err)
	}
	return client, nil
}
