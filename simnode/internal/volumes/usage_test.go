package volumes

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// DiskUsage counts what the containers wrote, as the kubelet's stats do
// (issue 22): each emptyDir's files, and each container's writable layer
// without its image's own files; a Linux tmpfs emptyDir is not on disk.
func TestDiskUsage(t *testing.T) {
	mem := corev1.Volume{Name: "mem", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{Medium: corev1.StorageMediumMemory}}}
	pod := winPod([]corev1.Volume{emptyDir("scratch"), mem, cmVol("cfg", "sample-config-map")},
		corev1.Container{Name: "c", Image: "busybox", VolumeMounts: []corev1.VolumeMount{
			{Name: "scratch", MountPath: "/scratch"}, {Name: "mem", MountPath: "/mem"}, {Name: "cfg", MountPath: "/cfg"}}})
	p := mustPod(t, pod, NewNode("linux"), newSource())
	f := p.FS("c")
	if u := p.DiskUsage(); u.EmptyDirs["scratch"] != 0 || u.DiskEmptyDirs != 0 || u.Layers["c"] != 0 {
		t.Fatalf("before any write: %+v", u)
	}
	for path, n := range map[string]int{"/scratch/a": 1000, "/scratch/b": 24, "/mem/x": 500, "/tmp/big": 4096} {
		if err := f.WriteFile(path, []byte(strings.Repeat("x", n))); err != nil {
			t.Fatal(err)
		}
	}
	u := p.DiskUsage()
	if u.EmptyDirs["scratch"] != 1024 || u.EmptyDirs["mem"] != 500 || u.DiskEmptyDirs != 1024 {
		t.Fatalf("emptyDirs: %+v", u)
	}
	if _, ok := u.EmptyDirs["cfg"]; ok {
		t.Fatalf("a configMap counted as an emptyDir: %+v", u)
	}
	if u.Layers["c"] != 4096 {
		t.Fatalf("layer of c: %d, want 4096", u.Layers["c"])
	}
}
