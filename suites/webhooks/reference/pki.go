package reference

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
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
	block, _ := pem.Decode(c.CertPEM)
	caBlock, _ := pem.Decode(c.CAPEM)
	if block == nil || caBlock == nil {
		return false
	}
	cert, err1 := x509.ParseCertificate(block.Bytes)
	ca, err2 := x509.ParseCertificate(caBlock.Bytes)
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

func newCerts(hosts []string) (*Certs, error) {
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	caTmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "wink reference webhook CA"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(365 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "wink-reference-webhook"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(365 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else if h != "" {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, err
	}
	return &Certs{
		CAPEM:   pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		KeyPEM:  pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}),
	}, nil
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 126))
	return n
}
