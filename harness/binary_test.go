package harness

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// winkBinary is the real wink binary ($WINK_BINARY, `make build`); tests
// that bring a cluster up skip without it.
func winkBinary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("WINK_BINARY")
	if bin == "" {
		t.Skip("WINK_BINARY is not set: these tests run the real wink binary (make build && WINK_BINARY=$PWD/bin/wink go test ./harness)")
	}
	return bin
}

// shortHome is a clusters' home short enough for the egress socket.
func shortHome(t *testing.T) string {
	t.Helper()
	home, err := os.MkdirTemp("", "wh-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	return home
}

// TestConcurrentUp: two `wink up --name X` at once for a new X both end
// with the one cluster up (the second waited for the first's lock), and
// then `wink down` during a third Up leaves nothing stale for the next.
func TestConcurrentUp(t *testing.T) {
	bin := winkBinary(t)
	home := shortHome(t)
	o := Options{Name: "twice", Home: home, Binary: bin}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = Delete(ctx, o)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	clusters := make([]*Cluster, 2)
	errs := make([]error, 2)
	progress := make([]strings.Builder, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			oi := o
			oi.Progress = &progress[i]
			clusters[i], errs[i] = Up(ctx, UpOptions{Options: oi})
		}()
	}
	wg.Wait()
	for i := range 2 {
		if errs[i] != nil {
			t.Fatalf("Up %d: %v\nprogress:\n%s", i, errs[i], progress[i].String())
		}
	}
	if clusters[0].Kubeconfig != clusters[1].Kubeconfig {
		t.Errorf("kubeconfigs %s and %s", clusters[0].Kubeconfig, clusters[1].Kubeconfig)
	}
	both := progress[0].String() + progress[1].String()
	if strings.Count(both, "Supervisor already running") != 1 {
		t.Errorf("want one Up to start the supervisor and the other to find it:\n%s", both)
	}
	if !strings.Contains(both, "Waiting for pid ") {
		t.Logf("the second Up did not have to wait for the lock (the first was quicker):\n%s", both)
	}

	// `wink down` during an Up, then Up again: no stale failure.
	if err := Down(ctx, o); err != nil {
		t.Fatal(err)
	}
	upCtx, upCancel := context.WithTimeout(ctx, time.Minute)
	defer upCancel()
	third := make(chan error, 1)
	go func() { _, err := Up(upCtx, UpOptions{Options: o}); third <- err }()
	time.Sleep(1500 * time.Millisecond)
	if err := Down(ctx, o); err != nil {
		t.Fatal(err)
	}
	t.Logf("Up interrupted by Down: %v", <-third)
	if _, err := Up(ctx, UpOptions{Options: o}); err != nil {
		t.Fatalf("Up after an interrupted Up: %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, "twice", markerFile)); err != nil {
		t.Error(err)
	}
}
