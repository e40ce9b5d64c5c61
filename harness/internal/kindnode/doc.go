// Command kindnode builds wink's kind node image (`make kind-node-image`)
// without a container registry: a node image for kind, tagged
// wink.dev/kind-node:<kubernetes version> in the local Docker engine.
//
// kind's own images are built with a registry at hand (its base image's
// Dockerfile fetches packages and sources; `kind build node-image` pulls
// etcd, CoreDNS, pause and kindnetd). Here every part comes from what this
// machine can reach, the Go module proxy and Debian's packages:
//
//   - the root file system is a Debian bookworm debootstrap with the
//     packages kind's base image installs (bookworm's systemd 252 still
//     runs on cgroup v1), plus kind's own base files (entrypoint, systemd
//     units, containerd config) read from the sigs.k8s.io/kind module;
//   - containerd, runc, the CNI plugins, crictl and CoreDNS are built from
//     their modules; kubelet, kubeadm, kube-proxy and kubectl from the
//     k8s.io/kubernetes version wink links (module kube/);
//   - the control-plane images kubeadm asks for (`kubeadm config images
//     list`) hold wink's own static binary, which runs kube-apiserver,
//     kube-controller-manager, kube-scheduler and etcd by the name it is
//     started as; kube-proxy's image is the root file system (iptables,
//     nftables, conntrack) with kube-proxy; CoreDNS and pause are their
//     programs alone; e2e's nginx image, which upstream's Hybrid network
//     specs run on a Linux node, is a second debootstrap root with
//     Debian's nginx and netcat-openbsd. They are docker archives in
//     /kind/images that the node loads into its containerd at boot,
//     before the kubelet starts;
//   - the pod network is a node service (files/wink-cni) instead of
//     kindnetd, which is not published as a Go module.
//
// files/wink-entrypoint runs before kind's entrypoint and adapts the node
// to a Docker engine that refuses --privileged on a cgroup v1 host (see
// harness/internal/dockershim): cgroup hierarchies read-write, kubelet's
// --fail-cgroupv1=false, containerd's restrict_oom_score_adj. On a host
// kind supports as it is, it changes nothing.
//
// The image is rebuilt only when its inputs change: their digest is the
// image's label dev.wink.kind-node.inputs.
package main
