package config

import (
	"testing"
)

// names300 are the 300 nodes of issue 19's "3 replicas share 300 nodes".
func names300() []string {
	c := &Config{ClusterName: "wink", Pools: []Pool{{Name: "win2022", Count: 200}, {Name: "win2019", Count: 100}}}
	return c.NodeNames()
}

// Issue 19: each node has exactly one owner, and 3 shards share 300 nodes
// about evenly.
func TestShardOwnersPartition(t *testing.T) {
	names := names300()
	const count = 3
	perShard := make([]int, count)
	for _, name := range names {
		owners := 0
		for i := range count {
			if (Shard{Index: i, Count: count}).Owns(name) {
				owners++
				perShard[i]++
			}
		}
		if owners != 1 {
			t.Errorf("node %s has %d owners, want 1", name, owners)
		}
	}
	for i, n := range perShard {
		if n < 70 || n > 130 {
			t.Errorf("shard %d owns %d of 300 nodes, want about 100 (70..130): %v", i, n, perShard)
		}
	}
}

// Issue 19: scaling from 3 to 4 shards moves nodes only to the new shard,
// and back from 4 to 3 moves only the nodes of the shard that goes.
func TestShardScalingMovesLittle(t *testing.T) {
	moved := 0
	for _, name := range names300() {
		from, to := Owner(name, 3), Owner(name, 4)
		if from != to {
			moved++
			if to != 3 {
				t.Errorf("node %s moved from shard %d to %d when shard 3 came: only moves to the new shard are needed", name, from, to)
			}
		}
	}
	if moved == 0 || moved > 120 {
		t.Errorf("%d of 300 nodes moved from 3 to 4 shards, want about 75", moved)
	}
}

func TestShardOneOrNoneServesAll(t *testing.T) {
	for _, s := range []Shard{{}, {Index: 0, Count: 1}} {
		c := &Config{ClusterName: "wink", Pools: []Pool{{Name: "p", Count: 5}}, Shard: s}
		if got := len(c.OwnedNodeNames()); got != 5 {
			t.Errorf("shard %+v owns %d of 5 nodes, want all", s, got)
		}
	}
}

func TestShardValidate(t *testing.T) {
	for _, s := range []Shard{{Index: 3, Count: 3}, {Index: -1, Count: 2}, {Index: 1, Count: 0}, {Count: -1}} {
		if s.Validate() == nil {
			t.Errorf("shard %+v: Validate() = nil, want an error", s)
		}
	}
	for _, s := range []Shard{{}, {Index: 2, Count: 3}} {
		if err := s.Validate(); err != nil {
			t.Errorf("shard %+v: %v", s, err)
		}
	}
}
