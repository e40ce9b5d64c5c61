package cluster

import (
	"testing"
	"time"
)

// TestMetricsResolutionFor: metrics-server scrapes every 10 s up to 500
// nodes, and at most maxScrapesPerSecond nodes a second beyond.
func TestMetricsResolutionFor(t *testing.T) {
	for _, tt := range []struct {
		nodes int
		want  time.Duration
	}{
		{0, 10 * time.Second},
		{4, 10 * time.Second},
		{500, 10 * time.Second},
		{1001, 20020 * time.Millisecond},
		{5000, 100 * time.Second},
	} {
		if got := MetricsResolutionFor(tt.nodes); got != tt.want {
			t.Errorf("MetricsResolutionFor(%d) = %s, want %s", tt.nodes, got, tt.want)
		}
	}
	if MetricsKubeletTimeout >= MetricsResolution*9/10 {
		t.Errorf("MetricsKubeletTimeout %s is not under 90%% of MetricsResolution %s", MetricsKubeletTimeout, MetricsResolution)
	}
}
