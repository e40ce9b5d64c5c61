package reference

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestServerOverTLS(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	s, err := Start(ctx, Options{Listen: "127.0.0.1:0", CertDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, f := range []string{CAFile, CertFile, KeyFile} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v, want a 0600 file", f, st, err)
		}
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(s.CABundle()) {
		t.Fatal("CABundle is not PEM")
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}, Timeout: 5 * time.Second}

	review := admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"},
		Request:  request(t, pod(osName(corev1.Windows))),
	}
	body, _ := json.Marshal(review)
	resp, err := client.Post(s.URL(MutatePath), "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err) // also fails if the certificate does not name 127.0.0.1
	}
	var out admissionv1.AdmissionReview
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if out.Kind != "AdmissionReview" || out.APIVersion != "admission.k8s.io/v1" || out.Response == nil || out.Response.UID != "uid-1" || len(out.Response.Patch) == 0 {
		t.Fatalf("response %+v", out)
	}
	// Not an AdmissionReview: 400. GET: 405.
	if resp, err := client.Post(s.URL(ValidatePath), "application/json", bytes.NewReader([]byte("{}"))); err != nil || resp.StatusCode != 400 {
		t.Errorf("empty review: %v %v, want 400", resp, err)
	}
	if resp, err := client.Get(s.URL(ValidatePath)); err != nil || resp.StatusCode != 405 {
		t.Errorf("GET: %v %v, want 405", resp, err)
	}
	if resp, err := client.Get(s.URL(HealthPath)); err != nil || resp.StatusCode != 200 {
		t.Errorf("healthz: %v %v", resp, err)
	}

	// A second server on the same directory reuses the CA (a restart keeps
	// the caBundle registered).
	s2, err := Start(ctx, Options{Listen: "127.0.0.1:0", CertDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if !bytes.Equal(s2.CABundle(), s.CABundle()) {
		t.Error("restart on the same cert dir generated a new CA")
	}
	// ... unless the certificate does not cover the new hosts.
	s3, err := Start(ctx, Options{Listen: "127.0.0.1:0", CertDir: dir, Hosts: []string{"wink-webhook.wink-webhook.svc"}})
	if err != nil {
		t.Fatal(err)
	}
	s3.Close()
	if bytes.Equal(s3.CABundle(), s.CABundle()) {
		t.Error("new hosts reused a certificate that does not name them")
	}
}

func TestServeStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, Options{Listen: "127.0.0.1:0"}) }()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after its context ended")
	}
}

func TestDelay(t *testing.T) {
	s, err := Start(context.Background(), Options{Delay: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(s.CABundle())
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	body, _ := json.Marshal(admissionv1.AdmissionReview{Request: request(t, pod())})
	start := time.Now()
	resp, err := client.Post(s.URL(ValidatePath), "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("answered after %s, want the 300ms delay", d)
	}
}

func TestConfigurations(t *testing.T) {
	m, v := Configurations(ConfigOptions{URL: "https://127.0.0.1:9443/", CABundle: []byte("CA"), FailurePolicy: "Ignore", TimeoutSeconds: 2})
	if got := *m.Webhooks[0].ClientConfig.URL; got != "https://127.0.0.1:9443/mutate" {
		t.Errorf("mutating URL %s", got)
	}
	if got := *v.Webhooks[0].ClientConfig.URL; got != "https://127.0.0.1:9443/validate" {
		t.Errorf("validating URL %s", got)
	}
	if m.Name != DefaultName || m.Webhooks[0].Name != "wink-windows-pods.mutate.wink.dev" || v.Webhooks[0].Name != "wink-windows-pods.validate.wink.dev" {
		t.Errorf("names %s %s %s", m.Name, m.Webhooks[0].Name, v.Webhooks[0].Name)
	}
	if *v.Webhooks[0].FailurePolicy != "Ignore" || *v.Webhooks[0].TimeoutSeconds != 2 || string(v.Webhooks[0].ClientConfig.CABundle) != "CA" {
		t.Errorf("validating webhook %+v", v.Webhooks[0])
	}
	sel := m.Webhooks[0].NamespaceSelector
	if len(sel.MatchExpressions) != 2 || sel.MatchExpressions[0].Values[0] != "kube-system" || sel.MatchExpressions[1].Key != SkipLabel {
		t.Errorf("namespaceSelector %+v", sel)
	}
}
