// Package reference is wink's reference admission webhook for Windows pods:
// the Kubernetes docs' recommended practice (seeds 001, 002; rows S1–S4, N4)
// applied at admission.
//
// The mutating webhook (/mutate) gives every Windows pod — spec.os.name
// windows, a nodeSelector on kubernetes.io/os=windows (or the beta label, or
// node.kubernetes.io/windows-build), or a Windows RuntimeClass — the
// kubernetes.io/os=windows nodeSelector and the os=windows:NoSchedule
// toleration it lacks, as JSON patches; Linux pods are never touched, and a
// pod that has both gets no patch (idempotent, safe to reinvoke).
//
// The validating webhook (/validate) refuses Windows pods asking for what no
// Windows node can run and the apiserver lets through: emptyDir.medium Memory,
// huge pages, volumeDevices, mountPropagation other than None (B11),
// hostNetwork without HostProcess (H7), and an image whose Windows build the
// pod's node.kubernetes.io/windows-build selector cannot run (B4, from the
// image catalog fixtures/images.yaml, see Catalog).
//
// Only pods are handled (CREATE); controllers' pods are admitted as pods.
// Serve runs the server (TLS with a self-signed CA it generates, see
// LoadOrCreateCerts); Configurations and Register describe and register it by
// URL or Service; deploy/ holds the manifests for a cluster (kind).
package reference
