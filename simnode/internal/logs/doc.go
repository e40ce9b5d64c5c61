// Package logs keeps the output of simulated containers: one bounded buffer
// per container instance (pod UID, container name, restart count), written
// through the Writer interface (the container's start-up output now, the
// simulated shell later) and read with the kubelet's log options (tail,
// timestamps, follow, previous, since, limitBytes).
package logs
