package config

import (
	"fmt"
	"hash/fnv"
	"strconv"
)

// Shard says which part of a cluster's nodes one simnode process serves
// when several share them (issue 19): the simnode.shards processes of a
// wink cluster on one machine, or the replicas of the simnode StatefulSet
// of the in-cluster chart (simnode/deploy/chart). Every node has exactly one
// owner, Owner(name, Count); the zero Shard (Count 0) and Count 1 serve
// every node.
type Shard struct {
	// Index of this process, 0 ≤ Index < Count: the StatefulSet ordinal.
	Index int `json:"index"`
	// Count of processes sharing the nodes: the StatefulSet's replicas.
	Count int `json:"count"`
}

// Validate says what is wrong with s, nil when nothing is.
func (s Shard) Validate() error {
	if s.Count < 0 || s.Index < 0 || (s.Count > 0 && s.Index >= s.Count) || (s.Count == 0 && s.Index != 0) {
		return fmt.Errorf("shard %d of %d: the index must be in [0, count)", s.Index, s.Count)
	}
	return nil
}

// Owns reports whether the process of shard s serves node name.
func (s Shard) Owns(name string) bool {
	return s.Count <= 1 || Owner(name, s.Count) == s.Index
}

// Owner is the shard, of count, that serves node name: rendezvous (highest
// random weight) hashing of the name with each shard index, so that each
// node has exactly one owner, shards get about len(nodes)/count nodes each,
// and a change of count moves only the nodes it must: going from n to n+1
// shards moves about 1/(n+1) of the nodes, all to the new shard, and going
// back moves only the last shard's nodes. (hash(name) mod count would move
// most nodes at every scaling.) It depends on nothing but name and count,
// so every process, the chart's tests and `wink` agree on it.
func Owner(name string, count int) int {
	if count <= 1 {
		return 0
	}
	best, bestWeight := 0, uint64(0)
	for i := range count {
		h := fnv.New64a()
		h.Write([]byte(name))
		h.Write([]byte{0})
		h.Write([]byte(strconv.Itoa(i)))
		// FNV's low bits mix poorly for inputs that differ only at the
		// end; a 64-bit finaliser (splitmix64's) spreads them.
		w := mix64(h.Sum64())
		if i == 0 || w > bestWeight {
			best, bestWeight = i, w
		}
	}
	return best
}

// mix64 is splitmix64's finaliser.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// OwnedNodeNames returns the names of the nodes of c that c.Shard serves,
// in pool order.
func (c *Config) OwnedNodeNames() []string {
	var out []string
	for _, name := range c.NodeNames() {
		if c.Shard.Owns(name) {
			out = append(out, name)
		}
	}
	return out
}
