// Package existing checks the existing backend, the way users add
// simulated Windows nodes to a cluster they already have (the kind cluster
// their CI makes, say): a second wink cluster with `backend: existing`
// joins the suite's cluster, its nodes register and become Ready, a
// Windows pod runs on them, and `kubectl logs` and `exec` reach their
// kubelet API through the apiserver. And when something blocks the join (a
// kubeconfig without the rights, an apiserver that does not answer, a
// kubelet port the apiserver cannot reach), `wink up` says what within
// seconds.
//
// Without --kubeconfig the suite's cluster is an embedded wink cluster of
// testdata/base.yaml (one Linux node, for CoreDNS); with --kubeconfig it is
// that cluster, which must reach this machine (see the README). The nodes
// added come from testdata/join.yaml.
package existing

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/e2e-framework/pkg/env"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
	"sigs.k8s.io/e2e-framework/pkg/featuregate"

	"wink.dev/wink/harness"
	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/suites/suite"
)

var (
	testenv env.Environment
	cluster *suite.Cluster
	// joined is the wink cluster of the existing backend that adds nodes to
	// the suite's cluster.
	joined harness.Options
	// joinConfig is testdata/join.yaml with the suite's kubeconfig.
	joinConfig *v1alpha1.Cluster
	// joinedNodes are the names of the nodes it adds.
	joinedNodes []string
)

// The configurations, embedded so that a prebuilt suite binary runs outside
// a checkout.
var (
	//go:embed testdata/base.yaml
	baseYAML []byte
	//go:embed testdata/join.yaml
	joinYAML []byte
)

// joinedLabel is the label testdata/join.yaml gives the added nodes.
const joinedLabel = "wink.dev/joined"

// joinedName is the name of the wink cluster that joins.
const joinedName = "wink-existing-nodes"

func TestMain(m *testing.M) {
	base := suite.Config(baseYAML, "suites/existing/testdata/base.yaml")
	joinConfig = suite.Config(joinYAML, "suites/existing/testdata/join.yaml")
	// Finish in reverse order: the nodes leave before the cluster they
	// joined goes.
	if err := featuregate.DefaultMutableFeatureGate.Set(string(featuregate.ReverseTestFinishExecutionOrder) + "=true"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	testenv, cluster = suite.Setup("existing", base)
	// The two sharding tests (t.Parallel) run at once, after the others:
	// each waits out the node lifecycle controller's grace period on nodes
	// of its own.
	testenv.Setup(join)
	testenv.Finish(leave)
	os.Exit(testenv.Run(m))
}

// join brings up the existing-backend cluster that adds joinConfig's nodes
// to the suite's cluster.
func join(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
	bin, err := suite.Binary()
	if err != nil {
		return ctx, err
	}
	home := cluster.Options.Home
	if home == "" {
		home = os.Getenv("WINK_HOME")
	}
	if home == "" {
		if home, err = os.MkdirTemp("", "wink-suite-"); err != nil {
			return ctx, err
		}
	}
	joined = harness.Options{Name: joinedName, Home: home, Binary: bin, Progress: os.Stderr}
	joinConfig.Kubeconfig = cfg.KubeconfigFile()
	joinedNodes = harness.NodeNames(&v1alpha1.Cluster{Name: joinedName, NodePools: joinConfig.NodePools})
	start := time.Now()
	if _, err := harness.Up(ctx, harness.UpOptions{Options: joined, Config: joinConfig, Fresh: true, Wait: time.Minute, Schedulable: true}); err != nil {
		return ctx, suite.HarnessProblem(fmt.Errorf("joining the suite's cluster with backend existing: %w", err))
	}
	fmt.Fprintf(os.Stderr, "%d nodes joined in %.1fs\n", len(joinedNodes), time.Since(start).Seconds())
	return ctx, nil
}

// leave deletes the joining cluster and the Node objects it registered
// (the existing backend leaves the cluster it joined alone).
func leave(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
	if os.Getenv("WINK_KEEP") != "" || joined.Name == "" {
		return ctx, nil
	}
	if err := harness.Delete(ctx, joined); err != nil {
		return ctx, err
	}
	return ctx, deleteNodes(ctx, cfg.KubeconfigFile(), joinedNodes)
}

// deleteNodes deletes the named Node objects of the cluster of kubeconfig.
func deleteNodes(ctx context.Context, kubeconfig string, names []string) error {
	rc, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	cs, err := kubernetes.NewForConfig(rc)
	if err != nil {
		return err
	}
	for _, n := range names {
		_ = cs.CoreV1().Nodes().Delete(ctx, n, metav1.DeleteOptions{})
	}
	return nil
}
