// Package bench holds wink's benchmarks: how fast a cluster comes up, how many
// pods per second go from created to Running through the real scheduler on
// simulated Windows nodes (against the bare apiserver ceiling), and what one
// idle simulated node costs in memory. They print figures and ratios
// (`make bench`); no test asserts a time.
package bench
