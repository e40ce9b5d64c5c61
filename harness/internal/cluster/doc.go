// Package cluster holds the contract between the harness and its backends:
// the Backend interface and a cluster's State.
package cluster
