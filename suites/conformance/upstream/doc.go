// Package upstream is the conformance suite's e2e test program: upstream's
// e2e specs (k8s.io/kubernetes/test/e2e at the module's version) of the
// packages the suite's subset selects, compiled in wink's own module so
// that it shares the build cache with bin/wink and builds in a minute or
// two where the whole e2e.test takes many. It is a test binary only with the
// build tag upstreame2e (Tag), so that `go test ./...` does not run upstream
// specs without a cluster:
//
//	go test -c -tags upstreame2e -o upstream.test ./suites/conformance/upstream
//
// It takes e2e.test's flags. `wink conformance` runs SIG Windows' whole jobs
// with the real e2e.test instead (harness/conformance.BuildE2E).
package upstream

// Tag is the build tag that makes this package a test binary.
const Tag = "upstreame2e"
