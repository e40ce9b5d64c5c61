package network

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"strings"
	"time"

	"wink.dev/wink/simnode/shell/process"
)

// This file is `agnhost test-service-account-issuer-discovery`
// (test/images/agnhost/openidmetadata, v1.35.4), which upstream's
// "ServiceAccountIssuerDiscovery should support OIDC discovery of service
// account issuer" [Conformance] runs (test/e2e/auth/service_accounts.go):
// it reads its projected token, fetches the issuer's discovery document
// and JWKS from the apiserver with the in-cluster configuration (the
// service account's token and CA), verifies the token as go-oidc v2 does,
// and exits 0; failing that it tries again without in-cluster credentials
// (external discovery) and exits 1 when that fails too. Every request goes
// through the container's network to the real apiserver
// (process.HTTPClient; rows E, H1, every kubelet version): nothing here
// decides the outcome.

// inClusterDir is rest.InClusterConfig's service account directory.
const inClusterDir = "/var/run/secrets/kubernetes.io/serviceaccount/"

// jwtClaims are the token claims openidmetadata.claims reads.
type jwtClaims struct {
	Issuer    string          `json:"iss"`
	Subject   string          `json:"sub"`
	Audience  json.RawMessage `json:"aud"`
	Expiry    *int64          `json:"exp"`
	NotBefore *int64          `json:"nbf"`
	IssuedAt  *int64          `json:"iat"`
	ID        string          `json:"jti"`
	K8s       struct {
		Namespace      string `json:"namespace"`
		ServiceAccount struct {
			Name string `json:"name"`
			UID  string `json:"uid"`
		} `json:"serviceaccount"`
	} `json:"kubernetes.io"`
}

func (c *jwtClaims) audiences() []string {
	var one string
	if json.Unmarshal(c.Audience, &one) == nil {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(c.Audience, &many)
	return many
}

// goSyntax is the claims as log.Printf("%#v") prints openidmetadata.claims
// (pointers as addresses).
func (c *jwtClaims) goSyntax(ptr bool) string {
	date := func(v *int64, addr string) string {
		if v == nil {
			return "(*jwt.NumericDate)(nil)"
		}
		return "(*jwt.NumericDate)(" + addr + ")"
	}
	var aud []string
	for _, a := range c.audiences() {
		aud = append(aud, fmt.Sprintf("%q", a))
	}
	s := fmt.Sprintf(`openidmetadata.claims{Claims:jwt.Claims{Issuer:%q, Subject:%q, Audience:jwt.Audience{%s}, Expiry:%s, NotBefore:%s, IssuedAt:%s, ID:%q}, Kubernetes:openidmetadata.kubeClaims{Namespace:%q, ServiceAccount:openidmetadata.kubeName{Name:%q, UID:%q}}}`,
		c.Issuer, c.Subject, strings.Join(aud, ", "), date(c.Expiry, "0xc0000a4f08"), date(c.NotBefore, "0xc0000a4f10"), date(c.IssuedAt, "0xc0000a4f18"), c.ID,
		c.K8s.Namespace, c.K8s.ServiceAccount.Name, c.K8s.ServiceAccount.UID)
	if ptr {
		s = "&" + s
	}
	return s
}

// oidcClient is the http.Client of one attempt: in-cluster (bearer token,
// cluster CA) or external (no credentials, system roots).
type oidcClient struct {
	p       *process.Proc
	bearer  string
	rootCAs []byte
}

func (c *oidcClient) get(rawURL string) (status string, body []byte, err error) {
	hc, ok := c.p.Net().(process.HTTPClient)
	if !ok {
		return "", nil, fmt.Errorf("Get %q: dial tcp: connect: network is unreachable", rawURL)
	}
	h := map[string]string{"User-Agent": "Go-http-client/1.1"}
	if c.bearer != "" {
		h["Authorization"] = "Bearer " + c.bearer
	}
	resp, err := hc.Do(c.p.Ctx, &process.HTTPRequest{Method: "GET", URL: rawURL, Header: h, RootCAs: c.rootCAs})
	if err != nil {
		host := rawURL
		if u, perr := url.Parse(rawURL); perr == nil {
			host = u.Hostname()
		}
		switch {
		case errors.Is(err, process.ErrUntrustedCert):
			return "", nil, fmt.Errorf("Get %q: tls: failed to verify certificate: x509: certificate signed by unknown authority", rawURL)
		case errors.Is(err, process.ErrNameNotFound):
			return "", nil, fmt.Errorf("Get %q: dial tcp: lookup %s: no such host", rawURL, host)
		case errors.Is(err, process.ErrTimeout):
			return "", nil, fmt.Errorf("Get %q: dial tcp %s:443: i/o timeout", rawURL, host)
		}
		return "", nil, fmt.Errorf("Get %q: dial tcp %s:443: connect: connection refused", rawURL, host)
	}
	return fmt.Sprintf("%d %s", resp.Status, httpStatusText(resp.Status)), resp.Body, nil
}

func httpStatusText(code int) string {
	switch code {
	case 200:
		return "OK"
	case 401:
		return "Unauthorized"
	case 403:
		return "Forbidden"
	case 404:
		return "Not Found"
	case 500:
		return "Internal Server Error"
	case 503:
		return "Service Unavailable"
	}
	return ""
}

// agnhostOIDC is openidmetadata.main.
func agnhostOIDC(p *process.Proc, flags map[string]string) int {
	tokenPath, audience := flags["--token-path"], flags["--audience"]
	fatal := func(msg string) int {
		logf(p, "%s", msg)
		return 1
	}
	raw, err := p.ReadFile(tokenPath)
	if err != nil {
		return fatal(fmt.Sprintf("open %s: %s", tokenPath, process.PosixFileError(err, false)))
	}
	logf(p, "OK: Got token")
	logf(p, "validating with in-cluster discovery")
	host, _ := p.Vars.Get("KUBERNETES_SERVICE_HOST")
	port, _ := p.Vars.Get("KUBERNETES_SERVICE_PORT")
	if host == "" || port == "" {
		return fatal("unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined")
	}
	saToken, err := p.ReadFile(inClusterDir + "token")
	if err != nil {
		return fatal(fmt.Sprintf("open %stoken: %s", inClusterDir, process.PosixFileError(err, false)))
	}
	ca, err := p.ReadFile(inClusterDir + "ca.crt")
	if err != nil {
		klogf(p, 'E', "config.go:553", "Expected to load root CA config from %sca.crt, but got err: open %sca.crt: %s", inClusterDir, inClusterDir, process.PosixFileError(err, false))
	}
	token := strings.TrimSpace(string(raw))
	inCluster := &oidcClient{p: p, bearer: strings.TrimSpace(string(saToken)), rootCAs: ca}
	err = oidcValidate(p, inCluster, token, audience)
	var fe *fatalError
	if errors.As(err, &fe) {
		return fatal(fe.msg)
	}
	if err == nil {
		return 0
	}
	if p.Done() {
		return p.Killed()
	}
	logf(p, "failed to validate with in-cluster discovery: %v", err)
	logf(p, "falling back to validating with external discovery")
	err = oidcValidate(p, &oidcClient{p: p}, token, audience)
	if errors.As(err, &fe) {
		return fatal(fe.msg)
	}
	if err != nil {
		if p.Done() {
			return p.Killed()
		}
		return fatal(err.Error())
	}
	return 0
}

func b64(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}

// fatalError is what openidmetadata ends with log.Fatal rather than
// return (the attempt cannot go on, nor a second one).
type fatalError struct{ msg string }

func (e *fatalError) Error() string { return e.msg }

// oidcValidate is openidmetadata.validate: nil, a failed attempt, or a
// *fatalError.
func oidcValidate(p *process.Proc, c *oidcClient, raw, audience string) error {
	parts := strings.Split(raw, ".")
	if len(parts) != 3 {
		return &fatalError{"go-jose/go-jose: compact JWS format must have three parts"}
	}
	payload, perr := b64(parts[1])
	var claims jwtClaims
	if perr != nil || json.Unmarshal(payload, &claims) != nil {
		return &fatalError{"go-jose/go-jose/jwt: error in cryptographic primitive"}
	}
	logf(p, "OK: got issuer %s", claims.Issuer)
	logf(p, "Full, not-validated claims: \n%s", claims.goSyntax(false))

	if p.Win {
		// ensureWindowsDNSAvailability: net.LookupHost, every 5 s for 20 s.
		logf(p, "Ensuring Windows DNS availability")
		u, uerr := url.Parse(claims.Issuer)
		if uerr != nil {
			return &fatalError{uerr.Error()}
		}
		resolved := false
		for i := 0; i < 5; i++ {
			addrs, rerr := p.Resolve(u.Host)
			if p.Done() {
				return errors.New("context canceled")
			}
			if rerr == nil {
				var ips []string
				for _, a := range addrs {
					ips = append(ips, a.String())
				}
				logf(p, "OK: Resolved host %s: [%s]", u.Host, strings.Join(ips, " "))
				resolved = true
				break
			}
			logf(p, "lookup %s: no such host", u.Host)
			if i < 4 && !p.Sleep(5*time.Second) {
				return errors.New("context canceled")
			}
		}
		if !resolved {
			return &fatalError{"timed out waiting for the condition"}
		}
	}

	// oidc.NewProvider
	wellKnown := strings.TrimSuffix(claims.Issuer, "/") + "/.well-known/openid-configuration"
	status, body, gerr := c.get(wellKnown)
	if gerr != nil {
		return gerr
	}
	if !strings.HasPrefix(status, "200 ") {
		return fmt.Errorf("%s: %s", status, body)
	}
	var disc struct {
		Issuer  string `json:"issuer"`
		JWKSURI string `json:"jwks_uri"`
	}
	if jerr := json.Unmarshal(body, &disc); jerr != nil {
		return fmt.Errorf("oidc: failed to decode provider discovery object: %v", jerr)
	}
	if disc.Issuer != claims.Issuer {
		return fmt.Errorf("oidc: issuer did not match the issuer returned by provider, expected %q got %q", claims.Issuer, disc.Issuer)
	}
	logf(p, "OK: Constructed OIDC provider for issuer %v", claims.Issuer)

	// IDTokenVerifier.Verify (go-oidc v2)
	aud := claims.audiences()
	found := false
	for _, a := range aud {
		found = found || a == audience
	}
	if audience == "" {
		return errors.New("oidc: invalid configuration, clientID must be provided or SkipClientIDCheck must be set")
	}
	if !found {
		return fmt.Errorf("oidc: expected audience %q got %q", audience, aud)
	}
	if claims.Expiry != nil && time.Unix(*claims.Expiry, 0).Before(p.Now()) {
		return fmt.Errorf("oidc: token is expired (Token Expiry: %v)", time.Unix(*claims.Expiry, 0))
	}
	hdrJSON, herr := b64(parts[0])
	var hdr struct {
		Alg string `json:"alg"`
		Kid string `json:"kid"`
	}
	if herr != nil || json.Unmarshal(hdrJSON, &hdr) != nil {
		return errors.New("oidc: malformed jwt: illegal base64 data")
	}
	if hdr.Alg != "RS256" && hdr.Alg != "ES256" {
		return fmt.Errorf("oidc: id token signed with unsupported algorithm, expected [\"RS256\" \"ES256\"] got %q", hdr.Alg)
	}
	status, body, gerr = c.get(disc.JWKSURI)
	if gerr != nil {
		return fmt.Errorf("failed to verify signature: fetching keys oidc: get keys failed: %v", gerr)
	}
	if !strings.HasPrefix(status, "200 ") {
		return fmt.Errorf("failed to verify signature: fetching keys oidc: get keys failed: %s %s", status, body)
	}
	if verr := verifyJWS(parts, hdr.Alg, hdr.Kid, body); verr != nil {
		return fmt.Errorf("failed to verify signature: %v", verr)
	}
	logf(p, "OK: Validated signature on JWT")
	logf(p, "OK: Got valid claims from token!")
	logf(p, "Full, validated claims: \n%s", claims.goSyntax(true))
	return nil
}

// verifyJWS checks the compact JWS parts against the JWKS document's keys
// (the key of the header's kid, or any key when it names none).
func verifyJWS(parts []string, alg, kid string, jwks []byte) error {
	var set struct {
		Keys []struct {
			Kty string `json:"kty"`
			Kid string `json:"kid"`
			N   string `json:"n"`
			E   string `json:"e"`
			Crv string `json:"crv"`
			X   string `json:"x"`
			Y   string `json:"y"`
		} `json:"keys"`
	}
	if err := json.Unmarshal(jwks, &set); err != nil {
		return fmt.Errorf("fetching keys oidc: failed to decode keys: %v", err)
	}
	sig, err := b64(parts[2])
	if err != nil {
		return errors.New("illegal base64 data in signature")
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	for _, k := range set.Keys {
		if kid != "" && k.Kid != kid {
			continue
		}
		switch {
		case alg == "RS256" && k.Kty == "RSA":
			n, err1 := b64(k.N)
			e, err2 := b64(k.E)
			if err1 != nil || err2 != nil {
				continue
			}
			pub := &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}
			if rsa.VerifyPKCS1v15(pub, crypto.SHA256, digest[:], sig) == nil {
				return nil
			}
		case alg == "ES256" && k.Kty == "EC" && k.Crv == "P-256" && len(sig) == 64:
			x, err1 := b64(k.X)
			y, err2 := b64(k.Y)
			if err1 != nil || err2 != nil {
				continue
			}
			pub := &ecdsa.PublicKey{Curve: elliptic.P256(), X: new(big.Int).SetBytes(x), Y: new(big.Int).SetBytes(y)}
			if ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
				return nil
			}
		}
	}
	return errors.New("failed to verify id token signature")
}
