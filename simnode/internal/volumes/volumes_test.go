package volumes

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/shell"
)

// fakeSource answers from maps, with the listers' NotFound errors (plural
// resource names, as client-go listers and the API say them, so the
// rewriting to the kubelet's wording is exercised).
type fakeSource struct {
	mu      sync.Mutex
	cms     map[string]*corev1.ConfigMap
	secrets map[string]*corev1.Secret
	tokens  int
}

func (f *fakeSource) ConfigMap(ns, name string) (*corev1.ConfigMap, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if cm, ok := f.cms[ns+"/"+name]; ok {
		return cm.DeepCopy(), nil
	}
	return nil, apierrors.NewNotFound(corev1.Resource("configmaps"), name)
}

func (f *fakeSource) Secret(ns, name string) (*corev1.Secret, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if s, ok := f.secrets[ns+"/"+name]; ok {
		return s.DeepCopy(), nil
	}
	return nil, apierrors.NewNotFound(corev1.Resource("secrets"), name)
}

func (f *fakeSource) ServiceAccountToken(_ context.Context, ns, sa, aud string, exp int64, pod *corev1.Pod) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tokens++
	return "token-" + ns + "-" + sa + "-" + string(pod.UID) + "-" + string(rune('0'+f.tokens)), nil
}

func (f *fakeSource) setCM(ns, name string, data map[string]string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cms[ns+"/"+name] = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Data: data}
}

func newSource() *fakeSource {
	f := &fakeSource{cms: map[string]*corev1.ConfigMap{}, secrets: map[string]*corev1.Secret{}}
	f.setCM("ns", "sample-config-map", map[string]string{"text": "Lorem ipsum dolor sit amet", "validation-script": "Write-Output SUCCESS"})
	f.setCM("ns", "kube-root-ca.crt", map[string]string{"ca.crt": "-----BEGIN CERTIFICATE-----\n"})
	f.cms["ns/bin"] = &corev1.ConfigMap{Data: map[string]string{"a": "A"}, BinaryData: map[string][]byte{"blob": {0, 1, 2}}}
	f.secrets["ns/sample-secret"] = &corev1.Secret{Data: map[string][]byte{"foo": []byte("bar"), "other": []byte("x")}}
	return f
}

func ptr[T any](v T) *T { return &v }

func winPod(vols []corev1.Volume, ctrs ...corev1.Container) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: types.UID("uid-1"),
			Labels: map[string]string{"app": "web", "tier": "a\"b"}, Annotations: map[string]string{"note": "x"}},
		Spec: corev1.PodSpec{Volumes: vols, Containers: ctrs, NodeName: "win-1"},
	}
}

func emptyDir(name string) corev1.Volume {
	return corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}
}

func cmVol(name, cm string, items ...corev1.KeyToPath) corev1.Volume {
	return corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
		LocalObjectReference: corev1.LocalObjectReference{Name: cm}, Items: items}}}
}

func ctr(name string, mounts ...corev1.VolumeMount) corev1.Container {
	return corev1.Container{Name: name, Image: "mcr.microsoft.com/windows/servercore:ltsc2022", VolumeMounts: mounts}
}

func mustPod(t *testing.T, pod *corev1.Pod, node *Node, src Source) *Pod {
	t.Helper()
	p, err := NewPod(context.Background(), pod, node, src)
	if err != nil {
		t.Fatalf("NewPod: %v", err)
	}
	return p
}

func read(t *testing.T, f shell.FS, path string) string {
	t.Helper()
	b, err := f.ReadFile(path)
	if err != nil {
		t.Fatalf("ReadFile(%q): %v", path, err)
	}
	return string(b)
}

func TestWindowsPathForms(t *testing.T) {
	pod := winPod([]corev1.Volume{emptyDir("test-volume"), emptyDir("etc")},
		ctr("c", corev1.VolumeMount{Name: "test-volume", MountPath: `C:\test-volume`},
			corev1.VolumeMount{Name: "etc", MountPath: "/etc/emptydir"}))
	p := mustPod(t, pod, NewNode("windows"), newSource())
	f := p.FS("c")
	if err := f.WriteFile(`C:\test-volume\test-file.txt`, []byte("windows-volume-test")); err != nil {
		t.Fatal(err)
	}
	if err := f.WriteFile(`C:\etc\emptydir\x.txt`, []byte("etc")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"as written", `C:\test-volume\test-file.txt`, "windows-volume-test"},
		{"forward slashes, lower drive, other case", `c:/TEST-volume/Test-File.TXT`, "windows-volume-test"},
		{"no drive letter", `\test-volume\test-file.txt`, "windows-volume-test"},
		{"long path prefix", `\\?\C:\test-volume\test-file.txt`, "windows-volume-test"},
		{"dot dot inside", `C:\test-volume\..\test-volume\.\test-file.txt`, "windows-volume-test"},
		{"mixed separators and doubled", `C:\\test-volume//test-file.txt`, "windows-volume-test"},
		{"mountPath without drive is C:", `C:\etc\emptydir\x.txt`, "etc"},
		{"image file", `C:\Windows\System32\drivers\etc\hosts`, "# Copyright (c) 1993-2009 Microsoft Corp.\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := read(t, f, tt.path)
			if tt.name == "image file" {
				got = got[:len(tt.want)]
			}
			if got != tt.want {
				t.Errorf("ReadFile(%q) = %q, want %q", tt.path, got, tt.want)
			}
		})
	}
	// .. above the mount is the image, not the volume
	if _, err := f.ReadFile(`C:\test-volume\..\test-file.txt`); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf(`C:\test-volume\..\test-file.txt: %v, want not exist`, err)
	}
	if _, err := f.ReadFile(`D:\x`); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("D: drive: %v", err)
	}
	// the mount points are listed in their parent directories
	ents, err := f.ReadDir(`c:\`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, ","); !strings.Contains(got, "etc") || !strings.Contains(got, "test-volume") || !strings.Contains(got, "Windows") {
		t.Errorf("ReadDir(C:\\) = %s", got)
	}
	if ents, err := f.ReadDir(`C:\ETC`); err != nil || len(ents) != 1 || ents[0].Name() != "emptydir" || !ents[0].IsDir() {
		t.Errorf("ReadDir(C:\\ETC) = %v, %v", ents, err)
	}
}

func TestLinuxPaths(t *testing.T) {
	pod := winPod([]corev1.Volume{emptyDir("data")}, corev1.Container{Name: "c", Image: "busybox",
		VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: "/data"}}})
	p := mustPod(t, pod, NewNode("linux"), newSource())
	f := p.FS("c")
	if err := f.WriteFile("/data/A", []byte("1")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ReadFile("/DATA/A"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Linux is case-sensitive: %v", err)
	}
	if _, err := f.ReadFile(`\data\A`); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("backslash is not a separator on Linux: %v", err)
	}
	if got := read(t, f, "/tmp/../data/./A"); got != "1" {
		t.Errorf("got %q", got)
	}
	if got := read(t, f, "/etc/hostname"); got != "p\n" {
		t.Errorf("/etc/hostname = %q", got)
	}
}

func TestReadOnlyWrites(t *testing.T) {
	tests := []struct {
		name     string
		os       string
		vol      corev1.Volume
		mount    corev1.VolumeMount
		sc       *corev1.SecurityContext
		path     string
		wantText string // "" = write succeeds
	}{
		{"windows readOnly emptyDir", "windows", emptyDir("v"), corev1.VolumeMount{Name: "v", MountPath: `C:\test-volume`, ReadOnly: true}, nil, `C:\test-volume\test-file.txt`, "Access is denied."},
		{"windows readOnly hostPath", "windows", corev1.Volume{Name: "v", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: `C:\tmp`, Type: ptr(corev1.HostPathDirectoryOrCreate)}}}, corev1.VolumeMount{Name: "v", MountPath: `C:\tmp`, ReadOnly: true}, nil, `C:\tmp\f`, "Access is denied."},
		{"windows configMap always read-only", "windows", cmVol("v", "sample-config-map"), corev1.VolumeMount{Name: "v", MountPath: `C:\cfg`}, nil, `C:\cfg\text`, "Access is denied."},
		{"windows writable emptyDir", "windows", emptyDir("v"), corev1.VolumeMount{Name: "v", MountPath: `C:\test-volume`}, nil, `C:\test-volume\f`, ""},
		{"windows readOnlyRootFilesystem ignored", "windows", emptyDir("v"), corev1.VolumeMount{Name: "v", MountPath: `C:\v`}, &corev1.SecurityContext{ReadOnlyRootFilesystem: ptr(true)}, `C:\Windows\Temp\f`, ""},
		{"linux readOnly mount", "linux", emptyDir("v"), corev1.VolumeMount{Name: "v", MountPath: "/v", ReadOnly: true}, nil, "/v/f", "Read-only file system"},
		{"linux readOnlyRootFilesystem", "linux", emptyDir("v"), corev1.VolumeMount{Name: "v", MountPath: "/v"}, &corev1.SecurityContext{ReadOnlyRootFilesystem: ptr(true)}, "/tmp/f", "Read-only file system"},
		{"linux readOnlyRootFilesystem, writable mount", "linux", emptyDir("v"), corev1.VolumeMount{Name: "v", MountPath: "/v"}, &corev1.SecurityContext{ReadOnlyRootFilesystem: ptr(true)}, "/v/f", ""},
		{"linux secret read-only", "linux", corev1.Volume{Name: "v", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "sample-secret"}}}, corev1.VolumeMount{Name: "v", MountPath: "/s"}, nil, "/s/foo", "Read-only file system"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ctr("c", tt.mount)
			c.SecurityContext = tt.sc
			p := mustPod(t, winPod([]corev1.Volume{tt.vol}, c), NewNode(facts.OS(tt.os)), newSource())
			err := p.FS("c").WriteFile(tt.path, []byte("windows-volume-test"))
			if tt.wantText == "" {
				if err != nil {
					t.Fatalf("WriteFile: %v", err)
				}
				return
			}
			if err == nil || err.Error() != tt.wantText || !errors.Is(err, fs.ErrPermission) {
				t.Fatalf("WriteFile = %v, want %q satisfying fs.ErrPermission", err, tt.wantText)
			}
		})
	}
}

func TestReadWriteAndReadOnlyContainersShareEmptyDir(t *testing.T) {
	// upstream test/e2e/windows/volumes.go doReadWriteReadOnlyTest
	vols := []corev1.Volume{emptyDir("test-volume")}
	pod := winPod(vols,
		ctr("test-container", corev1.VolumeMount{Name: "test-volume", MountPath: `C:\test-volume`, ReadOnly: true}),
		ctr("test-container-rw", corev1.VolumeMount{Name: "test-volume", MountPath: `C:\test-volume`}))
	p := mustPod(t, pod, NewNode("windows"), newSource())
	rw, ro := p.FS("test-container-rw"), p.FS("test-container")
	if err := rw.WriteFile(`C:\test-volume\test-file1`, []byte("windows-volume-test")); err != nil {
		t.Fatal(err)
	}
	if err := ro.WriteFile(`C:\test-volume\test-file1`, []byte("x")); err == nil || err.Error() != "Access is denied." {
		t.Fatalf("ro write: %v", err)
	}
	if got := read(t, ro, `C:\test-volume\test-file1`); got != "windows-volume-test" {
		t.Errorf("ro read %q", got)
	}
	// a write to the container's own layer is not shared
	if err := rw.WriteFile(`C:\Windows\Temp\own`, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, err := ro.ReadFile(`C:\Windows\Temp\own`); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("container layers leak: %v", err)
	}
	// restart of the rw container: its layer is new, the emptyDir is kept
	p.SetContainerID("test-container-rw", "containerd://abc")
	rw2 := p.FS("test-container-rw")
	if _, err := rw2.ReadFile(`C:\Windows\Temp\own`); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("writable layer survived restart: %v", err)
	}
	if got := read(t, rw2, `C:\test-volume\test-file1`); got != "windows-volume-test" {
		t.Errorf("emptyDir lost across restart: %q", got)
	}
	if p.FS("nope") != nil {
		t.Error("FS of an unknown container")
	}
}

func TestMissingConfigMapAndSecret(t *testing.T) {
	tests := []struct {
		name string
		vol  corev1.Volume
		want string
	}{
		{"configmap", cmVol("config", "x"), `MountVolume.SetUp failed for volume "config" : configmap "x" not found`},
		{"secret", corev1.Volume{Name: "sec", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "x"}}}, `MountVolume.SetUp failed for volume "sec" : secret "x" not found`},
		{"missing key", cmVol("config", "sample-config-map", corev1.KeyToPath{Key: "nope", Path: "n"}), `MountVolume.SetUp failed for volume "config" : configmap references non-existent config key: nope`},
		{"missing secret key", corev1.Volume{Name: "sec", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "sample-secret", Items: []corev1.KeyToPath{{Key: "nope", Path: "n"}}}}}, `MountVolume.SetUp failed for volume "sec" : references non-existent secret key: nope`},
		{"projected missing configmap", corev1.Volume{Name: "proj", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "x"}}}}}}}, `MountVolume.SetUp failed for volume "proj" : configmap "x" not found`},
		{"hostPath Directory missing", corev1.Volume{Name: "hp", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: `C:\missing`, Type: ptr(corev1.HostPathDirectory)}}}, `MountVolume.SetUp failed for volume "hp" : hostPath type check failed: C:\missing is not a directory`},
		{"hostPath File is a directory", corev1.Volume{Name: "hp", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: `C:\k`, Type: ptr(corev1.HostPathFile)}}}, `MountVolume.SetUp failed for volume "hp" : hostPath type check failed: C:\k is not a file`},
		{"hostPath Socket pipe", corev1.Volume{Name: "hp", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: `\\.\pipe\containerd-containerd`, Type: ptr(corev1.HostPathSocket)}}}, `MountVolume.SetUp failed for volume "hp" : hostPath type check failed: \\.\pipe\containerd-containerd is not a socket file`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewPod(context.Background(), winPod([]corev1.Volume{tt.vol}, ctr("c")), NewNode("windows"), newSource())
			mes := MountErrors(err)
			if len(mes) != 1 {
				t.Fatalf("MountErrors(%v) = %v", err, mes)
			}
			if mes[0].Error() != tt.want {
				t.Errorf("got  %s\nwant %s", mes[0].Error(), tt.want)
			}
			if mes[0].Volume != tt.vol.Name {
				t.Errorf("Volume = %q", mes[0].Volume)
			}
		})
	}
	// optional: no error, no key; the atomic writer still writes its
	// (empty) timestamped directory and `..data` (atomic_writer.go Write:
	// without an old directory the payload is always written).
	v := cmVol("config", "x")
	v.ConfigMap.Optional = ptr(true)
	p := mustPod(t, winPod([]corev1.Volume{v}, ctr("c", corev1.VolumeMount{Name: "config", MountPath: `C:\cfg`})), NewNode("windows"), newSource())
	ents, err := p.FS("c").ReadDir(`C:\cfg`)
	if err != nil || len(ents) != 2 || !strings.HasPrefix(ents[0].Name(), "..20") || ents[1].Name() != "..data" {
		t.Errorf("optional configmap: %v %v", ents, err)
	}
}

func TestConfigMapSecretContents(t *testing.T) {
	vols := []corev1.Volume{
		cmVol("all", "bin"),
		cmVol("items", "sample-config-map", corev1.KeyToPath{Key: "text", Path: "sub/text.txt", Mode: ptr(int32(0o400))}),
		{Name: "sec", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "sample-secret", Items: []corev1.KeyToPath{{Key: "foo", Path: "foo.txt"}}, DefaultMode: ptr(int32(0o600))}}},
	}
	pod := winPod(vols, ctr("c",
		corev1.VolumeMount{Name: "all", MountPath: `C:\all`},
		corev1.VolumeMount{Name: "items", MountPath: `C:\items`},
		corev1.VolumeMount{Name: "sec", MountPath: `C:\etc\secret`}))
	p := mustPod(t, pod, NewNode("windows"), newSource())
	f := p.FS("c")
	tests := []struct{ path, want string }{
		{`C:\all\a`, "A"},
		{`C:\all\blob`, "\x00\x01\x02"},
		{`C:\items\sub\text.txt`, "Lorem ipsum dolor sit amet"},
		{`C:\etc\secret\foo.txt`, "bar"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := read(t, f, tt.path); got != tt.want {
				t.Errorf("%q", got)
			}
		})
	}
	if _, err := f.ReadFile(`C:\etc\secret\other`); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("only items are projected: %v", err)
	}
	ents, _ := f.ReadDir(`C:\items\sub`)
	if len(ents) != 1 {
		t.Fatalf("ents %v", ents)
	}
	// On Windows the kubelet's os.Chmod keeps only the owner-write bit, as
	// the read-only attribute (Go's syscall.Chmod on Windows): 0400 reads
	// back as 0444.
	if info, _ := ents[0].Info(); info.Mode().Perm() != 0o444 {
		t.Errorf("item mode recorded %v", info.Mode())
	}
}

func TestSubPath(t *testing.T) {
	src := newSource()
	vols := []corev1.Volume{emptyDir("shared"), cmVol("cfg", "sample-config-map")}
	writer := ctr("writer", corev1.VolumeMount{Name: "shared", MountPath: `C:\shared`})
	reader := ctr("reader",
		corev1.VolumeMount{Name: "shared", MountPath: `C:\logs`, SubPath: "logs"},
		corev1.VolumeMount{Name: "cfg", MountPath: `C:\app\text.txt`, SubPath: "text"},
		corev1.VolumeMount{Name: "cfg", MountPath: `C:\cfg`})
	expr := ctr("expr", corev1.VolumeMount{Name: "shared", MountPath: `C:\mine`, SubPathExpr: "$(POD)"})
	expr.Env = []corev1.EnvVar{{Name: "POD", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}}
	bad := ctr("bad", corev1.VolumeMount{Name: "shared", MountPath: `C:\x`, SubPath: `..\..\Windows`})
	abs := ctr("abs", corev1.VolumeMount{Name: "shared", MountPath: `C:\x`, SubPath: `\Windows`})
	missing := ctr("missing", corev1.VolumeMount{Name: "nope", MountPath: `C:\x`})
	p := mustPod(t, winPod(vols, writer, reader, expr, bad, abs, missing), NewNode("windows"), src)

	w, r := p.FS("writer"), p.FS("reader")
	if err := w.WriteFile(`C:\shared\logs\a.log`, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	if got := read(t, r, `C:\logs\a.log`); got != "hello" {
		t.Errorf("subPath of emptyDir: %q", got)
	}
	if got := read(t, r, `C:\app\text.txt`); got != "Lorem ipsum dolor sit amet" {
		t.Errorf("subPath file: %q", got)
	}
	if err := p.FS("expr").WriteFile(`C:\mine\f`, []byte("e")); err != nil {
		t.Fatal(err)
	}
	if got := read(t, w, `C:\shared\p\f`); got != "e" {
		t.Errorf("subPathExpr: %q", got)
	}
	// Refresh: the plain mount follows, the subPath mount does not.
	src.setCM("ns", "sample-config-map", map[string]string{"text": "new"})
	if err := p.Refresh(context.Background(), winPod(vols, writer, reader, expr, bad, abs, missing)); err != nil {
		t.Fatal(err)
	}
	if got := read(t, r, `C:\cfg\text`); got != "new" {
		t.Errorf("refreshed mount: %q", got)
	}
	if got := read(t, r, `C:\app\text.txt`); got != "Lorem ipsum dolor sit amet" {
		t.Errorf("subPath mount must not update: %q", got)
	}
	if _, err := r.ReadFile(`C:\cfg\validation-script`); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("removed key still there: %v", err)
	}
	errTests := []struct{ ctr, reason, text string }{
		{"bad", ReasonCreateContainerConfigError, "unable to provision SubPath `..\\..\\Windows`: must not contain '..'"},
		{"abs", ReasonCreateContainerConfigError, "error SubPath `\\Windows` must not be an absolute path"},
		{"missing", ReasonCreateContainerConfigError, `cannot find volume "nope" to mount into container "missing"`},
	}
	for _, tt := range errTests {
		t.Run(tt.ctr, func(t *testing.T) {
			var ce *ContainerError
			if err := p.ContainerError(tt.ctr); !errors.As(err, &ce) || ce.Reason != tt.reason || err.Error() != tt.text {
				t.Errorf("ContainerError = %v (%+v)", err, ce)
			}
		})
	}
	if err := p.ContainerError("reader"); err != nil {
		t.Errorf("reader: %v", err)
	}
}

func TestDownwardAPIAndProjected(t *testing.T) {
	node := NewNode("windows")
	node.SetAllocatable(corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("4Gi"), corev1.ResourceCPU: resource.MustParse("2")})
	vols := []corev1.Volume{
		{Name: "dapi", VolumeSource: corev1.VolumeSource{DownwardAPI: &corev1.DownwardAPIVolumeSource{Items: []corev1.DownwardAPIVolumeFile{
			{Path: "podname", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}},
			{Path: "labels", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.labels"}},
			{Path: "annotations", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.annotations"}},
			{Path: "app", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.labels['app']"}},
			{Path: "uid", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.uid"}},
			{Path: "mem_limit", ResourceFieldRef: &corev1.ResourceFieldSelector{ContainerName: "c", Resource: "limits.memory", Divisor: resource.MustParse("1Mi")}},
			{Path: "cpu_limit", ResourceFieldRef: &corev1.ResourceFieldSelector{ContainerName: "c", Resource: "limits.cpu", Divisor: resource.MustParse("1m")}},
			{Path: "cpu_request", ResourceFieldRef: &corev1.ResourceFieldSelector{ContainerName: "c", Resource: "requests.cpu"}},
		}}}},
		{Name: "kube-api-access-abcde", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
			DefaultMode: ptr(int32(0o644)),
			Sources: []corev1.VolumeProjection{
				{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{ExpirationSeconds: ptr(int64(3607)), Path: "token"}},
				{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
				{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "namespace", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.namespace"}}}}},
			}}}},
	}
	c := ctr("c", corev1.VolumeMount{Name: "dapi", MountPath: `C:\etc\downwardapi`},
		corev1.VolumeMount{Name: "kube-api-access-abcde", MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true})
	c.Resources.Limits = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m")}
	c.Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m")}
	pod := winPod(vols, c)
	src := newSource()
	p := mustPod(t, pod, node, src)
	f := p.FS("c")
	sa := `C:\var\run\secrets\kubernetes.io\serviceaccount\`
	tests := []struct{ path, want string }{
		{`C:\etc\downwardapi\podname`, "p"},
		{`C:\etc\downwardapi\labels`, "app=\"web\"\ntier=\"a\\\"b\""},
		{`C:\etc\downwardapi\annotations`, `note="x"`},
		{`C:\etc\downwardapi\app`, "web"},
		{`C:\etc\downwardapi\uid`, "uid-1"},
		{`C:\etc\downwardapi\mem_limit`, "4096"},
		{`C:\etc\downwardapi\cpu_limit`, "500"},
		{`C:\etc\downwardapi\cpu_request`, "1"},
		{sa + "token", "token-ns-default-uid-1-1"},
		{sa + "ca.crt", "-----BEGIN CERTIFICATE-----\n"},
		{sa + "namespace", "ns"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := read(t, f, tt.path); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	// labels change propagates; the token is reused until 80% of its TTL
	pod2 := pod.DeepCopy()
	pod2.Labels["app"] = "api"
	if err := p.Refresh(context.Background(), pod2); err != nil {
		t.Fatal(err)
	}
	if got := read(t, f, `C:\etc\downwardapi\app`); got != "api" {
		t.Errorf("label refresh: %q", got)
	}
	if got := read(t, f, sa+"token"); got != "token-ns-default-uid-1-1" {
		t.Errorf("token re-requested early: %q", got)
	}
	now := time.Now().Add(time.Hour)
	node.SetClock(func() time.Time { return now })
	if err := p.Refresh(context.Background(), pod2); err != nil {
		t.Fatal(err)
	}
	if got := read(t, f, sa+"token"); got != "token-ns-default-uid-1-2" {
		t.Errorf("token not refreshed: %q", got)
	}
}

func TestHostProcess(t *testing.T) {
	// upstream test/e2e/windows/host_process.go makeTestPodWithVolumeMounts
	vols := []corev1.Volume{
		emptyDir("emptydir-volume"),
		cmVol("configmap-volume", "sample-config-map", corev1.KeyToPath{Key: "text", Path: "text.txt"}, corev1.KeyToPath{Key: "validation-script", Path: "validationscript.ps1"}),
		{Name: "hostpath-volume", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/var/hostpath", Type: ptr(corev1.HostPathDirectoryOrCreate)}}},
		{Name: "secret-volume", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "sample-secret", Items: []corev1.KeyToPath{{Key: "foo", Path: "foo.txt"}}}}},
	}
	c := corev1.Container{Name: "hpc", Image: "registry.k8s.io/e2e-test-images/busybox:1.36.1-1", VolumeMounts: []corev1.VolumeMount{
		{Name: "emptydir-volume", MountPath: "/etc/emptydir"},
		{Name: "configmap-volume", MountPath: "/etc/configmap"},
		{Name: "hostpath-volume", MountPath: "/etc/hostpath"},
		{Name: "secret-volume", MountPath: "/etc/secret"},
	}}
	pod := winPod(vols, c)
	pod.Spec.HostNetwork = true
	pod.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{HostProcess: ptr(true)}}
	pod.Status.PodIP = "10.0.0.5"

	tests := []struct {
		name     string
		layout   HostProcessLayout
		sandbox  string
		absolute bool
	}{
		{"bind filter", LayoutBindFilter, `C:\hpc\`, true},
		{"no bind filter", LayoutNoBindFilter, `C:\hpc\0123abcd\`, false},
		{"containerd 1.6", LayoutLegacy, `C:\C\0123abcd\`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			node := NewNode("windows")
			node.SetHostProcessLayout(tt.layout)
			p := mustPod(t, pod, node, newSource())
			p.SetContainerID("hpc", "containerd://0123abcd")
			if got := p.SandboxMountPoint("hpc"); got != tt.sandbox {
				t.Fatalf("SandboxMountPoint = %q, want %q", got, tt.sandbox)
			}
			f := p.FS("hpc")
			mp := tt.sandbox // as $env:CONTAINER_SANDBOX_MOUNT_POINT\etc\... expands
			if got := read(t, f, mp+`\etc\configmap\text.txt`); got != "Lorem ipsum dolor sit amet" {
				t.Errorf("configmap: %q", got)
			}
			if got := read(t, f, mp+`\etc\secret\foo.txt`); got != "bar" {
				t.Errorf("secret: %q", got)
			}
			if _, err := f.ReadDir(mp + `\etc\emptydir`); err != nil {
				t.Errorf("emptydir: %v", err)
			}
			if _, err := f.ReadFile(mp + `bin\uname.exe`); err != nil {
				t.Errorf("image file: %v", err)
			}
			_, err := f.ReadFile(`C:\etc\configmap\text.txt`)
			if tt.absolute != (err == nil) {
				t.Errorf("absolute mount path: %v (layout %v)", err, tt.layout)
			}
			// the host is C:\, and writes reach the node
			if _, err := f.ReadFile(`C:\k\kubelet.exe`); err != nil {
				t.Errorf("host file: %v", err)
			}
			if err := f.WriteFile(mp+`\etc\hostpath\x`, []byte("h")); err != nil {
				t.Fatal(err)
			}
			if got, err := node.ReadFile(`C:\var\hostpath\x`); err != nil || string(got) != "h" {
				t.Errorf("hostPath on node: %q %v", got, err)
			}
			// no managed hosts file: the host's own
			if got := read(t, f, `C:\Windows\System32\drivers\etc\hosts`); !strings.HasPrefix(got, "# Copyright") {
				t.Errorf("hosts: %q", got)
			}
			// node pipes are reachable directly
			if _, err := f.ReadFile(`\\.\pipe\containerd-containerd`); !errors.Is(err, ErrPipeBusy) {
				t.Errorf("pipe: %v", err)
			}
		})
	}
}

func TestNamedPipesAndHostPathTypes(t *testing.T) {
	node := NewNode("windows")
	node.AddNamedPipe(`\\.\pipe\docker_engine`)
	vols := []corev1.Volume{
		{Name: "docker", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: `\\.\pipe\docker_engine`}}},
		{Name: "ctrd", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: `\\.\pipe\containerd-containerd`}}},
		{Name: "gone", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: `\\.\pipe\nothing`}}},
		{Name: "file", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: `C:\etc\kubernetes\config.json`, Type: ptr(corev1.HostPathFileOrCreate)}}},
	}
	c := ctr("c",
		corev1.VolumeMount{Name: "docker", MountPath: `\\.\pipe\docker_engine`},
		corev1.VolumeMount{Name: "ctrd", MountPath: `\\.\pipe\containerd-containerd`},
		corev1.VolumeMount{Name: "gone", MountPath: `\\.\pipe\nothing`},
		corev1.VolumeMount{Name: "file", MountPath: `C:\config.json`})
	p := mustPod(t, winPod(vols, c), node, newSource())
	f := p.FS("c")
	tests := []struct {
		path string
		want error
	}{
		{`\\.\pipe\docker_engine`, ErrPipeBusy},
		{`//./pipe/containerd-containerd`, ErrPipeBusy},
		{`\\.\PIPE\Docker_Engine`, ErrPipeBusy},
		{`\\.\pipe\nothing`, fs.ErrNotExist},
		{`\\.\pipe\not-mounted`, fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if _, err := f.ReadFile(tt.path); !errors.Is(err, tt.want) {
				t.Errorf("ReadFile = %v, want %v", err, tt.want)
			}
		})
	}
	// FileOrCreate made an empty file on the node; it is a file mount
	if err := f.WriteFile(`C:\config.json`, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if got, _ := node.ReadFile(`C:\etc\kubernetes\config.json`); string(got) != "{}" {
		t.Errorf("node file %q", got)
	}
	// HostProcess containers cannot mount pipes (hcsshim)
	hp := winPod(vols[:1], ctr("h", corev1.VolumeMount{Name: "docker", MountPath: `\\.\pipe\docker_engine`}))
	hp.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{HostProcess: ptr(true)}}
	hp.Spec.HostNetwork = true
	ph := mustPod(t, hp, node, newSource())
	var ce *ContainerError
	if err := ph.ContainerError("h"); !errors.As(err, &ce) || ce.Reason != ReasonStartError || !errors.Is(err, ErrHostProcessNamedPipeMount) {
		t.Errorf("hostprocess pipe mount: %v", err)
	}
	// Linux socket type
	ln := NewNode("linux")
	sock := corev1.Volume{Name: "s", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/run/containerd/containerd.sock", Type: ptr(corev1.HostPathSocket)}}}
	mustPod(t, winPod([]corev1.Volume{sock}, ctr("c")), ln, newSource())
	sock.HostPath.Path = "/etc/hosts"
	_, err := NewPod(context.Background(), winPod([]corev1.Volume{sock}, ctr("c")), ln, newSource())
	if m := MountErrors(err); len(m) != 1 || m[0].Err.Error() != "hostPath type check failed: /etc/hosts is not a socket file" {
		t.Errorf("socket check: %v", err)
	}
}

func TestWindowsNotes(t *testing.T) {
	mem := emptyDir("cache")
	mem.EmptyDir.Medium = corev1.StorageMediumMemory
	c := ctr("c", corev1.VolumeMount{Name: "cache", MountPath: `C:\cache`, MountPropagation: ptr(corev1.MountPropagationHostToContainer)})
	c.VolumeDevices = []corev1.VolumeDevice{{Name: "cache", DevicePath: `\\.\PhysicalDrive1`}}
	p := mustPod(t, winPod([]corev1.Volume{mem}, c), NewNode("windows"), newSource())
	if err := p.FS("c").WriteFile(`C:\cache\x`, []byte("on disk")); err != nil {
		t.Fatalf("Memory emptyDir must work: %v", err)
	}
	var msgs []string
	for _, n := range p.Notes() {
		msgs = append(msgs, n.Row+": "+n.Message)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{`B11: emptyDir medium "Memory" ignored`, "B11: mountPropagation HostToContainer forced to private"} {
		if !strings.Contains(all, want) {
			t.Errorf("notes %q lack %q", all, want)
		}
	}
	var ce *ContainerError
	if err := p.ContainerError("c"); !errors.As(err, &ce) || !errors.Is(err, ErrVolumeDevicesUnsupported) {
		t.Errorf("volumeDevices: %v", err)
	}
}

func TestManagedHostsFile(t *testing.T) {
	tests := []struct {
		name, os, path string
		ips            []string
		want           string // "" = no managed file
	}{
		{"windows with IP", "windows", `C:\Windows\System32\drivers\etc\hosts`, []string{"10.244.1.5"}, "# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n10.244.1.5\tp\n"},
		{"windows before IP", "windows", `C:\Windows\System32\drivers\etc\hosts`, nil, ""},
		{"linux with IP", "linux", "/etc/hosts", []string{"10.244.0.9"}, "# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n10.244.0.9\tp\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustPod(t, winPod(nil, ctr("c")), NewNode(facts.OS(tt.os)), newSource())
			p.SetPodIPs(tt.ips)
			b, err := p.FS("c").ReadFile(tt.path)
			if tt.want == "" {
				if strings.HasPrefix(string(b), "# Kubernetes") {
					t.Errorf("managed hosts without IP: %q %v", b, err)
				}
				return
			}
			if string(b) != tt.want {
				t.Errorf("hosts = %q", b)
			}
		})
	}
}

func TestPVCSharedOnNode(t *testing.T) {
	node := NewNode("windows")
	vol := corev1.Volume{Name: "data", VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: "claim"}}}
	a := mustPod(t, winPod([]corev1.Volume{vol}, ctr("c", corev1.VolumeMount{Name: "data", MountPath: `D:\`})), node, newSource())
	b := mustPod(t, winPod([]corev1.Volume{vol}, ctr("c", corev1.VolumeMount{Name: "data", MountPath: `C:\data`})), node, newSource())
	if err := a.FS("c").WriteFile(`D:\f`, []byte("1")); err != nil {
		t.Fatal(err)
	}
	if got := read(t, b.FS("c"), `C:\data\f`); got != "1" {
		t.Errorf("%q", got)
	}
}

func TestConcurrentUse(t *testing.T) {
	src := newSource()
	node := NewNode("windows")
	vols := []corev1.Volume{emptyDir("v"), cmVol("cfg", "sample-config-map"),
		{Name: "h", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: `C:\shared`}}}}
	pod := winPod(vols,
		ctr("a", corev1.VolumeMount{Name: "v", MountPath: `C:\v`}, corev1.VolumeMount{Name: "cfg", MountPath: `C:\cfg`}, corev1.VolumeMount{Name: "h", MountPath: `C:\h`}),
		ctr("b", corev1.VolumeMount{Name: "v", MountPath: `C:\v`}, corev1.VolumeMount{Name: "cfg", MountPath: `C:\cfg`}, corev1.VolumeMount{Name: "h", MountPath: `C:\h`}))
	p := mustPod(t, pod, node, src)
	var wg sync.WaitGroup
	for i, name := range []string{"a", "b", "a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				f := p.FS(name)
				_ = f.WriteFile(`C:\v\f`, []byte{byte(i)})
				_ = f.WriteFile(`C:\h\f`, []byte{byte(j)})
				_, _ = f.ReadFile(`C:\cfg\text`)
				_, _ = f.ReadDir(`C:\`)
				if j%50 == 0 {
					_ = p.Refresh(context.Background(), pod)
					p.SetContainerID(name, "id"+string(rune('0'+j%10)))
				}
			}
		}()
	}
	wg.Wait()
}

// Row E: the agnhost image has /localhost.crt and /localhost.key at its
// root (C:\ on Windows; Dockerfile(_windows) ADD porter/localhost.*),
// which the StatefulSet specs' readiness probes fetch from test-webserver;
// other images have none.
func TestAgnhostImageFiles(t *testing.T) {
	for _, tt := range []struct {
		os, image, path string
		want            bool
	}{
		{"windows", "registry.k8s.io/e2e-test-images/agnhost:2.59", `C:\localhost.crt`, true},
		{"windows", "registry.k8s.io/e2e-test-images/agnhost:2.55", `/localhost.key`, true},
		{"linux", "registry.k8s.io/e2e-test-images/agnhost:2.59", "/localhost.crt", true},
		{"windows", "mcr.microsoft.com/windows/servercore:ltsc2022", `C:\localhost.crt`, false},
		{"linux", "registry.k8s.io/e2e-test-images/busybox:1.37.0-1", "/localhost.crt", false},
	} {
		t.Run(tt.os+" "+tt.image+" "+tt.path, func(t *testing.T) {
			c := ctr("c")
			c.Image = tt.image
			pod := winPod(nil, c)
			if tt.os == "linux" {
				pod.Spec.NodeName = "linux-1"
			}
			data, err := mustPod(t, pod, NewNode(facts.OS(tt.os)), newSource()).FS("c").ReadFile(tt.path)
			if tt.want && (err != nil || !strings.Contains(string(data), "-----BEGIN")) {
				t.Fatalf("ReadFile: %v %.20q", err, data)
			}
			if !tt.want && !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("ReadFile: %v, want not exist", err)
			}
		})
	}
}
