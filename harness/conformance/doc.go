// Package conformance runs upstream's e2e.test, of the control plane's
// Kubernetes version, against a wink cluster the way SIG Windows' own jobs
// run it against real Windows clusters (`wink conformance`).
//
// The jobs are data (jobs.yaml, citing kubernetes-sigs/windows-testing's
// capz/run-capz-e2e.sh): sig-windows, windows-parallel and windows-serial,
// each a ginkgo focus and skip, a number of parallel ginkgo nodes and the
// e2e flags SIG Windows passes. The cluster has SIG Windows CI's shape
// (profile-sig-windows.yaml: a Linux control-plane pool tainted
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
