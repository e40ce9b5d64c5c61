// Package supervisor runs a cluster's components as child processes, in
// order, each once the one before it is ready; restarts a child that exits,
// with back-off; and stops them in reverse order. It records each child's pid
// and state in its run directory for `wink status` and for tests that kill a
// component on purpose.
package supervisor
