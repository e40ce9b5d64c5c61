package images

import (
	"reflect"
	"testing"
)

// TestWindowsBuilds: what the reference webhook asks of the catalog (B4),
// with the names normalised as the pull normalises them.
func TestWindowsBuilds(t *testing.T) {
	cat := Default()
	for _, tc := range []struct {
		image  string
		builds []string
		known  bool
	}{
		{"mcr.microsoft.com/windows/servercore:ltsc2019", []string{"10.0.17763"}, true},
		{"mcr.microsoft.com/windows/nanoserver:10.0.20348.2113", []string{"10.0.20348"}, true}, // glob tag
		{"mcr.microsoft.com/windows/nanoserver", nil, true},                                    // latest is absent
		{"nginx", nil, true}, // docker.io/library/nginx, Linux-only
		{"registry.k8s.io/e2e-test-images/busybox:1.37.0-2", []string{"10.0.17763", "10.0.20348", "10.0.26100"}, true},
		{"registry.k8s.io/e2e-test-images/busybox:1.36.1-1", []string{"10.0.17763", "10.0.20348"}, true},
		{"localhost:5000/app:v1", nil, false},
		{"docker.io/library/nginx:latest", nil, true},
		{"Not A Reference", nil, false},
	} {
		builds, known := cat.WindowsBuilds(tc.image)
		if known != tc.known || !reflect.DeepEqual(builds, tc.builds) {
			t.Errorf("%s: builds %v known %v, want %v %v", tc.image, builds, known, tc.builds, tc.known)
		}
	}
}

// TestRuns: the process-isolation table and Hyper-V's rule (B4, N8), as
// pulls apply them.
func TestRuns(t *testing.T) {
	c := Default()
	for _, tc := range []struct {
		host, image string
		hyperV      bool
		want        bool
	}{
		{"10.0.20348", "10.0.20348", false, true},
		{"10.0.20348", "10.0.17763", false, false},
		{"10.0.26100", "10.0.20348", false, true},
		{"10.0.17763", "10.0.20348", false, false},
		{"10.0.20348", "10.0.17763", true, true},
		{"10.0.17763", "10.0.20348", true, false},
		{"10.0.20348.1607", "10.0.20348", false, true},
	} {
		if got := c.Runs(tc.host, tc.image, tc.hyperV); got != tc.want {
			t.Errorf("[B4] host %s image %s hyperV %v: %v, want %v", tc.host, tc.image, tc.hyperV, got, tc.want)
		}
	}
}
