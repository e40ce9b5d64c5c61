// Package kubeversion is the version the embedded control plane reports on
// /version, in its kubernetes_build_info metric and in its user agents:
// v1.35.4, however wink is built (make build, plain go build, go install).
//
// Upstream sets k8s.io/component-base/version's and
// k8s.io/client-go/pkg/version's variables with -ldflags -X
// (hack/lib/version.sh); a plain go build leaves them at
// v0.0.0-master+$Format:%H$, which kubectl and Helm cannot parse. Here the
// version comes from the binary's own build information instead: the
// k8s.io/kubernetes module version that go.mod requires (Module), completed
// by the commit and build date of that upstream release (Releases). Apply
// writes them into the upstream variables before a component starts.
//
// The kube-apiserver's /version is its effective version's Info()
// (k8s.io/component-base/compatibility): gitMajor/gitMinor from the binary
// version (1.35, registered at init), gitVersion, gitCommit, gitTreeState
// and buildDate from component-base/version.Get() at the time the server is
// built, so setting the variables before the command runs is enough for
// the apiserver, scheduler and controller-manager alike. The kubelet version
// of simulated nodes is per pool (wink.yaml) and does not come from here.
package kubeversion
