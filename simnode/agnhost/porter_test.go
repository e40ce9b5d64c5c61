package agnhost

import (
	"crypto/tls"
	"crypto/x509"
	"testing"
)

// TestLocalhostCert: porter's localhost.crt and localhost.key are a pair
// that serves localhost, the same one for the whole process.
func TestLocalhostCert(t *testing.T) {
	certPEM, keyPEM := LocalhostCert()
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := leaf.VerifyHostname("localhost"); err != nil {
		t.Fatal(err)
	}
	if again, _ := LocalhostCert(); string(again) != string(certPEM) {
		t.Fatal("a second call made another certificate")
	}
}
