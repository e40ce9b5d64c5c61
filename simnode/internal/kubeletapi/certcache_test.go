package kubeletapi

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"testing"
	"time"

	"github.com/virtual-kubelet/virtual-kubelet/node/nodeutil"
	"k8s.io/apiserver/pkg/authentication/authenticator"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
)

// countingAuth authenticates every request with a client certificate as
// "verified" (or refuses them all), counting the verifications.
type countingAuth struct {
	nodeutil.Auth
	refuse bool
	calls  int
}

func (c *countingAuth) AuthenticateRequest(*http.Request) (*authenticator.Response, bool, error) {
	c.calls++
	if c.refuse {
		return nil, false, nil
	}
	return &authenticator.Response{User: &user.DefaultInfo{Name: "verified"}}, true, nil
}

func (c *countingAuth) Authorize(context.Context, authorizer.Attributes) (authorizer.Decision, string, error) {
	return authorizer.DecisionAllow, "", nil
}

func certRequest(raw string, notAfter time.Time, token string) *http.Request {
	r, _ := http.NewRequest(http.MethodGet, "https://n1:10250/stats/summary", nil)
	r.TLS = &tls.ConnectionState{PeerCertificates: []*x509.Certificate{{Raw: []byte(raw), NotAfter: notAfter}}}
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	return r
}

// TestVerifiedCerts: a chain that verified is not verified again within
// verifiedTTL or past its leaf's NotAfter; a chain that did not, a request
// with a bearer token and one without a certificate always go to the
// authenticator; the cache holds at most maxVerified chains.
func TestVerifiedCerts(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	v := NewVerifiedCerts()
	v.now = func() time.Time { return now }
	inner := &countingAuth{}
	auth := v.Wrap(inner)
	far := now.Add(24 * time.Hour)
	authn := func(r *http.Request) bool {
		t.Helper()
		resp, ok, err := auth.AuthenticateRequest(r)
		if err != nil {
			t.Fatal(err)
		}
		if ok && resp.User.GetName() != "verified" {
			t.Fatalf("user %q", resp.User.GetName())
		}
		return ok
	}
	for range 3 {
		authn(certRequest("metrics-server", far, ""))
	}
	if inner.calls != 1 {
		t.Errorf("one chain three times: %d verifications, want 1", inner.calls)
	}
	now = now.Add(verifiedTTL)
	authn(certRequest("metrics-server", far, ""))
	if inner.calls != 2 {
		t.Errorf("after verifiedTTL: %d verifications, want 2", inner.calls)
	}
	soon := now.Add(time.Second)
	authn(certRequest("short-lived", soon, ""))
	now = soon
	authn(certRequest("short-lived", soon, ""))
	if inner.calls != 4 {
		t.Errorf("a leaf past its NotAfter: %d verifications, want 4", inner.calls)
	}
	authn(certRequest("metrics-server", far, "a-token"))
	r, _ := http.NewRequest(http.MethodGet, "https://n1:10250/healthz", nil)
	authn(r)
	if inner.calls != 6 {
		t.Errorf("bearer token and no certificate: %d verifications, want 6", inner.calls)
	}
	inner.refuse = true
	for range 2 {
		if authn(certRequest("rogue", far, "")) {
			t.Error("a chain that did not verify was accepted")
		}
	}
	if inner.calls != 8 {
		t.Errorf("a refused chain twice: %d verifications, want 8", inner.calls)
	}
	inner.refuse = false
	for i := range 2 * maxVerified {
		authn(certRequest(string(rune(i+1000)), far, ""))
	}
	if len(v.entries) > maxVerified {
		t.Errorf("%d chains held, want at most %d", len(v.entries), maxVerified)
	}
}
