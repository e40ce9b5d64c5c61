package kubeletapi

import (
	"crypto/sha256"
	"net/http"
	"sync"
	"time"

	"github.com/virtual-kubelet/virtual-kubelet/node/nodeutil"
	"k8s.io/apiserver/pkg/authentication/authenticator"
)

// verifiedTTL is how long a verified client certificate chain is taken as
// verified: a rotated client CA is in force for every client within it.
const verifiedTTL = time.Minute

// maxVerified bounds the chains VerifiedCerts holds: the clients of the
// kubelet API are few (the apiserver, metrics-server, a monitoring agent).
const maxVerified = 256

// VerifiedCerts remembers, for every node of one simnode, who a client
// certificate chain verified against the client CA authenticated as. Each
// kubelet verifies each request's chain itself; 5,000 simulated kubelets
// in one process verified metrics-server's same chain 20,000 times a
// minute (x509 verification was 15 % of simnode's CPU while 5,000 nodes
// came up, issue 20). Who a request authenticates as is unchanged: only a
// chain that verified is remembered, until verifiedTTL or the leaf's
// NotAfter, whichever is sooner.
type VerifiedCerts struct {
	mu      sync.Mutex
	now     func() time.Time
	entries map[[sha256.Size]byte]verified
}

type verified struct {
	resp  authenticator.Response
	until time.Time
}

// NewVerifiedCerts is an empty cache.
func NewVerifiedCerts() *VerifiedCerts {
	return &VerifiedCerts{now: time.Now, entries: map[[sha256.Size]byte]verified{}}
}

// chainKey is the hash of a request's certificate chain, or false for a
// request the cache does not serve: no client certificate, or a bearer
// token too (the token authenticator may be the one that answers).
func chainKey(r *http.Request) ([sha256.Size]byte, bool) {
	if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 || r.Header.Get("Authorization") != "" {
		return [sha256.Size]byte{}, false
	}
	h := sha256.New()
	for _, c := range r.TLS.PeerCertificates {
		h.Write(c.Raw)
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k, true
}

// Wrap is auth, asking the cache first for requests with a client
// certificate and remembering the chains that verified.
func (v *VerifiedCerts) Wrap(auth nodeutil.Auth) nodeutil.Auth {
	return cachedAuth{Auth: auth, certs: v}
}

type cachedAuth struct {
	nodeutil.Auth
	certs *VerifiedCerts
}

func (a cachedAuth) AuthenticateRequest(r *http.Request) (*authenticator.Response, bool, error) {
	key, ok := chainKey(r)
	if !ok {
		return a.Auth.AuthenticateRequest(r)
	}
	v := a.certs
	now := v.now()
	v.mu.Lock()
	e, hit := v.entries[key]
	v.mu.Unlock()
	if hit && now.Before(e.until) {
		resp := e.resp
		return &resp, true, nil
	}
	resp, ok, err := a.Auth.AuthenticateRequest(r)
	if err != nil || !ok || resp == nil {
		return resp, ok, err
	}
	until := now.Add(verifiedTTL)
	if na := r.TLS.PeerCertificates[0].NotAfter; na.Before(until) {
		until = na
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.entries) >= maxVerified {
		for k, e := range v.entries {
			if !now.Before(e.until) {
				delete(v.entries, k)
			}
		}
		if len(v.entries) >= maxVerified {
			clear(v.entries)
		}
	}
	v.entries[key] = verified{resp: *resp, until: until}
	return resp, ok, err
}
