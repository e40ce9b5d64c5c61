package storage

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// TestHostPathKubeletLayout: a CSI node plugin's hostPath volumes of the
// kubelet's own directories (plugins_registry, plugins, pods with `type:
// Directory`) and containerd's endpoint mount on every node, as on a real
// node; what one pod writes into a host path another pod's hostPath sees;
// a path that is not there fails the kubelet's type check with its message
// (B10, B12).
func TestHostPathKubeletLayout(t *testing.T) {
	dir := corev1.HostPathDirectory
	orCreate := corev1.HostPathDirectoryOrCreate
	socket := corev1.HostPathSocket
	hp := func(name, path string, typ *corev1.HostPathType) corev1.Volume {
		return corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: path, Type: typ}}}
	}
	f := suite.Feature("hostPath volumes find the kubelet's host layout", "storage", "simnode", "B10", "B12").
		Assess("Windows: plugins_registry and plugins as Directory, the containerd pipe; writes are shared on the node", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "hostpath-win")
			writer := suite.WindowsPod("registrar", suite.Build2022, "cmd", "/c", `echo registered> C:\registration\smb.csi.k8s.io-reg.sock && ping -t localhost`)
			writer.Spec.Volumes = []corev1.Volume{
				hp("registration-dir", `C:\var\lib\kubelet\plugins_registry`, &dir),
				hp("plugin-dir", `C:\var\lib\kubelet\plugins\smb.csi.k8s.io`, &orCreate),
				hp("pods-mount-dir", `C:\var\lib\kubelet`, &dir),
				hp("containerd", `\\.\pipe\containerd-containerd`, nil),
			}
			writer.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{
				{Name: "registration-dir", MountPath: `C:\registration`},
				{Name: "plugin-dir", MountPath: `C:\csi`},
				{Name: "pods-mount-dir", MountPath: `C:\var\lib\kubelet`},
				{Name: "containerd", MountPath: `\\.\pipe\containerd-containerd`},
			}
			node := suite.RunPod(ctx, t, cs, ns, writer).Spec.NodeName
			reader := suite.WindowsPod("reader", suite.Build2022, "ping", "-t", "localhost")
			reader.Spec.NodeSelector[corev1.LabelHostname] = node // the same node's disk
			reader.Spec.Volumes = []corev1.Volume{hp("kubelet", `C:\var\lib\kubelet`, &dir)}
			reader.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{{Name: "kubelet", MountPath: `C:\kubelet`}}
			suite.RunPod(ctx, t, cs, ns, reader)
			argv := []string{"cmd", "/c", `type C:\kubelet\plugins_registry\smb.csi.k8s.io-reg.sock`}
			var res suite.ExecResult
			for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Second) {
				if res = suite.Exec(ctx, t, cfg, ns, "reader", "main", argv...); strings.TrimSpace(res.Stdout) == "registered" {
					break
				}
			}
			suite.ExecEvidence(t, "reader", argv, res)
			if strings.TrimSpace(res.Stdout) != "registered" {
				t.Errorf("[B12] the other pod's hostPath reads %q (exit %d, %q), want what the first pod wrote", res.Stdout, res.ExitCode, res.Stderr)
			}
			return ctx
		}).
		Assess("Linux: containerd's socket, the pod log directories, proc and sys", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "hostpath-linux")
			pod := suite.LinuxPod("agent", "sleep", "3600")
			pod.Spec.Volumes = []corev1.Volume{
				hp("containerd", "/run/containerd/containerd.sock", &socket),
				hp("pod-logs", "/var/log/pods", &dir),
				hp("container-logs", "/var/log/containers", &dir),
				hp("registration", "/var/lib/kubelet/plugins_registry", &dir),
				hp("proc", "/proc", nil), hp("sys", "/sys", &dir),
			}
			for _, v := range pod.Spec.Volumes {
				pod.Spec.Containers[0].VolumeMounts = append(pod.Spec.Containers[0].VolumeMounts, corev1.VolumeMount{Name: v.Name, MountPath: "/host/" + v.Name, ReadOnly: true})
			}
			suite.RunPod(ctx, t, cs, ns, pod)
			return ctx
		}).
		Assess("a missing path fails the kubelet's type check", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "hostpath-missing")
			pod := suite.WindowsPod("missing", suite.Build2022, "ping", "-t", "localhost")
			pod.Spec.Volumes = []corev1.Volume{hp("nothing", `C:\var\lib\kubelet\no-such-dir`, &dir)}
			pod.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{{Name: "nothing", MountPath: `C:\nothing`}}
			suite.CreatePod(ctx, t, cs, ns, pod)
			ev := suite.WaitEvent(ctx, t, cs, ns, "Pod", "missing", "FailedMount", `hostPath type check failed: C:\var\lib\kubelet\no-such-dir is not a directory`, time.Minute)
			suite.EventEvidence(t, ev)
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
