package wire

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"wink.dev/wink/simnode/images"
	"wink.dev/wink/simnode/internal/pods"
	"wink.dev/wink/simnode/rules"
)

// endlessStdin is a Shell whose processes read an endless input (what
// `yes |` gives the command after it).
type endlessStdin struct{ Shell }

type endless struct{}

func (endless) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = 'x'
	}
	return len(b), nil
}

func (s endlessStdin) Run(ctx context.Context, env *pods.Env, argv []string, _ io.Reader, stdout, stderr io.Writer) int {
	return s.Shell.Run(ctx, env, argv, endless{}, stdout, stderr)
}

func linuxNode() *corev1.Node {
	node := windowsNode()
	node.Name = "lin-0"
	node.Labels = map[string]string{"kubernetes.io/os": "linux"}
	node.Status.NodeInfo = corev1.NodeSystemInfo{OperatingSystem: "linux", KubeletVersion: "v1.35.4", KernelVersion: "6.8.0-60-generic"}
	node.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4"), corev1.ResourceMemory: resource.MustParse("16Gi")}
	return node
}

// Issue 18, row B5 (Linux side): a container whose process holds more than
// its resources.limits.memory is Terminated with exit code 137 and reason
// OOMKilled, as containerd reports the kernel's OOM kill.
func TestOOMKilledContainer(t *testing.T) {
	p := pod("oom", corev1.RestartPolicyNever, "busybox:1.36", "hexdump", "-C")
	p.Spec.NodeName = "lin-0"
	p.Spec.Containers[0].Resources.Limits = corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("4Mi")}
	res, err := pods.Simulate(rules.Default(), linuxNode(), p, pods.SimulateOptions{
		Now: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC), For: 5 * time.Second,
		Shell: endlessStdin{}, Images: Images{Catalog: images.Default()},
	})
	if err != nil {
		t.Fatal(err)
	}
	term := res.Final.ContainerStatuses[0].State.Terminated
	if res.Final.Phase != corev1.PodFailed || term == nil || term.ExitCode != 137 || term.Reason != "OOMKilled" {
		t.Fatalf("%s, %+v", res.Final.Phase, res.Final.ContainerStatuses[0].State)
	}
}

// Issue 18: a program wink knows may be in an open image but does not
// simulate runs as the open world says (a Job's: ends with 0) and leaves
// one NotSimulated Warning event on the pod naming it, however often it
// runs.
func TestNotSimulatedEvent(t *testing.T) {
	p := pod("tool", corev1.RestartPolicyNever, "example.com/tools/custom:1.0", "cmd", "/c", "frobnicate --all & frobnicate --again & echo done")
	res := simulate(t, p, 5*time.Second)
	if res.Final.Phase != corev1.PodSucceeded {
		t.Fatalf("%s, %+v", res.Final.Phase, res.Final.ContainerStatuses)
	}
	var got []string
	for _, e := range res.Events {
		if e.Reason == pods.NotSimulatedReason {
			got = append(got, e.Type+": "+e.Message)
		}
	}
	want := "Warning: " + pods.NotSimulatedMessage("c", "frobnicate")
	if len(got) != 1 || got[0] != want {
		t.Fatalf("NotSimulated events %q, want [%q]", got, want)
	}
	if !strings.Contains(strings.Join(res.Logs["c"], "\n"), "done") {
		t.Errorf("logs %q", res.Logs["c"])
	}
}

// Issue 18: Nano Server has no PowerShell (inbox.yaml bases[].absent): as
// the container's command, `powershell` is the runtime's StartError; from
// cmd, it is not recognized (9009).
func TestNanoServerHasNoPowerShell(t *testing.T) {
	nano := "mcr.microsoft.com/windows/nanoserver:ltsc2022"
	res := simulate(t, pod("ps", corev1.RestartPolicyNever, nano, "powershell", "-Command", "Write-Output hi"), 3*time.Second)
	term := res.Final.ContainerStatuses[0].State.Terminated
	if term == nil || term.Reason != "StartError" {
		t.Fatalf("powershell as nanoserver's command: %+v", res.Final.ContainerStatuses[0].State)
	}
	res = simulate(t, pod("cmdps", corev1.RestartPolicyNever, nano, "cmd", "/c", "powershell -Command Write-Output hi"), 3*time.Second)
	term = res.Final.ContainerStatuses[0].State.Terminated
	want := []string{"'powershell' is not recognized as an internal or external command,", "operable program or batch file."}
	if term == nil || term.ExitCode != 9009 || strings.Join(res.Logs["c"], "|") != strings.Join(want, "|") {
		t.Fatalf("cmd /c powershell in nanoserver: %+v, logs %q", term, res.Logs["c"])
	}
	res = simulate(t, pod("core", corev1.RestartPolicyNever, "mcr.microsoft.com/windows/servercore:ltsc2022", "powershell", "-Command", "Write-Output hi"), 3*time.Second)
	if res.Final.Phase != corev1.PodSucceeded || strings.Join(res.Logs["c"], "|") != "hi" {
		t.Fatalf("powershell in servercore: %s, logs %q", res.Final.Phase, res.Logs["c"])
	}
}

// The images wink simulates leave no NotSimulated event: pause, agnhost's
// pause, a catalog image's server wink knows (issue 18: the event says
// what wink did not judge, nothing else).
func TestSimulatedImagesLeaveNoTrace(t *testing.T) {
	for _, tc := range []struct {
		image string
		args  []string
	}{
		{"mcr.microsoft.com/oss/kubernetes/pause:3.9", nil},
		{"registry.k8s.io/pause:3.10", nil},
		{"registry.k8s.io/e2e-test-images/agnhost:2.59", []string{"pause"}},
		{"mcr.microsoft.com/windows/nanoserver:ltsc2022", nil},
	} {
		p := pod("p", corev1.RestartPolicyAlways, tc.image)
		p.Spec.Containers[0].Args = tc.args
		res := simulate(t, p, 5*time.Second)
		for _, e := range res.Events {
			if e.Reason == pods.NotSimulatedReason {
				t.Errorf("%s %q: %s", tc.image, tc.args, e.Message)
			}
		}
	}
}
