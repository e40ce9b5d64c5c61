package kubeletapi

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/virtual-kubelet/virtual-kubelet/node/nodeutil"
	"k8s.io/apiserver/pkg/authentication/user"
	kubeletconfigv1beta1 "k8s.io/kubelet/config/v1beta1"
)

type fakeIntrospection struct{}

func (fakeIntrospection) KubeletConfig() *kubeletconfigv1beta1.KubeletConfiguration {
	return &kubeletconfigv1beta1.KubeletConfiguration{
		SystemReserved: map[string]string{"memory": "2Gi"},
		EvictionHard:   map[string]string{"memory.available": "500Mi"},
	}
}

func (fakeIntrospection) MetricsHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "kubelet_running_pods 0\n")
	})
}

// TestIntrospectionRoutes checks /configz as e2e decodes it
// (test/e2e/windows/memory_limits.go decodeConfigz: {"kubeletconfig":
// <v1beta1>}) and /metrics, with the kubelet's authorisation attributes.
func TestIntrospectionRoutes(t *testing.T) {
	next := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "next") })
	h := WithIntrospection(next, fakeIntrospection{})
	for _, tc := range []struct {
		path, method    string
		wantStatus      int
		wantSubresource string
		check           func(t *testing.T, body []byte)
	}{
		{path: "/configz", method: http.MethodGet, wantStatus: 200, wantSubresource: "proxy", check: func(t *testing.T, body []byte) {
			var w struct {
				C kubeletconfigv1beta1.KubeletConfiguration `json:"kubeletconfig"`
			}
			if err := json.Unmarshal(body, &w); err != nil {
				t.Fatal(err)
			}
			if w.C.SystemReserved["memory"] != "2Gi" || w.C.EvictionHard["memory.available"] != "500Mi" {
				t.Errorf("configz %s", body)
			}
		}},
		{path: "/configz", method: http.MethodPost, wantStatus: 405, wantSubresource: "proxy"},
		{path: "/metrics", method: http.MethodGet, wantStatus: 200, wantSubresource: "metrics", check: func(t *testing.T, body []byte) {
			if string(body) != "kubelet_running_pods 0\n" {
				t.Errorf("body %q", body)
			}
		}},
		{path: "/pods", method: http.MethodGet, wantStatus: 200, wantSubresource: "proxy", check: func(t *testing.T, body []byte) {
			if string(body) != "next" {
				t.Errorf("body %q, want the next handler's", body)
			}
		}},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, tc.path, nil)
			attrs := nodeutil.NodeRequestAttr{NodeName: "n"}.GetRequestAttributes(&user.DefaultInfo{Name: "u"}, req)
			if attrs.GetResource() != "nodes" || attrs.GetSubresource() != tc.wantSubresource {
				t.Errorf("authorised as %s/%s, want nodes/%s", attrs.GetResource(), attrs.GetSubresource(), tc.wantSubresource)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.wantStatus {
				t.Fatalf("status %d, want %d", rec.Code, tc.wantStatus)
			}
			if tc.check != nil {
				tc.check(t, rec.Body.Bytes())
			}
		})
	}
}
