package network_test

import (
	"context"
	"errors"
	"testing"

	"wink.dev/wink/simnode/network"
	"wink.dev/wink/simnode/shell"
)

// A container's request to the kubernetes Service (its ClusterIP, its
// name, or the endpoint address) reaches Options.APIServer, the real
// apiserver, with the container's own headers and trust and the name it
// used (rows H1, H6); requests to pods do not.
func TestAPIServerRequests(t *testing.T) {
	c := newCluster()
	var got []*network.APIServerRequest
	m := c.model(func(o *network.Options) {
		o.APIServer = func(_ context.Context, r *network.APIServerRequest) (*shell.HTTPResponse, error) {
			got = append(got, r)
			if len(r.RootCAs) == 0 && !r.Insecure {
				return nil, shell.ErrUntrustedCert
			}
			return &shell.HTTPResponse{Status: 200, Body: []byte("real")}, nil
		}
	})
	win := c.from(m, "win-client").(shell.HTTPClient)
	r, err := win.Do(ctx, &shell.HTTPRequest{Method: "GET", URL: "https://kubernetes.default.svc.cluster.local/.well-known/openid-configuration",
		Header: map[string]string{"Authorization": "Bearer t"}, RootCAs: []byte("CA")})
	if err != nil || string(r.Body) != "real" {
		t.Fatalf("Do: %+v %v", r, err)
	}
	if len(got) != 1 || got[0].ServerName != "kubernetes.default.svc.cluster.local" || got[0].Path != "/.well-known/openid-configuration" ||
		got[0].Header["Authorization"] != "Bearer t" || string(got[0].RootCAs) != "CA" || got[0].Method != "GET" {
		t.Fatalf("apiserver got %+v", got)
	}
	// the endpoint address itself (the discovery document's jwks_uri)
	if _, err := win.Do(ctx, &shell.HTTPRequest{Method: "GET", URL: "https://" + apiIP + ":6443/openid/v1/jwks", RootCAs: []byte("CA")}); err != nil || got[1].ServerName != apiIP {
		t.Fatalf("Do to the endpoint: %v %+v", err, got)
	}
	// curl without -k trusts the system roots only
	if _, err := c.from(m, "win-client").HTTP(ctx, "GET", "https://kubernetes/", false); !errors.Is(err, shell.ErrUntrustedCert) {
		t.Errorf("HTTP without insecure: %v, want untrusted", err)
	}
	if r, err := c.from(m, "win-client").HTTP(ctx, "GET", "https://kubernetes/healthz", true); err != nil || string(r.Body) != "real" || !got[len(got)-1].Insecure {
		t.Errorf("curl -k: %+v %v", r, err)
	}
	n := len(got)
	if r, err := win.Do(ctx, &shell.HTTPRequest{Method: "GET", URL: "http://10.244.1.10/"}); err != nil || string(r.Body) != "win-web" || len(got) != n {
		t.Errorf("a pod: %+v %v (apiserver asked %d times)", r, err, len(got)-n)
	}
}
