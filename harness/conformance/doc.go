// Package conformance runs upstream's e2e.test, of the control plane's
// Kubernetes version, against a wink cluster the way SIG Windows' own jobs
// run it against real Windows clusters (`wink conformance`).
//
// The jobs are data (jobs.yaml): windows-parallel and windows-serial are
// SIG Windows' prow jobs of the release (kubernetes/test-infra
// config/jobs/kubernetes-sigs/sig-windows), each with its ginkgo focus,
// skip and processes as the prow job sets them or leaves them to
// kubernetes-sigs/windows-testing's capz/run-capz-e2e.sh, the file and
// commits cited beside it; sig-windows is wink's own, the [sig-windows]
// part of the two. The specs wink leaves out of a real job are listed
// with their reasons (wink_skip), passed as a second --ginkgo.skip. Every
// job runs with the e2e flags run-capz-e2e.sh passes. A dry run of
// e2e.test (DryRun) lists what a job selects; the package's tests check
// it against the Go reading of the same regexes.
//
// The cluster has SIG Windows CI's shape (profile-sig-windows.yaml: a
// Linux control-plane pool tainted
// node-role.kubernetes.io/control-plane:NoSchedule, untainted Windows
// Server 2019 and 2022 pools).
//
// e2e.test and the ginkgo CLI are built once from the Go module cache
// (BuildE2E: a throw-away module requiring k8s.io/kubernetes at the
// version, `go test -c`), unless a binary is given. Results come from
// ginkgo's JSON report and go to wink's reports (JUnit, results.json,
// summary.md, report.html), each spec traced to the catalog rows
// jobs.yaml's rows table names.
package conformance
