package lifecycle

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// TestOpenWorld: what wink does not simulate behaves as on a real node
// (issue 9). An args-only container of an image wink has never seen runs
// the image's ENTRYPOINT with those args, as containerd does: Running, and
// Ready by its HTTP probe on its declared port, with empty logs. A
// HostProcess init container changing the firewall with an in-box cmdlet
// (NetSecurity's New-NetFirewallRule) succeeds, and a script shipped in the
// image runs until stopped (rows E, B10, B13).
func TestOpenWorld(t *testing.T) {
	f := suite.Feature("programs wink does not simulate run as on a real node", "lifecycle", "simnode", "E", "B10", "B13").
		Assess("an args-only container of an unknown image is Running and Ready", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "open-world")
			pod := suite.WindowsPod("registrar", suite.Build2022)
			c := &pod.Spec.Containers[0]
			c.Image = "registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.10.0"
			c.Args = []string{"--v=2", "--csi-address=unix://C:\\csi\\csi.sock", "--kubelet-registration-path=C:\\var\\lib\\kubelet\\plugins\\smb.csi.k8s.io\\csi.sock", "--http-endpoint=:9809"}
			c.Ports = []corev1.ContainerPort{{Name: "healthz", ContainerPort: 9809}}
			c.ReadinessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("healthz")}}, PeriodSeconds: 2}
			running := suite.RunPod(ctx, t, cs, ns, pod)
			suite.ObjectEvidence(t, "registrar container status", running.Status.ContainerStatuses)
			if logs := suite.Logs(ctx, t, cs, ns, "registrar", "main"); logs != "" {
				t.Errorf("logs %q, want none", logs)
			}
			return ctx
		}).
		Assess("a HostProcess init container's New-NetFirewallRule succeeds; the image's start.ps1 runs", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "open-world-hpc")
			pod := suite.WindowsPod("exporter", suite.Build2022, "powershell", "-File", "$env:CONTAINER_SANDBOX_MOUNT_POINT/kube-proxy/start.ps1")
			pod.Spec.HostNetwork = true
			pod.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{
				HostProcess: ptr.To(true), RunAsUserName: ptr.To(`NT AUTHORITY\SYSTEM`),
			}}
			pod.Spec.Containers[0].Image = "example.com/sig-windows/kube-proxy:v1.35.4-hostprocess"
			pod.Spec.InitContainers = []corev1.Container{{
				Name: "firewall", Image: "mcr.microsoft.com/windows/nanoserver:ltsc2022",
				Command: []string{"powershell", "-Command", "New-NetFirewallRule -DisplayName 'windows-exporter' -Direction Inbound -LocalPort 9182 -Protocol TCP -Action Allow; if ($?) { exit 0 } else { exit 1 }"},
			}}
			running := suite.RunPod(ctx, t, cs, ns, pod)
			suite.ObjectEvidence(t, "exporter init container status", running.Status.InitContainerStatuses)
			if st := running.Status.InitContainerStatuses; len(st) != 1 || st[0].State.Terminated == nil || st[0].State.Terminated.ExitCode != 0 {
				t.Errorf("[B10] init container status %+v, want terminated with exit code 0", st)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
