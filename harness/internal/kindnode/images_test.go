package main

import (
	"testing"

	imageutils "k8s.io/kubernetes/test/utils/image"
)

// TestE2ENginx: the nginx stand-in carries the name upstream's e2e specs
// of our Kubernetes version ask for.
func TestE2ENginx(t *testing.T) {
	if want := imageutils.GetE2EImage(imageutils.Nginx); e2eNginx != want {
		t.Errorf("e2eNginx = %s, want %s (test/utils/image)", e2eNginx, want)
	}
}
