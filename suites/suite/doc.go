// Package suite is what every e2e-framework suite under suites/ shares: the
// TestMain environment that brings up (or, given --kubeconfig, reuses) a
// cluster once per package, features labelled with the spec rows they check,
// and waits on the API that read outcomes the way a user would.
package suite
