package webhooks

import (
	"context"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// validationCase is a Windows pod asking for what no Windows node can run
// and the apiserver lets through.
type validationCase struct {
	row    string
	name   string
	mod    func(*corev1.Pod)
	detail string // the reference webhook's message (after its prefix)
}

var validationCases = []validationCase{
	{"B11", "emptydir-memory", func(p *corev1.Pod) {
		p.Spec.Volumes = []corev1.Volume{{Name: "cache", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{Medium: corev1.StorageMediumMemory}}}}
		p.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{{Name: "cache", MountPath: `C:\cache`}}
	}, "spec.volumes[0].emptyDir.medium: Memory is not supported on Windows nodes; the kubelet makes a directory on disk instead (B11)"},
	{"B11", "hugepages", func(p *corev1.Pod) {
		// The apiserver wants huge pages with a memory or cpu request.
		q := corev1.ResourceList{"hugepages-2Mi": resource.MustParse("4Mi"), corev1.ResourceMemory: resource.MustParse("64Mi")}
		p.Spec.Containers[0].Resources = corev1.ResourceRequirements{Limits: q, Requests: q}
	}, "spec.containers[0].resources.limits[hugepages-2Mi]: huge pages are not supported on Windows nodes"},
	{"B11", "volume-devices", func(p *corev1.Pod) {
		p.Spec.Volumes = []corev1.Volume{{Name: "raw", VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: "raw-block"}}}}
		p.Spec.Containers[0].VolumeDevices = []corev1.VolumeDevice{{Name: "raw", DevicePath: `\\.\PhysicalDrive1`}}
	}, "spec.containers[0].volumeDevices: raw block devices are not supported on Windows nodes (B11)"},
	{"B11", "mount-propagation", func(p *corev1.Pod) {
		p.Spec.Volumes = []corev1.Volume{{Name: "host", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: `C:\var\log`}}}}
		p.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{{Name: "host", MountPath: `C:\host-logs`, MountPropagation: ptr.To(corev1.MountPropagationHostToContainer)}}
	}, "spec.containers[0].volumeMounts[0].mountPropagation: HostToContainer is not supported on Windows nodes, only None (B11)"},
	{"H7", "host-network", func(p *corev1.Pod) { p.Spec.HostNetwork = true },
		"spec.hostNetwork: host networking is available on Windows only to HostProcess pods (H7)"},
	{"B4", "image-build", func(p *corev1.Pod) {
		p.Spec.NodeSelector = map[string]string{"kubernetes.io/os": "windows", "node.kubernetes.io/windows-build": suite.Build2019}
		p.Spec.Containers[0].Image = "mcr.microsoft.com/windows/nanoserver:ltsc2022"
	}, "spec.containers[0].image: mcr.microsoft.com/windows/nanoserver:ltsc2022 is built for Windows 10.0.20348, which a node selected by node.kubernetes.io/windows-build=10.0.17763 cannot run in process isolation (B4)"},
}

func TestValidation(t *testing.T) {
	f := suite.Feature("the validating webhook refuses Windows pods no Windows node can run", area, "any", "B11", "H7", "B4").
		Assess("each case is refused with the webhook's message", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "wh-validate")
			for _, tc := range validationCases {
				pod := windowsOnlyOS(tc.name)
				tc.mod(pod)
				// What the user sees, e.g. kubectl's `Error from server:
				// error when creating "pod.yaml": admission webhook "..."
				// denied the request: ...`.
				if target.reference {
					want := fmt.Sprintf(`admission webhook %q denied the request: no Windows node can run this pod: %s`, target.validatingNames()[0], tc.detail)
					expectDenied(ctx, t, cs, ns, pod, tc.row, want)
				} else {
					msg := expectDenied(ctx, t, cs, ns, pod, tc.row, "admission webhook ", "denied the request")
					named := false
					for _, n := range target.validatingNames() {
						named = named || msg != "" && contains(msg, fmt.Sprintf("admission webhook %q", n))
					}
					if msg != "" && !named {
						suite.Fail(t, tc.row, "webhook named in the denial", msg, target.validatingNames())
					}
				}
			}
			return ctx
		}).
		Assess("what Windows nodes can run, and Linux pods, are admitted", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "wh-validate-ok")
			dry := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}
			ok := []*corev1.Pod{windowsOnlyOS("plain")}
			right := windowsOnlyOS("right-build")
			right.Spec.NodeSelector = map[string]string{"kubernetes.io/os": "windows", "node.kubernetes.io/windows-build": suite.Build2019}
			right.Spec.Containers[0].Image = "mcr.microsoft.com/windows/nanoserver:ltsc2019"
			ok = append(ok, right)
			for _, tc := range validationCases {
				if tc.row == "B4" {
					continue // a Linux pod has no windows-build selector to contradict
				}
				p := suite.LinuxPod("linux-"+tc.name, "sleep", "3600")
				tc.mod(p)
				ok = append(ok, p)
			}
			for _, p := range ok {
				if _, err := cs.CoreV1().Pods(ns).Create(ctx, p, dry); err != nil {
					suite.Fail(t, "S2", fmt.Sprintf("dry-run creation of %s", p.Name), err, "admitted")
				}
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
