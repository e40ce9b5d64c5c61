// Package harness brings up, stops and deletes wink clusters: a control
// plane (embedded, kind or an existing cluster) with simulated Windows and
// Linux nodes.
//
// Up starts a detached supervisor process per cluster (the hidden
// `wink supervise` command, see Supervise) and waits until every simulated
// node is Ready. Down stops it and keeps the cluster's state; Delete removes
// it. Clusters live in state directories under $WINK_HOME (default ~/.wink),
// one per name.
//
// A cluster name is a DNS-1123 label, checked once for every call (see
// Options.validate) before anything touches disk, so a name is never a
// path. Up writes a marker file (.wink-cluster) into each state directory
// it makes; Delete and Up's Fresh remove only a marked directory directly
// inside the home, never a symbolic link. Up, Down and Delete of one
// cluster take its lock, a flock on <home>/.<name>.lock, in turn. Up says
// why a cluster cannot come up as soon as it knows (options, state.json,
// socket path length, ports in use, a component that exits, the supervisor
// exiting) rather than after its wait.
package harness
