package pki

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"time"

	"wink.dev/wink/simnode/atomicfile"
	"wink.dev/wink/simnode/certs"
)

// Validity periods and the margin under which a leaf is renewed.
const (
	// CAValidity is how long a CA certificate is valid.
	CAValidity = 10 * 365 * 24 * time.Hour
	// LeafValidity is how long a leaf certificate is valid.
	LeafValidity = 365 * 24 * time.Hour
	// RenewBefore is how long before its expiry Ensure replaces a leaf.
	RenewBefore = 30 * 24 * time.Hour
)

// File modes of the PKI directory and its files.
const (
	DirMode  fs.FileMode = 0o700
	KeyMode  fs.FileMode = 0o600
	CertMode fs.FileMode = 0o644
)

// Common names and organisations of the client certificates, as the
// apiserver's authenticator sees them.
const (
	AdminCommonName             = "kubernetes-admin"
	AdminOrganization           = "system:masters"
	ControllerManagerCommonName = "system:kube-controller-manager"
	SchedulerCommonName         = "system:kube-scheduler"
	SimnodeCommonName           = "wink:simnode"
	// MetricsServerCommonName is metrics-server's identity towards the
	// apiserver and the kubelets.
	MetricsServerCommonName = "wink:metrics-server"
	// APIServerKubeletClientCommonName is the apiserver's identity towards
	// kubelets; it has no organisation and must be bound to the
	// system:kubelet-api-admin ClusterRole.
	APIServerKubeletClientCommonName = "kube-apiserver-kubelet-client"
)

// Options are the names the serving certificates must cover.
type Options struct {
	// APIServerIPs are the apiserver certificate's IP SANs: 127.0.0.1 and
	// the first Service IP (e.g. 10.96.0.1) at least.
	APIServerIPs []net.IP
	// APIServerDNSNames are its DNS SANs: localhost, kubernetes,
	// kubernetes.default, kubernetes.default.svc,
	// kubernetes.default.svc.<dnsDomain>.
	APIServerDNSNames []string
	// EtcdIPs are added to the etcd server and peer certificates' IP SANs,
	// next to 127.0.0.1 and ::1 (their DNS SAN is localhost).
	EtcdIPs []net.IP
}

// DefaultOptions returns the Options of an apiserver whose Service range is
// serviceSubnet (its first address is the kubernetes Service's ClusterIP) and
// whose cluster DNS domain is dnsDomain, listening on the loopback.
func DefaultOptions(serviceSubnet, dnsDomain string) (Options, error) {
	_, ipnet, err := net.ParseCIDR(serviceSubnet)
	if err != nil {
		return Options{}, fmt.Errorf("service subnet: %w", err)
	}
	first := slices.Clone(ipnet.IP)
	for i := len(first) - 1; i >= 0; i-- {
		first[i]++
		if first[i] != 0 {
			break
		}
	}
	if !ipnet.Contains(first) {
		return Options{}, fmt.Errorf("service subnet %s has no address for the kubernetes Service", serviceSubnet)
	}
	if dnsDomain == "" {
		return Options{}, errors.New("DNS domain is empty")
	}
	return Options{
		APIServerIPs: []net.IP{net.IPv4(127, 0, 0, 1), first},
		APIServerDNSNames: []string{
			"localhost",
			"kubernetes",
			"kubernetes.default",
			"kubernetes.default.svc",
			"kubernetes.default.svc." + dnsDomain,
		},
	}, nil
}

// KeyPair is the paths of a certificate and its private key.
type KeyPair struct {
	// Cert is the PEM certificate (<name>.crt, mode 0644).
	Cert string
	// Key is the PEM private key (<name>.key, mode 0600).
	Key string
}

// Files are the paths of everything Ensure made, all under Dir.
type Files struct {
	// Dir is the PKI directory.
	Dir string

	// CA signs the apiserver serving certificate and every client
	// certificate of the cluster (ca.crt, ca.key); the apiserver's
	// --client-ca-file and simnode's ClientCAFile.
	CA KeyPair
	// APIServer is the apiserver's serving certificate (apiserver.crt).
	APIServer KeyPair
	// APIServerKubeletClient is the apiserver's client certificate towards
	// kubelets (apiserver-kubelet-client.crt), CN
	// kube-apiserver-kubelet-client.
	APIServerKubeletClient KeyPair

	// EtcdCA signs etcd's certificates (etcd-ca.crt); etcd's
	// --trusted-ca-file and the apiserver's --etcd-cafile.
	EtcdCA KeyPair
	// EtcdServer is etcd's serving certificate (etcd-server.crt), also
	// valid for client authentication as kubeadm's.
	EtcdServer KeyPair
	// EtcdPeer is etcd's peer certificate (etcd-peer.crt).
	EtcdPeer KeyPair
	// APIServerEtcdClient is the apiserver's client certificate towards
	// etcd (apiserver-etcd-client.crt).
	APIServerEtcdClient KeyPair

	// FrontProxyCA is the aggregation layer's CA (front-proxy-ca.crt): the
	// apiserver's --requestheader-client-ca-file.
	FrontProxyCA KeyPair
	// FrontProxyClient is the apiserver's --proxy-client-cert-file
	// (front-proxy-client.crt).
	FrontProxyClient KeyPair

	// ServiceAccountKey is the service-account token signing key (sa.key,
	// RSA 2048) and ServiceAccountPub its public key (sa.pub, PKIX PEM).
	ServiceAccountKey string
	ServiceAccountPub string

	// KubeletCA signs each simulated node's kubelet serving certificate
	// (kubelet-ca.crt, kubelet-ca.key): simnode's ServingCACert/Key and the
	// apiserver's --kubelet-certificate-authority.
	KubeletCA KeyPair

	// Admin is the cluster administrator (CN kubernetes-admin,
	// O system:masters).
	Admin KeyPair
	// ControllerManager is kube-controller-manager's client certificate
	// (CN system:kube-controller-manager).
	ControllerManager KeyPair
	// Scheduler is kube-scheduler's client certificate
	// (CN system:kube-scheduler).
	Scheduler KeyPair
	// Simnode is the simulated kubelet's client certificate (CN wink:simnode).
	Simnode KeyPair
	// MetricsServer is metrics-server's client certificate
	// (CN wink:metrics-server).
	MetricsServer KeyPair
}

// pair returns the KeyPair of dir/<name>.crt and dir/<name>.key.
func pair(dir, name string) KeyPair {
	return KeyPair{
		Cert: filepath.Join(dir, name+".crt"),
		Key:  filepath.Join(dir, name+".key"),
	}
}

// Layout returns the paths Ensure uses under dir, without touching the disk.
func Layout(dir string) *Files {
	return &Files{
		Dir:                    dir,
		CA:                     pair(dir, "ca"),
		APIServer:              pair(dir, "apiserver"),
		APIServerKubeletClient: pair(dir, "apiserver-kubelet-client"),
		EtcdCA:                 pair(dir, "etcd-ca"),
		EtcdServer:             pair(dir, "etcd-server"),
		EtcdPeer:               pair(dir, "etcd-peer"),
		APIServerEtcdClient:    pair(dir, "apiserver-etcd-client"),
		FrontProxyCA:           pair(dir, "front-proxy-ca"),
		FrontProxyClient:       pair(dir, "front-proxy-client"),
		ServiceAccountKey:      filepath.Join(dir, "sa.key"),
		ServiceAccountPub:      filepath.Join(dir, "sa.pub"),
		KubeletCA:              pair(dir, "kubelet-ca"),
		Admin:                  pair(dir, "admin"),
		ControllerManager:      pair(dir, "kube-controller-manager"),
		Scheduler:              pair(dir, "kube-scheduler"),
		Simnode:                pair(dir, "simnode"),
		MetricsServer:          pair(dir, "metrics-server"),
	}
}

// certSpec describes one leaf certificate.
type certSpec struct {
	pair   KeyPair
	cn     string
	orgs   []string
	usages []x509.ExtKeyUsage
	ips    []net.IP
	dns    []string
}

// Ensure creates under dir every CA, certificate and key that is missing,
// reuses what is still valid, and returns their paths. See the package
// documentation for what "still valid" means.
func Ensure(dir string, opts Options) (*Files, error) {
	if len(opts.APIServerIPs) == 0 && len(opts.APIServerDNSNames) == 0 {
		return nil, errors.New("pki: Options name no apiserver IP or DNS name (see DefaultOptions)")
	}
	if err := os.MkdirAll(dir, DirMode); err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	if err := os.Chmod(dir, DirMode); err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	f := Layout(dir)
	now := time.Now()

	ca, err := ensureCA(f.CA, "kubernetes", now)
	if err != nil {
		return nil, err
	}
	etcdCA, err := ensureCA(f.EtcdCA, "etcd-ca", now)
	if err != nil {
		return nil, err
	}
	frontProxyCA, err := ensureCA(f.FrontProxyCA, "front-proxy-ca", now)
	if err != nil {
		return nil, err
	}
	if _, err := ensureCA(f.KubeletCA, "wink-kubelet-ca", now); err != nil {
		return nil, err
	}

	server := []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
	client := []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	both := []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}
	etcdIPs := append([]net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback}, opts.EtcdIPs...)

	leaves := []struct {
		ca   *certs.CA
		spec certSpec
	}{
		{ca, certSpec{pair: f.APIServer, cn: "kube-apiserver", usages: server, ips: opts.APIServerIPs, dns: opts.APIServerDNSNames}},
		{ca, certSpec{pair: f.APIServerKubeletClient, cn: APIServerKubeletClientCommonName, usages: client}},
		{ca, certSpec{pair: f.Admin, cn: AdminCommonName, orgs: []string{AdminOrganization}, usages: client}},
		{ca, certSpec{pair: f.ControllerManager, cn: ControllerManagerCommonName, usages: client}},
		{ca, certSpec{pair: f.Scheduler, cn: SchedulerCommonName, usages: client}},
		{ca, certSpec{pair: f.Simnode, cn: SimnodeCommonName, usages: client}},
		{ca, certSpec{pair: f.MetricsServer, cn: MetricsServerCommonName, usages: client}},
		{etcdCA, certSpec{pair: f.EtcdServer, cn: "etcd-server", usages: both, ips: etcdIPs, dns: []string{"localhost"}}},
		{etcdCA, certSpec{pair: f.EtcdPeer, cn: "etcd-peer", usages: both, ips: etcdIPs, dns: []string{"localhost"}}},
		{etcdCA, certSpec{pair: f.APIServerEtcdClient, cn: "kube-apiserver-etcd-client", usages: client}},
		{frontProxyCA, certSpec{pair: f.FrontProxyClient, cn: "front-proxy-client", usages: client}},
	}
	var errs []error
	for _, l := range leaves {
		errs = append(errs, ensureLeaf(l.ca, l.spec, now))
	}
	errs = append(errs, ensureServiceAccount(f.ServiceAccountKey, f.ServiceAccountPub))
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	return f, nil
}

// ensureCA loads the CA at p or, when neither file exists (or only the key
// does, left by an interrupted run), makes a new one.
func ensureCA(p KeyPair, cn string, now time.Time) (*certs.CA, error) {
	_, certErr := os.Stat(p.Cert)
	switch {
	case certErr == nil:
		ca, err := certs.LoadCA(p.Cert, p.Key)
		if err != nil {
			return nil, fmt.Errorf("pki: %w (remove it and its key to make a new CA)", err)
		}
		if now.After(ca.Cert.NotAfter) {
			return nil, fmt.Errorf("pki: CA %s expired on %s (remove the PKI directory to start again)", p.Cert, ca.Cert.NotAfter.Format(time.DateOnly))
		}
		if err := fixModes(p); err != nil {
			return nil, err
		}
		return ca, nil
	case errors.Is(certErr, fs.ErrNotExist):
	default:
		return nil, fmt.Errorf("pki: %w", certErr)
	}
	ca, err := certs.NewCA(cn, CAValidity, now)
	if err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	if err := writeKeyPair(p, ca.Cert.Raw, ca.Key.(*ecdsa.PrivateKey)); err != nil {
		return nil, err
	}
	return ca, nil
}

// ensureLeaf keeps the leaf at s.pair when it is still good (see leafProblem),
// and otherwise makes it again, signed by ca.
func ensureLeaf(ca *certs.CA, s certSpec, now time.Time) error {
	if problem := leafProblem(ca, s, now); problem == nil {
		return fixModes(s.pair)
	} else if !errors.Is(problem, fs.ErrNotExist) && !errors.Is(problem, errStale) {
		return problem
	}

	der, key, err := ca.Issue(certs.Leaf{
		CommonName: s.cn, Organization: s.orgs, DNSNames: s.dns, IPs: s.ips,
		Usages: s.usages, Validity: LeafValidity,
	}, now)
	if err != nil {
		return fmt.Errorf("%s: %w", s.pair.Cert, err)
	}
	return writeKeyPair(s.pair, der, key)
}

// errStale marks a leaf that exists but must be made again.
var errStale = errors.New("stale")

// leafProblem says why the leaf at s.pair cannot be reused: an error wrapping
// fs.ErrNotExist or errStale means "make it again", any other error is an I/O
// failure, and nil means it is good.
func leafProblem(ca *certs.CA, s certSpec, now time.Time) error {
	certPEM, err := os.ReadFile(s.pair.Cert)
	if err != nil {
		return err
	}
	keyPEM, err := os.ReadFile(s.pair.Key)
	if err != nil {
		return err
	}
	stale := func(format string, args ...any) error {
		return fmt.Errorf("%s: %w: "+format, append([]any{s.pair.Cert, errStale}, args...)...)
	}
	cert, err := certs.ParseCert(certPEM)
	if err != nil {
		return stale("%v", err)
	}
	key, err := certs.ParseKey(keyPEM)
	if err != nil {
		return stale("%v", err)
	}
	if !certs.PublicKeyEqual(cert.PublicKey, key.Public()) {
		return stale("key does not match")
	}
	if err := cert.CheckSignatureFrom(ca.Cert); err != nil {
		return stale("not signed by the current CA: %v", err)
	}
	if now.Before(cert.NotBefore) || now.Add(RenewBefore).After(cert.NotAfter) {
		return stale("expires on %s", cert.NotAfter)
	}
	if cert.Subject.CommonName != s.cn || !slices.Equal(cert.Subject.Organization, s.orgs) {
		return stale("subject is %s", cert.Subject)
	}
	if !slices.Equal(cert.ExtKeyUsage, s.usages) {
		return stale("extended key usages differ")
	}
	for _, ip := range s.ips {
		if !slices.ContainsFunc(cert.IPAddresses, ip.Equal) {
			return stale("no IP SAN %s", ip)
		}
	}
	for _, name := range s.dns {
		if !slices.Contains(cert.DNSNames, name) {
			return stale("no DNS SAN %s", name)
		}
	}
	return nil
}

// ensureServiceAccount keeps sa.key (making it when missing) and writes sa.pub
// from it when sa.pub is missing or does not match.
func ensureServiceAccount(keyPath, pubPath string) error {
	var key crypto.Signer
	keyPEM, err := os.ReadFile(keyPath)
	switch {
	case err == nil:
		if key, err = certs.ParseKey(keyPEM); err != nil {
			return fmt.Errorf("service-account key %s: %w (remove it and sa.pub to make a new one; existing tokens become invalid)", keyPath, err)
		}
		if err := os.Chmod(keyPath, KeyMode); err != nil {
			return err
		}
	case errors.Is(err, fs.ErrNotExist):
		// ECDSA P-256 (ES256 tokens), as kubeadm makes it with
		// encryptionAlgorithm: ECDSA-P256: the apiserver signs a
		// TokenRequest far cheaper than with RSA-2048 (about 10% of its CPU
		// per pod start in docs/benchmarks.md's profile, issue 20), and
		// clients see the same JWT claims; only the JWKS key type and the
		// header's alg differ. A kept sa.key (RSA from older wink) stays.
		ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return fmt.Errorf("service-account key: %w", err)
		}
		key = ecKey
		keyPEM, err := certs.EncodeKey(ecKey)
		if err != nil {
			return fmt.Errorf("service-account key: %w", err)
		}
		if err := WriteFile(keyPath, keyPEM, KeyMode); err != nil {
			return err
		}
	default:
		return err
	}
	pubDER, err := x509.MarshalPKIXPublicKey(key.Public())
	if err != nil {
		return fmt.Errorf("service-account public key: %w", err)
	}
	want := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})
	if have, err := os.ReadFile(pubPath); err == nil && bytes.Equal(have, want) {
		return os.Chmod(pubPath, CertMode)
	}
	return WriteFile(pubPath, want, CertMode)
}

// writeKeyPair writes the key first, so that a certificate on disk always has
// its key next to it.
func writeKeyPair(p KeyPair, certDER []byte, key *ecdsa.PrivateKey) error {
	keyPEM, err := certs.EncodeKey(key)
	if err != nil {
		return fmt.Errorf("%s: %w", p.Key, err)
	}
	if err := WriteFile(p.Key, keyPEM, KeyMode); err != nil {
		return err
	}
	return WriteFile(p.Cert, certs.EncodeCert(certDER), CertMode)
}

// fixModes sets the modes of a reused key pair.
func fixModes(p KeyPair) error {
	return errors.Join(os.Chmod(p.Key, KeyMode), os.Chmod(p.Cert, CertMode))
}

// WriteFile writes data to path atomically with exactly the given mode
// (atomicfile.Write).
func WriteFile(path string, data []byte, mode fs.FileMode) error {
	return atomicfile.Write(path, data, mode)
}
