package reference

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	nodev1 "k8s.io/api/node/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// Paths the server serves.
const (
	MutatePath   = "/mutate"
	ValidatePath = "/validate"
	HealthPath   = "/healthz"
)

// Options configure the reference webhook server.
type Options struct {
	// Listen is the TCP address, e.g. "127.0.0.1:0" (a free port) or ":8443".
	Listen string
	// CertDir keeps ca.crt, tls.crt and tls.key; they are generated (a
	// self-signed CA and a serving certificate for Hosts) unless the
	// directory already holds a pair covering Hosts. "" keeps them in memory.
	CertDir string
	// Hosts are the serving certificate's names and addresses; default:
	// the Listen host (127.0.0.1 when it is empty or unspecified) and
	// localhost.
	Hosts []string
	// Client, when set, looks RuntimeClasses up (see Webhook.RuntimeClasses),
	// serves the GMSA webhook (see GMSA) and injects the CA into the configurations named InjectCABundle.
	Client kubernetes.Interface
	// InjectCABundle names the Mutating- and ValidatingWebhookConfiguration
	// whose webhooks' clientConfig.caBundle the server sets to its CA once it
	// listens (the cert-manager-free flow of deploy/).
	InjectCABundle string
	// Catalog decides row B4; nil: the embedded fixtures/images.yaml.
	Catalog *Catalog
	// Delay holds every admission answer back this long (tests of the
	// apiserver's timeoutSeconds); 0 answers at once.
	Delay time.Duration
	// Logf logs each decision; nil: silent.
	Logf func(format string, args ...any)
}

// Server is a running reference webhook.
type Server struct {
	addr  string
	certs *Certs
	srv   *http.Server
	done  chan error
	once  sync.Once
}

// Start starts the server and returns once it listens.
func Start(ctx context.Context, opts Options) (*Server, error) {
	if opts.Listen == "" {
		opts.Listen = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(opts.Listen)
	if err != nil {
		return nil, fmt.Errorf("--listen %q: %w", opts.Listen, err)
	}
	if len(opts.Hosts) == 0 {
		if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
			host = "127.0.0.1"
		}
		opts.Hosts = []string{host, "localhost"}
	}
	certs, err := LoadOrCreateCerts(opts.CertDir, opts.Hosts)
	if err != nil {
		return nil, fmt.Errorf("webhook certificates: %w", err)
	}
	pair, err := tls.X509KeyPair(certs.CertPEM, certs.KeyPEM)
	if err != nil {
		return nil, err
	}
	catalog := opts.Catalog
	if catalog == nil {
		if catalog, err = DefaultCatalog(); err != nil {
			return nil, err
		}
	}
	wh := &Webhook{Catalog: catalog}
	if opts.Client != nil {
		cs := opts.Client
		wh.RuntimeClasses = func(ctx context.Context, name string) (*nodev1.RuntimeClass, error) {
			return cs.NodeV1().RuntimeClasses().Get(ctx, name, metav1.GetOptions{})
		}
		wh.GMSA = NewGMSA(cs)
	}
	ln, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		return nil, err
	}
	s := &Server{addr: ln.Addr().String(), certs: certs, done: make(chan error, 1)}
	s.srv = &http.Server{
		Handler:           Handler(wh, opts.Delay, opts.Logf),
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: 10 * time.Second,
	}
	go func() {
		err := s.srv.ServeTLS(ln, "", "")
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		s.done <- err
	}()
	if opts.InjectCABundle != "" {
		if opts.Client == nil {
			s.Close()
			return nil, errors.New("InjectCABundle needs a Client")
		}
		if err := InjectCABundle(ctx, opts.Client, opts.InjectCABundle, certs.CAPEM); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// Serve runs the reference webhook until ctx ends.
func Serve(ctx context.Context, opts Options) error {
	s, err := Start(ctx, opts)
	if err != nil {
		return err
	}
	if opts.Logf != nil {
		opts.Logf("wink reference webhook listening on https://%s (%s, %s)", s.Addr(), MutatePath, ValidatePath)
	}
	select {
	case <-ctx.Done():
		return s.Close()
	case err := <-s.done:
		return err
	}
}

// Addr is the address the server listens on (host:port).
func (s *Server) Addr() string { return s.addr }

// URL is https://<addr><path>.
func (s *Server) URL(path string) string { return "https://" + s.addr + path }

// CABundle is the PEM CA that signed the serving certificate.
func (s *Server) CABundle() []byte { return s.certs.CAPEM }

// Close stops the server at once (open connections are closed).
func (s *Server) Close() error {
	var err error
	s.once.Do(func() { err = s.srv.Close() })
	return err
}

// Handler serves /mutate, /validate (AdmissionReview admission.k8s.io/v1),
// /gmsa/mutate and /gmsa/validate when wh.GMSA is set, and /healthz.
func Handler(wh *Webhook, delay time.Duration, logf func(string, ...any)) http.Handler {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	mux := http.NewServeMux()
	mux.HandleFunc(HealthPath, func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") })
	routes := map[string]func(context.Context, *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse{
		MutatePath:   wh.Mutate,
		ValidatePath: wh.Validate,
	}
	if wh.GMSA != nil {
		routes[GMSAMutatePath], routes[GMSAValidatePath] = wh.GMSA.Mutate, wh.GMSA.Validate
	}
	for path, answer := range routes {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodPost {
				http.Error(w, "POST an AdmissionReview", http.StatusMethodNotAllowed)
				return
			}
			var review admissionv1.AdmissionReview
			if err := json.NewDecoder(io.LimitReader(r.Body, 8<<20)).Decode(&review); err != nil || review.Request == nil {
				http.Error(w, fmt.Sprintf("not an AdmissionReview: %v", err), http.StatusBadRequest)
				return
			}
			if delay > 0 {
				select {
				case <-time.After(delay):
				case <-r.Context().Done():
					return
				}
			}
			req := review.Request
			resp := answer(r.Context(), req)
			logf("%s %s %s/%s: allowed=%v patch=%s%s", path, req.Operation, req.Namespace, req.Name, resp.Allowed, resp.Patch, message(resp))
			out := admissionv1.AdmissionReview{TypeMeta: review.TypeMeta, Response: resp}
			if out.APIVersion == "" {
				out.APIVersion, out.Kind = "admission.k8s.io/v1", "AdmissionReview"
			}
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(out)
		})
	}
	return mux
}

func message(resp *admissionv1.AdmissionResponse) string {
	if resp.Result == nil {
		return ""
	}
	return " message=" + resp.Result.Message
}
