package wire

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/internal/pods"
)

// TestPodVolumesRefresh: the volumes wire gives the provider's remount
// loop (pods/remount.go) a refresher, so ConfigMap, Secret and downward API
// updates reach running pods (B12).
func TestPodVolumesRefresh(t *testing.T) {
	var v pods.PodVolumes = podVolumes{}
	if _, ok := v.(interface {
		Refresh(ctx context.Context, pod *corev1.Pod) error
	}); !ok {
		t.Fatal("podVolumes does not implement Refresh: running pods' volumes are never remounted")
	}
}
