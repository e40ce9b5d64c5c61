package volumes

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/fuzzbound"
)

// FuzzResolve: no path panics the resolver or the FS, and whatever a path
// resolves to stays inside the mount it matched (no `..` escapes).
func FuzzResolve(f *testing.F) {
	for _, s := range []string{
		`C:\test-volume\..\..\Windows`, `c:/TEST-volume/x`, `\\?\C:\v\..\..\x`, `\\.\pipe\docker_engine`,
		`C:\v\sub\..\..\..\k\kubelet.exe`, `..\..\..`, `/v/../../etc/passwd`, `D:\`, `\\server\share`, `C:`,
		"C:\\v\\\x00", `C:\v\a:b`, `/`, ``, `\\.\pipe\`, `C:\v\...\x`,
		`C:\v\cfg\text`, `C:\v\cfg\..data\text`, `/v/cfg/..data/../text`, `..data\..\..\..\host`, `C:\v\l\l\l`,
	} {
		f.Add(s)
	}
	hp := corev1.HostPathDirectoryOrCreate
	vols := []corev1.Volume{
		emptyDir("v"),
		{Name: "host", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: `C:\var\host`, Type: &hp}}},
		cmVol("cfg", "sample-config-map"),
	}
	c := ctr("c",
		corev1.VolumeMount{Name: "v", MountPath: `C:\v`},
		corev1.VolumeMount{Name: "v", MountPath: `C:\v\sub`, SubPath: "deep"},
		corev1.VolumeMount{Name: "host", MountPath: `/host`},
		corev1.VolumeMount{Name: "cfg", MountPath: `C:\v\cfg`})
	var fss []*containerFS
	for _, os := range facts.OSes {
		p, err := NewPod(context.Background(), winPod(vols, c), NewNode(os), newSource())
		if err != nil {
			f.Fatal(err)
		}
		fss = append(fss, p.FS("c").(*containerFS))
	}
	f.Fuzz(func(t *testing.T, path string) {
		for _, cfs := range fss {
			vp, err := parsePath(cfs.win, path)
			if err == nil && vp.pipe == "" {
				m, rel := cfs.resolve(vp)
				if m != nil {
					for _, s := range rel {
						if s == ".." || s == "." || s == "" {
							t.Fatalf("%q: remainder %q has %q", path, rel, s)
						}
					}
					if len(rel) > len(vp.parts) || !hasPrefix(cfs.win, vp, m.target) {
						t.Fatalf("%q resolved to mount %v outside its target", path, m.target)
					}
					full := join(m.base, rel)
					for i, s := range m.base {
						if full[i] != s {
							t.Fatalf("%q: %v escapes base %v", path, full, m.base)
						}
					}
				}
			}
			// and the file system's calls end without growing the heap
			// (issue 18)
			fuzzbound.Run(t, fmt.Sprintf("the calls on %q", path), 10*time.Second, 64<<20, func() {
				_, _ = cfs.ReadFile(path)
				_, _ = cfs.ReadDir(path)
				_ = cfs.WriteFile(path, []byte("x"))
				// a link to path, followed, then removed
				link := `C:\v\l`
				if !cfs.win {
					link = "/v/l"
				}
				_ = cfs.Symlink(path, link)
				_, _ = cfs.ReadFile(link + "/x")
				_ = cfs.WriteFile(link, []byte("y"))
				_, _ = cfs.Readlink(path)
				_, _ = cfs.Lstat(path)
				_, _ = cfs.Stat(path)
				_ = cfs.Remove(link)
				_ = cfs.Junction(path, link)
				_, _ = cfs.ReadDir(link)
				_ = cfs.Remove(link)
			})
			// nothing written through the container reaches the host
			// outside the hostPath volume
			_, _, _ = cfs.node.host.list(nil)
			if e := cfs.node.host.subtree(nil); e != nil {
				checkHost(t, path, cfs.win, e, nil)
			}
		}
	})
}

// checkHost fails if a file named "x"-content exists outside var\host.
func checkHost(t *testing.T, path string, win bool, e *entry, at []string) {
	if e.kind == kindFile && string(e.data) == "x" {
		if len(at) < 2 || fold(win, at[0]) != "var" || fold(win, at[1]) != "host" {
			t.Fatalf("%q wrote host file %s", path, strings.Join(at, "/"))
		}
	}
	for _, k := range e.kids {
		checkHost(t, path, win, k, append(append([]string(nil), at...), k.name))
	}
}
