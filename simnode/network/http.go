package network

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"wink.dev/wink/simnode/shell"
)

// HTTP implements shell.Network: it resolves the URL's host as the
// container would, dials it (rows H1-H6), and asks whoever accepted the
// connection for a response: the apiserver (anonymous: 403 Status, or 200
// for the public health and version paths), a kubelet (401), a pod
// (Options.HTTPHandler) or the outside world (Options.HTTPHandler with a nil
// pod). An https URL inside the cluster without insecure fails with
// shell.ErrUntrustedCert (cluster certificates are signed by the cluster CA,
// which containers do not trust).
func (v *view) HTTP(ctx context.Context, method, rawURL string, insecure bool) (*shell.HTTPResponse, error) {
	return v.request(ctx, method, rawURL, nil, nil, nil, insecure)
}

// HTTPBody implements shell.BodySender: HTTP with a request body (wget
// --post-data). A pod whose server listens on a real socket (Listen:
// agnhost nettest, porter, webhook) gets the request itself, body and
// all, as a server on a real node does (row H1).
func (v *view) HTTPBody(ctx context.Context, method, rawURL string, body []byte, insecure bool) (*shell.HTTPResponse, error) {
	return v.request(ctx, method, rawURL, nil, nil, body, insecure)
}

// Do implements shell.HTTPClient: HTTP with the request's headers, trusting
// its RootCAs. A request that reaches the apiserver goes to the real one
// (Options.APIServer), with the container's own credentials.
func (v *view) Do(ctx context.Context, req *shell.HTTPRequest) (*shell.HTTPResponse, error) {
	return v.request(ctx, req.Method, req.URL, req.Header, req.RootCAs, nil, false)
}

func (v *view) request(ctx context.Context, method, rawURL string, header map[string]string, rootCAs, body []byte, insecure bool) (*shell.HTTPResponse, error) {
	if method == "" {
		method = "GET"
	}
	if !strings.Contains(rawURL, "://") {
		rawURL = "http://" + rawURL // what curl does
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("malformed URL %q: %w", rawURL, err)
	}
	scheme := strings.ToLower(u.Scheme)
	port := 80
	switch scheme {
	case "http":
	case "https":
		port = 443
	default:
		return nil, fmt.Errorf("unsupported protocol %q", u.Scheme)
	}
	host := u.Hostname()
	if host == "" {
		return nil, fmt.Errorf("no host in URL %q", rawURL)
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("bad port in URL %q", rawURL)
		}
		port = n
	}
	addrs, err := v.Resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	addr := addrs[0]
	for _, a := range addrs {
		if a.Is4() { // curl.exe -4, and the cluster is IPv4
			addr = a
			break
		}
	}
	t, err := v.dial(ctx, ProtoTCP, addr, port)
	if err != nil {
		return nil, err
	}
	if t.kind == "apiserver" && v.m.opts.APIServer != nil {
		path := u.EscapedPath()
		if u.RawQuery != "" {
			path += "?" + u.RawQuery
		}
		return v.m.opts.APIServer(ctx, &APIServerRequest{
			Method: strings.ToUpper(method), Scheme: scheme, ServerName: host, Path: path,
			Header: header, RootCAs: rootCAs, Insecure: insecure,
		})
	}
	if scheme == "https" && !insecure && t.kind != "external" {
		return nil, fmt.Errorf("%w: %s:%d presents a certificate of the cluster CA", shell.ErrUntrustedCert, host, port)
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	s := v.m.snapshot()
	req := &HTTPRequest{Method: strings.ToUpper(method), Scheme: scheme, Host: host, Path: path, Addr: t.addr, Port: t.port, From: v.refresh(s).ip(s), Body: body}
	switch t.kind {
	case "apiserver":
		return v.m.apiserverResponse(req), nil
	case "kubelet":
		return &shell.HTTPResponse{Status: 401, Headers: map[string]string{"Content-Type": "text/plain; charset=utf-8"}, Body: []byte("Unauthorized")}, nil
	}
	if t.real {
		// A pod on a real node: its own server answers (row H1).
		return realHTTP(ctx, func(ctx context.Context) (net.Conn, error) { return v.m.dialReal(ctx, t) }, req)
	}
	if t.pod != nil {
		if real, ok := v.m.socketOf(t.pod, t.port); ok {
			return realHTTP(ctx, func(ctx context.Context) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, "tcp", real)
			}, req)
		}
		req.Server = v.m.viewOf(s, t.pod)
	}
	var resp *shell.HTTPResponse
	if v.m.opts.HTTPHandler != nil {
		resp = v.m.opts.HTTPHandler(t.pod, t.port, req) // t.pod is nil for "external"
	}
	if resp == nil {
		resp = &shell.HTTPResponse{Status: 200, Headers: map[string]string{"Content-Type": "text/html", "Content-Length": "0"}}
	}
	return resp, nil
}

// apiserverResponse is what kube-apiserver answers an anonymous request:
// system:public-info-viewer lets anyone read /healthz, /livez, /readyz and
// /version; everything else is 403 Forbidden with a Status (upstream
// e2e dns.go:122 only needs curl.exe to get an answer: exit 0).
func (m *Model) apiserverResponse(req *HTTPRequest) *shell.HTTPResponse {
	path, _, _ := strings.Cut(req.Path, "?")
	h := map[string]string{"Content-Type": "application/json", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache, private"}
	switch path {
	case "/healthz", "/livez", "/readyz":
		if req.Method == "GET" || req.Method == "HEAD" {
			return &shell.HTTPResponse{Status: 200, Headers: map[string]string{"Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff"}, Body: []byte("ok")}
		}
	case "/version":
		if req.Method == "GET" {
			ver := m.opts.KubernetesVersion
			major, minor := "1", ""
			if parts := strings.SplitN(strings.TrimPrefix(ver, "v"), ".", 3); len(parts) >= 2 {
				major, minor = parts[0], parts[1]
			}
			body, _ := json.MarshalIndent(map[string]string{
				"major": major, "minor": minor, "gitVersion": ver,
				"goVersion": "go1.25.7", "compiler": "gc", "platform": "linux/amd64",
			}, "", "  ")
			return &shell.HTTPResponse{Status: 200, Headers: h, Body: body}
		}
	}
	status := map[string]any{
		"kind":       "Status",
		"apiVersion": "v1",
		"metadata":   map[string]any{},
		"status":     "Failure",
		"message":    forbiddenMessage(req.Method, path),
		"reason":     "Forbidden",
		"details":    map[string]any{},
		"code":       403,
	}
	body, _ := json.MarshalIndent(status, "", "  ")
	return &shell.HTTPResponse{Status: 403, Headers: h, Body: body}
}

// forbiddenMessage is the RBAC denial for system:anonymous, for resource
// paths (/api/v1/..., /apis/<group>/<version>/...) and other paths.
func forbiddenMessage(method, path string) string {
	const user = `User "system:anonymous"`
	parts := strings.Split(strings.Trim(path, "/"), "/")
	group, rest := "", []string(nil)
	switch {
	case len(parts) >= 3 && parts[0] == "api":
		rest = parts[2:]
	case len(parts) >= 4 && parts[0] == "apis":
		group, rest = parts[1], parts[3:]
	}
	ns := ""
	if len(rest) >= 3 && rest[0] == "namespaces" {
		ns, rest = rest[1], rest[2:]
	}
	if len(rest) == 0 || len(rest) > 3 {
		return fmt.Sprintf("forbidden: %s cannot %s path %q", user, strings.ToLower(method), path)
	}
	base, name := rest[0], ""
	if len(rest) >= 2 {
		name = rest[1]
	}
	resource := base
	if len(rest) == 3 {
		resource += "/" + rest[2]
	}
	verb := map[string]string{"GET": "get", "HEAD": "get", "POST": "create", "PUT": "update", "PATCH": "patch", "DELETE": "delete"}[strings.ToUpper(method)]
	if name == "" {
		switch verb {
		case "get":
			verb = "list"
		case "delete":
			verb = "deletecollection"
		}
	}
	if verb == "" {
		verb = strings.ToLower(method)
	}
	subject := base
	if name != "" {
		subject = fmt.Sprintf("%s %q", base, name)
	}
	msg := fmt.Sprintf("%s is forbidden: %s cannot %s resource %q in API group %q", subject, user, verb, resource, group)
	if ns != "" {
		msg += fmt.Sprintf(" in the namespace %q", ns)
	} else {
		msg += " at the cluster scope"
	}
	return msg
}

var _ shell.HTTPClient = (*view)(nil)
