package agnhost

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WebhookOptions are the flags of `agnhost webhook` besides the TLS files
// and the port.
type WebhookOptions struct {
	// SidecarImage is --sidecar-image (the /mutating-pods-sidecar patch).
	SidecarImage string
	// Sleep waits (the /always-allow-delay-5s delay); nil: time.Sleep.
	Sleep func(time.Duration)
}

// admit decides one admission request.
type admit func(ctx context.Context, o WebhookOptions, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse

// webhookPaths are agnhost webhook's handlers (test/images/agnhost/webhook
// main.go).
var webhookPaths = map[string]admit{
	"/always-allow-delay-5s":    alwaysAllowDelay,
	"/always-deny":              alwaysDeny,
	"/add-label":                addLabel,
	"/pods":                     admitPods,
	"/pods/attach":              denyAttach,
	"/mutating-pods":            mutatePods,
	"/mutating-pods-sidecar":    mutatePodsSidecar,
	"/configmaps":               admitConfigMaps,
	"/mutating-configmaps":      mutateData,
	"/custom-resource":          admitCustomResource,
	"/mutating-custom-resource": mutateData,
	"/crd":                      admitCRD,
}

// WebhookHandler serves agnhost webhook's paths: AdmissionReview in,
// AdmissionReview out (admission.k8s.io v1 or v1beta1, whose JSON shapes
// are the same), and /readyz.
func WebhookHandler(o WebhookOptions) http.Handler {
	if o.Sleep == nil {
		o.Sleep = time.Sleep
	}
	mux := http.NewServeMux()
	for path, f := range webhookPaths {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) { serveReview(w, r, o, f) })
	}
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })
	return mux
}

func serveReview(w http.ResponseWriter, r *http.Request, o WebhookOptions, f admit) {
	body, _ := io.ReadAll(r.Body)
	if r.Header.Get("Content-Type") != "application/json" {
		return // upstream logs and answers an empty 200
	}
	var review admissionv1.AdmissionReview
	if err := json.Unmarshal(body, &review); err != nil || review.Request == nil {
		http.Error(w, fmt.Sprintf("Request could not be decoded: %v", err), http.StatusBadRequest)
		return
	}
	if review.APIVersion != "admission.k8s.io/v1" && review.APIVersion != "admission.k8s.io/v1beta1" || review.Kind != "AdmissionReview" {
		http.Error(w, fmt.Sprintf("Unsupported group version kind: %s, Kind=%s", review.APIVersion, review.Kind), http.StatusBadRequest)
		return
	}
	resp := f(r.Context(), o, review.Request)
	if resp == nil {
		resp = &admissionv1.AdmissionResponse{}
	}
	resp.UID = review.Request.UID
	out := admissionv1.AdmissionReview{TypeMeta: review.TypeMeta, Response: resp}
	b, err := json.Marshal(out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

func errorResponse(err error) *admissionv1.AdmissionResponse {
	return &admissionv1.AdmissionResponse{Result: &metav1.Status{Message: err.Error()}}
}

func jsonPatch(r *admissionv1.AdmissionResponse, patch string) *admissionv1.AdmissionResponse {
	pt := admissionv1.PatchTypeJSONPatch
	r.Patch, r.PatchType = []byte(patch), &pt
	return r
}

var (
	podsGVR       = metav1.GroupVersionResource{Version: "v1", Resource: "pods"}
	configMapsGVR = metav1.GroupVersionResource{Version: "v1", Resource: "configmaps"}
)

func alwaysAllowDelay(_ context.Context, o WebhookOptions, _ *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	o.Sleep(5 * time.Second)
	return &admissionv1.AdmissionResponse{Allowed: true, Result: &metav1.Status{Message: "this webhook allows all requests"}}
}

func alwaysDeny(context.Context, WebhookOptions, *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	return &admissionv1.AdmissionResponse{Result: &metav1.Status{Message: "this webhook denies all requests"}}
}

// object is what the handlers read of an object: metadata, a ConfigMap's
// or the e2e custom resource's data, a pod's containers.
type object struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Data              map[string]string `json:"data,omitempty"`
	Spec              struct {
		Containers     []struct{ Name string } `json:"containers,omitempty"`
		InitContainers []struct{ Name string } `json:"initContainers,omitempty"`
	} `json:"spec,omitempty"`
}

func decode(req *admissionv1.AdmissionRequest, old bool) (*object, error) {
	raw := req.Object.Raw
	if old {
		raw = req.OldObject.Raw
	}
	var o object
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, err
	}
	return &o, nil
}

func addLabel(_ context.Context, _ WebhookOptions, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	obj, err := decode(req, false)
	if err != nil {
		return errorResponse(err)
	}
	r := &admissionv1.AdmissionResponse{Allowed: true}
	v, has := obj.Labels["added-label"]
	switch {
	case len(obj.Labels) == 0:
		return jsonPatch(r, `[{"op":"add","path":"/metadata/labels","value":{"added-label":"yes"}}]`)
	case !has:
		return jsonPatch(r, `[{"op":"add","path":"/metadata/labels/added-label","value":"yes"}]`)
	case v != "yes":
		return jsonPatch(r, `[{"op":"replace","path":"/metadata/labels/added-label","value":"yes"}]`)
	}
	return r
}

func admitPods(ctx context.Context, _ WebhookOptions, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	if req.Resource != podsGVR {
		return errorResponse(fmt.Errorf("expect resource to be %s", podsGVR))
	}
	pod, err := decode(req, false)
	if err != nil {
		return errorResponse(err)
	}
	r := &admissionv1.AdmissionResponse{Allowed: true}
	msg := ""
	switch pod.Labels["webhook-e2e-test"] {
	case "webhook-disallow":
		r.Allowed, msg = false, msg+"the pod contains unwanted label; "
	case "wait-forever":
		// upstream never answers: the apiserver's timeout decides.
		<-ctx.Done()
		return nil
	}
	for _, c := range pod.Spec.Containers {
		if strings.Contains(c.Name, "webhook-disallow") {
			r.Allowed, msg = false, msg+"the pod contains unwanted container name; "
		}
	}
	if !r.Allowed {
		r.Result = &metav1.Status{Message: strings.TrimSpace(msg)}
	}
	return r
}

func denyAttach(_ context.Context, _ WebhookOptions, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	if req.Name != "to-be-attached-pod" {
		return &admissionv1.AdmissionResponse{Allowed: true}
	}
	if req.Resource != podsGVR || req.SubResource != "attach" {
		return errorResponse(fmt.Errorf("expect resource to be %s, got %s", podsGVR, req.Resource))
	}
	var opts struct {
		Stdin     bool   `json:"stdin"`
		Container string `json:"container"`
	}
	if err := json.Unmarshal(req.Object.Raw, &opts); err != nil {
		return errorResponse(err)
	}
	if !opts.Stdin || opts.Container != "container1" {
		return &admissionv1.AdmissionResponse{Allowed: true}
	}
	return &admissionv1.AdmissionResponse{Result: &metav1.Status{Message: "attaching to pod 'to-be-attached-pod' is not allowed"}}
}

func hasContainer(cs []struct{ Name string }, name string) bool {
	for _, c := range cs {
		if c.Name == name {
			return true
		}
	}
	return false
}

func mutatePods(_ context.Context, _ WebhookOptions, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	if req.Resource != podsGVR {
		return nil
	}
	pod, err := decode(req, false)
	if err != nil {
		return errorResponse(err)
	}
	r := &admissionv1.AdmissionResponse{Allowed: true}
	if pod.Name == "webhook-to-be-mutated" && !hasContainer(pod.Spec.InitContainers, "webhook-added-init-container") {
		return jsonPatch(r, `[{"op":"add","path":"/spec/initContainers","value":[{"image":"webhook-added-image","name":"webhook-added-init-container","resources":{}}]}]`)
	}
	return r
}

func mutatePodsSidecar(_ context.Context, o WebhookOptions, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	if o.SidecarImage == "" {
		return &admissionv1.AdmissionResponse{Result: &metav1.Status{Status: "Failure", Message: "No image specified by the sidecar-image parameter", Code: 500}}
	}
	if req.Resource != podsGVR {
		return nil
	}
	pod, err := decode(req, false)
	if err != nil {
		return errorResponse(err)
	}
	r := &admissionv1.AdmissionResponse{Allowed: true}
	if !hasContainer(pod.Spec.Containers, "webhook-added-sidecar") {
		img, _ := json.Marshal(o.SidecarImage)
		return jsonPatch(r, `[{"op":"add","path":"/spec/containers/-","value":{"image":`+string(img)+`,"name":"webhook-added-sidecar","resources":{}}}]`)
	}
	return r
}

// admitData denies creating or updating an object whose data has
// webhook-e2e-test: webhook-disallow, and deleting one with
// webhook-nondeletable.
func admitData(req *admissionv1.AdmissionRequest, kind string) *admissionv1.AdmissionResponse {
	obj, err := decode(req, req.Operation == admissionv1.Delete)
	if err != nil {
		return errorResponse(err)
	}
	r := &admissionv1.AdmissionResponse{Allowed: true}
	switch v := obj.Data["webhook-e2e-test"]; {
	case v == "webhook-disallow" && (req.Operation == admissionv1.Create || req.Operation == admissionv1.Update):
		r.Allowed, r.Result = false, &metav1.Status{Reason: metav1.StatusReason("the " + kind + " contains unwanted " + map[bool]string{true: "key and value", false: "data"}[kind == "configmap"])}
	case v == "webhook-nondeletable" && req.Operation == admissionv1.Delete:
		r.Allowed, r.Result = false, &metav1.Status{Reason: metav1.StatusReason("the " + kind + " cannot be deleted because it contains unwanted key and value")}
	}
	return r
}

func admitConfigMaps(_ context.Context, _ WebhookOptions, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	if req.Resource != configMapsGVR {
		return nil
	}
	return admitData(req, "configmap")
}

func admitCustomResource(_ context.Context, _ WebhookOptions, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	return admitData(req, "custom resource")
}

// mutateData is /mutating-configmaps and /mutating-custom-resource: two
// stages of data keys.
func mutateData(_ context.Context, _ WebhookOptions, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	if strings.HasSuffix(req.Resource.Resource, "configmaps") && req.Resource != configMapsGVR {
		return nil
	}
	obj, err := decode(req, false)
	if err != nil {
		return errorResponse(err)
	}
	r := &admissionv1.AdmissionResponse{Allowed: true}
	patch := ""
	if obj.Data["mutation-start"] == "yes" {
		patch = `[{"op":"add","path":"/data/mutation-stage-1","value":"yes"}]`
	}
	if obj.Data["mutation-stage-1"] == "yes" {
		patch = `[{"op":"add","path":"/data/mutation-stage-2","value":"yes"}]`
	}
	if patch != "" {
		return jsonPatch(r, patch)
	}
	return r
}

func admitCRD(_ context.Context, _ WebhookOptions, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	if req.Resource.Group != "apiextensions.k8s.io" || req.Resource.Resource != "customresourcedefinitions" ||
		(req.Resource.Version != "v1" && req.Resource.Version != "v1beta1") {
		return errorResponse(fmt.Errorf("expect resource to be a customresourcedefinitions of apiextensions.k8s.io v1 or v1beta1 but got %v", req.Resource))
	}
	crd, err := decode(req, false)
	if err != nil {
		return errorResponse(err)
	}
	r := &admissionv1.AdmissionResponse{Allowed: true}
	if crd.Labels["webhook-e2e-test"] == "webhook-disallow" {
		r.Allowed, r.Result = false, &metav1.Status{Message: "the crd contains unwanted label"}
	}
	return r
}

// ServeTLS serves h over l with the PEM certificate and key until ctx is
// done (agnhost's server.ListenAndServeTLS on its --port).
func ServeTLS(ctx context.Context, l net.Listener, certPEM, keyPEM []byte, h http.Handler) error {
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		l.Close()
		return err
	}
	srv := &http.Server{Handler: h, TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}}, ReadHeaderTimeout: 30 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	err = srv.Serve(tls.NewListener(l, srv.TLSConfig))
	if ctx.Err() != nil {
		return nil
	}
	return err
}
