package volumes

import (
	"errors"
	"io/fs"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestMkdirAll: cmd's md and mkdir -p create a directory and its parents
// in the container's layer and in a volume; a read-only mount refuses
// (row B11); a directory that is there, a mount point included, is no
// error; a file in the way is (issue 18).
func TestMkdirAll(t *testing.T) {
	pod := winPod([]corev1.Volume{emptyDir("data")}, corev1.Container{Name: "c", Image: "registry.k8s.io/e2e-test-images/agnhost:2.59",
		VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: `C:\data`}, {Name: "data", MountPath: `C:\ro`, ReadOnly: true}}})
	p := mustPod(t, pod, NewNode("windows"), newSource())
	f := p.FS("c").(*containerFS)
	for _, dir := range []string{`C:\app\logs\archive`, `C:\data\a\b`, `C:\data`, `C:\`} {
		if err := f.MkdirAll(dir); err != nil {
			t.Errorf("MkdirAll(%s): %v", dir, err)
		}
	}
	if err := f.WriteFile(`C:\app\logs\archive\x.log`, []byte("1")); err != nil {
		t.Errorf("a file in the new directory: %v", err)
	}
	if _, err := f.ReadDir(`C:\ro\a\b`); err != nil {
		t.Errorf("the volume's new directory shows in its other mount: %v", err)
	}
	if err := f.MkdirAll(`C:\ro\c`); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("read-only mount: %v", err)
	}
	if err := f.MkdirAll(`C:\app\logs\archive\x.log`); !errors.Is(err, fs.ErrExist) {
		t.Errorf("a file in the way: %v", err)
	}
}
