// Package network is the simulated cluster network (the HNS model): there
// are no packets in a simulated cluster, so this package answers, from API
// objects (Pods, Services, EndpointSlices, Nodes), what a container would
// observe: name resolution, DNS messages (dnsmsg.go: the records CoreDNS
// serves, for dig), TCP/UDP connections, ICMP echo and HTTP responses, and
// its own network configuration (ipconfig /all, /etc/resolv.conf). What
// reaches the apiserver goes to the real one when Options.APIServer is set
// (the control plane is never faked). Pods on real nodes, those no wink
// simnode simulates (Options.SimulatedNode: kind's own nodes beside
// simulated ones), are reached for real through Options.ClusterDial
// (realpods.go); a real CoreDNS answers from the model as a simulated one.
//
// The behaviour is data: rules.yaml classifies sources (pod network or host
// network, B10/H7), decides every path (source OS and kind, destination
// kind, protocol) with an entry citing its row of the behaviour catalog
// (H1-H9), and holds what each node's service proxy does (H1, H8). The Go
// code classifies and evaluates; testdata/paths.golden is the whole table
// expanded.
//
// Use:
//
//	m := network.New(&network.Listers{...}, network.Options{Listens: ..., HTTPHandler: ...})
//	env.Net = m.From(pod)          // shell.Network for one container
//	env.Interfaces = m.NetConfig(pod)
//	m.FromNode(node)               // the node's host network
package network
