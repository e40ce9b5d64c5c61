package pods

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"wink.dev/wink/simnode/images"
)

// TestOpenWorld: how a container's process is formed (containerd: command
// replaces ENTRYPOINT, args replace CMD; args alone go to the image's
// ENTRYPOINT) and what happens to programs wink does not simulate: they
// run until stopped, Running and Ready by their probes on the ports they
// declare, with empty logs, except where wink knows they are absent (a
// base image's known files: StartError, as before). Row E and B13 (probes);
// every kubelet version. The real shell and image catalog, as wire adapts
// them.
func TestOpenWorld(t *testing.T) {
	readiness := func(p corev1.ProbeHandler) *corev1.Probe {
		return &corev1.Probe{ProbeHandler: p, PeriodSeconds: 1}
	}
	tests := []struct {
		name      string
		os        string
		container corev1.Container
		hostProc  bool
		// want: Running and Ready, or the StartError message's prefix.
		startError string
	}{
		{name: "csi registrar args only, unknown image", os: "windows", container: corev1.Container{
			Image:          "registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.10.0",
			Args:           []string{"--v=2", "--csi-address=unix://C:\\csi\\csi.sock", "--kubelet-registration-path=C:\\var\\lib\\kubelet\\plugins\\smb.csi.k8s.io\\csi.sock"},
			Ports:          []corev1.ContainerPort{{Name: "healthz", ContainerPort: 9809}},
			ReadinessProbe: readiness(corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("healthz")}}),
		}},
		{name: "CSI driver args node, probe port only", os: "windows", container: corev1.Container{
			Image:          "registry.k8s.io/sig-storage/smbplugin:v1.15.0",
			Args:           []string{"node", "--v=5", "--endpoint=$(CSI_ENDPOINT)"},
			ReadinessProbe: readiness(corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(29643)}}),
		}},
		{name: "operator flag args, linux", os: "linux", container: corev1.Container{
			Image: "example.com/vendor/operator:2.1", Args: []string{"-supportExtendedDaemonset=false"},
		}},
		{name: "unknown image, neither command nor args", os: "linux", container: corev1.Container{
			Image: "example.com/vendor/operator:2.1",
		}},
		{name: "unknown Windows image, neither command nor args", os: "windows", container: corev1.Container{
			Image:          "ghcr.io/vendor/windows-exporter:0.30.0",
			ReadinessProbe: readiness(corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/health", Port: intstr.FromInt32(9182)}}),
		}},
		{name: "unknown image command not simulated", os: "linux", container: corev1.Container{
			Image: "example.com/vendor/app:1", Command: []string{"/app/server", "--listen=:8080"},
			Ports:          []corev1.ContainerPort{{ContainerPort: 8080}},
			ReadinessProbe: readiness(corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/ready", Port: intstr.FromInt32(8080)}}),
		}},
		{name: "HostProcess powershell -File of a shipped script", os: "windows", hostProc: true, container: corev1.Container{
			Image:   "example.com/sig-windows/kube-proxy:v1.35.4-calico-hostprocess",
			Command: []string{"powershell", "-File", "$env:CONTAINER_SANDBOX_MOUNT_POINT/kube-proxy/start.ps1"},
		}},
		// Known files: the behaviour rows stay.
		{name: "HostProcess foobar.exe of the e2e busybox image", os: "windows", hostProc: true, container: corev1.Container{
			Image: "registry.k8s.io/e2e-test-images/busybox:1.37.0-1", Command: []string{"foobar.exe"},
		}, startError: "failed to create containerd task"},
		{name: "HostProcess in-box program of a base image", os: "windows", hostProc: true, container: corev1.Container{
			Image: "registry.k8s.io/e2e-test-images/busybox:1.37.0-1", Command: []string{"powershell", "-Command", "New-NetFirewallRule -DisplayName x -LocalPort 9182; if ($?) { Start-Sleep 3600 }"},
		}},
		{name: "nanoserver unknown program", os: "windows", container: corev1.Container{
			Image: "mcr.microsoft.com/windows/nanoserver:ltsc2022", Command: []string{"foo.exe"},
		}, startError: "failed to create containerd task"},
		{name: "busybox args-only unknown program", os: "linux", container: corev1.Container{
			Image: "busybox:1.36", Args: []string{"--csi-address=/csi/csi.sock"},
		}, startError: "failed to create containerd task"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixtureWith(t, tt.os, func(c *Config) {
				c.Shell, c.Images = testShell{}, fuzzImages{c: images.Default()}
			})
			pod := simplePod("ow")
			tt.container.Name = "c"
			tt.container.ImagePullPolicy = corev1.PullIfNotPresent
			pod.Spec.Containers[0] = tt.container
			if tt.hostProc {
				pod.Spec.HostNetwork = true
				pod.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{
					HostProcess: ptr.To(true), RunAsUserName: ptr.To(`NT AUTHORITY\SYSTEM`)}}
			}
			f.start(pod)
			f.run(10 * time.Second)
			got := f.get("ow")
			cs := got.Status.ContainerStatuses[0]
			if tt.startError != "" {
				term := cs.State.Terminated
				if cs.LastTerminationState.Terminated != nil {
					term = cs.LastTerminationState.Terminated
				}
				if term == nil || term.Reason != "StartError" || !strings.Contains(term.Message, tt.startError) {
					t.Fatalf("state %+v last %+v, want StartError %q", cs.State, cs.LastTerminationState, tt.startError)
				}
				return
			}
			if cs.State.Running == nil || !cs.Ready || cs.RestartCount != 0 {
				t.Fatalf("state %+v ready %v restarts %d, want Running and Ready (events %v)", cs.State, cs.Ready, cs.RestartCount, f.recorder.Events)
			}
			if lines := f.logLines("ow", "c", 0); len(lines) != 0 {
				t.Errorf("logs %q, want none", lines)
			}
			if un := f.eventsOf("Unhealthy"); len(un) != 0 {
				t.Errorf("Unhealthy events %v", un)
			}
		})
	}
}

// TestOpenWorldRunToCompletion: the process of an init container, or of a
// pod that does not restart (a Job's), of an image wink does not know runs
// to completion as real ones do: a program wink does not simulate ends at
// once with 0 (an install script shipped in a CNI image, a migration tool)
// instead of running until stopped, which would hold the pod in Init or a
// Job unfinished forever. A catalog image's server (pause) in such a pod
// still runs until stopped. Row E (what a container's programs do); every
// kubelet version.
func TestOpenWorldRunToCompletion(t *testing.T) {
	hostProcess := &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{
		HostProcess: ptr.To(true), RunAsUserName: ptr.To(`NT AUTHORITY\SYSTEM`)}}
	tests := []struct {
		name    string
		os      string
		restart corev1.RestartPolicy
		init    []corev1.Container
		main    corev1.Container
		sc      *corev1.PodSecurityContext
		// wantPhase of the pod, and whether the main container runs.
		wantPhase   corev1.PodPhase
		wantRunning bool
	}{
		{name: "a CNI's install script as a HostProcess init container", os: "windows", restart: corev1.RestartPolicyAlways, sc: hostProcess,
			init:      []corev1.Container{{Name: "install", Image: "registry.example/cni/windows-node:v3.28.0", Command: []string{"$env:CONTAINER_SANDBOX_MOUNT_POINT/cni/install.ps1"}}},
			main:      corev1.Container{Image: "registry.example/cni/windows-node:v3.28.0", Command: []string{"$env:CONTAINER_SANDBOX_MOUNT_POINT/cni/node-service.ps1"}},
			wantPhase: corev1.PodRunning, wantRunning: true},
		{name: "an args-only init container of an unknown image", os: "linux", restart: corev1.RestartPolicyAlways,
			init:      []corev1.Container{{Name: "migrate", Image: "example.com/vendor/migrator:1", Args: []string{"--up"}}},
			main:      corev1.Container{Image: "example.com/vendor/app:1"},
			wantPhase: corev1.PodRunning, wantRunning: true},
		{name: "a Job's unknown program", os: "windows", restart: corev1.RestartPolicyNever,
			main:      corev1.Container{Image: "example.com/vendor/tool:2", Command: []string{`C:\tool\tool.exe`, "sync"}},
			wantPhase: corev1.PodSucceeded},
		{name: "a Job's unknown image's own entrypoint", os: "linux", restart: corev1.RestartPolicyOnFailure,
			main:      corev1.Container{Image: "example.com/vendor/tool:2"},
			wantPhase: corev1.PodSucceeded},
		{name: "pause in a pod that never restarts still runs", os: "linux", restart: corev1.RestartPolicyNever,
			main:      corev1.Container{Image: "registry.k8s.io/pause:3.10.1"},
			wantPhase: corev1.PodRunning, wantRunning: true},
		{name: "a known absent program still fails", os: "windows", restart: corev1.RestartPolicyNever,
			main:      corev1.Container{Image: "mcr.microsoft.com/windows/nanoserver:ltsc2022", Command: []string{"foo.exe"}},
			wantPhase: corev1.PodFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixtureWith(t, tt.os, func(c *Config) {
				c.Shell, c.Images = testShell{}, fuzzImages{c: images.Default()}
			})
			pod := simplePod("rc")
			tt.main.Name = "c"
			pod.Spec.Containers[0] = tt.main
			pod.Spec.InitContainers = tt.init
			pod.Spec.RestartPolicy = tt.restart
			if tt.sc != nil {
				pod.Spec.HostNetwork = true
				pod.Spec.SecurityContext = tt.sc
			}
			f.start(pod)
			f.run(10 * time.Second)
			got := f.get("rc")
			if got.Status.Phase != tt.wantPhase {
				t.Fatalf("phase %s, want %s (status %+v)", got.Status.Phase, tt.wantPhase, got.Status)
			}
			for _, s := range got.Status.InitContainerStatuses {
				if term := s.State.Terminated; term == nil || term.ExitCode != 0 {
					t.Errorf("init container %s: %+v, want terminated with 0", s.Name, s.State)
				}
			}
			if running := got.Status.ContainerStatuses[0].State.Running != nil; running != tt.wantRunning {
				t.Errorf("main container running %v, want %v (%+v)", running, tt.wantRunning, got.Status.ContainerStatuses[0].State)
			}
		})
	}
}
