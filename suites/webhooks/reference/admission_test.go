package reference

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	admissionv1 "k8s.io/api/admission/v1"
	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

func testWebhook(t *testing.T) *Webhook {
	t.Helper()
	cat, err := DefaultCatalog()
	if err != nil {
		t.Fatal(err)
	}
	rcs := map[string]*nodev1.RuntimeClass{
		"windows-handler": {ObjectMeta: metav1.ObjectMeta{Name: "windows-handler"}, Handler: "runhcs-wcow-process"},
		"hyperv":          {ObjectMeta: metav1.ObjectMeta{Name: "hyperv"}, Handler: HyperVHandler},
		"windows-sched": {ObjectMeta: metav1.ObjectMeta{Name: "windows-sched"}, Handler: "",
			Scheduling: &nodev1.Scheduling{NodeSelector: map[string]string{OSLabel: "windows"}}},
		"runc": {ObjectMeta: metav1.ObjectMeta{Name: "runc"}, Handler: "runc"},
	}
	return &Webhook{Catalog: cat, RuntimeClasses: func(_ context.Context, name string) (*nodev1.RuntimeClass, error) {
		if rc, ok := rcs[name]; ok {
			return rc, nil
		}
		return nil, errors.New("not found")
	}}
}

func pod(mods ...func(*corev1.Pod)) *corev1.Pod {
	p := &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "mcr.microsoft.com/windows/nanoserver:ltsc2022"}}},
	}
	for _, m := range mods {
		m(p)
	}
	return p
}

func osName(n corev1.OSName) func(*corev1.Pod) {
	return func(p *corev1.Pod) { p.Spec.OS = &corev1.PodOS{Name: n} }
}
func selector(kv ...string) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		p.Spec.NodeSelector = map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			p.Spec.NodeSelector[kv[i]] = kv[i+1]
		}
	}
}
func runtimeClass(n string) func(*corev1.Pod) {
	return func(p *corev1.Pod) { p.Spec.RuntimeClassName = ptr.To(n) }
}
func tolerations(ts ...corev1.Toleration) func(*corev1.Pod) {
	return func(p *corev1.Pod) { p.Spec.Tolerations = ts }
}

func request(t *testing.T, p *corev1.Pod) *admissionv1.AdmissionRequest {
	t.Helper()
	raw, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return &admissionv1.AdmissionRequest{
		UID:       types.UID("uid-1"),
		Kind:      metav1.GroupVersionKind{Version: "v1", Kind: "Pod"},
		Resource:  metav1.GroupVersionResource{Version: "v1", Resource: "pods"},
		Namespace: p.Namespace, Name: p.Name,
		Operation: admissionv1.Create,
		Object:    runtime.RawExtension{Raw: raw},
	}
}

// applyPatch applies a response's JSON patch to p, as the apiserver does.
func applyPatch(t *testing.T, p *corev1.Pod, resp *admissionv1.AdmissionResponse) *corev1.Pod {
	t.Helper()
	raw, _ := json.Marshal(p)
	if len(resp.Patch) == 0 {
		return p
	}
	if resp.PatchType == nil || *resp.PatchType != admissionv1.PatchTypeJSONPatch {
		t.Fatalf("patch type %v, want JSONPatch", resp.PatchType)
	}
	patch, err := jsonpatch.DecodePatch(resp.Patch)
	if err != nil {
		t.Fatalf("patch %s: %v", resp.Patch, err)
	}
	out, err := patch.Apply(raw)
	if err != nil {
		t.Fatalf("applying %s: %v", resp.Patch, err)
	}
	var got corev1.Pod
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	return &got
}

func TestMutate(t *testing.T) {
	wh := testWebhook(t)
	winSel := map[string]string{OSLabel: "windows"}
	tol := []corev1.Toleration{WindowsToleration}
	for _, tc := range []struct {
		name      string
		pod       *corev1.Pod
		patched   bool
		selector  map[string]string
		tolerates []corev1.Toleration
	}{
		{"spec.os windows, nothing else", pod(osName(corev1.Windows)), true, winSel, tol},
		{"nodeSelector os=windows only: toleration added", pod(selector(OSLabel, "windows")), true, winSel, tol},
		{"beta os label (seed 001's win-webserver.yaml)", pod(selector(BetaOSLabel, "windows")), true,
			map[string]string{BetaOSLabel: "windows", OSLabel: "windows"}, tol},
		{"windows-build selector only", pod(selector(BuildLabel, "10.0.17763"), func(p *corev1.Pod) { p.Spec.Containers[0].Image = "mcr.microsoft.com/windows/nanoserver:ltsc2019" }), true,
			map[string]string{BuildLabel: "10.0.17763", OSLabel: "windows"}, tol},
		{"RuntimeClass with a Windows handler", pod(runtimeClass("windows-handler")), true, winSel, tol},
		{"RuntimeClass with a Windows nodeSelector", pod(runtimeClass("windows-sched")), true, winSel, tol},
		{"existing tolerations kept, ours appended",
			pod(osName(corev1.Windows), tolerations(corev1.Toleration{Key: "team", Operator: corev1.TolerationOpExists})), true, winSel,
			[]corev1.Toleration{{Key: "team", Operator: corev1.TolerationOpExists}, WindowsToleration}},
		{"already has both: no patch", pod(osName(corev1.Windows), selector(OSLabel, "windows"), tolerations(WindowsToleration)), false, winSel, tol},
		{"an Exists toleration of key os is enough", pod(osName(corev1.Windows), selector(OSLabel, "windows"),
			tolerations(corev1.Toleration{Key: "os", Operator: corev1.TolerationOpExists})), false, winSel,
			[]corev1.Toleration{{Key: "os", Operator: corev1.TolerationOpExists}}},
		{"Linux pod by spec.os: untouched", pod(osName(corev1.Linux)), false, nil, nil},
		{"Linux pod by nodeSelector: untouched", pod(selector(OSLabel, "linux")), false, map[string]string{OSLabel: "linux"}, nil},
		{"pod saying nothing: untouched", pod(), false, nil, nil},
		{"Linux RuntimeClass: untouched", pod(runtimeClass("runc")), false, nil, nil},
		{"unknown RuntimeClass: untouched", pod(runtimeClass("nope")), false, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := wh.Mutate(context.Background(), request(t, tc.pod))
			if !resp.Allowed || resp.UID != "uid-1" {
				t.Fatalf("response %+v, want allowed with the request's UID", resp)
			}
			if got := len(resp.Patch) > 0; got != tc.patched {
				t.Fatalf("patched %v (%s), want %v", got, resp.Patch, tc.patched)
			}
			got := applyPatch(t, tc.pod, resp)
			if !reflect.DeepEqual(got.Spec.NodeSelector, tc.selector) {
				t.Errorf("nodeSelector %v, want %v", got.Spec.NodeSelector, tc.selector)
			}
			if !reflect.DeepEqual(got.Spec.Tolerations, tc.tolerates) {
				t.Errorf("tolerations %v, want %v", got.Spec.Tolerations, tc.tolerates)
			}
			// Reinvocation (reinvocationPolicy IfNeeded) changes nothing more.
			again := wh.Mutate(context.Background(), request(t, got))
			if len(again.Patch) != 0 {
				t.Errorf("second invocation patched again: %s", again.Patch)
			}
		})
	}
}

func TestMutateIgnoresOtherRequests(t *testing.T) {
	wh := testWebhook(t)
	for name, mod := range map[string]func(*admissionv1.AdmissionRequest){
		"UPDATE":      func(r *admissionv1.AdmissionRequest) { r.Operation = admissionv1.Update },
		"subresource": func(r *admissionv1.AdmissionRequest) { r.SubResource = "ephemeralcontainers" },
		"Deployment": func(r *admissionv1.AdmissionRequest) {
			r.Kind = metav1.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
		},
	} {
		req := request(t, pod(osName(corev1.Windows)))
		mod(req)
		for _, resp := range []*admissionv1.AdmissionResponse{wh.Mutate(context.Background(), req), wh.Validate(context.Background(), req)} {
			if !resp.Allowed || len(resp.Patch) > 0 {
				t.Errorf("%s: %+v, want allowed without a patch", name, resp)
			}
		}
	}
}

func TestValidate(t *testing.T) {
	wh := testWebhook(t)
	win := osName(corev1.Windows)
	hugepages := func(p *corev1.Pod) {
		p.Spec.Containers[0].Resources = corev1.ResourceRequirements{Limits: corev1.ResourceList{
			"hugepages-2Mi": resource.MustParse("2Mi"), corev1.ResourceMemory: resource.MustParse("64Mi")}}
	}
	memoryEmptyDir := func(p *corev1.Pod) {
		p.Spec.Volumes = []corev1.Volume{{Name: "tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{Medium: corev1.StorageMediumMemory}}}}
	}
	propagation := func(mode corev1.MountPropagationMode) func(*corev1.Pod) {
		return func(p *corev1.Pod) {
			p.Spec.Volumes = []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
			p.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{{Name: "data", MountPath: `C:\data`, MountPropagation: ptr.To(mode)}}
		}
	}
	image := func(i string) func(*corev1.Pod) { return func(p *corev1.Pod) { p.Spec.Containers[0].Image = i } }
	hostNet := func(p *corev1.Pod) { p.Spec.HostNetwork = true }
	hostProc := func(p *corev1.Pod) {
		p.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{HostProcess: ptr.To(true), RunAsUserName: ptr.To(`NT AUTHORITY\SYSTEM`)}}
	}
	for _, tc := range []struct {
		name string
		pod  *corev1.Pod
		want []string // substrings of the message; nil: allowed
	}{
		{"plain Windows pod", pod(win), nil},
		{"emptyDir Memory", pod(win, memoryEmptyDir), []string{"spec.volumes[0].emptyDir.medium: Memory is not supported on Windows nodes", "(B11)"}},
		{"emptyDir Memory on a Linux pod is fine", pod(osName(corev1.Linux), memoryEmptyDir), nil},
		{"hugepages", pod(win, hugepages), []string{"spec.containers[0].resources.limits[hugepages-2Mi]: huge pages are not supported on Windows nodes"}},
		{"volumeDevices", pod(win, func(p *corev1.Pod) {
			p.Spec.Containers[0].VolumeDevices = []corev1.VolumeDevice{{Name: "blk", DevicePath: `\\.\PhysicalDrive1`}}
		}), []string{"spec.containers[0].volumeDevices: raw block devices are not supported on Windows nodes (B11)"}},
		{"mountPropagation HostToContainer", pod(win, propagation(corev1.MountPropagationHostToContainer)),
			[]string{"spec.containers[0].volumeMounts[0].mountPropagation: HostToContainer is not supported on Windows nodes, only None (B11)"}},
		{"mountPropagation None", pod(win, propagation(corev1.MountPropagationNone)), nil},
		{"hostNetwork", pod(win, hostNet), []string{"spec.hostNetwork: host networking is available on Windows only to HostProcess pods (H7)"}},
		{"hostNetwork with HostProcess", pod(win, hostNet, hostProc), nil},
		{"hostNetwork on a Linux pod", pod(osName(corev1.Linux), hostNet), nil},
		{"2022 image on a 2019 selector", pod(win, selector(OSLabel, "windows", BuildLabel, "10.0.17763")),
			[]string{"spec.containers[0].image: mcr.microsoft.com/windows/nanoserver:ltsc2022 is built for Windows 10.0.20348, which a node selected by node.kubernetes.io/windows-build=10.0.17763 cannot run in process isolation (B4)"}},
		{"2019 image on a 2019 selector", pod(win, selector(BuildLabel, "10.0.17763"), image("mcr.microsoft.com/windows/servercore:ltsc2019")), nil},
		{"multi-build image on a 2019 selector", pod(win, selector(BuildLabel, "10.0.17763"), image("registry.k8s.io/e2e-test-images/busybox:1.37.0-1")), nil},
		{"2022 image on a 2025 host (process isolation table)", pod(win, selector(BuildLabel, "10.0.26100")), nil},
		{"2019 image on a 2022 host: process", pod(win, selector(BuildLabel, "10.0.20348"), image("mcr.microsoft.com/windows/nanoserver:1809")),
			[]string{"is built for Windows 10.0.17763"}},
		{"2019 image on a 2022 host: Hyper-V", pod(win, selector(BuildLabel, "10.0.20348"), runtimeClass("hyperv"), image("mcr.microsoft.com/windows/nanoserver:1809")), nil},
		{"2022 image on a 2019 host: Hyper-V still refuses newer", pod(win, selector(BuildLabel, "10.0.17763"), runtimeClass("hyperv")),
			[]string{"cannot run in Hyper-V isolation (B4)"}},
		{"image the catalog does not know", pod(win, selector(BuildLabel, "10.0.17763"), image("example.com/app:v1")), nil},
		{"init container checked too", pod(win, selector(BuildLabel, "10.0.17763"), image("mcr.microsoft.com/windows/servercore:ltsc2019"), func(p *corev1.Pod) {
			p.Spec.InitContainers = []corev1.Container{{Name: "init", Image: "mcr.microsoft.com/windows/servercore:ltsc2022"}}
		}), []string{"spec.initContainers[0].image: mcr.microsoft.com/windows/servercore:ltsc2022"}},
		{"several violations in one message", pod(win, memoryEmptyDir, hostNet), []string{"emptyDir.medium", "; spec.hostNetwork"}},
		{"Windows by RuntimeClass alone", pod(runtimeClass("windows-handler"), memoryEmptyDir), []string{"emptyDir.medium"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := wh.Validate(context.Background(), request(t, tc.pod))
			if resp.UID != "uid-1" || len(resp.Patch) > 0 {
				t.Fatalf("response %+v: want the request's UID and no patch", resp)
			}
			if tc.want == nil {
				if !resp.Allowed {
					t.Fatalf("denied: %s", resp.Result.Message)
				}
				return
			}
			if resp.Allowed || resp.Result == nil {
				t.Fatalf("allowed, want denied with %q", tc.want)
			}
			if resp.Result.Code != 403 || !strings.HasPrefix(resp.Result.Message, DenialPrefix) {
				t.Errorf("result %+v, want code 403 and a message starting %q", resp.Result, DenialPrefix)
			}
			for _, w := range tc.want {
				if !strings.Contains(resp.Result.Message, w) {
					t.Errorf("message %q does not contain %q", resp.Result.Message, w)
				}
			}
		})
	}
}
