package simnode

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"wink.dev/wink/simnode/config"
)

// StatefulSetPoll is how often RunStatefulSet reads its StatefulSet's
// replicas.
const StatefulSetPoll = 5 * time.Second

// RunStatefulSet serves, until ctx is done, the shard of cfg's nodes that
// the replica ordinal of the StatefulSet namespace/name owns (issue 19: the
// in-cluster chart, simnode/deploy/chart): Shard{ordinal, replicas}. When
// the StatefulSet's replicas change (kubectl scale, helm upgrade), it
// re-partitions: it stops serving, and serves the shard of the new count,
// so that each node keeps exactly one owner. A replica whose ordinal is
// past the new count (it is being removed) serves nothing meanwhile.
func RunStatefulSet(ctx context.Context, cfg *config.Config, namespace, name string, ordinal int) error {
	restCfg, err := clientcmd.BuildConfigFromFlags("", cfg.Kubeconfig)
	if err != nil {
		return fmt.Errorf("kubeconfig %q: %w", cfg.Kubeconfig, err)
	}
	client, err := kubernetes.NewForConfig(restCfg)
	if err != nil {
		return fmt.Errorf("kubernetes client: %w", err)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil)).With("component", "simnode", "statefulset", namespace+"/"+name, "ordinal", ordinal)
	replicas := func(ctx context.Context) (int, error) {
		sts, err := client.AppsV1().StatefulSets(namespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return 0, fmt.Errorf("statefulset %s/%s: %w", namespace, name, err)
		}
		if sts.Spec.Replicas == nil {
			return 1, nil
		}
		return int(*sts.Spec.Replicas), nil
	}
	count, err := replicas(ctx)
	if err != nil {
		return err
	}
	for {
		runCtx, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		if ordinal < count {
			shard := *cfg
			shard.Shard = config.Shard{Index: ordinal, Count: count}
			log.Info("serving shard", "index", ordinal, "count", count, "nodes", len(shard.OwnedNodeNames()))
			go func() { done <- Run(runCtx, &shard) }()
		} else {
			log.Info("ordinal past replicas: serving no nodes", "count", count)
		}
		next, ended, err := waitReplicasChange(runCtx, done, count, replicas, log)
		stop()
		if ordinal < count && !ended {
			if runErr := <-done; runErr != nil && !errors.Is(runErr, context.Canceled) {
				err = runErr
			}
		}
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return err
		}
		log.Info("replicas changed: re-partitioning", "from", count, "to", next)
		count = next
	}
}

// waitReplicasChange polls replicas until it differs from count (and
// returns it), Run ends (ended, with its error) or ctx is done. A failed
// read is logged and retried: the apiserver may be restarting.
func waitReplicasChange(ctx context.Context, done <-chan error, count int, replicas func(context.Context) (int, error), log *slog.Logger) (next int, ended bool, err error) {
	tick := time.NewTicker(StatefulSetPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return count, false, nil
		case err := <-done:
			if err == nil {
				err = errors.New("simnode stopped")
			}
			return count, true, err
		case <-tick.C:
			n, err := replicas(ctx)
			if err != nil {
				log.Warn("reading replicas", "err", err)
				continue
			}
			if n != count && n > 0 {
				return n, false, nil
			}
		}
	}
}
