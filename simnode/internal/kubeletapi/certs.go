package kubeletapi

import (
	"crypto/ecdsa"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"wink.dev/wink/simnode/certs"
)

// CA signs the nodes' serving certificates.
type CA struct{ *certs.CA }

// servingValidity is how long a node's serving certificate is valid; it is
// made anew at every boot.
const servingValidity = 365 * 24 * time.Hour

// LoadCA reads a CA certificate and key from PEM files.
func LoadCA(certFile, keyFile string) (*CA, error) {
	ca, err := certs.LoadCA(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("serving CA: %w", err)
	}
	return &CA{ca}, nil
}

// LoadOrCreateCA loads dir/serving-ca.{crt,key}, creating a new CA there on
// first use (when the harness gives simnode no CA of its own).
func LoadOrCreateCA(dir string) (*CA, error) {
	certFile := filepath.Join(dir, "serving-ca.crt")
	keyFile := filepath.Join(dir, "serving-ca.key")
	if _, err := os.Stat(certFile); err == nil {
		return LoadCA(certFile, keyFile)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("serving CA: %w", err)
	}
	ca, err := certs.NewCA("wink-simnode-kubelet-serving-ca", 10*servingValidity, time.Now())
	if err != nil {
		return nil, fmt.Errorf("serving CA: %w", err)
	}
	keyPEM, err := certs.EncodeKey(ca.Key.(*ecdsa.PrivateKey))
	if err != nil {
		return nil, fmt.Errorf("serving CA key: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("serving CA dir: %w", err)
	}
	if err := os.WriteFile(keyFile, keyPEM, 0o600); err != nil {
		return nil, fmt.Errorf("serving CA key: %w", err)
	}
	if err := os.WriteFile(certFile, certs.EncodeCert(ca.Cert.Raw), 0o644); err != nil {
		return nil, fmt.Errorf("serving CA certificate: %w", err)
	}
	return &CA{ca}, nil
}

// ServingCert issues a kubelet serving certificate for a node, valid for a
// year: CN system:node:<name>, O system:nodes (as a kubelet's CSR), DNS SAN
// the node name, IP SAN the InternalIP.
func (ca *CA) ServingCert(nodeName string, ip net.IP) (tls.Certificate, error) {
	return ca.TLSCertificate(certs.Leaf{
		CommonName:   "system:node:" + nodeName,
		Organization: []string{"system:nodes"},
		DNSNames:     []string{nodeName},
		IPs:          []net.IP{ip},
		Usages:       []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		Validity:     servingValidity,
	}, time.Now())
}
