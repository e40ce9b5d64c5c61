package kubeletapi

import (
	"context"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"math/big"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	certificatesv1 "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
)

// signer plays the controller manager's csrsigning controller: it signs
// every approved request with ca until ctx ends.
func signer(ctx context.Context, t *testing.T, client *fake.Clientset, ca *CA) {
	t.Helper()
	go func() {
		for ctx.Err() == nil {
			list, _ := client.CertificatesV1().CertificateSigningRequests().List(ctx, metav1.ListOptions{})
			for i := range list.Items {
				req := &list.Items[i]
				approved := slices.ContainsFunc(req.Status.Conditions, func(c certificatesv1.CertificateSigningRequestCondition) bool {
					return c.Type == certificatesv1.CertificateApproved && c.Status == corev1.ConditionTrue
				})
				if !approved {
					continue
				}
				if len(req.Status.Certificate) > 0 {
					// Signed: say so again. The fake's watch starts
					// after its list without a resource version, so an
					// update in between would never be seen (a real
					// apiserver replays it).
					_, _ = client.CertificatesV1().CertificateSigningRequests().UpdateStatus(ctx, req, metav1.UpdateOptions{})
					continue
				}
				block, _ := pem.Decode(req.Spec.Request)
				csr, err := x509.ParseCertificateRequest(block.Bytes)
				if err != nil {
					t.Errorf("request %s: %v", req.Name, err)
					return
				}
				tmpl := &x509.Certificate{
					SerialNumber: big.NewInt(time.Now().UnixNano()),
					Subject:      csr.Subject,
					DNSNames:     csr.DNSNames,
					IPAddresses:  csr.IPAddresses,
					NotBefore:    time.Now().Add(-time.Minute),
					NotAfter:     time.Now().Add(365 * 24 * time.Hour),
					KeyUsage:     x509.KeyUsageDigitalSignature,
					ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
				}
				der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, csr.PublicKey, ca.Key)
				if err != nil {
					t.Errorf("signing %s: %v", req.Name, err)
					return
				}
				req.Status.Certificate = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
				if _, err := client.CertificatesV1().CertificateSigningRequests().UpdateStatus(ctx, req, metav1.UpdateOptions{}); err != nil && ctx.Err() == nil {
					t.Errorf("status of %s: %v", req.Name, err)
				}
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
}

func TestCSRServingCert(t *testing.T) {
	ca, err := LoadOrCreateCA(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	client := fake.NewClientset()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	signer(ctx, t, client, ca)
	dir := filepath.Join(t.TempDir(), "pki")
	ip := net.ParseIP("192.0.2.2")

	cert, err := CSRServingCert(ctx, client, "win-0", ip, dir, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(ca.Cert)
	if _, err := cert.Leaf.Verify(x509.VerifyOptions{Roots: pool, DNSName: "win-0", KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}); err != nil {
		t.Errorf("the certificate does not verify against the cluster's CA: %v", err)
	}
	if cert.Leaf.Subject.CommonName != "system:node:win-0" || !slices.Equal(cert.Leaf.Subject.Organization, []string{"system:nodes"}) || !cert.Leaf.IPAddresses[0].Equal(ip) {
		t.Errorf("subject %v, IPs %v", cert.Leaf.Subject, cert.Leaf.IPAddresses)
	}
	list, err := client.CertificatesV1().CertificateSigningRequests().List(ctx, metav1.ListOptions{})
	if err != nil || len(list.Items) != 1 {
		t.Fatalf("requests %v, %v", list, err)
	}
	req := list.Items[0]
	if req.Spec.SignerName != certificatesv1.KubeletServingSignerName || !slices.Equal(req.Spec.Usages, []certificatesv1.KeyUsage{certificatesv1.UsageDigitalSignature, certificatesv1.UsageServerAuth}) {
		t.Errorf("request signer %s, usages %v", req.Spec.SignerName, req.Spec.Usages)
	}
	if len(req.Status.Conditions) != 1 || req.Status.Conditions[0].Reason != CSRApprovedReason {
		t.Errorf("request conditions %+v", req.Status.Conditions)
	}

	// A restart finds the certificate in dir: no second request.
	again, err := CSRServingCert(ctx, client, "win-0", ip, dir, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Leaf.Equal(cert.Leaf) {
		t.Error("the kept certificate was not reused")
	}
	// Another address is another request. (The fake's watch ignores field
	// selectors and UIDs: the first request goes, so that only the new
	// one is seen.)
	if err := client.CertificatesV1().CertificateSigningRequests().Delete(ctx, req.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	other, err := CSRServingCert(ctx, client, "win-0", net.ParseIP("192.0.2.3"), dir, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if !other.Leaf.IPAddresses[0].Equal(net.ParseIP("192.0.2.3")) {
		t.Errorf("IPs %v", other.Leaf.IPAddresses)
	}
}

// TestCSRServingCertUnsigned: a cluster that does not sign (no signer for
// kubernetes.io/kubelet-serving) is an error after the timeout, naming it.
func TestCSRServingCertUnsigned(t *testing.T) {
	_, err := CSRServingCert(context.Background(), fake.NewClientset(), "win-0", net.ParseIP("192.0.2.2"), t.TempDir(), 300*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "not signed in time") || !strings.Contains(err.Error(), certificatesv1.KubeletServingSignerName) {
		t.Fatalf("err = %v", err)
	}
}
