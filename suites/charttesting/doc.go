// Package charttesting runs chart-testing (`ct install`, helm/chart-testing
// v3) against a wink cluster, the way a chart repository already tests its
// charts on kind, here with Windows nodes:
//
//	KUBECONFIG="$(wink kubeconfig)" ct install --charts charts/windows-hello
//
// ct has no --kubeconfig flag: it runs helm and kubectl, which read
// $KUBECONFIG. ct creates a namespace per chart, runs `helm install --wait`
// once per ci/*-values.yaml file, then `helm test`, and deletes the release
// and namespace. ct, helm and kubectl must be on PATH (or ct and helm in
// bin/tools of the repository, from `make tools`); the test skips, saying
// which is missing, otherwise.
//
// The chart is one of ours, testdata/charts/windows-hello: a Windows
// Deployment with the docs' placement (OS selector, the Windows taints
// tolerated), a Linux Deployment kept off Windows nodes by its OS selector
// (rows A22, S2), and a helm test pod.
package charttesting
