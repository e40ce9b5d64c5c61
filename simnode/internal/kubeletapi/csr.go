package kubeletapi

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"time"

	certificatesv1 "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	certutil "k8s.io/client-go/util/cert"
	"k8s.io/client-go/util/certificate/csr"
	"k8s.io/client-go/util/keyutil"
)

// CSR approval, as simnode writes it on the requests it approves.
const (
	CSRApprovedReason  = "WinkSimnodeApproved"
	CSRApprovedMessage = "the serving certificate of a node simulated by wink simnode, approved by simnode"
	// csrRenewBefore: a cached certificate this close to its end is
	// requested anew.
	csrRenewBefore = 24 * time.Hour
)

// CSRServingCert returns a kubelet serving certificate for a node signed by
// the cluster, as a kubelet with serverTLSBootstrap gets one: a
// CertificateSigningRequest of signer kubernetes.io/kubelet-serving (CN
// system:node:<name>, O system:nodes, the node name and InternalIP as SANs),
// approved by simnode itself (kubelet serving CSRs are approved by an
// approver outside the control plane; for simulated nodes simnode is that
// approver), signed by the cluster's controller manager. An apiserver that
// verifies kubelets (--kubelet-certificate-authority) trusts it as it trusts
// real nodes. The certificate and key are kept in dir and reused while they
// are valid for the same name and address. It fails when the cluster does
// not sign within timeout.
func CSRServingCert(ctx context.Context, client kubernetes.Interface, nodeName string, ip net.IP, dir string, timeout time.Duration) (tls.Certificate, error) {
	certFile := filepath.Join(dir, "kubelet-serving.crt")
	keyFile := filepath.Join(dir, "kubelet-serving.key")
	if cert, err := tls.LoadX509KeyPair(certFile, keyFile); err == nil && servingCertFits(cert.Leaf, nodeName, ip, time.Now()) {
		return cert, nil
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("serving key: %w", err)
	}
	request, err := certutil.MakeCSR(key, &pkix.Name{CommonName: "system:node:" + nodeName, Organization: []string{"system:nodes"}}, []string{nodeName}, []net.IP{ip})
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("serving certificate request for %s: %w", nodeName, err)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	usages := []certificatesv1.KeyUsage{certificatesv1.UsageDigitalSignature, certificatesv1.UsageServerAuth}
	// Named for the node, so that `kubectl get csr` says whose it is.
	suffix := make([]byte, 4)
	if _, err := rand.Read(suffix); err != nil {
		return tls.Certificate{}, err
	}
	reqName := fmt.Sprintf("wink-%s-%x", nodeName, suffix)
	name, uid, err := csr.RequestCertificateWithContext(ctx, client, request, reqName, certificatesv1.KubeletServingSignerName, nil, usages, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	req, err := client.CertificatesV1().CertificateSigningRequests().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("CertificateSigningRequest %s: %w", name, err)
	}
	req.Status.Conditions = append(req.Status.Conditions, certificatesv1.CertificateSigningRequestCondition{
		Type:           certificatesv1.CertificateApproved,
		Status:         corev1.ConditionTrue,
		Reason:         CSRApprovedReason,
		Message:        CSRApprovedMessage,
		LastUpdateTime: metav1.Now(),
	})
	if _, err := client.CertificatesV1().CertificateSigningRequests().UpdateApproval(ctx, name, req, metav1.UpdateOptions{}); err != nil {
		return tls.Certificate{}, fmt.Errorf("approving CertificateSigningRequest %s: %w", name, err)
	}
	certPEM, err := csr.WaitForCertificate(ctx, client, name, uid)
	if err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("not signed in time: does the controller manager sign %s?", certificatesv1.KubeletServingSignerName)
		}
		return tls.Certificate{}, fmt.Errorf("CertificateSigningRequest %s: %w", name, err)
	}
	keyPEM, err := keyutil.MarshalPrivateKeyToPEM(key)
	if err != nil {
		return tls.Certificate{}, err
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("CertificateSigningRequest %s: %w", name, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return tls.Certificate{}, err
	}
	if err := keyutil.WriteKey(keyFile, keyPEM); err != nil {
		return tls.Certificate{}, err
	}
	if err := certutil.WriteCert(certFile, certPEM); err != nil {
		return tls.Certificate{}, err
	}
	return cert, nil
}

// servingCertFits: leaf names nodeName and ip, and is valid for a while yet.
func servingCertFits(leaf *x509.Certificate, nodeName string, ip net.IP, now time.Time) bool {
	if leaf == nil || now.Before(leaf.NotBefore) || now.Add(csrRenewBefore).After(leaf.NotAfter) {
		return false
	}
	return slices.Contains(leaf.DNSNames, nodeName) && slices.ContainsFunc(leaf.IPAddresses, ip.Equal)
}
