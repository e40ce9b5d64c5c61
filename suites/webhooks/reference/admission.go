package reference

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	admissionv1 "k8s.io/api/admission/v1"
	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"wink.dev/wink/simnode/facts"
)

// Labels and the taint of the docs' recommended practice (seeds 001, 002;
// rows N4, S1, S2, S3).
const (
	OSLabel       = facts.LabelOS
	BetaOSLabel   = facts.LabelBetaOS
	BuildLabel    = corev1.LabelWindowsBuild
	TaintKey      = facts.WindowsTaintKey
	TaintValue    = facts.WindowsTaintValue
	HyperVHandler = "runhcs-wcow-hypervisor"
)

// WindowsToleration is the toleration the mutating webhook adds.
var WindowsToleration = facts.WindowsToleration()

var windowsTaint = facts.WindowsTaint()

// RuntimeClassGetter looks a RuntimeClass up by name (nil: RuntimeClasses
// are not looked up, see Webhook).
type RuntimeClassGetter func(ctx context.Context, name string) (*nodev1.RuntimeClass, error)

// Webhook is the reference webhook's logic, without HTTP: Mutate and
// Validate take an AdmissionRequest for a pod and answer it. It handles pods
// only (kind Pod, CREATE); any other request is allowed untouched.
// Workload controllers (Deployments, DaemonSets, ...) are covered through the
// pods they create.
type Webhook struct {
	// Catalog decides the image-build check (row B4); nil skips it.
	Catalog *Catalog
	// RuntimeClasses, when set, lets a pod select Windows by
	// runtimeClassName alone (a RuntimeClass whose handler is runhcs-wcow-*
	// or whose scheduling.nodeSelector says kubernetes.io/os=windows), and
	// tells Hyper-V isolation apart for B4. Note that the RuntimeClass
	// admission plugin runs before webhooks and has already merged the
	// RuntimeClass's scheduling into the pod, so a RuntimeClass with a
	// nodeSelector is seen without a lookup.
	RuntimeClasses RuntimeClassGetter
	// GMSA, when set, is served too: the GMSA webhook of row A20.
	GMSA *GMSA
}

// WindowsReason says why a pod is a Windows pod ("" if it is not): the
// pod's spec.os.name, its nodeSelector (kubernetes.io/os,
// beta.kubernetes.io/os or node.kubernetes.io/windows-build) or its
// RuntimeClass. A pod that says Linux (spec.os.name or nodeSelector) is never
// a Windows pod, whatever else it says.
func (w *Webhook) WindowsReason(ctx context.Context, pod *corev1.Pod) string {
	ns := pod.Spec.NodeSelector
	specOS, labelOS, betaOS := facts.SpecOS(&pod.Spec), facts.OS(ns[OSLabel]), facts.OS(ns[BetaOSLabel])
	if specOS.IsLinux() || labelOS.IsLinux() || betaOS.IsLinux() {
		return ""
	}
	switch {
	case specOS.IsWindows():
		return "spec.os.name is windows"
	case labelOS.IsWindows():
		return "nodeSelector " + OSLabel + " is windows"
	case betaOS.IsWindows():
		return "nodeSelector " + BetaOSLabel + " is windows"
	case ns[BuildLabel] != "":
		return "nodeSelector " + BuildLabel + " is " + ns[BuildLabel]
	}
	if rc := w.runtimeClass(ctx, pod); rc != nil {
		if rc.Scheduling != nil && facts.OS(rc.Scheduling.NodeSelector[OSLabel]).IsWindows() {
			return "RuntimeClass " + rc.Name + " selects kubernetes.io/os=windows"
		}
		if strings.HasPrefix(rc.Handler, "runhcs-wcow") {
			return "RuntimeClass " + rc.Name + " has the Windows handler " + rc.Handler
		}
	}
	return ""
}

func (w *Webhook) runtimeClass(ctx context.Context, pod *corev1.Pod) *nodev1.RuntimeClass {
	if pod.Spec.RuntimeClassName == nil || *pod.Spec.RuntimeClassName == "" || w.RuntimeClasses == nil {
		return nil
	}
	rc, err := w.RuntimeClasses(ctx, *pod.Spec.RuntimeClassName)
	if err != nil {
		return nil
	}
	return rc
}

// Patch returns the JSON patch operations that give a Windows pod the OS
// nodeSelector and the os=windows toleration it lacks (none when it has
// both: the webhook is idempotent under reinvocation).
func Patch(pod *corev1.Pod) []PatchOp {
	var ops []PatchOp
	switch {
	case pod.Spec.NodeSelector == nil:
		ops = append(ops, PatchOp{Op: "add", Path: "/spec/nodeSelector", Value: map[string]string{OSLabel: facts.Windows.String()}})
	case !facts.OS(pod.Spec.NodeSelector[OSLabel]).IsWindows():
		ops = append(ops, PatchOp{Op: "add", Path: "/spec/nodeSelector/" + escape(OSLabel), Value: facts.Windows.String()})
	}
	if !Tolerates(pod.Spec.Tolerations) {
		if pod.Spec.Tolerations == nil {
			ops = append(ops, PatchOp{Op: "add", Path: "/spec/tolerations", Value: []corev1.Toleration{WindowsToleration}})
		} else {
			ops = append(ops, PatchOp{Op: "add", Path: "/spec/tolerations/-", Value: WindowsToleration})
		}
	}
	return ops
}

// Tolerates reports whether tolerations tolerate the os=windows:NoSchedule
// taint (the scheduler's rule: an empty key with Exists tolerates every
// taint, an empty effect every effect).
func Tolerates(tolerations []corev1.Toleration) bool {
	for _, t := range tolerations {
		if t.Key != "" && t.Key != windowsTaint.Key || t.Effect != "" && t.Effect != windowsTaint.Effect {
			continue
		}
		switch t.Operator {
		case corev1.TolerationOpExists:
			return true
		case corev1.TolerationOpEqual, "":
			if t.Key != "" && t.Value == windowsTaint.Value {
				return true
			}
		}
	}
	return false
}

// PatchOp is one RFC 6902 operation.
type PatchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

func escape(s string) string { return strings.NewReplacer("~", "~0", "/", "~1").Replace(s) }

// Violations lists what a Windows pod asks for that no Windows node can run
// and the apiserver does not refuse (each message names the field and the
// catalog row). A pod that is not a Windows pod has none.
func (w *Webhook) Violations(ctx context.Context, pod *corev1.Pod) []string {
	if w.WindowsReason(ctx, pod) == "" {
		return nil
	}
	var v []string
	for i, vol := range pod.Spec.Volumes {
		if vol.EmptyDir != nil && vol.EmptyDir.Medium == corev1.StorageMediumMemory {
			v = append(v, fmt.Sprintf("spec.volumes[%d].emptyDir.medium: Memory is not supported on Windows nodes; the kubelet makes a directory on disk instead (B11)", i))
		}
	}
	if pod.Spec.HostNetwork && !facts.HostProcess(pod) {
		v = append(v, "spec.hostNetwork: host networking is available on Windows only to HostProcess pods (H7)")
	}
	rc := w.runtimeClass(ctx, pod)
	build := pod.Spec.NodeSelector[BuildLabel]
	// Without a RuntimeClass lookup a pod naming one may be Hyper-V isolated:
	// the build check is skipped rather than guessed.
	checkBuild := w.Catalog != nil && (pod.Spec.RuntimeClassName == nil || rc != nil)
	hyperV := rc != nil && rc.Handler == HyperVHandler
	visit := func(field string, cs []corev1.Container) {
		for i, c := range cs {
			path := fmt.Sprintf("spec.%s[%d]", field, i)
			for _, list := range []struct {
				name string
				rl   corev1.ResourceList
			}{{"limits", c.Resources.Limits}, {"requests", c.Resources.Requests}} {
				var names []string
				for name := range list.rl {
					if strings.HasPrefix(string(name), corev1.ResourceHugePagesPrefix) {
						names = append(names, string(name))
					}
				}
				sort.Strings(names)
				for _, n := range names {
					v = append(v, fmt.Sprintf("%s.resources.%s[%s]: huge pages are not supported on Windows nodes", path, list.name, n))
				}
			}
			if len(c.VolumeDevices) > 0 {
				v = append(v, fmt.Sprintf("%s.volumeDevices: raw block devices are not supported on Windows nodes (B11)", path))
			}
			for j, m := range c.VolumeMounts {
				if m.MountPropagation != nil && *m.MountPropagation != corev1.MountPropagationNone {
					v = append(v, fmt.Sprintf("%s.volumeMounts[%d].mountPropagation: %s is not supported on Windows nodes, only None (B11)", path, j, *m.MountPropagation))
				}
			}
			if checkBuild {
				if msg := w.imageBuild(c.Image, build, hyperV); msg != "" {
					v = append(v, fmt.Sprintf("%s.image: %s", path, msg))
				}
			}
		}
	}
	visit("initContainers", pod.Spec.InitContainers)
	visit("containers", pod.Spec.Containers)
	return v
}

// imageBuild checks an image against the pod's windows-build selector (row
// B4, catalog fixtures/images.yaml). Images the catalog does not know pass.
func (w *Webhook) imageBuild(image, build string, hyperV bool) string {
	builds, known := w.Catalog.WindowsBuilds(image)
	if !known || build == "" {
		return ""
	}
	if len(builds) == 0 {
		return ""
	}
	for _, b := range builds {
		if w.Catalog.Runs(build, b, hyperV) {
			return ""
		}
	}
	isolation := "process"
	if hyperV {
		isolation = "Hyper-V"
	}
	return fmt.Sprintf("%s is built for Windows %s, which a node selected by %s=%s cannot run in %s isolation (B4)",
		image, strings.Join(builds, ", "), BuildLabel, build, isolation)
}

// Mutate answers the mutating webhook's request.
func (w *Webhook) Mutate(ctx context.Context, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	resp := &admissionv1.AdmissionResponse{UID: req.UID, Allowed: true}
	pod, err := podOf(req)
	if err != nil || pod == nil {
		return errored(resp, err)
	}
	if w.WindowsReason(ctx, pod) == "" {
		return resp
	}
	return withPatch(resp, Patch(pod))
}

// Validate answers the validating webhook's request.
func (w *Webhook) Validate(ctx context.Context, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	resp := &admissionv1.AdmissionResponse{UID: req.UID, Allowed: true}
	pod, err := podOf(req)
	if err != nil || pod == nil {
		return errored(resp, err)
	}
	if v := w.Violations(ctx, pod); len(v) > 0 {
		resp.Allowed = false
		resp.Result = &metav1.Status{
			Status:  metav1.StatusFailure,
			Code:    403,
			Reason:  metav1.StatusReasonForbidden,
			Message: DenialPrefix + strings.Join(v, "; "),
		}
	}
	return resp
}

// DenialPrefix starts every message of the validating webhook; the apiserver
// shows it as `admission webhook "<name>" denied the request: <message>`.
const DenialPrefix = "no Windows node can run this pod: "

// podOf decodes the pod of a pod CREATE request (nil for any other request).
func podOf(req *admissionv1.AdmissionRequest) (*corev1.Pod, error) {
	if req.Kind.Kind != "Pod" || req.Kind.Group != "" || req.Operation != admissionv1.Create || req.SubResource != "" {
		return nil, nil
	}
	var pod corev1.Pod
	if err := json.Unmarshal(req.Object.Raw, &pod); err != nil {
		return nil, fmt.Errorf("decoding the pod: %w", err)
	}
	return &pod, nil
}

// withPatch sets resp's JSON patch to ops (none when ops is empty).
func withPatch(resp *admissionv1.AdmissionResponse, ops []PatchOp) *admissionv1.AdmissionResponse {
	if len(ops) == 0 {
		return resp
	}
	patch, err := json.Marshal(ops)
	if err != nil {
		return errored(resp, err)
	}
	pt := admissionv1.PatchTypeJSONPatch
	resp.Patch, resp.PatchType = patch, &pt
	return resp
}

func errored(resp *admissionv1.AdmissionResponse, err error) *admissionv1.AdmissionResponse {
	if err != nil {
		resp.Allowed = false
		resp.Result = &metav1.Status{Status: metav1.StatusFailure, Code: 400, Reason: metav1.StatusReasonBadRequest, Message: err.Error()}
	}
	return resp
}
