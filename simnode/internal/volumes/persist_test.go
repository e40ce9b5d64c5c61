package volumes

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// A node's disk outlives the simnode process: a file a container wrote into
// its own layer, into an emptyDir and into a hostPath is there when a new
// Node over the same state directory mounts the pod again, and a new
// instance of the container (a new ID) starts from the image's files.
func TestDiskSurvivesTheProcess(t *testing.T) {
	dir := t.TempDir()
	pod := winPod([]corev1.Volume{
		{Name: "scratch", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
		{Name: "host", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: `C:\data`}}},
	}, corev1.Container{Name: "c", Image: "mcr.microsoft.com/windows/servercore:ltsc2022", VolumeMounts: []corev1.VolumeMount{
		{Name: "scratch", MountPath: `C:\scratch`}, {Name: "host", MountPath: `C:\data`},
	}})
	mount := func() *Pod {
		t.Helper()
		n := NewNode("windows")
		n.SetStateDir(dir)
		p, err := NewPod(context.Background(), pod, n, newSource())
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := mount()
	p.SetContainerID("c", "containerd://aaa")
	fsys := p.FS("c")
	for path, data := range map[string]string{`C:\out.txt`: "layer", `C:\scratch\s.txt`: "emptyDir", `C:\data\h.txt`: "hostPath"} {
		if err := fsys.WriteFile(path, []byte(data)); err != nil {
			t.Fatalf("write %s: %v", path, err)
		}
	}

	p = mount() // simnode restarted
	p.SetContainerID("c", "containerd://aaa")
	fsys = p.FS("c")
	for path, want := range map[string]string{`C:\out.txt`: "layer", `C:\scratch\s.txt`: "emptyDir", `C:\data\h.txt`: "hostPath"} {
		got, err := fsys.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("after the restart %s: %q %v, want %q", path, got, err, want)
		}
	}
	if _, err := fsys.ReadFile(`C:\Windows\System32\drivers\etc\hosts`); err != nil {
		t.Errorf("image files lost: %v", err)
	}

	p.SetContainerID("c", "containerd://bbb") // the container restarted
	fsys = p.FS("c")
	if _, err := fsys.ReadFile(`C:\out.txt`); err == nil {
		t.Error("a new container instance has the old instance's layer")
	}
	if got, err := fsys.ReadFile(`C:\scratch\s.txt`); err != nil || string(got) != "emptyDir" {
		t.Errorf("emptyDir across a container restart: %q %v", got, err)
	}
}

// The container logs the kubelet keeps on the node's disk are on the host
// disk the node's HostProcess containers and hostPath volumes see:
// C:\var\log\pods and C:\var\log\containers.
func TestLogDirsOnTheHost(t *testing.T) {
	real := t.TempDir()
	podLog := filepath.Join(real, "pods", "ns_p_uid-1", "c")
	if err := os.MkdirAll(podLog, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(podLog, "0.log"), []byte("2025-06-01T12:00:00Z stdout F hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	n := NewNode("windows")
	n.SetLogDirs(map[string]string{"/var/log/pods": filepath.Join(real, "pods"), "/var/log/containers": filepath.Join(real, "containers")})
	fsys := n.FS()
	got, err := fsys.ReadFile(`C:\var\log\pods\ns_p_uid-1\c\0.log`)
	if err != nil || !strings.Contains(string(got), "stdout F hi") {
		t.Fatalf("log file from the host: %q %v", got, err)
	}
	ents, err := fsys.ReadDir(`C:\VAR\log\pods`)
	if err != nil || len(ents) != 1 || ents[0].Name() != "ns_p_uid-1" || !ents[0].IsDir() {
		t.Fatalf("dir C:\\var\\log\\pods: %v %v", ents, err)
	}
	if ents, err := fsys.ReadDir(`C:\var\log`); err != nil || len(ents) < 2 {
		t.Fatalf("dir C:\\var\\log: %v %v", ents, err)
	}
	if _, err := fsys.ReadFile(`C:\var\log\pods\nope.log`); err == nil {
		t.Fatal("a missing file was read")
	}
}
