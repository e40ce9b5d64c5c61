package harness

import (
	"context"
	"time"

	"wink.dev/wink/harness/internal/cluster"
)

// waitWorking runs ready (Up's wait for the apiserver and every node) and,
// when the backend is a cluster.Verifier, its Verify beside it, of the
// nodes posted since since: the first error ends both, and the cluster is
// up once both have returned nil.
func waitWorking(ctx context.Context, backend cluster.Backend, st *cluster.State, kubeconfig string, since time.Time, ready func(context.Context) error) error {
	v, ok := backend.(cluster.Verifier)
	if !ok {
		return ready(ctx)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 2)
	go func() { errc <- ready(ctx) }()
	go func() { errc <- v.Verify(ctx, st, kubeconfig, since) }()
	for range 2 {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}
