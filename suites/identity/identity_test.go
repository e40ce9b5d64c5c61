package identity

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

func runAs(user string) *corev1.WindowsSecurityContextOptions {
	return &corev1.WindowsSecurityContextOptions{RunAsUserName: ptr.To(user)}
}

// TestRunAsUserName follows upstream test/e2e/windows/security_context.go.
func TestRunAsUserName(t *testing.T) {
	f := suite.Feature("runAsUserName reaches the container (B9)", "identity", "any", "B9").
		Assess("the default user of nanoserver is ContainerUser", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "default-user")
			// security_context.go:55: `cmd /S /C "echo %username%"` prints ContainerUser.
			pod := suite.WindowsPod("default-user", suite.Build2022, "cmd", "/S", "/C", "echo %username%")
			pod.Spec.RestartPolicy = corev1.RestartPolicyNever
			suite.CreatePod(ctx, t, cs, ns, pod)
			suite.WaitPod(ctx, t, cs, ns, pod.Name, time.Minute, "Succeeded", suite.Succeeded)
			logs := suite.Logs(ctx, t, cs, ns, pod.Name, "main")
			suite.Evidence(t, suite.EvidenceLog, "[B9] kubectl logs default-user (cmd /S /C \"echo %username%\")", logs)
			if !strings.Contains(logs, "ContainerUser") {
				t.Errorf("[B9] logs %q, want ContainerUser", logs)
			}
			return ctx
		}).
		Assess("the container's runAsUserName overrides the pod's", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "override-user")
			// security_context.go:127-136: pod ContainerAdministrator, first
			// container ContainerUser, second inherits the pod's.
			pod := suite.WindowsPod("override", suite.Build2022, "cmd", "/S", "/C", "echo %username%")
			pod.Spec.RestartPolicy = corev1.RestartPolicyNever
			pod.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: runAs("ContainerAdministrator")}
			pod.Spec.Containers[0].SecurityContext = &corev1.SecurityContext{WindowsOptions: runAs("ContainerUser")}
			second := pod.Spec.Containers[0]
			second.Name, second.SecurityContext = "inherits", nil
			pod.Spec.Containers = append(pod.Spec.Containers, second)
			suite.CreatePod(ctx, t, cs, ns, pod)
			suite.WaitPod(ctx, t, cs, ns, pod.Name, time.Minute, "Succeeded", suite.Succeeded)
			for container, want := range map[string]string{"main": "ContainerUser", "inherits": "ContainerAdministrator"} {
				logs := suite.Logs(ctx, t, cs, ns, pod.Name, container)
				suite.Evidence(t, suite.EvidenceLog, fmt.Sprintf("[B9] kubectl logs override -c %s (want %s)", container, want), logs)
				if !strings.Contains(logs, want) {
					t.Errorf("[B9] container %s logs %q, want %s", container, logs, want)
				}
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// TestNonRootPolicy checks row B8: runAsNonRoot with ContainerAdministrator,
// in any letter case, stops the container with the kubelet's event.
func TestNonRootPolicy(t *testing.T) {
	f := suite.Feature("ContainerAdministrator breaks runAsNonRoot (B8)", "identity", "any", "B8").
		Assess("CreateContainerConfigError with the kubelet's event, in any case", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "non-root")
			for name, user := range map[string]string{"admin-mixed": "ContainerAdministrator", "admin-upper": "CONTAINERADMINISTRATOR"} {
				pod := suite.WindowsPod(name, suite.Build2022, "ping", "-t", "localhost")
				pod.Spec.SecurityContext = &corev1.PodSecurityContext{RunAsNonRoot: ptr.To(true), WindowsOptions: runAs(user)}
				suite.CreatePod(ctx, t, cs, ns, pod)
				got := suite.WaitPod(ctx, t, cs, ns, name, time.Minute, "CreateContainerConfigError", suite.Waiting("CreateContainerConfigError"))
				suite.ObjectEvidence(t, fmt.Sprintf("[B8] pod %s (runAsUserName %s, runAsNonRoot): CreateContainerConfigError", name, user), got.Status.ContainerStatuses)
				// security_context_windows.go:66, format.Pod: name_namespace(uid).
				want := fmt.Sprintf("Error: container's runAsUserName (%s) which will be regarded as root identity and will break non-root policy (pod: %q, container: main)",
					user, fmt.Sprintf("%s_%s(%s)", name, ns, got.UID))
				suite.EventEvidence(t, suite.WaitEvent(ctx, t, cs, ns, "Pod", name, "Failed", want, 30*time.Second))
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// TestHostProcess follows upstream test/e2e/windows/host_process.go (row
// B10): a HostProcess pod has the node's IP and name.
func TestHostProcess(t *testing.T) {
	f := suite.Feature("HostProcess containers run on the host (B10)", "identity", "any", "B10").
		Assess("pod IP is the node's, hostname is the node's name", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "hostprocess")
			pod := suite.WindowsPod("hpc", suite.Build2022, "ping", "-t", "localhost")
			pod.Spec.HostNetwork = true
			pod.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{
				HostProcess: ptr.To(true), RunAsUserName: ptr.To(`NT AUTHORITY\SYSTEM`),
			}}
			running := suite.RunPod(ctx, t, cs, ns, pod)
			node, err := cs.CoreV1().Nodes().Get(ctx, running.Spec.NodeName, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			suite.Evidence(t, suite.EvidenceObject, fmt.Sprintf("[B10] pod hpc on %s: podIP %s, hostIP %s", node.Name, running.Status.PodIP, running.Status.HostIP),
				fmt.Sprintf("podIP: %s\npodIPs: %v\nhostIP: %s\nnode %s addresses: %v", running.Status.PodIP, running.Status.PodIPs, running.Status.HostIP, node.Name, node.Status.Addresses))
			if running.Status.PodIP != running.Status.HostIP || running.Status.PodIP == "" {
				t.Errorf("[B10] podIP %q, want the node's IP %q", running.Status.PodIP, running.Status.HostIP)
			}
			argv := []string{"cmd", "/c", "hostname"}
			res := suite.Exec(ctx, t, cfg, ns, pod.Name, "main", argv...)
			suite.ExecEvidence(t, pod.Name, argv, res)
			if got := strings.TrimSpace(res.Stdout); !strings.EqualFold(got, node.Name) || res.ExitCode != 0 {
				t.Errorf("[B10] hostname = %q (exit %d), want the node name %q", got, res.ExitCode, node.Name)
			}
			argv = []string{"powershell", "-Command", "$env:CONTAINER_SANDBOX_MOUNT_POINT"}
			res = suite.Exec(ctx, t, cfg, ns, pod.Name, "main", argv...)
			suite.ExecEvidence(t, pod.Name, argv, res)
			if strings.TrimSpace(res.Stdout) == "" {
				t.Errorf("[B10] $env:CONTAINER_SANDBOX_MOUNT_POINT is empty (stderr %q)", res.Stderr)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
