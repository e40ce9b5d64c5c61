// Package pki makes the certificates, keys and kubeconfigs of the embedded
// control plane, the way kubeadm lays them out.
//
// Ensure creates under a directory whatever is missing and reuses whatever is
// still good, so that it can run on every `wink up`:
//
//   - A CA (cluster, etcd, front-proxy, kubelet serving) is made once and
//     kept. A CA certificate whose key is missing, or that cannot be parsed,
//     is an error rather than a silent new CA, which would invalidate every
//     kubeconfig handed out.
//   - A leaf certificate is reused when it parses, matches its key, was
//     signed by its current CA, has the expected subject and extended key
//     usages, covers the SANs asked for and is not about to expire. Otherwise
//     it is made again (with a new key) from the same CA.
//   - The service-account key pair (sa.key, sa.pub) is kept; sa.pub is
//     derived again from sa.key when missing.
//
// Certificates use ECDSA P-256 keys (the service-account key is RSA 2048, as
// kubeadm's). CAs are valid for 10 years, leaves for 1 year. The directory is
// 0700, keys 0600 and certificates 0644; Ensure also fixes the modes of files
// it reuses. Every file is written atomically (temporary file and rename).
//
// WriteKubeconfig writes a kubeconfig that embeds the CA, certificate and key
// data, so that it keeps working when copied elsewhere.
package pki
