package volumes

import (
	"context"
	"errors"
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/shell"
)

// The layout expectations below are those of the kubelet's AtomicWriter
// (k8s.io/kubernetes v1.35.4 pkg/volume/util/atomic_writer.go, its doc
// comment and atomic_writer_test.go), as a Linux node shows it, e.g.
// (kubernetes/kubernetes#52419):
//
//	drwxr-xr-x 2 root root 100 ..6986_08_06_09_01_21.807714095/
//	lrwxrwxrwx 1 root root  13 ca.crt -> ..data/ca.crt
//	lrwxrwxrwx 1 root root  31 ..data -> ..6986_08_06_09_01_21.807714095/

var tsName = regexp.MustCompile(`^\.\.\d{4}_\d\d_\d\d_\d\d_\d\d_\d\d\.\d{1,10}$`)

func files(m map[string]string) map[string]payloadFile {
	out := map[string]payloadFile{}
	for k, v := range m {
		out[k] = payloadFile{data: []byte(v), mode: 0o644}
	}
	return out
}

func testStore(win bool, now *time.Time) *store {
	return newStore(win, func() time.Time { return *now })
}

// observed walks the volume as atomic_writer_test.go's checkVolumeContents
// does: every non-`..` top-level entry must be a link into `..data`; the
// files reached through them are the payload.
func observed(t *testing.T, s *store) map[string]string {
	t.Helper()
	out := map[string]string{}
	var walk func(e *entry, rel string)
	walk = func(e *entry, rel string) {
		if e.kind == kindDir {
			for _, c := range e.kids {
				walk(c, rel+"/"+c.name)
			}
			return
		}
		out[strings.TrimPrefix(rel, "/")] = string(e.data)
	}
	data := s.root.kids[dataDirName]
	if data == nil || data.kind != kindSymlink {
		t.Fatalf("no ..data link")
	}
	ts := s.root.kids[string(data.data)]
	if ts == nil || ts.kind != kindDir || !tsName.MatchString(ts.name) {
		t.Fatalf("..data -> %q, not a timestamped directory", data.data)
	}
	for _, c := range s.root.kids {
		if strings.HasPrefix(c.name, "..") {
			if c != data && c != ts {
				t.Errorf("stray %s", c.name)
			}
			continue
		}
		if c.kind != kindSymlink || string(c.data) != "..data/"+c.name {
			t.Errorf("%s is not a link to ..data/%s (%v %q)", c.name, c.name, c.kind, c.data)
			continue
		}
		if e := ts.kids[c.name]; e != nil {
			walk(e, c.name)
		}
	}
	return out
}

func dataTarget(s *store) string {
	if d := s.root.kids[dataDirName]; d != nil {
		return string(d.data)
	}
	return ""
}

// TestAtomicUpdate is atomic_writer_test.go TestUpdate's table: the second
// payload replaces the first; a new timestamped directory is made exactly
// when some content differs or a path is gone (shouldWrite).
func TestAtomicUpdate(t *testing.T) {
	cases := []struct {
		name        string
		first, next map[string]string
		shouldWrite bool
	}{
		{"update", map[string]string{"foo": "foo", "bar": "bar"}, map[string]string{"foo": "foo2", "bar": "bar2"}, true},
		{"no update", map[string]string{"foo": "foo", "bar": "bar"}, map[string]string{"foo": "foo", "bar": "bar"}, false},
		{"no update 2", map[string]string{"foo/bar.txt": "foo", "bar/zab.txt": "bar"}, map[string]string{"foo/bar.txt": "foo", "bar/zab.txt": "bar"}, false},
		{"add 1", map[string]string{"foo/bar.txt": "foo", "bar/zab.txt": "bar"}, map[string]string{"foo/bar.txt": "foo", "bar/zab.txt": "bar", "blu/zip.txt": "zip"}, true},
		{"add 2", map[string]string{"foo/bar.txt": "foo", "bar/zab.txt": "bar"}, map[string]string{"foo/bar.txt": "foo", "bar/zab.txt": "bar", "blu/two/2/3/4/5/zip.txt": "zip"}, true},
		{"add 3", map[string]string{"foo/bar.txt": "foo", "bar/zab.txt": "bar"}, map[string]string{"foo/bar.txt": "foo", "bar/zab.txt": "bar", "bar/2/3/4/5/zip.txt": "zip"}, true},
		{"delete 1", map[string]string{"foo/bar.txt": "foo", "bar/zab.txt": "bar"}, map[string]string{"foo/bar.txt": "foo"}, true},
		{"delete 2", map[string]string{"foo/bar.txt": "foo", "bar/1/2/3/zab.txt": "bar"}, map[string]string{"foo/bar.txt": "foo"}, true},
		{"delete 3", map[string]string{"foo/bar.txt": "foo", "bar/1/2/sip.txt": "sip", "bar/1/2/3/zab.txt": "bar"}, map[string]string{"foo/bar.txt": "foo", "bar/1/2/sip.txt": "sip"}, true},
		{"delete all", map[string]string{"foo/bar.txt": "foo", "bar/1/2/sip.txt": "sip"}, map[string]string{}, true},
		{"add and delete 1", map[string]string{"foo/bar.txt": "foo"}, map[string]string{"bar/baz.txt": "baz"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			now := time.Date(2026, 11, 28, 8, 40, 0, 123456789, time.UTC)
			s := testStore(false, &now)
			if err := s.atomicWrite(files(tc.first), "v", false); err != nil {
				t.Fatal(err)
			}
			before := dataTarget(s)
			if !strings.HasPrefix(before, "..2026_11_28_08_40_00.") {
				t.Errorf("timestamped directory %q", before)
			}
			now = now.Add(time.Minute)
			if err := s.atomicWrite(files(tc.next), "v", false); err != nil {
				t.Fatal(err)
			}
			if wrote := dataTarget(s) != before; wrote != tc.shouldWrite {
				t.Errorf("wrote %v, want %v", wrote, tc.shouldWrite)
			}
			if got := observed(t, s); !equalMaps(got, tc.next) {
				t.Errorf("observed %v, want %v", got, tc.next)
			}
		})
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestAtomicValidatePath is atomic_writer_test.go TestValidatePath: such a
// payload is not written and the volume fails to mount with the error.
func TestAtomicValidatePath(t *testing.T) {
	cases := []struct {
		path  string
		valid bool
	}{
		{"i/am/well/behaved.txt", true},
		{"keepyourheaddownandfollowtherules.txt", true},
		{strings.Repeat("a", 4097), false},
		{strings.Repeat("a", 256), false},
		{"/dev/null", false},
		{"..sneaky.txt", false},
		{"hello/there/../../../../../../etc/passwd", false},
		{"hello/../etc/somethingbad", false},
		{"", false},
	}
	for _, tc := range cases {
		if err := validatePayloadPath(false, tc.path); (err == nil) != tc.valid {
			t.Errorf("%.40q: %v, want valid %v", tc.path, err, tc.valid)
		}
	}
	src := newSource()
	src.setCM("ns", "sneaky", map[string]string{"k": "v"})
	v := cmVol("cfg", "sneaky", corev1.KeyToPath{Key: "k", Path: "..sneaky.txt"})
	_, err := NewPod(context.Background(), winPod([]corev1.Volume{v}, ctr("c")), NewNode("linux"), src)
	if mes := MountErrors(err); len(mes) != 1 || mes[0].Error() != `MountVolume.SetUp failed for volume "cfg" : invalid path: must not start with '..': ..sneaky.txt` {
		t.Errorf("%v", err)
	}
}

func linuxCtr(name string, mounts ...corev1.VolumeMount) corev1.Container {
	return corev1.Container{Name: name, Image: "busybox", VolumeMounts: mounts}
}

func names(t *testing.T, f shell.FS, dir string) []string {
	t.Helper()
	ents, err := f.ReadDir(dir)
	if err != nil {
		t.Fatalf("ReadDir(%s): %v", dir, err)
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if tsName.MatchString(n) {
			n = "..TS"
		}
		if e.Type()&fs.ModeSymlink != 0 {
			n += "@"
		}
		if e.IsDir() {
			n += "/"
		}
		out = append(out, n)
	}
	sort.Strings(out)
	return strings.Fields(strings.Join(out, " "))
}

// TestConfigMapVolumeLinuxView is what `ls -la`, `readlink` and `cat` see in
// a container on a Linux node: e2e configmap_volume.go "should be consumable
// from pods in volume with mappings" (items with nested paths) and "with
// defaultMode set" (mode of file "/etc/configmap-volume/data-1":
// -r--------, getFileModeRegex), secrets_volume.go's -rw-r--r-- default.
func TestConfigMapVolumeLinuxView(t *testing.T) {
	src := newSource()
	src.setCM("ns", "cm", map[string]string{"data-1": "value-1", "data-2": "value-2"})
	src.secrets["ns/sec"] = &corev1.Secret{Data: map[string][]byte{"data-1": []byte("value-1")}}
	vols := []corev1.Volume{
		{Name: "plain", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"}, DefaultMode: ptr(int32(0o400))}}},
		cmVol("mapped", "cm", corev1.KeyToPath{Key: "data-2", Path: "path/to/data-2"}),
		{Name: "sec", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "sec"}}},
	}
	pod := winPod(vols, linuxCtr("c",
		corev1.VolumeMount{Name: "plain", MountPath: "/etc/configmap-volume"},
		corev1.VolumeMount{Name: "mapped", MountPath: "/etc/mapped"},
		corev1.VolumeMount{Name: "sec", MountPath: "/etc/secret-volume"}))
	p := mustPod(t, pod, NewNode("linux"), src)
	f := p.FS("c")
	sl := f.(interface {
		Lstat(string) (fs.FileInfo, error)
		Stat(string) (fs.FileInfo, error)
		Readlink(string) (string, error)
	})

	if got, want := names(t, f, "/etc/configmap-volume"), []string{"..TS/", "..data@", "data-1@", "data-2@"}; !equalSlices(got, want) {
		t.Errorf("ls -a: %v, want %v", got, want)
	}
	if got, want := names(t, f, "/etc/mapped"), []string{"..TS/", "..data@", "path@"}; !equalSlices(got, want) {
		t.Errorf("ls -a mapped: %v, want %v", got, want)
	}
	if got := read(t, f, "/etc/configmap-volume/data-1"); got != "value-1" {
		t.Errorf("cat data-1: %q", got)
	}
	if got := read(t, f, "/etc/mapped/path/to/data-2"); got != "value-2" {
		t.Errorf("cat path/to/data-2: %q", got)
	}
	links := []struct{ path, want string }{
		{"/etc/configmap-volume/data-1", "..data/data-1"},
		{"/etc/mapped/path", "..data/path"},
	}
	for _, l := range links {
		if got, err := sl.Readlink(l.path); err != nil || got != l.want {
			t.Errorf("readlink %s = %q %v, want %q", l.path, got, err, l.want)
		}
	}
	data, err := sl.Readlink("/etc/configmap-volume/..data")
	if err != nil || !tsName.MatchString(data) {
		t.Errorf("readlink ..data = %q %v", data, err)
	}
	if _, err := sl.Readlink("/etc/configmap-volume/" + data + "/data-1"); err == nil || err.Error() != "Invalid argument" {
		t.Errorf("readlink of a file: %v", err)
	}
	modes := []struct {
		path string
		stat bool
		want string
	}{
		{"/etc/configmap-volume/data-1", false, "Lrwxrwxrwx"},
		{"/etc/configmap-volume/data-1", true, "-r--------"},
		{"/etc/mapped/path/to/data-2", true, "-rw-r--r--"},
		{"/etc/secret-volume/data-1", true, "-rw-r--r--"},
		{"/etc/configmap-volume/..data", true, "drwxr-xr-x"},
		{"/etc/configmap-volume", true, "drwxrwxrwx"}, // configMap: a disk emptyDir
		{"/etc/secret-volume", true, "dtrwxrwxrwx"},   // secret: tmpfs
	}
	for _, m := range modes {
		st := sl.Lstat
		if m.stat {
			st = sl.Stat
		}
		in, err := st(m.path)
		if err != nil || in.Mode().String() != m.want {
			t.Errorf("stat(%s, follow %v) = %v %v, want %s", m.path, m.stat, in, err, m.want)
		}
	}
	if in, _ := sl.Lstat("/etc/configmap-volume/data-1"); in.Size() != int64(len("..data/data-1")) {
		t.Errorf("a link's size is its target's length: %d", in.Size())
	}
	if err := f.WriteFile("/etc/configmap-volume/data-1", []byte("x")); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("write through the link: %v", err)
	}
}

func equalSlices(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00")
}

// TestConfigMapVolumeUpdates is e2e configmap_volume.go "updates should be
// reflected in volume" and "optional updates should be reflected in volume"
// (a key added, one removed), seen as the AtomicWriter lays it out (a new
// timestamped directory, the old one gone), and a subPath mount that keeps
// what it had: "A container using a ConfigMap as a subPath volume mount
// will not receive ConfigMap updates."
// (https://kubernetes.io/docs/concepts/configuration/configmap/#mounted-configmaps-are-updated-automatically).
func TestConfigMapVolumeUpdates(t *testing.T) {
	for _, os := range []facts.OS{facts.Linux, facts.Windows} {
		t.Run(string(os), func(t *testing.T) {
			src := newSource()
			src.setCM("ns", "cm", map[string]string{"data-1": "value-1"})
			node := NewNode(os)
			now := time.Date(2026, 11, 28, 8, 40, 0, 0, time.UTC)
			node.SetClock(func() time.Time { return now })
			vols := []corev1.Volume{cmVol("cfg", "cm")}
			mk := func() *corev1.Pod {
				return winPod(vols, linuxCtr("c",
					corev1.VolumeMount{Name: "cfg", MountPath: "/etc/cfg"},
					corev1.VolumeMount{Name: "cfg", MountPath: "/etc/one", SubPath: "data-1"}))
			}
			p := mustPod(t, mk(), node, src)
			f := p.FS("c")
			sl := f.(interface{ Readlink(string) (string, error) })
			first, _ := sl.Readlink("/etc/cfg/..data")
			if first != "..2026_11_28_08_40_00."+strings.TrimPrefix(first, "..2026_11_28_08_40_00.") || !tsName.MatchString(first) {
				t.Fatalf("..data -> %q", first)
			}
			// unchanged: nothing is written
			now = now.Add(time.Minute)
			if err := p.Refresh(context.Background(), mk()); err != nil {
				t.Fatal(err)
			}
			if again, _ := sl.Readlink("/etc/cfg/..data"); again != first {
				t.Errorf("unchanged ConfigMap rewritten: %s -> %s", first, again)
			}
			src.setCM("ns", "cm", map[string]string{"data-1": "value-2", "data-3": "value-3"})
			now = now.Add(time.Minute)
			if err := p.Refresh(context.Background(), mk()); err != nil {
				t.Fatal(err)
			}
			second, _ := sl.Readlink("/etc/cfg/..data")
			if !strings.HasPrefix(second, "..2026_11_28_08_42_00.") {
				t.Errorf("..data -> %q after the update", second)
			}
			if got, want := names(t, f, "/etc/cfg"), []string{"..TS/", "..data@", "data-1@", "data-3@"}; !equalSlices(got, want) {
				t.Errorf("after update: %v, want %v (the old directory removed)", got, want)
			}
			if got := read(t, f, "/etc/cfg/data-1"); got != "value-2" {
				t.Errorf("data-1 = %q", got)
			}
			if got := read(t, f, "/etc/one"); got != "value-1" {
				t.Errorf("subPath mount updated: %q", got)
			}
			src.setCM("ns", "cm", map[string]string{"data-3": "value-3"})
			now = now.Add(time.Minute)
			if err := p.Refresh(context.Background(), mk()); err != nil {
				t.Fatal(err)
			}
			if got, want := names(t, f, "/etc/cfg"), []string{"..TS/", "..data@", "data-3@"}; !equalSlices(got, want) {
				t.Errorf("after removal: %v, want %v", got, want)
			}
			if _, err := f.ReadFile("/etc/cfg/data-1"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("removed key: %v", err)
			}
		})
	}
}

// TestConfigMapVolumeWindowsView: the kubelet's AtomicWriter runs the same
// code on Windows (os.Symlink makes a directory link for `..data`, file or
// directory links for the keys, with `\` in the target: filepath.Join), so
// `dir` shows <SYMLINKD> ..data [..2026_...] and <SYMLINK> key
// [..data\key]. Modes are not applied beyond the owner-write bit, which Go
// turns into the read-only attribute.
func TestConfigMapVolumeWindowsView(t *testing.T) {
	src := newSource()
	vols := []corev1.Volume{
		{Name: "cfg", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "sample-config-map"}, DefaultMode: ptr(int32(0o400))}}},
	}
	p := mustPod(t, winPod(vols, ctr("c", corev1.VolumeMount{Name: "cfg", MountPath: `C:\cfg`})), NewNode("windows"), src)
	f := p.FS("c")
	sl := f.(interface {
		Stat(string) (fs.FileInfo, error)
		Readlink(string) (string, error)
	})
	if got, want := names(t, f, `C:\cfg`), []string{"..TS/", "..data@", "text@", "validation-script@"}; !equalSlices(got, want) {
		t.Errorf("dir: %v, want %v", got, want)
	}
	if got, err := sl.Readlink(`c:\CFG\Text`); err != nil || got != `..data\text` {
		t.Errorf("link target %q %v", got, err)
	}
	if got := read(t, f, `C:\cfg\validation-script`); got != "Write-Output SUCCESS" {
		t.Errorf("Get-Content: %q", got)
	}
	if in, err := sl.Stat(`C:\cfg\text`); err != nil || in.Mode().Perm() != 0o444 {
		t.Errorf("mode 0400 on Windows: %v %v", in, err)
	}
	if _, err := sl.Readlink(`C:\cfg\..data\text`); err == nil || err.Error() != "The file or directory is not a reparse point." {
		t.Errorf("readlink of a file: %v", err)
	}
}

// TestDownwardAPIVolumeLayout: downwardapi_volume.go "should update labels
// on modification" reads /etc/podinfo/labels through the layout; the
// projected volume (projected_combined.go) merges its sources into one
// timestamped directory.
func TestDownwardAPIVolumeLayout(t *testing.T) {
	vols := []corev1.Volume{
		{Name: "podinfo", VolumeSource: corev1.VolumeSource{DownwardAPI: &corev1.DownwardAPIVolumeSource{Items: []corev1.DownwardAPIVolumeFile{
			{Path: "labels", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.labels"}},
			{Path: "podname", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}, Mode: ptr(int32(0o400))},
		}}}},
		{Name: "all-in-one", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{
			{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "sample-config-map"}, Items: []corev1.KeyToPath{{Key: "text", Path: "configmap-data"}}}},
			{Secret: &corev1.SecretProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "sample-secret"}, Items: []corev1.KeyToPath{{Key: "foo", Path: "secret-data"}}}},
			{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "podname", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}}},
		}}}},
	}
	mk := func(labels map[string]string) *corev1.Pod {
		pod := winPod(vols, linuxCtr("c",
			corev1.VolumeMount{Name: "podinfo", MountPath: "/etc/podinfo"},
			corev1.VolumeMount{Name: "all-in-one", MountPath: "/all-in-one"}))
		pod.ObjectMeta = metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "uid-1", Labels: labels}
		return pod
	}
	p := mustPod(t, mk(map[string]string{"key1": "value1"}), NewNode("linux"), newSource())
	f := p.FS("c")
	if got, want := names(t, f, "/etc/podinfo"), []string{"..TS/", "..data@", "labels@", "podname@"}; !equalSlices(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
	if got, want := names(t, f, "/all-in-one"), []string{"..TS/", "..data@", "configmap-data@", "podname@", "secret-data@"}; !equalSlices(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
	if got := read(t, f, "/etc/podinfo/labels"); got != `key1="value1"` {
		t.Errorf("labels %q", got)
	}
	in, err := f.(interface {
		Stat(string) (fs.FileInfo, error)
	}).Stat("/etc/podinfo/podname")
	if err != nil || in.Mode().String() != "-r--------" {
		t.Errorf(`mode of file "/etc/podinfo/podname": %v %v, want -r--------`, in, err)
	}
	if err := p.Refresh(context.Background(), mk(map[string]string{"key1": "value2", "key3": "value3"})); err != nil {
		t.Fatal(err)
	}
	if got := read(t, f, "/etc/podinfo/labels"); got != "key1=\"value2\"\nkey3=\"value3\"" {
		t.Errorf("updated labels %q", got)
	}
}

// TestSymlinkLoops: a link cycle fails like ELOOP after 40 links.
func TestSymlinkLoops(t *testing.T) {
	p := mustPod(t, winPod([]corev1.Volume{emptyDir("d")}, linuxCtr("c", corev1.VolumeMount{Name: "d", MountPath: "/d"})), NewNode("linux"), newSource())
	f := p.FS("c").(interface {
		shell.FS
		Symlink(target, path string) error
	})
	if err := f.Symlink("b", "/d/a"); err != nil {
		t.Fatal(err)
	}
	if err := f.Symlink("/d/a", "/d/b"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ReadFile("/d/a"); err == nil || err.Error() != "Too many levels of symbolic links" {
		t.Errorf("loop: %v", err)
	}
	if err := f.Symlink("x", "/d/a"); !errors.Is(err, fs.ErrExist) {
		t.Errorf("existing: %v", err)
	}
	if err := f.Symlink("/etc/hostname", "/d/h"); err != nil {
		t.Fatal(err)
	}
	if got := read(t, f, "/d/h"); got != "p\n" {
		t.Errorf("absolute link across mounts: %q", got)
	}
}

// TestJunctionWritesThrough: `mklink /J C:\d\j C:\d\real` makes a mount
// point reparse point; what is written under the junction lands in the
// target directory, Lstat reports it as Go's os.Lstat reports a mount
// point (ModeIrregular) and Readlink gives its absolute target
// (learn.microsoft.com/windows-server/administration/windows-commands/mklink).
func TestJunctionWritesThrough(t *testing.T) {
	p := mustPod(t, winPod([]corev1.Volume{emptyDir("d")}, ctr("c", corev1.VolumeMount{Name: "d", MountPath: `C:\d`})), NewNode("windows"), newSource())
	f := p.FS("c").(interface {
		shell.FS
		Lstat(string) (fs.FileInfo, error)
		Readlink(string) (string, error)
		Junction(target, path string) error
	})
	if err := f.(interface{ MkdirAll(string) error }).MkdirAll(`C:\d\real`); err != nil {
		t.Fatal(err)
	}
	if err := f.Junction(`C:\d\real`, `C:\d\j`); err != nil {
		t.Fatal(err)
	}
	if err := f.WriteFile(`C:\d\j\f.txt`, []byte("through")); err != nil {
		t.Fatal(err)
	}
	if got := read(t, f, `C:\d\real\f.txt`); got != "through" {
		t.Errorf("target file %q", got)
	}
	if in, err := f.Lstat(`C:\d\J`); err != nil || in.Mode().Type() != fs.ModeIrregular {
		t.Errorf("Lstat of the junction: %v %v", in, err)
	}
	if got, err := f.Readlink(`C:\d\j`); err != nil || got != `C:\d\real` {
		t.Errorf("Readlink %q %v", got, err)
	}
	if err := f.Junction(`C:\x`, `C:\d\j`); !errors.Is(err, fs.ErrExist) {
		t.Errorf("existing: %v", err)
	}
}

// TestAtomicVolumeBounded: a ConfigMap at the API's size limit, changed on
// every refresh, keeps one copy of its payload in the volume (the old
// timestamped directory goes), and an unchanged one costs no new copy.
func TestAtomicVolumeBounded(t *testing.T) {
	src := newSource()
	big := map[string]string{}
	for i := 0; i < 256; i++ {
		big[strings.Repeat("k", 3)+string(rune('a'+i%26))+strings.Repeat("x", i/26)] = strings.Repeat("v", 4000)
	}
	src.setCM("ns", "big", big)
	node := NewNode("linux")
	now := time.Date(2026, 11, 28, 8, 40, 0, 0, time.UTC)
	node.SetClock(func() time.Time { return now })
	vols := []corev1.Volume{cmVol("cfg", "big")}
	pod := winPod(vols, linuxCtr("c", corev1.VolumeMount{Name: "cfg", MountPath: "/cfg"}))
	p := mustPod(t, pod, node, src)
	vs := p.vols["cfg"]
	one := vs.st.bytes()
	for i := 0; i < 20; i++ {
		now = now.Add(time.Second)
		big["kkka"] = strings.Repeat(string(rune('a'+i)), 4000)
		src.setCM("ns", "big", big)
		if err := p.Refresh(context.Background(), pod); err != nil {
			t.Fatal(err)
		}
	}
	if got := vs.st.bytes(); got != one {
		t.Errorf("volume holds %d bytes after 20 updates, %d after the first write", got, one)
	}
	if n := len(vs.st.root.kids); n != len(big)+2 {
		t.Errorf("%d entries in the volume, want %d keys + ..data + one timestamped directory", n, len(big))
	}
}

// TestFSGroupVolumeModes is e2e downwardapi_volume.go "should provide
// podname as non-root with fsgroup and defaultMode [LinuxOnly]": "setting
// fsGroup sets mode to at least 440", so defaultMode 0400 reads back
// -r--r----- (changeFilePermission's roMask); directories get setgid and
// group search. A Windows node does not change ownership.
func TestFSGroupVolumeModes(t *testing.T) {
	for _, tc := range []struct {
		os            facts.OS
		file, dir, ts string
	}{
		{facts.Linux, "-r--r-----", "dgtrwxrwxrwx", "dgrwxr-xr-x"},
		{facts.Windows, "-r--r--r--", "drwxrwxrwx", "drwxrwxrwx"},
	} {
		t.Run(string(tc.os), func(t *testing.T) {
			vols := []corev1.Volume{{Name: "podinfo", VolumeSource: corev1.VolumeSource{DownwardAPI: &corev1.DownwardAPIVolumeSource{
				DefaultMode: ptr(int32(0o400)),
				Items:       []corev1.DownwardAPIVolumeFile{{Path: "podname", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
			}}}}
			pod := winPod(vols, linuxCtr("c", corev1.VolumeMount{Name: "podinfo", MountPath: "/etc/podinfo"}))
			pod.Spec.SecurityContext = &corev1.PodSecurityContext{FSGroup: ptr(int64(1234))}
			p := mustPod(t, pod, NewNode(tc.os), newSource())
			st := p.FS("c").(interface {
				Stat(string) (fs.FileInfo, error)
			})
			for _, c := range []struct{ path, want string }{
				{"/etc/podinfo/podname", tc.file},
				{"/etc/podinfo", tc.dir},
				{"/etc/podinfo/..data", tc.ts},
			} {
				in, err := st.Stat(c.path)
				if err != nil || in.Mode().String() != c.want {
					t.Errorf("mode of %s: %v %v, want %s", c.path, in, err, c.want)
				}
			}
		})
	}
}
