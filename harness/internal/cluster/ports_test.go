package cluster

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestFreePorts: ports outside the ephemeral range, distinct, and none that
// another cluster of the home recorded.
func TestFreePorts(t *testing.T) {
	home := t.TempDir()
	other := Ports{APIServer: 20001, EtcdClient: 20002, EtcdPeer: 20003, ControllerManager: 20004, Scheduler: 20005, MetricsServer: 20006}
	data, _ := json.Marshal(other)
	if err := os.MkdirAll(filepath.Join(home, "other"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "other", StateFile), data, 0o600); err != nil {
		t.Fatal(err)
	}
	taken := recordedPorts(home)
	for _, p := range []int{20001, 20006} {
		if !taken[p] {
			t.Errorf("port %d of the other cluster is not seen", p)
		}
	}
	for range 20 {
		ports, err := FreePorts(home, 6)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{}
		for _, p := range ports {
			if p < portsFrom || p > portsTo || seen[p] || taken[p] {
				t.Fatalf("ports %v: %d is in the ephemeral range, twice, or the other cluster's", ports, p)
			}
			seen[p] = true
		}
	}
}
