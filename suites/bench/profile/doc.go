// Package profile captures what a benchmark's measured phase costs and
// where it goes: Go CPU profiles of the components that serve them
// (kube-apiserver and etcd with WINK_PROFILING, simnode with
// WINK_SIMNODE_PPROF) merged into `go tool pprof -top` summaries, each
// component's CPU time from /proc, the machine's load, and the apiserver's
// requests by verb and resource (apiserver_request_total before and after).
package profile
