package wire

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"wink.dev/wink/simnode/network"
	"wink.dev/wink/simnode/shell"
)

// APIServer is network.Options.APIServer over the real apiserver at server
// (simnode's kubeconfig server URL): a container's request to the
// kubernetes Service reaches the control plane as on a real node, with the
// container's own credentials (its headers), its TLS client verifying the
// apiserver's certificate against the roots it trusts for the name it
// used. Nothing of simnode's own identity goes with it.
func APIServer(server string) (func(context.Context, *network.APIServerRequest) (*shell.HTTPResponse, error), error) {
	u, err := url.Parse(server)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("apiserver URL %q: want https://host:port", server)
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "443")
	}
	return func(ctx context.Context, r *network.APIServerRequest) (*shell.HTTPResponse, error) {
		tlsCfg := &tls.Config{ServerName: r.ServerName, InsecureSkipVerify: r.Insecure, MinVersion: tls.VersionTLS12}
		if len(r.RootCAs) > 0 {
			pool := x509.NewCertPool()
			pool.AppendCertsFromPEM(r.RootCAs)
			tlsCfg.RootCAs = pool
		}
		tr := &http.Transport{
			DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
				return (&net.Dialer{Timeout: 10 * time.Second}).DialContext(ctx, "tcp", addr)
			},
			TLSClientConfig:   tlsCfg,
			DisableKeepAlives: true,
		}
		defer tr.CloseIdleConnections()
		client := &http.Client{Transport: tr, Timeout: 30 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		scheme := r.Scheme
		if scheme == "" {
			scheme = "https"
		}
		req, err := http.NewRequestWithContext(ctx, r.Method, scheme+"://"+addr+r.Path, nil)
		if err != nil {
			return nil, err
		}
		req.Host = r.ServerName
		for k, v := range r.Header {
			req.Header.Set(k, v)
		}
		resp, err := client.Do(req)
		if err != nil {
			var unknown x509.UnknownAuthorityError
			var host x509.HostnameError
			var invalid x509.CertificateInvalidError
			var verify *tls.CertificateVerificationError
			if errors.As(err, &unknown) || errors.As(err, &host) || errors.As(err, &invalid) || errors.As(err, &verify) {
				return nil, fmt.Errorf("%w: %v", shell.ErrUntrustedCert, errors.Unwrap(err))
			}
			return nil, fmt.Errorf("%w: %v", shell.ErrRefused, err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
		if err != nil {
			return nil, err
		}
		h := map[string]string{}
		for k, v := range resp.Header {
			if len(v) > 0 {
				h[k] = v[0]
			}
		}
		return &shell.HTTPResponse{Status: resp.StatusCode, Headers: h, Body: body}, nil
	}, nil
}
