package kubeletapi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/virtual-kubelet/virtual-kubelet/node/nodeutil"
	"k8s.io/apiserver/pkg/authentication/user"
	statsapi "k8s.io/kubelet/pkg/apis/stats/v1alpha1"
)

type fakeStats struct{}

func (fakeStats) Summary() *statsapi.Summary {
	one := uint64(1)
	return &statsapi.Summary{
		Node: statsapi.NodeStats{NodeName: "n", Fs: &statsapi.FsStats{CapacityBytes: &one}},
		Pods: []statsapi.PodStats{{
			PodRef:     statsapi.PodReference{Name: "p", Namespace: "ns"},
			Containers: []statsapi.ContainerStats{{Name: "c", Logs: &statsapi.FsStats{AvailableBytes: &one}}},
		}},
	}
}

func (fakeStats) ResourceMetrics(w *bytes.Buffer) error {
	w.WriteString("resource_scrape_error 0\n")
	return nil
}

// TestStatsRoutes checks the routes WithStats adds, their authorisation
// attributes (the kubelet's nodes/stats and nodes/metrics), and that other
// paths reach the node's other routes.
func TestStatsRoutes(t *testing.T) {
	next := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "next") })
	h := WithStats(next, fakeStats{})
	for _, tc := range []struct {
		path, method    string
		wantStatus      int
		wantType        string
		wantSubresource string
		check           func(t *testing.T, body []byte)
	}{
		{path: "/stats/summary", method: http.MethodGet, wantStatus: 200, wantType: "application/json", wantSubresource: "stats",
			check: func(t *testing.T, body []byte) {
				var s statsapi.Summary
				if err := json.Unmarshal(body, &s); err != nil {
					t.Fatal(err)
				}
				if s.Node.Fs == nil || s.Pods[0].Containers[0].Logs == nil {
					t.Errorf("full summary lacks fs or logs: %s", body)
				}
			}},
		{path: "/stats/summary?only_cpu_and_memory=true", method: http.MethodGet, wantStatus: 200, wantType: "application/json", wantSubresource: "stats",
			check: func(t *testing.T, body []byte) {
				var s statsapi.Summary
				if err := json.Unmarshal(body, &s); err != nil {
					t.Fatal(err)
				}
				if s.Node.Fs != nil || s.Pods[0].Containers[0].Logs != nil {
					t.Errorf("cpu-and-memory summary has fs or logs: %s", body)
				}
			}},
		{path: "/metrics/resource", method: http.MethodGet, wantStatus: 200, wantType: "text/plain; version=0.0.4; charset=utf-8", wantSubresource: "metrics",
			check: func(t *testing.T, body []byte) {
				if string(body) != "resource_scrape_error 0\n" {
					t.Errorf("body %q", body)
				}
			}},
		{path: "/metrics/resource", method: http.MethodPost, wantStatus: 405, wantSubresource: "metrics"},
		{path: "/pods", method: http.MethodGet, wantStatus: 200, wantSubresource: "proxy",
			check: func(t *testing.T, body []byte) {
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
			if tc.wantType != "" && rec.Header().Get("Content-Type") != tc.wantType {
				t.Errorf("content type %q, want %q", rec.Header().Get("Content-Type"), tc.wantType)
			}
			if tc.check != nil {
				tc.check(t, rec.Body.Bytes())
			}
		})
	}
}
