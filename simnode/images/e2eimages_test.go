package images

import "testing"

// TestE2EImages checks every image of test/utils/image/manifest.go at
// v1.35.4 (the references e2e.test pulls by default): present for the
// platforms its test/images/<name>/BASEIMAGE builds, and on the others a
// pull that fails as containerd's does (B4), so that SIG Windows' e2e jobs
// see on wink what they see on real nodes.
func TestE2EImages(t *testing.T) {
	c := Default()
	all := []Host{ws2019, ws2022, linux}
	win := []Host{ws2019, ws2022}
	for _, tc := range []struct {
		ref      string
		pulls    []Host
		notFound []Host
	}{
		{"registry.k8s.io/e2e-test-images/agnhost:2.59", all, nil},
		{"registry.k8s.io/e2e-test-images/agnhost:2.55", all, nil},
		{"registry.k8s.io/e2e-test-images/sample-apiserver:1.29.2", all, nil},
		{"registry.k8s.io/e2e-test-images/busybox:1.37.0-1", all, nil},
		{"registry.k8s.io/e2e-test-images/jessie-dnsutils:1.7", all, nil},
		{"registry.k8s.io/e2e-test-images/kitten:1.7", all, nil},
		{"registry.k8s.io/e2e-test-images/nautilus:1.7", all, nil},
		{"registry.k8s.io/e2e-test-images/nginx:1.14-4", all, nil},
		{"registry.k8s.io/e2e-test-images/nginx:1.15-4", all, nil},
		{"registry.k8s.io/e2e-test-images/nonroot:1.4", all, nil},
		{"registry.k8s.io/e2e-test-images/resource-consumer:1.13", all, nil},
		{"registry.k8s.io/pause:3.10.1", all, nil},
		{"registry.k8s.io/e2e-test-images/apparmor-loader:1.4", []Host{linux}, win},
		{"registry.k8s.io/e2e-test-images/ipc-utils:1.3", []Host{linux}, win},
		{"registry.k8s.io/e2e-test-images/nonewprivs:1.3", []Host{linux}, win},
		{"registry.k8s.io/e2e-test-images/perl:5.26", []Host{linux}, win},
		{"registry.k8s.io/e2e-test-images/regression-issue-74839:1.4", []Host{linux}, win},
		{"registry.k8s.io/e2e-test-images/node-perf/npb-ep:1.2", []Host{linux}, win},
		{"registry.k8s.io/e2e-test-images/node-perf/npb-is:1.2", []Host{linux}, win},
		{"registry.k8s.io/e2e-test-images/node-perf/tf-wide-deep:1.3", []Host{linux}, win},
		{"registry.k8s.io/e2e-test-images/volume/nfs:1.4", []Host{linux}, win},
		{"registry.k8s.io/e2e-test-images/volume/iscsi:2.6", []Host{linux}, win},
		{"registry.k8s.io/etcd:3.6.6-0", []Host{linux}, win},
		{"registry.k8s.io/build-image/distroless-iptables:v0.8.9", []Host{linux}, win},
		{"registry.k8s.io/sig-storage/nfs-provisioner:v4.0.8", []Host{linux}, win},
		{"invalid.registry.k8s.io/invalid/alpine:3.1", nil, all},
		// apps/daemon_set.go's rollback spec: a rollout that must not finish.
		{"foo:non-existent", nil, all},
	} {
		for _, h := range tc.pulls {
			img, err := c.Pull(tc.ref, h, nil, Options{Strict: true})
			if err != nil || !img.Known {
				t.Errorf("%s on %s %s: %v (known %v)", tc.ref, h.OS, h.Build, err, img.Known)
			}
		}
		for _, h := range tc.notFound {
			if _, err := c.Pull(tc.ref, h, nil, Options{}); err == nil {
				t.Errorf("%s on %s %s: pulled, want a failure", tc.ref, h.OS, h.Build)
			}
		}
	}
}
