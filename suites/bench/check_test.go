package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"wink.dev/wink/harness/check"
	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/suites/suite"
)

// BenchmarkCheck is the wall time of `wink check` (harness/check.Run, what
// the command runs) on a small chart, the clean mixed chart of
// harness/check/testdata/charts: fresh clusters of the profiles brought up
// side by side, the chart installed and judged, the clusters deleted.
// Goals on 2 cores: under 60 s for one platform, 120 s for three.
func BenchmarkCheck(b *testing.B) {
	bin, err := suite.Binary()
	if err != nil {
		b.Fatal(err)
	}
	_, file, _, _ := runtime.Caller(0)
	chart := filepath.Join(filepath.Dir(file), "..", "..", "harness", "check", "testdata", "charts", "mixed-clean")
	if _, err := os.Stat(chart); err != nil {
		b.Skipf("needs the checkout's harness/check/testdata/charts: %v", err)
	}
	home := os.Getenv("WINK_HOME")
	if home == "" {
		home = b.TempDir()
	}
	for _, c := range []struct {
		platforms []string
		goal      time.Duration
	}{
		{[]string{"generic"}, 60 * time.Second},
		{[]string{"eks", "aks", "gke"}, 120 * time.Second},
	} {
		b.Run(fmt.Sprintf("platforms=%d", len(c.platforms)), func(b *testing.B) {
			var total time.Duration
			for range b.N {
				start := time.Now()
				rep, err := check.Run(context.Background(), check.Options{
					Charts: []string{chart}, Platforms: c.platforms, Home: home, Binary: bin,
					BaseCluster: &v1alpha1.Cluster{Images: v1alpha1.Images{Resolve: v1alpha1.ImageResolveOffline}},
				})
				if err != nil {
					b.Fatal(err)
				}
				if check.Failed(rep) {
					b.Fatalf("the clean chart has findings: %+v %v", rep.Workloads, rep.PlatformErrors)
				}
				total += time.Since(start)
			}
			per := total.Seconds() / float64(b.N)
			b.ReportMetric(per, "s/check")
			fmt.Printf("wink check, clean mixed chart, %d platform(s) %v: %.1f s (goal < %s)\n", len(c.platforms), c.platforms, per, c.goal)
		})
	}
}
