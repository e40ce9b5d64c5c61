package volumes

import (
	"errors"
	"io/fs"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestMkdirAll: busybox mkdir -p in a container (issue 18): directories
// are made with their parents in the volume, a mount point already is one,
// a read-only mount refuses (B11).
func TestMkdirAll(t *testing.T) {
	pod := winPod([]corev1.Volume{emptyDir("data")}, corev1.Container{Name: "c", Image: "registry.k8s.io/e2e-test-images/agnhost:2.59",
		VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: `C:\data`}, {Name: "data", MountPath: `C:\ro`, ReadOnly: true}}})
	p := mustPod(t, pod, NewNode("windows"), newSource())
	f := p.FS("c").(*containerFS)
	if err := f.MkdirAll(`C:\data\a\b`); err != nil {
		t.Fatal(err)
	}
	if err := f.WriteFile(`C:\data\a\b\f`, []byte("x")); err != nil {
		t.Fatalf("a file in the new directory: %v", err)
	}
	if err := f.MkdirAll(`C:\data`); err != nil {
		t.Errorf("a mount point: %v", err)
	}
	if err := f.MkdirAll(`C:\ro\x`); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("read-only mount: %v", err)
	}
	if err := f.MkdirAll(`C:\data\a\b\f\g`); err == nil {
		t.Errorf("a directory under a file")
	}
}
