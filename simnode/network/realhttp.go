package network

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"wink.dev/wink/simnode/shell"
)

// realTimeout bounds a request to a real listener (a Go client's usual
// patience; the simulated server answers at once).
const realTimeout = 30 * time.Second

// realHTTP sends req over a connection from dial (to a simulated server's
// socket, sockets.go, or to a pod on a real node through
// Options.ClusterDial) and returns the answer: what a client in the
// simulated cluster gets from a server that serves for real. TLS is not
// verified: the caller has already refused an untrusted certificate. A
// dial error that is a *RuleError is returned as it is (refused or
// timeout, with its reason); any other failure is a refusal.
func realHTTP(ctx context.Context, dial func(ctx context.Context) (net.Conn, error), req *HTTPRequest) (*shell.HTTPResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, realTimeout)
	defer cancel()
	host := req.Host
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	url := req.Scheme + "://" + host + ":" + strconv.Itoa(req.Port) + req.Path
	var body io.Reader
	if req.Body != nil {
		body = bytes.NewReader(req.Body)
	}
	hr, err := http.NewRequestWithContext(ctx, req.Method, url, body)
	if err != nil {
		return nil, fmt.Errorf("malformed request %s %s: %w", req.Method, url, err)
	}
	tr := &http.Transport{
		DialContext:       func(ctx context.Context, _, _ string) (net.Conn, error) { return dial(ctx) },
		TLSClientConfig:   &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // see above
		DisableKeepAlives: true,
	}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Do(hr)
	if err != nil {
		var re *RuleError
		if errors.As(err, &re) {
			return nil, re
		}
		return nil, fmt.Errorf("%w: %s:%d: %v", shell.ErrRefused, req.Host, req.Port, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%w: %s:%d: %v", shell.ErrRefused, req.Host, req.Port, err)
	}
	headers := map[string]string{}
	for k, v := range resp.Header {
		headers[k] = strings.Join(v, ", ")
	}
	headers["Content-Length"] = strconv.Itoa(len(b))
	return &shell.HTTPResponse{Status: resp.StatusCode, Headers: headers, Body: b}, nil
}

var _ shell.BodySender = (*view)(nil)
