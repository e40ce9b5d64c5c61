package certs

import (
	"crypto/ecdsa"
	"crypto/x509"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestIssue: a certificate verifies against its CA for its names and usage,
// is backdated, and ends with its CA at the latest.
func TestIssue(t *testing.T) {
	now := time.Now()
	ca, err := NewCA("test CA", time.Hour, now)
	if err != nil {
		t.Fatal(err)
	}
	leaf := Leaf{CommonName: "srv", Organization: []string{"o"}, Usages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, Validity: 24 * time.Hour}
	leaf.Hosts("example.test", "10.0.0.1", "")
	der, _, err := ca.Issue(leaf, now)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca.Cert)
	for _, name := range []string{"example.test", "10.0.0.1"} {
		if _, err := cert.Verify(x509.VerifyOptions{DNSName: name, Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if !cert.NotBefore.Before(now.Add(-Backdate + time.Second)) {
		t.Errorf("notBefore %s is not backdated", cert.NotBefore)
	}
	if !cert.NotAfter.Equal(ca.Cert.NotAfter) {
		t.Errorf("notAfter %s outlives the CA's %s", cert.NotAfter, ca.Cert.NotAfter)
	}
	if len(cert.IPAddresses) != 1 || !cert.IPAddresses[0].Equal(net.ParseIP("10.0.0.1")) || len(cert.DNSNames) != 1 {
		t.Errorf("SANs %v %v", cert.IPAddresses, cert.DNSNames)
	}
}

// TestLoadCA reads back what was written and refuses a key of another CA.
func TestLoadCA(t *testing.T) {
	dir := t.TempDir()
	a, err := NewCA("a", time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewCA("b", time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	save := func(name string, ca *CA) (string, string) {
		keyPEM, err := EncodeKey(ca.Key.(*ecdsa.PrivateKey))
		if err != nil {
			t.Fatal(err)
		}
		c, k := filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
		if err := os.WriteFile(c, EncodeCert(ca.Cert.Raw), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(k, keyPEM, 0o600); err != nil {
			t.Fatal(err)
		}
		return c, k
	}
	aCert, aKey := save("a", a)
	_, bKey := save("b", b)
	got, err := LoadCA(aCert, aKey)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Cert.Equal(a.Cert) {
		t.Error("loaded another certificate")
	}
	if _, err := LoadCA(aCert, bKey); err == nil {
		t.Error("a key of another CA was accepted")
	}
}
