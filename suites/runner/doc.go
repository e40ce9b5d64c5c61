// Package runner runs the e2e suites the way `wink test` does: it finds them
// (prebuilt binaries in bin/suites, or the packages of a checkout, built once
// with `go test -c`; binaries older than their sources are not run), counts
// their features with e2e-framework's --dry-run, runs them (in parallel when
// each brings up its own cluster), prints [n/N] progress and failures as they
// happen, and writes the reports (reports.WriteAll).
//
// It is not a suite itself: `wink test` skips it (notSuites). The CLI in
// cmd/wink/app only binds the flags to Options and maps the errors to exit
// codes (UsageError: 2, Failed: 1).
package runner
