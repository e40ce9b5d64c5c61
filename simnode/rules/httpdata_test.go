package rules

import "testing"

// TestLivenessHealthz: agnhost liveness's /healthz is ok for 10 s, then 500
// (container_probe.go, row H1).
func TestLivenessHealthz(t *testing.T) {
	r := Default()
	h := r.FindHTTP("registry.k8s.io/e2e-test-images/agnhost:2.59", "/agnhost liveness", 8080, "/healthz")
	if h == nil || h.ID != "agnhost-liveness-healthz" {
		t.Fatalf("rule %v", h)
	}
	for _, tc := range []struct {
		uptime float64
		status int
		body   string
	}{{5, 200, "ok"}, {11, 500, "error: 11"}} {
		status, body, _ := h.Answer(HTTPData{Uptime: tc.uptime, Path: "/healthz"})
		if status != tc.status || body != tc.body {
			t.Errorf("uptime %v: %d %q, want %d %q", tc.uptime, status, body, tc.status, tc.body)
		}
	}
	if q := (HTTPData{Path: "/echo?msg=poststart&code="}).Query("msg"); q != "poststart" {
		t.Errorf("Query(msg) = %q", q)
	}
}
