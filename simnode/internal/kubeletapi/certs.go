package kubeletapi

import (
	"crypto"
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

	certutil "k8s.io/client-go/util/cert"
	"k8s.io/client-go/util/keyutil"
)

// CA signs the nodes' serving certificates.
type CA struct {
	Cert *x509.Certificate
	Key  crypto.Signer
	// CertFile is where the CA certificate is (for clients to trust).
	CertFile string
}

// LoadCA reads a CA certificate and key from PEM files.
func LoadCA(certFile, keyFile string) (*CA, error) {
	certs, err := certutil.CertsFromFile(certFile)
	if err != nil {
		return nil, fmt.Errorf("serving CA certificate: %w", err)
	}
	keyAny, err := keyutil.PrivateKeyFromFile(keyFile)
	if err != nil {
		return nil, fmt.Errorf("serving CA key: %w", err)
	}
	key, ok := keyAny.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("serving CA key %s: not a signing key", keyFile)
	}
	return &CA{Cert: certs[0], Key: key, CertFile: certFile}, nil
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
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("serving CA key: %w", err)
	}
	cert, err := certutil.NewSelfSignedCACert(certutil.Config{CommonName: "wink-simnode-kubelet-serving-ca"}, key)
	if err != nil {
		return nil, fmt.Errorf("serving CA certificate: %w", err)
	}
	keyPEM, err := keyutil.MarshalPrivateKeyToPEM(key)
	if err != nil {
		return nil, fmt.Errorf("serving CA key: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("serving CA dir: %w", err)
	}
	if err := keyutil.WriteKey(keyFile, keyPEM); err != nil {
		return nil, fmt.Errorf("serving CA key: %w", err)
	}
	if err := certutil.WriteCert(certFile, pem.EncodeToMemory(&pem.Block{Type: certutil.CertificateBlockType, Bytes: cert.Raw})); err != nil {
		return nil, fmt.Errorf("serving CA certificate: %w", err)
	}
	return &CA{Cert: cert, Key: key, CertFile: certFile}, nil
}

// ServingCert issues a kubelet serving certificate for a node, valid for a
// year: CN system:node:<name>, O system:nodes (as a kubelet's CSR), DNS SAN
// the node name, IP SAN the InternalIP.
func (ca *CA) ServingCert(nodeName string, ip net.IP) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("serving key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("serial: %w", err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "system:node:" + nodeName, Organization: []string{"system:nodes"}},
		NotBefore:    now.Add(-5 * time.Minute),
		NotAfter:     now.Add(365 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{nodeName},
		IPAddresses:  []net.IP{ip},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, key.Public(), ca.Key)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("serving certificate for %s: %w", nodeName, err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("serving certificate for %s: %w", nodeName, err)
	}
	return tls.Certificate{Certificate: [][]byte{der, ca.Cert.Raw}, PrivateKey: key, Leaf: leaf}, nil
}
