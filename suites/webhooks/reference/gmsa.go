package reference

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"

	admissionv1 "k8s.io/api/admission/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// The GMSACredentialSpec custom resource of kubernetes-sigs/windows-gmsa
// (row A20): cluster-scoped, its credential spec in the field "credspec".
const (
	GMSAGroup    = "windows.k8s.io"
	GMSAVersion  = "v1alpha1"
	GMSAResource = "gmsacredentialspecs"
	GMSAKind     = "GMSACredentialSpec"
	// GMSAVerb is what a pod's service account must be allowed to do on the
	// credential spec it names.
	GMSAVerb = "use"
)

// Paths of the GMSA webhook on the reference server.
const (
	GMSAMutatePath   = "/gmsa/mutate"
	GMSAValidatePath = "/gmsa/validate"
)

// GMSA is the logic of a GMSA admission webhook (row A20): the contract of
// kubernetes-sigs/windows-gmsa, which the Kubernetes docs name as what
// authorises GMSA use, written afresh for wink. The kubelet and the
// apiserver only check the fields' syntax (A11); whether a pod may use a
// credential spec is decided here.
//
// Mutate copies the named GMSACredentialSpec's credspec into
// windowsOptions.gmsaCredentialSpec (pod and containers) where it is unset.
// Validate refuses a pod whose service account may not `use` the named
// credential spec (a LocalSubjectAccessReview), whose inline spec differs
// from the named resource's, or that sets a spec without naming its resource.
type GMSA struct {
	// MayUse says whether the service account sa of namespace may use the
	// credential spec name, and the authoriser's reason.
	MayUse func(ctx context.Context, namespace, sa, name string) (bool, string)
	// Get reads the GMSACredentialSpec name as JSON (an error that
	// apierrors.IsNotFound recognises when there is none).
	Get func(ctx context.Context, name string) ([]byte, error)
}

// NewGMSA is the GMSA webhook asking the apiserver behind cs: a
// LocalSubjectAccessReview for MayUse, a GET of the custom resource for Get.
func NewGMSA(cs kubernetes.Interface) *GMSA {
	return &GMSA{
		MayUse: func(ctx context.Context, namespace, sa, name string) (bool, string) {
			return mayUse(ctx, cs, namespace, sa, name)
		},
		Get: func(ctx context.Context, name string) ([]byte, error) {
			return cs.Discovery().RESTClient().Get().AbsPath("/apis", GMSAGroup, GMSAVersion, GMSAResource, name).DoRaw(ctx)
		},
	}
}

// gmsaOptions is one windowsOptions of a pod: the pod's or a container's.
type gmsaOptions struct {
	kind, name string // "pod"/"container"/"initContainer" and its name
	path       string // JSON pointer of its windowsOptions
	opts       *corev1.WindowsSecurityContextOptions
}

func podGMSAOptions(pod *corev1.Pod) []gmsaOptions {
	var out []gmsaOptions
	if sc := pod.Spec.SecurityContext; sc != nil && sc.WindowsOptions != nil {
		out = append(out, gmsaOptions{"pod", pod.Name, "/spec/securityContext/windowsOptions", sc.WindowsOptions})
	}
	for kind, list := range map[string][]corev1.Container{"initContainer": pod.Spec.InitContainers, "container": pod.Spec.Containers} {
		for i, c := range list {
			if c.SecurityContext != nil && c.SecurityContext.WindowsOptions != nil {
				out = append(out, gmsaOptions{kind, c.Name, fmt.Sprintf("/spec/%ss/%d/securityContext/windowsOptions", kind, i), c.SecurityContext.WindowsOptions})
			}
		}
	}
	return out
}

// Mutate answers the GMSA mutating webhook.
func (g *GMSA) Mutate(ctx context.Context, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	resp := &admissionv1.AdmissionResponse{UID: req.UID, Allowed: true}
	pod, err := podOf(req)
	if err != nil || pod == nil {
		return errored(resp, err)
	}
	var ops []PatchOp
	for _, o := range podGMSAOptions(pod) {
		if o.opts.GMSACredentialSpecName == nil || o.opts.GMSACredentialSpec != nil {
			continue
		}
		spec, code, err := g.credSpec(ctx, *o.opts.GMSACredentialSpecName)
		if err != nil {
			return denied(resp, code, err.Error())
		}
		ops = append(ops, PatchOp{Op: "add", Path: o.path + "/gmsaCredentialSpec", Value: spec})
	}
	return withPatch(resp, ops)
}

// Validate answers the GMSA validating webhook.
func (g *GMSA) Validate(ctx context.Context, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	resp := &admissionv1.AdmissionResponse{UID: req.UID, Allowed: true}
	pod, err := podOf(req)
	if err != nil || pod == nil {
		return errored(resp, err)
	}
	sa := pod.Spec.ServiceAccountName
	if sa == "" {
		sa = "default"
	}
	for _, o := range podGMSAOptions(pod) {
		name := o.opts.GMSACredentialSpecName
		if name == nil {
			if o.opts.GMSACredentialSpec != nil {
				return denied(resp, http.StatusUnprocessableEntity, fmt.Sprintf("%s %q has a GMSA cred spec set, but does not define the name of the corresponding resource", o.kind, o.name))
			}
			continue
		}
		if ok, reason := g.MayUse(ctx, req.Namespace, sa, *name); !ok {
			// Row A20's message, as the GMSA webhook words it.
			msg := fmt.Sprintf("service account %q is not authorized to `use` GMSA cred spec %q", sa, *name)
			if reason != "" {
				msg += fmt.Sprintf(", reason: %q", reason)
			}
			return denied(resp, http.StatusForbidden, msg)
		}
		if o.opts.GMSACredentialSpec == nil {
			continue
		}
		want, code, err := g.credSpec(ctx, *name)
		if err != nil {
			return denied(resp, code, err.Error())
		}
		if !sameJSON(*o.opts.GMSACredentialSpec, want) {
			return denied(resp, http.StatusUnprocessableEntity, fmt.Sprintf("the GMSA cred spec contents for %s %q does not match the contents of GMSA resource %q", o.kind, o.name, *name))
		}
	}
	return resp
}

// mayUse asks the apiserver whether the service account may use the
// credential spec.
func mayUse(ctx context.Context, cs kubernetes.Interface, namespace, sa, name string) (bool, string) {
	review := &authorizationv1.LocalSubjectAccessReview{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace},
		Spec: authorizationv1.SubjectAccessReviewSpec{
			ResourceAttributes: &authorizationv1.ResourceAttributes{
				Namespace: namespace, Verb: GMSAVerb, Group: GMSAGroup, Version: GMSAVersion, Resource: GMSAResource, Name: name,
			},
			User:   "system:serviceaccount:" + namespace + ":" + sa,
			Groups: []string{"system:serviceaccounts", "system:serviceaccounts:" + namespace, "system:authenticated"},
		},
	}
	got, err := cs.AuthorizationV1().LocalSubjectAccessReviews(namespace).Create(ctx, review, metav1.CreateOptions{})
	if err != nil {
		return false, "error when checking authz access: " + err.Error()
	}
	return got.Status.Allowed && !got.Status.Denied, got.Status.Reason
}

// credSpec is the JSON of the named GMSACredentialSpec's credspec field,
// with the HTTP code to deny with when it cannot be read.
func (g *GMSA) credSpec(ctx context.Context, name string) (string, int, error) {
	raw, err := g.Get(ctx, name)
	switch {
	case apierrors.IsNotFound(err):
		return "", http.StatusNotFound, fmt.Errorf("cred spec %s does not exist", name)
	case err != nil:
		return "", http.StatusInternalServerError, fmt.Errorf("unable to retrieve the contents of cred spec %s: %w", name, err)
	}
	var obj struct {
		CredSpec json.RawMessage `json:"credspec"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return "", http.StatusInternalServerError, fmt.Errorf("unable to decode cred spec %s: %w", name, err)
	}
	if len(obj.CredSpec) == 0 || string(obj.CredSpec) == `""` || string(obj.CredSpec) == "null" {
		return "", http.StatusExpectationFailed, fmt.Errorf("cred spec %s does not have a credspec key", name)
	}
	var compact any
	if err := json.Unmarshal(obj.CredSpec, &compact); err != nil {
		return "", http.StatusInternalServerError, err
	}
	out, err := json.Marshal(compact)
	return string(out), http.StatusOK, err
}

// sameJSON says whether two JSON texts hold the same value.
func sameJSON(a, b string) bool {
	if a == b {
		return true
	}
	var va, vb any
	if json.Unmarshal([]byte(a), &va) != nil || json.Unmarshal([]byte(b), &vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}

func denied(resp *admissionv1.AdmissionResponse, code int, msg string) *admissionv1.AdmissionResponse {
	resp.Allowed = false
	resp.Result = &metav1.Status{Status: metav1.StatusFailure, Code: int32(code), Message: msg}
	return resp
}
