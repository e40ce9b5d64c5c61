package volumes

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/facts"
)

// TestTerminationMessageFile: the kubelet mounts an empty file at
// terminationMessagePath, one per container instance, and reads its last
// 4 KiB at exit (row B13; kuberuntime_container.go makeMounts and
// getTerminationMessage, kubelet v1.35). Windows paths are made absolute on
// C: (upstream common/node/runtime.go writes /dev/termination-log from
// busybox-w32 sh).
func TestTerminationMessageFile(t *testing.T) {
	for _, tc := range []struct {
		name, os, image, path, write string
		vol                          bool
		want                         string
		ok                           bool
	}{
		{name: "windows", os: "windows", image: "registry.k8s.io/e2e-test-images/agnhost:2.59", path: "/dev/termination-log", write: `C:\dev\termination-log`, want: "DONE", ok: true},
		{name: "linux custom path", os: "linux", image: "busybox", path: "/dev/termination-custom-log", write: "/dev/termination-custom-log", want: "DONE", ok: true},
		{name: "nothing written", os: "linux", image: "busybox", path: "/dev/termination-log", want: "", ok: true},
		{name: "last 4 KiB", os: "linux", image: "busybox", path: "/dev/termination-log", write: "/dev/termination-log", want: strings.Repeat("y", MaxTerminationMessage), ok: true},
		{name: "no path", os: "linux", image: "busybox", path: "", ok: false},
		{name: "a volume is mounted there", os: "linux", image: "busybox", path: "/data", vol: true, ok: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := corev1.Container{Name: "c", Image: tc.image, TerminationMessagePath: tc.path}
			var vols []corev1.Volume
			if tc.vol {
				vols = []corev1.Volume{emptyDir("data")}
				c.VolumeMounts = []corev1.VolumeMount{{Name: "data", MountPath: "/data"}}
			}
			p := mustPod(t, winPod(vols, c), NewNode(facts.OS(tc.os)), newSource())
			if tc.write != "" {
				data := tc.want
				if len(data) == MaxTerminationMessage {
					data = "x" + data
				}
				if err := p.FS("c").WriteFile(tc.write, []byte(data)); err != nil {
					t.Fatalf("write %s: %v", tc.write, err)
				}
			}
			got, ok := p.TerminationMessage("c")
			if ok != tc.ok || string(got) != tc.want {
				t.Errorf("TerminationMessage = %q, %v; want %q, %v", got, ok, tc.want, tc.ok)
			}
			// A new instance gets a new, empty file.
			p.SetContainerID("c", "containerd://2")
			if got, _ := p.TerminationMessage("c"); len(got) != 0 {
				t.Errorf("after a restart: %q", got)
			}
		})
	}
}

// TestRemove: busybox rm's removal from the container's layer and volumes;
// read-only mounts refuse (B11); a Windows e2e image has C:\tmp.
func TestRemove(t *testing.T) {
	pod := winPod([]corev1.Volume{emptyDir("data")}, corev1.Container{Name: "c", Image: "registry.k8s.io/e2e-test-images/agnhost:2.59",
		VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: `C:\data`}, {Name: "data", MountPath: `C:\ro`, ReadOnly: true}}})
	p := mustPod(t, pod, NewNode("windows"), newSource())
	f := p.FS("c").(*containerFS)
	if err := f.WriteFile(`/tmp/ready`, nil); err != nil {
		t.Fatalf("C:\\tmp of the e2e image: %v", err)
	}
	if err := f.Remove(`C:\tmp\ready`); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ReadFile(`C:\tmp\ready`); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("removed file still reads: %v", err)
	}
	if err := f.Remove(`C:\tmp\ready`); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("second remove: %v", err)
	}
	if err := f.WriteFile(`C:\data\A`, []byte("1")); err != nil {
		t.Fatal(err)
	}
	if err := f.Remove(`C:\ro\A`); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("read-only mount: %v", err)
	}
	if err := f.Remove(`C:\data\A`); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ReadFile(`C:\ro\A`); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the volume's file is gone from every mount: %v", err)
	}
	if err := f.Remove(`C:\data`); err == nil {
		t.Errorf("a mount point cannot be removed")
	}
}
