package wire

import (
	"context"
	"io/fs"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"wink.dev/wink/simnode/images"
	"wink.dev/wink/simnode/internal/pods"
	"wink.dev/wink/simnode/rules"
)

func windowsNode() *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: "win-0", Labels: map[string]string{
			"kubernetes.io/os": "windows", "node.kubernetes.io/windows-build": "10.0.20348",
		}},
		Spec: corev1.NodeSpec{PodCIDR: "10.244.1.0/24"},
		Status: corev1.NodeStatus{
			Addresses: []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "127.10.0.3"}},
			NodeInfo:  corev1.NodeSystemInfo{OperatingSystem: "windows", KubeletVersion: "v1.35.4", KernelVersion: "10.0.20348.1607"},
		},
	}
}

func pod(name string, policy corev1.RestartPolicy, image string, cmd ...string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
		Spec: corev1.PodSpec{NodeName: "win-0", RestartPolicy: policy, Containers: []corev1.Container{{
			Name: "c", Image: image, ImagePullPolicy: corev1.PullIfNotPresent, Command: cmd,
		}}},
		Status: corev1.PodStatus{Phase: corev1.PodPending},
	}
}

func simulate(t *testing.T, p *corev1.Pod, d time.Duration) *pods.Result {
	t.Helper()
	res, err := pods.Simulate(rules.Default(), windowsNode(), p, pods.SimulateOptions{
		Now: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC), For: d,
		Shell: Shell{}, Images: Images{Catalog: images.Default()},
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// With the real shell and image catalog: a Job's `cmd /c exit 3` fails
// with 3; `cmd /S /C "echo %username%"` succeeds printing ContainerUser;
// a Linux-only image does not pull on Windows (B4).
func TestRealShellAndCatalog(t *testing.T) {
	nano := "mcr.microsoft.com/windows/nanoserver:ltsc2022"
	res := simulate(t, pod("job", corev1.RestartPolicyNever, nano, "cmd", "/c", "exit 3"), 3*time.Second)
	if term := res.Final.ContainerStatuses[0].State.Terminated; res.Final.Phase != corev1.PodFailed || term == nil || term.ExitCode != 3 {
		t.Fatalf("job: %+v", res.Final)
	}
	res = simulate(t, pod("who", corev1.RestartPolicyNever, nano, "cmd", "/S", "/C", "echo %username%"), 3*time.Second)
	if res.Final.Phase != corev1.PodSucceeded || len(res.Logs["c"]) != 1 || res.Logs["c"][0] != "ContainerUser" {
		t.Fatalf("who: %s %q", res.Final.Phase, res.Logs)
	}
	res = simulate(t, pod("nginx", corev1.RestartPolicyAlways, "nginx:1.27", "nginx"), 5*time.Second)
	w := res.Final.ContainerStatuses[0].State.Waiting
	if w == nil || (w.Reason != "ErrImagePull" && w.Reason != "ImagePullBackOff") {
		t.Fatalf("nginx on windows: %+v", res.Final.ContainerStatuses[0])
	}
	found := false
	for _, e := range res.Events {
		found = found || strings.HasPrefix(e.Message, `Failed to pull image "nginx:1.27": `)
	}
	if !found {
		t.Fatalf("events %+v", res.Events)
	}
}

// An image whose ENTRYPOINT is a tool that ends (registry.k8s.io/kubectl,
// /bin/kubectl) run with args only, as a Helm hook Job runs it: the Job
// completes, as on a real Linux node, instead of serving until stopped
// like an image's server program.
func TestToolEntrypointEnds(t *testing.T) {
	node := windowsNode()
	node.Name = "lin-0"
	node.Labels = map[string]string{"kubernetes.io/os": "linux"}
	node.Status.NodeInfo = corev1.NodeSystemInfo{OperatingSystem: "linux", KubeletVersion: "v1.35.4", KernelVersion: "6.8.0-60-generic"}
	p := pod("hook", corev1.RestartPolicyNever, "registry.k8s.io/kubectl:v1.35.4")
	p.Spec.NodeName = "lin-0"
	p.Spec.Containers[0].Args = []string{"create", "configmap", "state", "--from-literal=phase=installing"}
	res, err := pods.Simulate(rules.Default(), node, p, pods.SimulateOptions{
		Now: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC), For: 5 * time.Second,
		Shell: Shell{}, Images: Images{Catalog: images.Default()},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Final.Phase != corev1.PodSucceeded {
		t.Fatalf("a kubectl hook Job's pod: %s, %+v", res.Final.Phase, res.Final.ContainerStatuses)
	}
}

// An exec probe running a program of an image wink does not know (a CSI
// registrar's `csi-node-driver-registrar.exe --mode=kubelet-registration-probe`)
// ends at once with 0, as it does on a real node: the container stays up
// without restarts, while its own main program runs until stopped (open
// world; a probe that never answered timed out and restarted it).
func TestOpenWorldExecProbe(t *testing.T) {
	p := pod("csi", corev1.RestartPolicyAlways, "registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.13.0")
	c := &p.Spec.Containers[0]
	c.Args = []string{"--csi-address=unix://C:\\csi\\csi.sock", "--v=2"}
	c.LivenessProbe = &corev1.Probe{
		ProbeHandler:  corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"/csi-node-driver-registrar.exe", "--mode=kubelet-registration-probe"}}},
		PeriodSeconds: 2, TimeoutSeconds: 1, FailureThreshold: 1,
	}
	res := simulate(t, p, 20*time.Second)
	st := res.Final.ContainerStatuses[0]
	if res.Final.Phase != corev1.PodRunning || st.State.Running == nil || st.RestartCount != 0 {
		t.Fatalf("%s, %+v", res.Final.Phase, st)
	}
	for _, e := range res.Events {
		if e.Reason == "Unhealthy" {
			t.Fatalf("probe failed: %s", e.Message)
		}
	}
}

type gate struct{ allow []bool }

func (g *gate) Write() bool {
	ok := g.allow[0]
	g.allow = g.allow[1:]
	return ok
}

type memFS struct{ files map[string]string }

func (m *memFS) ReadFile(p string) ([]byte, error) {
	if d, ok := m.files[p]; ok {
		return []byte(d), nil
	}
	return nil, fs.ErrNotExist
}
func (m *memFS) WriteFile(p string, d []byte) error    { m.files[p] = string(d); return nil }
func (m *memFS) ReadDir(string) ([]fs.DirEntry, error) { return nil, nil }

// A resumed process's writes that its first run made (the gate refuses
// them) do not reach the file system: `>>` does not append twice (each
// redirection writes when it opens and when echo writes).
func TestWriteGate(t *testing.T) {
	files := &memFS{files: map[string]string{`C:\log.txt`: "a\r\n"}}
	env := &pods.Env{OS: "windows", Files: files, Writes: &gate{allow: []bool{false, false, true, true}}, Vars: map[string]string{}}
	var out strings.Builder
	code := Shell{}.Run(context.Background(), env, []string{"cmd", "/c", `echo a>>C:\log.txt & echo b>>C:\log.txt`}, strings.NewReader(""), &out, &out)
	if code != 0 || files.files[`C:\log.txt`] != "a\r\nb\r\n" {
		t.Fatalf("exit %d, file %q, output %q", code, files.files[`C:\log.txt`], out.String())
	}
}
