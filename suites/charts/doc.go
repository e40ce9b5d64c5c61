// Package charts installs Windows-targeted Helm charts the way `helm
// install` does and checks that each controller is placed, and runs or
// fails, as on a real mixed cluster (rows A22, S1–S4, B4, B10, B12, B13).
//
// The charts are a corpus of our own in testdata/<case>/chart, each
// reproducing a pattern real Windows-targeted charts use (CSI node plugins,
// HostProcess exporters and network proxies, per-build DaemonSets, operators
// with CRDs, Helm hook Jobs running kubectl, node agents tolerating every
// taint). Next to each chart, testdata/<case>/expect.yaml declares what a
// real cluster of wink's default shape (two Windows Server 2022 nodes, one
// Windows Server 2019 node, one Linux node; Windows nodes tainted
// os=windows:NoSchedule) does with it: for every workload, how many pods land
// on which OS and build, and their state (Running: every container started
// within 60 s of the install; Succeeded; PullFails: ErrImagePull or
// ImagePullBackOff), and the objects that must exist or be gone afterwards.
// Those expectations are the real-cluster truth, not what wink does today.
//
// The other way in: TestChartTesting runs chart-testing, `KUBECONFIG="$(wink
// kubeconfig)" ct install`, on the corpus's clean mixed chart
// (testdata/windows-hello) as a chart repository's CI would, helm test
// included. ct, helm and kubectl must be on PATH or in bin/tools (`make
// tools`); it skips, saying which is missing, otherwise.
//
// Helm is used through its Go SDK, helm.sh/helm/v4 (v4.1.4): the install
// action (kubeVersion check against the apiserver's /version, crds/ first,
// hooks by weight with their delete policies, the release stored as a
// Secret) is the one `helm install` runs. v4 rather than v3: v4 is Helm's
// current major line (v3 takes only fixes), and v4.1.4 is the newest release
// built on the same client-go minor (v0.35) and Go (1.25) as wink; v4.2 and
// v3.21.2 onwards need client-go v0.36 and Go 1.26.
package charts
