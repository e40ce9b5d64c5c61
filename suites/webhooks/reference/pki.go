package reference

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"wink.dev/wink/simnode/certs"
)

// Files the server keeps in Options.CertDir.
const (
	CAFile   = "ca.crt"  // the self-signed CA: the webhook configurations' caBundle
	CertFile = "tls.crt" // the serving certificate, signed by the CA
	KeyFile  = "tls.key" // its key (0600)
)

// Certs is the server's CA and serving certificate.
type Certs struct {
	CAPEM   []byte
	CertPEM []byte
	KeyPEM  []byte
}

// LoadOrCreateCerts reuses dir's ca.crt, tls.crt and tls.key when all three
// exist and the certificate covers hosts, and otherwise generates a new
// self-signed CA and a serving certificate for hosts (IP addresses and DNS
// names), valid for a year, and writes them to dir. An empty dir keeps them
// in memory only. No cert-manager is involved: the caller puts CAPEM into the
// webhook configurations' caBundle.
func LoadOrCreateCerts(dir string, hosts []string) (*Certs, error) {
	if dir != "" {
		c, err := loadCerts(dir)
		if err == nil && c.covers(hosts) {
			return c, nil
		}
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	c, err := newCerts(hosts)
	if err != nil {
		return nil, err
	}
	if dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
		for name, data := range map[string][]byte{CAFile: c.CAPEM, CertFile: c.CertPEM, KeyFile: c.KeyPEM} {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

func loadCerts(dir string) (*Certs, error) {
	var c Certs
	for name, dst := range map[string]*[]byte{CAFile: &c.CAPEM, CertFile: &c.CertPEM, KeyFile: &c.KeyPEM} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		*dst = data
	}
	if _, err := tls.X509KeyPair(c.CertPEM, c.KeyPEM); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return &c, nil
}

// covers reports whether the serving certificate is valid for a while yet,
// is signed by the CA and names every host.
func (c *Certs) covers(hosts []string) bool {
	cert, err1 := certs.ParseCert(c.CertPEM)
	ca, err2 := certs.ParseCert(c.CAPEM)
	if err1 != nil || err2 != nil || time.Now().Add(24*time.Hour).After(cert.NotAfter) || cert.CheckSignatureFrom(ca) != nil {
		return false
	}
	for _, h := range hosts {
		if cert.VerifyHostname(h) != nil {
			return false
		}
	}
	return true
}

// validity is how long the CA and the serving certificate are valid.
const validity = 365 * 24 * time.Hour

func newCerts(hosts []string) (*Certs, error) {
	now := time.Now()
	ca, err := certs.NewCA("wink reference webhook CA", validity, now)
	if err != nil {
		return nil, err
	}
	leaf := certs.Leaf{
		CommonName: "wink-reference-webhook",
		Usages:     []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		Validity:   validity,
	}
	leaf.Hosts(hosts...)
	der, key, err := ca.Issue(leaf, now)
	if err != nil {
		return nil, err
	}
	keyPEM, err := certs.EncodeKey(key)
	if err != nil {
		return nil, err
	}
	return &Certs{CAPEM: certs.EncodeCert(ca.Cert.Raw), CertPEM: certs.EncodeCert(der), KeyPEM: keyPEM}, nil
}
