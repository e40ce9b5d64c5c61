// Package embedded is the default cluster backend: upstream etcd,
// kube-apiserver, kube-controller-manager and kube-scheduler (v1.35.4) run
// as children of the wink binary on loopback, with TLS everywhere, plus
// simnode. bootstrap.go applies what kubeadm would (component RBAC, CoreDNS,
// kube-proxy) from the embedded addons/ manifests.
package embedded
