package simnode

import (
	"net"
	"strconv"
	"testing"

	"wink.dev/wink/simnode/config"
)

// TestNodeAddresses: simulated addresses count up from the base; nodes served
// from this machine for a kind or existing cluster (ListenAddress) share the
// base address and take a port each.
func TestNodeAddresses(t *testing.T) {
	pools := []config.Pool{{Name: "win", OS: "windows", Count: 2}, {Name: "linux", OS: "linux", Count: 1}}
	tests := []struct {
		name, listen string
		want         []string
	}{
		{"embedded: an address per node", "", []string{"172.18.0.2:10250", "172.18.0.3:10250", "172.18.0.4:10250"}},
		{"kind: one address, a port per node", "0.0.0.0", []string{"172.18.0.1:10250", "172.18.0.1:10251", "172.18.0.1:10252"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := "172.18.0.2"
			if tt.listen != "" {
				base = "172.18.0.1"
			}
			cfg := &config.Config{ClusterName: "c", NodeAddressBase: base, ListenAddress: tt.listen, KubeletPort: 10250, Pools: pools}
			specs, err := nodeSpecs(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(specs) != len(tt.want) {
				t.Fatalf("%d nodes, want %d", len(specs), len(tt.want))
			}
			for i, s := range specs {
				if got := net.JoinHostPort(s.InternalIP.String(), strconv.Itoa(int(s.KubeletPort))); got != tt.want[i] {
					t.Errorf("node %d at %s, want %s", i, got, tt.want[i])
				}
			}
		})
	}
}

// Issue 19: shards serve disjoint sets of nodes that together are the
// cluster's, each node at the address and port it has unsharded.
func TestNodeAddressesShards(t *testing.T) {
	pools := []config.Pool{{Name: "win", OS: "windows", Count: 20}, {Name: "linux", OS: "linux", Count: 10}}
	for _, listen := range []string{"", "0.0.0.0"} {
		cfg := &config.Config{ClusterName: "c", NodeAddressBase: "172.18.0.2", ListenAddress: listen, KubeletPort: 10250, Pools: pools}
		all, err := nodeSpecs(cfg)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{}
		for _, s := range all {
			want[config.NodeName(s.ClusterName, s.Pool.Name, s.Index)] = net.JoinHostPort(s.InternalIP.String(), strconv.Itoa(int(s.KubeletPort)))
		}
		seen := map[string]int{}
		for i := range 3 {
			sharded := *cfg
			sharded.Shard = config.Shard{Index: i, Count: 3}
			specs, err := nodeSpecs(&sharded)
			if err != nil {
				t.Fatal(err)
			}
			if len(specs) == 0 || len(specs) == len(all) {
				t.Errorf("listen %q: shard %d serves %d of %d nodes", listen, i, len(specs), len(all))
			}
			for _, s := range specs {
				name := config.NodeName(s.ClusterName, s.Pool.Name, s.Index)
				seen[name]++
				if got := net.JoinHostPort(s.InternalIP.String(), strconv.Itoa(int(s.KubeletPort))); got != want[name] {
					t.Errorf("listen %q: shard %d serves %s at %s, unsharded at %s", listen, i, name, got, want[name])
				}
			}
		}
		for name := range want {
			if seen[name] != 1 {
				t.Errorf("listen %q: node %s served by %d shards, want 1", listen, name, seen[name])
			}
		}
	}
}
