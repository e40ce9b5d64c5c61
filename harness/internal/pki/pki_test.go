package pki

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"wink.dev/wink/simnode/certs"
)

func testOptions(t *testing.T) Options {
	t.Helper()
	opts, err := DefaultOptions("10.96.0.0/12", "cluster.local")
	if err != nil {
		t.Fatal(err)
	}
	opts.EtcdIPs = []net.IP{net.ParseIP("192.0.2.7")}
	return opts
}

func ensure(t *testing.T, dir string, opts Options) *Files {
	t.Helper()
	f, err := Ensure(dir, opts)
	if err != nil {
		t.Fatalf("Ensure: %v", err)
	}
	return f
}

func loadCert(t *testing.T, path string) *x509.Certificate {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := certs.ParseCert(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return cert
}

func pool(t *testing.T, path string) *x509.CertPool {
	t.Helper()
	p := x509.NewCertPool()
	p.AddCert(loadCert(t, path))
	return p
}

// keyPairs lists every key pair of f with a name, for tests that walk them all.
func keyPairs(f *Files) map[string]KeyPair {
	return map[string]KeyPair{
		"ca": f.CA, "apiserver": f.APIServer, "apiserver-kubelet-client": f.APIServerKubeletClient,
		"etcd-ca": f.EtcdCA, "etcd-server": f.EtcdServer, "etcd-peer": f.EtcdPeer,
		"apiserver-etcd-client": f.APIServerEtcdClient, "front-proxy-ca": f.FrontProxyCA,
		"front-proxy-client": f.FrontProxyClient, "kubelet-ca": f.KubeletCA, "admin": f.Admin,
		"kube-controller-manager": f.ControllerManager, "kube-scheduler": f.Scheduler, "simnode": f.Simnode,
		"metrics-server": f.MetricsServer,
	}
}

func TestDefaultOptions(t *testing.T) {
	tests := []struct {
		subnet, domain string
		wantIP         string
		wantDNS        string
		wantErr        string
	}{
		{subnet: "10.96.0.0/12", domain: "cluster.local", wantIP: "10.96.0.1", wantDNS: "kubernetes.default.svc.cluster.local"},
		{subnet: "10.0.0.0/24", domain: "example.test", wantIP: "10.0.0.1", wantDNS: "kubernetes.default.svc.example.test"},
		{subnet: "fd00:10:96::/112", domain: "cluster.local", wantIP: "fd00:10:96::1", wantDNS: "kubernetes.default.svc.cluster.local"},
		{subnet: "10.96.0.0", domain: "cluster.local", wantErr: "service subnet"},
		{subnet: "10.96.0.0/12", domain: "", wantErr: "DNS domain"},
	}
	for _, tt := range tests {
		t.Run(tt.subnet+"/"+tt.domain, func(t *testing.T) {
			opts, err := DefaultOptions(tt.subnet, tt.domain)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to mention %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(opts.APIServerIPs, net.ParseIP(tt.wantIP).Equal) {
				t.Errorf("IPs %v lack %s", opts.APIServerIPs, tt.wantIP)
			}
			if !slices.ContainsFunc(opts.APIServerIPs, net.IPv4(127, 0, 0, 1).Equal) {
				t.Errorf("IPs %v lack 127.0.0.1", opts.APIServerIPs)
			}
			for _, name := range []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc", tt.wantDNS} {
				if !slices.Contains(opts.APIServerDNSNames, name) {
					t.Errorf("DNS names %v lack %s", opts.APIServerDNSNames, name)
				}
			}
		})
	}
}

func TestEnsureRequiresAPIServerNames(t *testing.T) {
	if _, err := Ensure(t.TempDir(), Options{}); err == nil {
		t.Fatal("Ensure with empty Options succeeded")
	}
}

func TestEnsureCertificates(t *testing.T) {
	f := ensure(t, filepath.Join(t.TempDir(), "pki"), testOptions(t))
	server := []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
	client := []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	both := []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}

	tests := []struct {
		name    string
		pair    KeyPair
		ca      KeyPair
		cn      string
		orgs    []string
		usages  []x509.ExtKeyUsage
		ips     []string
		dns     []string
		notIPs  []string
		notDNS  []string
		dnsName string // verified as the TLS server name when set
	}{
		{name: "apiserver", pair: f.APIServer, ca: f.CA, cn: "kube-apiserver", usages: server,
			ips:    []string{"127.0.0.1", "10.96.0.1"},
			dns:    []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"},
			notIPs: []string{"192.0.2.7"}, dnsName: "kubernetes.default.svc"},
		{name: "apiserver-kubelet-client", pair: f.APIServerKubeletClient, ca: f.CA, cn: "kube-apiserver-kubelet-client", usages: client},
		{name: "admin", pair: f.Admin, ca: f.CA, cn: "kubernetes-admin", orgs: []string{"system:masters"}, usages: client},
		{name: "kube-controller-manager", pair: f.ControllerManager, ca: f.CA, cn: "system:kube-controller-manager", usages: client},
		{name: "kube-scheduler", pair: f.Scheduler, ca: f.CA, cn: "system:kube-scheduler", usages: client},
		{name: "simnode", pair: f.Simnode, ca: f.CA, cn: "wink:simnode", usages: client},
		{name: "metrics-server", pair: f.MetricsServer, ca: f.CA, cn: "wink:metrics-server", usages: client},
		{name: "etcd-server", pair: f.EtcdServer, ca: f.EtcdCA, cn: "etcd-server", usages: both,
			ips: []string{"127.0.0.1", "::1", "192.0.2.7"}, dns: []string{"localhost"},
			notIPs: []string{"10.96.0.1"}, notDNS: []string{"kubernetes"}, dnsName: "localhost"},
		{name: "etcd-peer", pair: f.EtcdPeer, ca: f.EtcdCA, cn: "etcd-peer", usages: both,
			ips: []string{"127.0.0.1", "192.0.2.7"}, dns: []string{"localhost"}},
		{name: "apiserver-etcd-client", pair: f.APIServerEtcdClient, ca: f.EtcdCA, cn: "kube-apiserver-etcd-client", usages: client},
		{name: "front-proxy-client", pair: f.FrontProxyClient, ca: f.FrontProxyCA, cn: "front-proxy-client", usages: client},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cert := loadCert(t, tt.pair.Cert)
			if cert.Subject.CommonName != tt.cn {
				t.Errorf("CN = %q, want %q", cert.Subject.CommonName, tt.cn)
			}
			if !slices.Equal(cert.Subject.Organization, tt.orgs) {
				t.Errorf("O = %q, want %q", cert.Subject.Organization, tt.orgs)
			}
			if !slices.Equal(cert.ExtKeyUsage, tt.usages) {
				t.Errorf("ExtKeyUsage = %v, want %v", cert.ExtKeyUsage, tt.usages)
			}
			if cert.IsCA {
				t.Error("leaf is a CA")
			}
			if cert.KeyUsage&x509.KeyUsageDigitalSignature == 0 {
				t.Error("no digitalSignature key usage")
			}
			for _, ip := range tt.ips {
				if !slices.ContainsFunc(cert.IPAddresses, net.ParseIP(ip).Equal) {
					t.Errorf("IP SANs %v lack %s", cert.IPAddresses, ip)
				}
			}
			for _, ip := range tt.notIPs {
				if slices.ContainsFunc(cert.IPAddresses, net.ParseIP(ip).Equal) {
					t.Errorf("IP SANs %v contain %s", cert.IPAddresses, ip)
				}
			}
			for _, name := range tt.dns {
				if !slices.Contains(cert.DNSNames, name) {
					t.Errorf("DNS SANs %v lack %s", cert.DNSNames, name)
				}
			}
			for _, name := range tt.notDNS {
				if slices.Contains(cert.DNSNames, name) {
					t.Errorf("DNS SANs %v contain %s", cert.DNSNames, name)
				}
			}
			if len(tt.ips)+len(tt.dns) == 0 && len(cert.IPAddresses)+len(cert.DNSNames) != 0 {
				t.Errorf("client certificate has SANs %v %v", cert.IPAddresses, cert.DNSNames)
			}
			if got := cert.NotAfter.Sub(cert.NotBefore); got < LeafValidity || got > LeafValidity+time.Hour {
				t.Errorf("validity %s, want about %s", got, LeafValidity)
			}
			// The chain verifies for exactly the usages asked for.
			for _, usage := range []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth} {
				_, err := cert.Verify(x509.VerifyOptions{Roots: pool(t, tt.ca.Cert), KeyUsages: []x509.ExtKeyUsage{usage}})
				if want := slices.Contains(tt.usages, usage); (err == nil) != want {
					t.Errorf("Verify for usage %v: err = %v, want success %v", usage, err, want)
				}
			}
			if tt.dnsName != "" {
				if err := cert.VerifyHostname(tt.dnsName); err != nil {
					t.Error(err)
				}
			}
			// The key matches the certificate.
			if _, err := tls.LoadX509KeyPair(tt.pair.Cert, tt.pair.Key); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestEnsureCAs(t *testing.T) {
	f := ensure(t, t.TempDir(), testOptions(t))
	cas := map[string]KeyPair{"ca": f.CA, "etcd-ca": f.EtcdCA, "front-proxy-ca": f.FrontProxyCA, "kubelet-ca": f.KubeletCA}
	seen := map[string]bool{}
	for name, p := range cas {
		t.Run(name, func(t *testing.T) {
			cert := loadCert(t, p.Cert)
			if !cert.IsCA || !cert.BasicConstraintsValid || cert.KeyUsage&x509.KeyUsageCertSign == 0 {
				t.Errorf("not a CA: IsCA=%v keyUsage=%v", cert.IsCA, cert.KeyUsage)
			}
			if got := cert.NotAfter.Sub(cert.NotBefore); got < CAValidity || got > CAValidity+time.Hour {
				t.Errorf("validity %s, want about %s", got, CAValidity)
			}
			if _, err := tls.LoadX509KeyPair(p.Cert, p.Key); err != nil {
				t.Error(err)
			}
			if seen[string(cert.RawSubjectPublicKeyInfo)] {
				t.Error("CA shares its key with another CA")
			}
			seen[string(cert.RawSubjectPublicKeyInfo)] = true
		})
	}
	// Layout names the kubelet CA as simnode and the architecture expect.
	if filepath.Base(f.KubeletCA.Cert) != "kubelet-ca.crt" || filepath.Base(f.KubeletCA.Key) != "kubelet-ca.key" {
		t.Errorf("kubelet CA files %v", f.KubeletCA)
	}
}

func TestEnsureServiceAccountKey(t *testing.T) {
	f := ensure(t, t.TempDir(), testOptions(t))
	keyPEM, err := os.ReadFile(f.ServiceAccountKey)
	if err != nil {
		t.Fatal(err)
	}
	key, err := certs.ParseKey(keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	pubPEM, err := os.ReadFile(f.ServiceAccountPub)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(pubPEM)
	if block == nil || block.Type != "PUBLIC KEY" {
		t.Fatalf("sa.pub is not a PUBLIC KEY PEM block: %q", pubPEM)
	}
	pub, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if !certs.PublicKeyEqual(pub, key.Public()) {
		t.Error("sa.pub does not match sa.key")
	}
}

func TestEnsureModes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pki")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, f *Files) {
		t.Helper()
		want := map[string]fs.FileMode{f.Dir: DirMode | fs.ModeDir, f.ServiceAccountKey: KeyMode, f.ServiceAccountPub: CertMode}
		for _, p := range keyPairs(f) {
			want[p.Cert] = CertMode
			want[p.Key] = KeyMode
		}
		for path, mode := range want {
			fi, err := os.Stat(path)
			if err != nil {
				t.Error(err)
				continue
			}
			if fi.Mode() != mode {
				t.Errorf("%s: mode %v, want %v", filepath.Base(path), fi.Mode(), mode)
			}
		}
		entries, err := os.ReadDir(f.Dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != len(want)-1 {
			t.Errorf("%d files in %s, want %d (temporary files left?)", len(entries), f.Dir, len(want)-1)
		}
	}
	f := ensure(t, dir, testOptions(t))
	t.Run("new", func(t *testing.T) { check(t, f) })

	// Loosen every mode; a second Ensure tightens them again.
	for _, p := range keyPairs(f) {
		for _, path := range []string{p.Cert, p.Key} {
			if err := os.Chmod(path, 0o666); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, path := range []string{dir, f.ServiceAccountKey, f.ServiceAccountPub} {
		if err := os.Chmod(path, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("fixed", func(t *testing.T) { check(t, ensure(t, dir, testOptions(t))) })
}

// snapshot reads every file of dir.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = data
	}
	return out
}

func TestEnsureIdempotentAndRegenerates(t *testing.T) {
	allLeaves := []string{"apiserver", "apiserver-kubelet-client", "admin", "kube-controller-manager", "kube-scheduler", "simnode", "metrics-server"}
	tests := []struct {
		name string
		// change modifies the first call's files and returns the options of
		// the second call.
		change func(t *testing.T, f *Files, opts Options) Options
		// changed are the base names (without extension) whose certificate
		// must differ after the second call; everything else must be equal.
		changed []string
		wantErr string
	}{
		{name: "unchanged", change: func(t *testing.T, f *Files, opts Options) Options { return opts }},
		{name: "new apiserver IP", changed: []string{"apiserver"},
			change: func(t *testing.T, f *Files, opts Options) Options {
				opts.APIServerIPs = append(opts.APIServerIPs, net.ParseIP("192.0.2.10"))
				return opts
			}},
		{name: "new apiserver DNS name", changed: []string{"apiserver"},
			change: func(t *testing.T, f *Files, opts Options) Options {
				opts.APIServerDNSNames = append(opts.APIServerDNSNames, "wink.example")
				return opts
			}},
		{name: "fewer SANs still covered", change: func(t *testing.T, f *Files, opts Options) Options {
			opts.APIServerDNSNames = opts.APIServerDNSNames[:1]
			return opts
		}},
		{name: "new etcd IP", changed: []string{"etcd-server", "etcd-peer"},
			change: func(t *testing.T, f *Files, opts Options) Options {
				opts.EtcdIPs = append(opts.EtcdIPs, net.ParseIP("192.0.2.11"))
				return opts
			}},
		{name: "leaf key removed", changed: []string{"admin"},
			change: func(t *testing.T, f *Files, opts Options) Options {
				remove(t, f.Admin.Key)
				return opts
			}},
		{name: "leaf certificate corrupt", changed: []string{"simnode"},
			change: func(t *testing.T, f *Files, opts Options) Options {
				write(t, f.Simnode.Cert, "garbage")
				return opts
			}},
		{name: "leaf key of another pair", changed: []string{"kube-scheduler"},
			change: func(t *testing.T, f *Files, opts Options) Options {
				data, err := os.ReadFile(f.ControllerManager.Key)
				if err != nil {
					t.Fatal(err)
				}
				write(t, f.Scheduler.Key, string(data))
				return opts
			}},
		{name: "CA removed", changed: append([]string{"ca"}, allLeaves...),
			change: func(t *testing.T, f *Files, opts Options) Options {
				remove(t, f.CA.Cert)
				remove(t, f.CA.Key)
				return opts
			}},
		{name: "front-proxy CA certificate removed, key left", changed: []string{"front-proxy-ca", "front-proxy-client"},
			change: func(t *testing.T, f *Files, opts Options) Options {
				remove(t, f.FrontProxyCA.Cert)
				return opts
			}},
		{name: "sa.pub removed", change: func(t *testing.T, f *Files, opts Options) Options {
			remove(t, f.ServiceAccountPub)
			return opts
		}},
		{name: "CA key removed", wantErr: "has no usable key",
			change: func(t *testing.T, f *Files, opts Options) Options {
				remove(t, f.CA.Key)
				return opts
			}},
		{name: "CA certificate corrupt", wantErr: "remove it and its key",
			change: func(t *testing.T, f *Files, opts Options) Options {
				write(t, f.EtcdCA.Cert, "garbage")
				return opts
			}},
		{name: "sa.key corrupt", wantErr: "service-account key",
			change: func(t *testing.T, f *Files, opts Options) Options {
				write(t, f.ServiceAccountKey, "garbage")
				return opts
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			opts := testOptions(t)
			f := ensure(t, dir, opts)
			before := snapshot(t, dir)
			opts = tt.change(t, f, opts)
			f2, err := Ensure(dir, opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to mention %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if *f2 != *f {
				t.Errorf("paths changed: %+v, then %+v", f, f2)
			}
			after := snapshot(t, dir)
			if len(after) != len(before) {
				t.Errorf("%d files, then %d", len(before), len(after))
			}
			for name, data := range before {
				if !strings.HasSuffix(name, ".crt") && name != "sa.pub" && name != "sa.key" {
					continue
				}
				base := strings.TrimSuffix(name, ".crt")
				if want := slices.Contains(tt.changed, base); bytes.Equal(after[name], data) == want {
					t.Errorf("%s changed = %v, want %v", name, !want, want)
				}
			}
			// Whatever changed is signed by the CA now on disk.
			for _, p := range []struct{ leaf, ca KeyPair }{{f.APIServer, f.CA}, {f.Admin, f.CA}, {f.EtcdServer, f.EtcdCA}, {f.FrontProxyClient, f.FrontProxyCA}} {
				if err := loadCert(t, p.leaf.Cert).CheckSignatureFrom(loadCert(t, p.ca.Cert)); err != nil {
					t.Errorf("%s: %v", p.leaf.Cert, err)
				}
			}
			if _, err := tls.LoadX509KeyPair(f.Scheduler.Cert, f.Scheduler.Key); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestWriteKubeconfig(t *testing.T) {
	dir := t.TempDir()
	f := ensure(t, filepath.Join(dir, "pki"), testOptions(t))

	// An apiserver stand-in with the apiserver certificate that requires a
	// client certificate from the cluster CA and answers with its CN.
	serverCert, err := tls.LoadX509KeyPair(f.APIServer.Cert, f.APIServer.Key)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, r.TLS.PeerCertificates[0].Subject.CommonName)
	}))
	srv.TLS = &tls.Config{
		Certificates: []tls.Certificate{serverCert},
		ClientCAs:    pool(t, f.CA.Cert),
		ClientAuth:   tls.RequireAndVerifyClientCert,
	}
	srv.StartTLS()
	defer srv.Close()

	tests := []struct {
		name     string
		existing *fs.FileMode // mode of a file already at the path
		pair     KeyPair
		user     string
		wantCN   string
	}{
		{name: "admin", pair: f.Admin, user: "kubernetes-admin", wantCN: "kubernetes-admin"},
		{name: "replaces a world-readable file", existing: ptr(fs.FileMode(0o644)), pair: f.Simnode, user: "wink:simnode", wantCN: "wink:simnode"},
		{name: "replaces a read-only file", existing: ptr(fs.FileMode(0o400)), pair: f.Scheduler, user: "scheduler", wantCN: "system:kube-scheduler"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-"), "kubeconfig")
			if tt.existing != nil {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte("old"), *tt.existing); err != nil {
					t.Fatal(err)
				}
			}
			if err := WriteKubeconfig(path, srv.URL, "test", f.CA.Cert, tt.pair.Cert, tt.pair.Key, tt.user); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode() != 0o600 {
				t.Errorf("mode %v, want 0600", fi.Mode())
			}

			// Copied elsewhere (the PKI directory gone), it still works.
			copied := filepath.Join(t.TempDir(), "config")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			write(t, copied, string(data))

			cfg, err := clientcmd.LoadFromFile(copied)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.CurrentContext != "wink-test" {
				t.Errorf("current context %q", cfg.CurrentContext)
			}
			ctx := cfg.Contexts["wink-test"]
			if ctx == nil || ctx.Cluster != "wink-test" || ctx.AuthInfo != tt.user {
				t.Fatalf("context %+v", ctx)
			}
			if got := cfg.Clusters["wink-test"]; got == nil || got.Server != srv.URL || len(got.CertificateAuthorityData) == 0 || got.CertificateAuthority != "" {
				t.Errorf("cluster %+v", got)
			}
			if got := cfg.AuthInfos[tt.user]; got == nil || len(got.ClientCertificateData) == 0 || len(got.ClientKeyData) == 0 || got.ClientCertificate != "" {
				t.Errorf("user %+v", got)
			}

			restCfg, err := clientcmd.BuildConfigFromFlags("", copied)
			if err != nil {
				t.Fatal(err)
			}
			// The stand-in listens on 127.0.0.1, an IP SAN of the apiserver
			// certificate: no server-name override is needed.
			httpClient, err := rest.HTTPClientFor(restCfg)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := httpClient.Get(srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if string(body) != tt.wantCN {
				t.Errorf("server saw CN %q, want %q", body, tt.wantCN)
			}
		})
	}
}

func TestWriteKubeconfigErrors(t *testing.T) {
	f := ensure(t, t.TempDir(), testOptions(t))
	dir := t.TempDir()
	tests := []struct {
		name                                 string
		server, cluster, ca, cert, key, user string
	}{
		{name: "missing CA", server: "https://127.0.0.1:6443", cluster: "c", ca: filepath.Join(dir, "nope"), cert: f.Admin.Cert, key: f.Admin.Key, user: "u"},
		{name: "missing key", server: "https://127.0.0.1:6443", cluster: "c", ca: f.CA.Cert, cert: f.Admin.Cert, key: filepath.Join(dir, "nope"), user: "u"},
		{name: "no server", cluster: "c", ca: f.CA.Cert, cert: f.Admin.Cert, key: f.Admin.Key, user: "u"},
		{name: "no user", server: "https://127.0.0.1:6443", cluster: "c", ca: f.CA.Cert, cert: f.Admin.Cert, key: f.Admin.Key},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "kubeconfig")
			if err := WriteKubeconfig(path, tt.server, tt.cluster, tt.ca, tt.cert, tt.key, tt.user); err == nil {
				t.Fatal("no error")
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("a kubeconfig was written: %v", err)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func remove(t *testing.T, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestLeafRenewedBeforeExpiry(t *testing.T) {
	dir := t.TempDir()
	f := ensure(t, dir, testOptions(t))
	ca, err := certs.LoadCA(f.CA.Cert, f.CA.Key)
	if err != nil {
		t.Fatal(err)
	}
	spec := certSpec{pair: f.Admin, cn: AdminCommonName, orgs: []string{AdminOrganization}, usages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	tests := []struct {
		name      string
		after     time.Duration
		wantStale bool
	}{
		{name: "now", after: 0},
		{name: "in 300 days", after: 300 * 24 * time.Hour},
		{name: "inside the renewal margin", after: LeafValidity - RenewBefore + time.Hour, wantStale: true},
		{name: "expired", after: LeafValidity + time.Hour, wantStale: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := leafProblem(ca, spec, time.Now().Add(tt.after))
			if stale := errors.Is(err, errStale); stale != tt.wantStale || (err != nil && !stale) {
				t.Errorf("leafProblem = %v, want stale %v", err, tt.wantStale)
			}
		})
	}
}
