package agnhost

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestWebhookHandler: agnhost webhook's decisions as upstream's
// AdmissionWebhook specs (test/e2e/apimachinery/webhook.go) expect them
// (row E, all kubelet versions).
func TestWebhookHandler(t *testing.T) {
	cases := []struct {
		name, path, apiVersion string
		req                    admissionv1.AdmissionRequest
		allowed                bool
		message, reason, patch string
	}{
		{name: "always deny", path: "/always-deny", message: "this webhook denies all requests"},
		{name: "always allow after 5s", path: "/always-allow-delay-5s", allowed: true, message: "this webhook allows all requests"},
		{name: "pod with unwanted label", path: "/pods",
			req:     admissionv1.AdmissionRequest{Resource: podsGVR, Object: raw(`{"metadata":{"name":"p","labels":{"webhook-e2e-test":"webhook-disallow"}},"spec":{"containers":[{"name":"webhook-disallow"}]}}`)},
			message: "the pod contains unwanted label; the pod contains unwanted container name;"},
		{name: "pod allowed", path: "/pods", allowed: true,
			req: admissionv1.AdmissionRequest{Resource: podsGVR, Object: raw(`{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}}`)}},
		{name: "configmap disallowed", path: "/configmaps", reason: "the configmap contains unwanted key and value",
			req: admissionv1.AdmissionRequest{Resource: configMapsGVR, Operation: admissionv1.Create, Object: raw(`{"data":{"webhook-e2e-test":"webhook-disallow"}}`)}},
		{name: "configmap nondeletable", path: "/configmaps", reason: "the configmap cannot be deleted because it contains unwanted key and value",
			req: admissionv1.AdmissionRequest{Resource: configMapsGVR, Operation: admissionv1.Delete, OldObject: raw(`{"data":{"webhook-e2e-test":"webhook-nondeletable"}}`)}},
		{name: "custom resource disallowed", path: "/custom-resource", reason: "the custom resource contains unwanted data",
			req: admissionv1.AdmissionRequest{Operation: admissionv1.Update, Object: raw(`{"data":{"webhook-e2e-test":"webhook-disallow"}}`)}},
		{name: "mutate configmap stage 1", path: "/mutating-configmaps", allowed: true, patch: `[{"op":"add","path":"/data/mutation-stage-1","value":"yes"}]`,
			req: admissionv1.AdmissionRequest{Resource: configMapsGVR, Object: raw(`{"data":{"mutation-start":"yes"}}`)}},
		{name: "mutate custom resource stage 2", path: "/mutating-custom-resource", allowed: true, patch: `[{"op":"add","path":"/data/mutation-stage-2","value":"yes"}]`,
			req: admissionv1.AdmissionRequest{Resource: metav1.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "e2e-test-crds"}, Object: raw(`{"data":{"mutation-start":"yes","mutation-stage-1":"yes"}}`)}},
		{name: "add first label", path: "/add-label", allowed: true, patch: `[{"op":"add","path":"/metadata/labels","value":{"added-label":"yes"}}]`,
			req: admissionv1.AdmissionRequest{Object: raw(`{"metadata":{"name":"x"}}`)}},
		{name: "mutate pod init container", path: "/mutating-pods", allowed: true,
			patch: `[{"op":"add","path":"/spec/initContainers","value":[{"image":"webhook-added-image","name":"webhook-added-init-container","resources":{}}]}]`,
			req:   admissionv1.AdmissionRequest{Resource: podsGVR, Object: raw(`{"metadata":{"name":"webhook-to-be-mutated"},"spec":{"containers":[{"name":"c"}]}}`)}},
		{name: "deny attach", path: "/pods/attach", message: "attaching to pod 'to-be-attached-pod' is not allowed",
			req: admissionv1.AdmissionRequest{Name: "to-be-attached-pod", Resource: podsGVR, SubResource: "attach", Object: raw(`{"stdin":true,"container":"container1"}`)}},
		{name: "crd disallowed", path: "/crd", message: "the crd contains unwanted label",
			req: admissionv1.AdmissionRequest{Resource: metav1.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}, Object: raw(`{"metadata":{"labels":{"webhook-e2e-test":"webhook-disallow"}}}`)}},
		{name: "v1beta1 review", path: "/always-deny", apiVersion: "admission.k8s.io/v1beta1", message: "this webhook denies all requests"},
	}
	var slept time.Duration
	h := WebhookHandler(WebhookOptions{Sleep: func(d time.Duration) { slept += d }})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			av := tc.apiVersion
			if av == "" {
				av = "admission.k8s.io/v1"
			}
			tc.req.UID = "uid-1"
			body, _ := json.Marshal(admissionv1.AdmissionReview{TypeMeta: metav1.TypeMeta{APIVersion: av, Kind: "AdmissionReview"}, Request: &tc.req})
			r := httptest.NewRequest(http.MethodPost, tc.path, bytes.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			var out admissionv1.AdmissionReview
			if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil || out.Response == nil {
				t.Fatalf("response %d %q: %v", w.Code, w.Body.String(), err)
			}
			res := out.Response
			if out.APIVersion != av || res.UID != "uid-1" || res.Allowed != tc.allowed {
				t.Errorf("apiVersion %q uid %q allowed %v, want %q uid-1 %v", out.APIVersion, res.UID, res.Allowed, av, tc.allowed)
			}
			var msg, reason string
			if res.Result != nil {
				msg, reason = res.Result.Message, string(res.Result.Reason)
			}
			if msg != tc.message || reason != tc.reason {
				t.Errorf("message %q reason %q, want %q %q", msg, reason, tc.message, tc.reason)
			}
			if string(res.Patch) != tc.patch {
				t.Errorf("patch %s, want %s", res.Patch, tc.patch)
			}
		})
	}
	if slept != 5*time.Second {
		t.Errorf("always-allow-delay-5s slept %v", slept)
	}
}

func TestWebhookReadyz(t *testing.T) {
	w := httptest.NewRecorder()
	WebhookHandler(WebhookOptions{}).ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/readyz", nil))
	if w.Code != 200 || strings.TrimSpace(w.Body.String()) != "ok" {
		t.Errorf("/readyz: %d %q", w.Code, w.Body.String())
	}
}

func raw(s string) runtime.RawExtension { return runtime.RawExtension{Raw: []byte(s)} }
