package cluster

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
)

// StateFile is where a cluster's Ports are kept, in its state directory.
const StateFile = "state.json"

// A cluster keeps its ports across restarts (state.json), so they must not
// be ports another program takes while the cluster is down. They come from
// below Linux's ephemeral range (net.ipv4.ip_local_port_range, 32768-60999
// by default), where the kernel hands out the ports of `listen :0` and of
// outgoing connections, and never from another cluster of the same home.
const (
	portsFrom = 20000
	portsTo   = 32767
)

// FreePorts returns n distinct ports free on the loopback interface now, for
// a cluster of home: outside the ephemeral range and not recorded in the
// state.json of another cluster there (it may be down, its ports free for
// the moment).
func FreePorts(home string, n int) ([]int, error) {
	taken := recordedPorts(home)
	var out []int
	var held []net.Listener
	defer func() {
		for _, l := range held {
			l.Close()
		}
	}()
	for tries := 0; len(out) < n; tries++ {
		if tries > 2000 {
			return nil, fmt.Errorf("no %d free ports between %d and %d on 127.0.0.1", n, portsFrom, portsTo)
		}
		port := portsFrom + rand.IntN(portsTo-portsFrom+1)
		if taken[port] {
			continue
		}
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			continue
		}
		held = append(held, l)
		taken[port] = true
		out = append(out, port)
	}
	return out, nil
}

// recordedPorts are the ports in the state.json of every cluster of home.
func recordedPorts(home string) map[int]bool {
	taken := map[int]bool{}
	files, _ := filepath.Glob(filepath.Join(home, "*", StateFile))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var p Ports
		if json.Unmarshal(data, &p) != nil {
			continue
		}
		for _, port := range []int{p.APIServer, p.EtcdClient, p.EtcdPeer, p.ControllerManager, p.Scheduler, p.MetricsServer} {
			taken[port] = true
		}
	}
	return taken
}
