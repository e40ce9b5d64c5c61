package facts

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/version"
)

// TestShutdownGracePeriods: how a pool's fields resolve (B15, all kubelet
// versions); wink.yaml's defaulting and simnode's shutdown manager both
// call it.
func TestShutdownGracePeriods(t *testing.T) {
	dur := func(s string) *metav1.Duration {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		return &metav1.Duration{Duration: d}
	}
	for _, tc := range []struct {
		name            string
		total, critical *metav1.Duration
		want            string
	}{
		{"unset", nil, nil, "30s/10s"},
		{"both set", dur("20s"), dur("5s"), "20s/5s"},
		{"total only", dur("1m"), nil, "1m0s/0s"},
		{"off", dur("0s"), nil, "0s/0s"},
		{"critical only", nil, dur("15s"), "30s/15s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			total, critical := ShutdownGracePeriods(tc.total, tc.critical)
			if got := total.String() + "/" + critical.String(); got != tc.want {
				t.Fatalf("[B15] %s, want %s", got, tc.want)
			}
		})
	}
}

// TestEvictionHardDefault: the kubelet's evictionHard defaults by OS and
// kubelet version (N5, B6, N7: Windows has its own from v1.31).
func TestEvictionHardDefault(t *testing.T) {
	for _, tc := range []struct {
		os       OS
		kubelet  string // "" for nil, the newest
		want     string // memory.available
		wantKeys int
	}{
		{Windows, "v1.30.9", "100Mi", 3},
		{Windows, "v1.31.0", "500Mi", 3},
		{Windows, "v1.31.0-alpha.1", "500Mi", 3},
		{Windows, "", "500Mi", 3},
		{Linux, "v1.29.0", "100Mi", 4},
		{Linux, "", "100Mi", 4},
		{OS("plan9"), "", "", 0},
	} {
		t.Run(string(tc.os)+"-"+tc.kubelet, func(t *testing.T) {
			var v *version.Version
			if tc.kubelet != "" {
				v = version.MustParseSemantic(tc.kubelet)
			}
			got := tc.os.EvictionHardDefault(v)
			if got[EvictionMemoryAvailable] != tc.want || len(got) != tc.wantKeys {
				t.Fatalf("[N5] %v, want memory.available %q and %d signals", got, tc.want, tc.wantKeys)
			}
			if got == nil {
				return
			}
			got[EvictionMemoryAvailable] = "changed"
			if again := tc.os.EvictionHardDefault(v); again[EvictionMemoryAvailable] != tc.want {
				t.Fatal("the caller's map changed the defaults")
			}
		})
	}
}
