package network

import (
	"bytes"
	"context"
	"crypto/tls"
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

// realHTTP sends req to the real listener at addr (a simulated server's
// socket, sockets.go) and returns its answer: what a client in the
// simulated cluster gets from a server that serves for real. TLS is not
// verified: the caller has already refused an untrusted certificate.
func realHTTP(ctx context.Context, addr string, req *HTTPRequest) (*shell.HTTPResponse, error) {
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
	dial := func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	}
	client := &http.Client{Transport: &http.Transport{
		DialContext:       dial,
		TLSClientConfig:   &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // see above
		DisableKeepAlives: true,
	}}
	resp, err := client.Do(hr)
	if err != nil {
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
