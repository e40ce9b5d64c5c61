package kubeletapi

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/remotecommand"
	utilexec "k8s.io/utils/exec"

	"wink.dev/wink/simnode/internal/logs"
)

type fakeBackend struct{ buf *logs.Buffer }

func (b *fakeBackend) ContainerLogs(ns, pod, c string, previous bool) (*logs.Buffer, error) {
	if pod != "web" || c != "c" || previous {
		return nil, fmt.Errorf("not found")
	}
	return b.buf, nil
}
func (b *fakeBackend) GetPods(context.Context) ([]*corev1.Pod, error) { return nil, nil }
func (b *fakeBackend) Now() time.Time                                 { return time.Now() }

// Exec: `whoami` prints the user, `exit N` exits with N.
func (b *fakeBackend) Exec(_ context.Context, ns, pod, c string, cmd []string, _ io.Reader, stdout, _ io.Writer) error {
	if len(cmd) == 2 && cmd[0] == "exit" {
		n := 0
		fmt.Sscanf(cmd[1], "%d", &n)
		return utilexec.CodeExitError{Err: fmt.Errorf("command '%s' exited with %d", strings.Join(cmd, " "), n), Code: n}
	}
	fmt.Fprint(stdout, "user manager\\containeruser\r\n")
	return nil
}
func (b *fakeBackend) Attach(context.Context, string, string, string, io.Writer, io.Writer) error {
	return nil
}
func (b *fakeBackend) PortForward(context.Context, string, string, int32, io.ReadWriteCloser) error {
	return nil
}

// fakeAPIServer is an HTTP server answering TokenReview (token
// "alice-token" is alice, "bob-token" is bob) and SubjectAccessReview
// (alice and the apiserver's client certificate may use nodes/proxy of
// node n1; nobody else), and a clientset talking to it. (The webhook
// authenticator and authorizer use the REST client directly, so the fake
// clientset of client-go cannot serve them.)
func fakeAPIServer(t *testing.T) (kubernetes.Interface, func() []authorizationv1.ResourceAttributes) {
	var mu sync.Mutex
	var seen []authorizationv1.ResourceAttributes
	mux := http.NewServeMux()
	mux.HandleFunc("/apis/authentication.k8s.io/v1/tokenreviews", func(w http.ResponseWriter, r *http.Request) {
		var tr authenticationv1.TokenReview
		if err := json.NewDecoder(r.Body).Decode(&tr); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		switch tr.Spec.Token {
		case "alice-token":
			tr.Status = authenticationv1.TokenReviewStatus{Authenticated: true, User: authenticationv1.UserInfo{Username: "alice"}}
		case "bob-token":
			tr.Status = authenticationv1.TokenReviewStatus{Authenticated: true, User: authenticationv1.UserInfo{Username: "bob"}}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(tr)
	})
	mux.HandleFunc("/apis/authorization.k8s.io/v1/subjectaccessreviews", func(w http.ResponseWriter, r *http.Request) {
		var sar authorizationv1.SubjectAccessReview
		if err := json.NewDecoder(r.Body).Decode(&sar); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		ra := sar.Spec.ResourceAttributes
		mu.Lock()
		seen = append(seen, *ra)
		mu.Unlock()
		sar.Status.Allowed = (sar.Spec.User == "alice" || sar.Spec.User == "kube-apiserver-kubelet-client") &&
			ra.Resource == "nodes" && ra.Name == "n1" && ra.Subresource == "proxy"
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(sar)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	client, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	return client, func() []authorizationv1.ResourceAttributes {
		mu.Lock()
		defer mu.Unlock()
		return append([]authorizationv1.ResourceAttributes(nil), seen...)
	}
}

func writePEM(t *testing.T, path, typ string, der []byte) {
	t.Helper()
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
}

// clientCerts makes a client CA (written to dir/client-ca.crt) and a
// client certificate it signed, and one signed by nobody.
func clientCerts(t *testing.T, dir string) (caFile string, good, rogue tls.Certificate) {
	t.Helper()
	mk := func(cn string, parent *x509.Certificate, parentKey *ecdsa.PrivateKey, isCA bool) (*x509.Certificate, *ecdsa.PrivateKey, []byte) {
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, BasicConstraintsValid: true, IsCA: isCA,
			ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
		}
		if parent == nil {
			parent, parentKey = tmpl, key
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, key.Public(), parentKey)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := x509.ParseCertificate(der)
		return c, key, der
	}
	ca, caKey, caDER := mk("client-ca", nil, nil, true)
	caFile = filepath.Join(dir, "client-ca.crt")
	writePEM(t, caFile, "CERTIFICATE", caDER)
	_, k, der := mk("kube-apiserver-kubelet-client", ca, caKey, false)
	good = tls.Certificate{Certificate: [][]byte{der}, PrivateKey: k}
	_, rk, rder := mk("kube-apiserver-kubelet-client", nil, nil, false)
	rogue = tls.Certificate{Certificate: [][]byte{rder}, PrivateKey: rk}
	return caFile, good, rogue
}

func TestKubeletAPIAuth(t *testing.T) {
	dir := t.TempDir()
	ca, err := LoadOrCreateCA(filepath.Join(dir, "pki"))
	if err != nil {
		t.Fatal(err)
	}
	// A second load reads the same CA back.
	again, err := LoadOrCreateCA(filepath.Join(dir, "pki"))
	if err != nil || !again.Cert.Equal(ca.Cert) {
		t.Fatalf("CA not persisted: %v", err)
	}
	ip := net.ParseIP("127.0.0.1")
	cert, err := ca.ServingCert("n1", ip)
	if err != nil {
		t.Fatal(err)
	}
	if cert.Leaf.DNSNames[0] != "n1" || !cert.Leaf.IPAddresses[0].Equal(ip) {
		t.Fatalf("SANs %v %v", cert.Leaf.DNSNames, cert.Leaf.IPAddresses)
	}
	caFile, goodCert, rogueCert := clientCerts(t, dir)
	clientCA, err := ClientCA(caFile)
	if err != nil {
		t.Fatal(err)
	}
	client, seen := fakeAPIServer(t)
	auth, err := WebhookAuth(client, "n1", clientCA, NewVerifiedCerts())
	if err != nil {
		t.Fatal(err)
	}
	store := logs.NewStore()
	buf := store.Open(logs.Key{PodUID: "u", Container: "c"})
	buf.Append("stdout", time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC), "line one")
	buf.Append("stdout", time.Date(2025, 6, 1, 12, 0, 1, 0, time.UTC), "line two")

	l, port, err := Listen("127.0.0.1", 0)
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(l, cert, auth, Handler(&fakeBackend{buf: buf}), slogDiscard())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = srv.Serve(ctx) }()

	roots := x509.NewCertPool()
	roots.AddCert(ca.Cert)
	base := fmt.Sprintf("https://127.0.0.1:%d", port)
	for _, tc := range []struct {
		name     string
		path     string
		token    string
		cert     *tls.Certificate
		wantCode int
		wantBody string
	}{
		{"anonymous healthz", "/healthz", "", nil, http.StatusUnauthorized, "Unauthorized"},
		{"anonymous logs", "/containerLogs/default/web/c", "", nil, http.StatusUnauthorized, "Unauthorized"},
		{"unknown token", "/healthz", "nobody-token", nil, http.StatusUnauthorized, "Unauthorized"},
		{"rogue client cert", "/healthz", "", &rogueCert, http.StatusUnauthorized, "Unauthorized"},
		{"user without nodes/proxy", "/containerLogs/default/web/c", "bob-token", nil, http.StatusForbidden, "Forbidden"},
		{"user with nodes/proxy", "/healthz", "alice-token", nil, http.StatusOK, "ok"},
		{"apiserver client cert", "/containerLogs/default/web/c", "", &goodCert, http.StatusOK, "line one\nline two\n"},
		{"apiserver client cert, its chain remembered", "/containerLogs/default/web/c", "", &goodCert, http.StatusOK, "line one\nline two\n"},
		{"rogue client cert again", "/healthz", "", &rogueCert, http.StatusUnauthorized, "Unauthorized"},
		{"tail and timestamps", "/containerLogs/default/web/c?tailLines=1&timestamps=true", "alice-token", nil, http.StatusOK, "2025-06-01T12:00:01.000000000Z line two\n"},
		{"exec without stream upgrade", "/exec/default/web/c?command=whoami&output=1", "alice-token", nil, http.StatusBadRequest, "unable to upgrade"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tlsConfig := &tls.Config{RootCAs: roots, ServerName: "n1"}
			if tc.cert != nil {
				tlsConfig.Certificates = []tls.Certificate{*tc.cert}
			}
			hc := &http.Client{Transport: &http.Transport{TLSClientConfig: tlsConfig}, Timeout: 10 * time.Second}
			req, _ := http.NewRequest(http.MethodGet, base+tc.path, nil)
			if tc.token != "" {
				req.Header.Set("Authorization", "Bearer "+tc.token)
			}
			resp, err := hc.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.wantCode || !strings.Contains(string(body), tc.wantBody) {
				t.Fatalf("got %d %q, want %d %q", resp.StatusCode, body, tc.wantCode, tc.wantBody)
			}
		})
	}
	// kubectl exec's view (B16): output, and a non-zero exit code as an
	// exec.ExitError carrying the code (kubectl exits with it). Only SPDY
	// reaches a kubelet: kubectl's websocket (v5) streams are translated to
	// SPDY by kube-apiserver (pkg/registry/core/pod/rest/subresources.go,
	// TranslateStreamCloseWebsocketRequests beta on since v1.30,
	// PortForwardWebsockets beta on since v1.31).
	restCfg := &rest.Config{Host: base, BearerToken: "alice-token", TLSClientConfig: rest.TLSClientConfig{
		CAData: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ca.Cert.Raw}), ServerName: "n1",
	}}
	for _, transport := range []string{"spdy"} {
		t.Run("exec over "+transport, func(t *testing.T) {
			newExec := func(q string) remotecommand.Executor {
				u, _ := url.Parse(base + "/exec/default/web/c?" + q)
				var ex remotecommand.Executor
				var err error
				if transport == "spdy" {
					ex, err = remotecommand.NewSPDYExecutor(restCfg, http.MethodPost, u)
				} else {
					ex, err = remotecommand.NewWebSocketExecutor(restCfg, http.MethodGet, u.String())
				}
				if err != nil {
					t.Fatal(err)
				}
				return ex
			}
			var out, errOut strings.Builder
			err := newExec("command=whoami&output=1&error=1").StreamWithContext(ctx, remotecommand.StreamOptions{Stdout: &out, Stderr: &errOut})
			if err != nil || out.String() != "user manager\\containeruser\r\n" {
				t.Fatalf("whoami: %q, %v", out.String(), err)
			}
			err = newExec("command=exit&command=3&output=1&error=1").StreamWithContext(ctx, remotecommand.StreamOptions{Stdout: &out, Stderr: &errOut})
			var exitErr utilexec.ExitError
			if !errors.As(err, &exitErr) || exitErr.ExitStatus() != 3 {
				t.Fatalf("exit 3: %v (%T)", err, err)
			}
		})
	}
	for _, ra := range seen() {
		if ra.Resource != "nodes" || ra.Name != "n1" || ra.Subresource != "proxy" || (ra.Verb != "get" && ra.Verb != "create") {
			t.Errorf("SubjectAccessReview attributes %+v", ra)
		}
	}
}

func TestListenFallsBackToFreePort(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	taken := busy.Addr().(*net.TCPAddr).Port
	l, port, err := Listen("127.0.0.1", taken)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if port == taken || port == 0 {
		t.Fatalf("port %d", port)
	}
}

// TestLazyBuildsOnFirstRequest: a node's routes are built once, on the
// first request, not when the node boots.
func TestLazyBuildsOnFirstRequest(t *testing.T) {
	built := 0
	h := Lazy(func() http.Handler {
		built++
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	})
	if built != 0 {
		t.Fatalf("built %d times before a request", built)
	}
	for range 3 {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/pods", nil))
		if rec.Code != http.StatusTeapot {
			t.Fatalf("status %d", rec.Code)
		}
	}
	if built != 1 {
		t.Fatalf("built %d times, want once", built)
	}
}
