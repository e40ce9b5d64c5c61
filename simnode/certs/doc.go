// Package certs makes the certificate authorities and certificates of every
// TLS endpoint wink serves: the embedded control plane's PKI (harness, on
// disk with renewal), the simulated kubelets' serving certificates (simnode,
// one per node, in memory) and the reference webhook's (suites). One way to
// make a CA, issue a certificate and read or write them as PEM; what each
// keeps on disk and when it renews is its caller's.
//
// Keys are ECDSA P-256; certificates are backdated a few minutes to absorb
// clock skew between processes, as kubeadm does, and never outlive their CA.
package certs
