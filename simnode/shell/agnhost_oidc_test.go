package shell

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// oidcNet is fakeNet with an apiserver that serves the OIDC discovery
// document and JWKS to requests bearing the right token and trusting the
// cluster CA (process.HTTPClient), as the real one does for the
// system:service-account-issuer-discovery binding.
type oidcNet struct {
	*fakeNet
	bearer, ca string
	discovery  string
	jwks       string
	requests   []string
}

func (n *oidcNet) Do(ctx context.Context, req *HTTPRequest) (*HTTPResponse, error) {
	n.requests = append(n.requests, req.Method+" "+req.URL+" auth="+req.Header["Authorization"])
	if string(req.RootCAs) != n.ca {
		return nil, ErrUntrustedCert
	}
	if req.Header["Authorization"] != "Bearer "+n.bearer {
		return &HTTPResponse{Status: 403, Body: []byte(`{"kind":"Status","reason":"Forbidden"}`)}, nil
	}
	switch {
	case strings.HasSuffix(req.URL, "/.well-known/openid-configuration"):
		return &HTTPResponse{Status: 200, Body: []byte(n.discovery)}, nil
	case strings.HasSuffix(req.URL, "/openid/v1/jwks"):
		return &HTTPResponse{Status: 200, Body: []byte(n.jwks)}, nil
	}
	return &HTTPResponse{Status: 404}, nil
}

func b64url(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// signedToken is a service account token as the apiserver issues it.
func signedToken(t *testing.T, key *rsa.PrivateKey, kid string, claims map[string]any) string {
	t.Helper()
	h, _ := json.Marshal(map[string]string{"alg": "RS256", "kid": kid})
	c, _ := json.Marshal(claims)
	signing := b64url(h) + "." + b64url(c)
	d := sha256.Sum256([]byte(signing))
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, d[:])
	if err != nil {
		t.Fatal(err)
	}
	return signing + "." + b64url(sig)
}

// TestAgnhostOIDCDiscovery runs `agnhost test-service-account-issuer-
// discovery` (upstream service_accounts.go's OIDC discovery spec) against a
// fake apiserver: the in-cluster attempt verifies the token; without the
// role binding it falls back to external discovery and fails; a token for
// another audience or signed by another key fails.
func TestAgnhostOIDCDiscovery(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := rsa.GenerateKey(rand.Reader, 2048)
	const issuer = "https://kubernetes.default.svc.cluster.local"
	claims := map[string]any{
		"iss": issuer, "sub": "system:serviceaccount:svcaccounts-1:default", "aud": []string{"oidc-discovery-test"},
		"exp": fakeEpoch.Add(10 * time.Minute).Unix(), "iat": fakeEpoch.Unix(), "nbf": fakeEpoch.Unix(),
		"kubernetes.io": map[string]any{"namespace": "svcaccounts-1", "serviceaccount": map[string]any{"name": "default", "uid": "5d2e"}},
	}
	jwks, _ := json.Marshal(map[string]any{"keys": []map[string]string{{"use": "sig", "kty": "RSA", "kid": "k1", "alg": "RS256",
		"n": b64url(key.N.Bytes()), "e": b64url(big.NewInt(int64(key.E)).Bytes())}}})
	setup := func(token string, bind bool) func(f *fixture) {
		return func(f *fixture) {
			n := &oidcNet{fakeNet: f.net, bearer: "sa-token", ca: "CLUSTER CA",
				discovery: `{"issuer":"` + issuer + `","jwks_uri":"https://172.18.0.1:6443/openid/v1/jwks","id_token_signing_alg_values_supported":["RS256"]}`,
				jwks:      string(jwks)}
			if !bind {
				n.bearer = "someone-else"
			}
			f.env.Net = n
			f.net.names["kubernetes.default.svc.cluster.local"] = []netip.Addr{kubeAPI}
			f.env.Vars["KUBERNETES_SERVICE_HOST"] = "10.96.0.1"
			f.env.Vars["KUBERNETES_SERVICE_PORT"] = "443"
			f.fs.add(`C:\var\run\secrets\tokens\sa-token`, token)
			f.fs.add(`C:\var\run\secrets\kubernetes.io\serviceaccount\token`, "sa-token")
			f.fs.add(`C:\var\run\secrets\kubernetes.io\serviceaccount\ca.crt`, "CLUSTER CA")
		}
	}
	argv := []string{"/agnhost", "test-service-account-issuer-discovery", "--token-path", "/var/run/secrets/tokens/sa-token", "--audience", "oidc-discovery-test"}
	good := signedToken(t, key, "k1", claims)
	wrongAud := map[string]any{}
	for k, v := range claims {
		wrongAud[k] = v
	}
	wrongAud["aud"] = []string{"api"}
	runCases(t, []tcase{
		{name: "validates in-cluster", argv: argv, setup: setup(good, true), out: "-",
			errHas: []string{"2024/04/23 10:00:00 OK: Got token\r\n", "validating with in-cluster discovery\r\n",
				"OK: got issuer " + issuer + "\r\n",
				`Full, not-validated claims: ` + "\n" + `openidmetadata.claims{Claims:jwt.Claims{Issuer:"` + issuer + `", Subject:"system:serviceaccount:svcaccounts-1:default", Audience:jwt.Audience{"oidc-discovery-test"}, Expiry:(*jwt.NumericDate)(`,
				"Ensuring Windows DNS availability\r\n", "OK: Resolved host kubernetes.default.svc.cluster.local: [10.96.0.1]\r\n",
				"OK: Constructed OIDC provider for issuer " + issuer + "\r\n", "OK: Validated signature on JWT\r\n", "OK: Got valid claims from token!\r\n",
				"Full, validated claims: \n&openidmetadata.claims{"},
			check: func(t *testing.T, f *fixture, r result) {
				reqs := f.env.Net.(*oidcNet).requests
				want := []string{"GET " + issuer + "/.well-known/openid-configuration auth=Bearer sa-token", "GET https://172.18.0.1:6443/openid/v1/jwks auth=Bearer sa-token"}
				if strings.Join(reqs, "|") != strings.Join(want, "|") {
					t.Errorf("requests %q, want %q", reqs, want)
				}
			}},
		{name: "forbidden in-cluster, external untrusted", argv: argv, setup: setup(good, false), code: 1,
			errHas: []string{"failed to validate with in-cluster discovery: 403 Forbidden: {\"kind\":\"Status\",\"reason\":\"Forbidden\"}\r\n",
				"falling back to validating with external discovery\r\n",
				`Get "` + issuer + `/.well-known/openid-configuration": tls: failed to verify certificate: x509: certificate signed by unknown authority` + "\r\n"}},
		{name: "another audience", argv: argv, setup: setup(signedToken(t, key, "k1", wrongAud), true), code: 1,
			errHas: []string{`failed to validate with in-cluster discovery: oidc: expected audience "oidc-discovery-test" got ["api"]` + "\r\n"}},
		{name: "another key", argv: argv, setup: setup(signedToken(t, other, "k1", claims), true), code: 1,
			errHas: []string{"failed to validate with in-cluster discovery: failed to verify signature: failed to verify id token signature\r\n"}},
		{name: "no token", argv: argv, setup: func(f *fixture) {}, code: 1,
			errOut: "2024/04/23 10:00:00 open /var/run/secrets/tokens/sa-token: No such file or directory\r\n"},
	})
}
