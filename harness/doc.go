// Package harness brings up, stops and deletes wink clusters: a control
// plane (embedded, kind or an existing cluster) with simulated Windows and
// Linux nodes.
//
// Up starts a detached supervisor process per cluster (the hidden
// `wink supervise` command, see Supervise) and waits until every simulated
// node is Ready. Down stops it and keeps the cluster's state; Delete removes
// it. Clusters live in state directories under $WINK_HOME (default ~/.wink),
// one per name.
package harness
