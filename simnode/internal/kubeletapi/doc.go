// Package kubeletapi serves each simulated node's kubelet API over TLS: a
// serving certificate per node (IP SAN = InternalIP, DNS SAN = node name)
// signed by the configured or a generated CA, the routes of
// virtual-kubelet's node/api package (containerLogs, exec, attach,
// portForward, pods) plus /healthz, all behind authentication (x509 client
// certificates, bearer tokens via TokenReview) and authorisation
// (SubjectAccessReview on nodes/proxy, nodes/log, ...), as the kubelet does.
package kubeletapi
