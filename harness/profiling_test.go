package harness

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wink.dev/wink/harness/internal/pki"
)

// TestEtcdClient: the benchmarks reach an embedded cluster's etcd as its
// apiserver does, at the client port of state.json, trusting etcd's CA and
// presenting the apiserver's etcd client certificate; a cluster of another
// backend has no etcd of wink's.
func TestEtcdClient(t *testing.T) {
	home := t.TempDir()
	dir := writeCluster(t, home, "e", "", false)
	opts, err := pki.DefaultOptions("10.96.0.0/12", "cluster.local")
	if err != nil {
		t.Fatal(err)
	}
	files, err := pki.Ensure(filepath.Join(dir, "pki"), opts)
	if err != nil {
		t.Fatal(err)
	}
	// etcd: its server certificate, client certificates of etcd's CA only.
	cert, err := tls.LoadX509KeyPair(files.EtcdServer.Cert, files.EtcdServer.Key)
	if err != nil {
		t.Fatal(err)
	}
	caPEM, err := os.ReadFile(files.EtcdCA.Cert)
	if err != nil {
		t.Fatal(err)
	}
	clients := x509.NewCertPool()
	clients.AppendCertsFromPEM(caPEM)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.TLS.PeerCertificates[0].Subject.CommonName)
	}))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, ClientCAs: clients, ClientAuth: tls.RequireAndVerifyClientCert}
	srv.StartTLS()
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	state := `{"apiServer":6443,"etcdClient":` + port + `,"etcdPeer":2380,"controllerManager":10257,"scheduler":10259,"nodeAddressBase":"172.18.0.2"}`
	if err := os.WriteFile(filepath.Join(dir, stateFile), []byte(state), 0o600); err != nil {
		t.Fatal(err)
	}

	url, c, err := EtcdClient(Options{Name: "e", Home: home})
	if err != nil {
		t.Fatal(err)
	}
	if want := "https://127.0.0.1:" + port; url != want {
		t.Errorf("url %s, want %s", url, want)
	}
	resp, err := c.Get(url + "/debug/pprof/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "apiserver-etcd-client") {
		t.Errorf("etcd answered %s %q, want 200 to the apiserver's etcd client certificate", resp.Status, body)
	}

	other := writeCluster(t, home, "x", `{"nodeAddressBase":"10.0.0.5"}`, false)
	if err := os.WriteFile(filepath.Join(other, configFile), []byte("apiVersion: wink.dev/v1alpha1\nkind: Cluster\nname: x\nbackend: existing\nkubeconfig: /k\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := EtcdClient(Options{Name: "x", Home: home}); err == nil || !strings.Contains(err.Error(), "embedded") {
		t.Errorf("backend existing: err %v, want one saying only an embedded cluster's etcd is wink's", err)
	}
}
