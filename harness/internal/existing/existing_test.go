package existing

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/harness/internal/cluster"
)

// userKubeconfig writes, in a directory of its own, a kubeconfig with two
// contexts whose current one reaches server and names its CA by a relative
// path, and returns its path.
func userKubeconfig(t *testing.T, server string, caPEM []byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ca.crt"), caPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	kc := clientcmdapi.NewConfig()
	kc.Clusters["mine"] = &clientcmdapi.Cluster{Server: server, CertificateAuthority: "ca.crt"}
	kc.Clusters["other"] = &clientcmdapi.Cluster{Server: "https://192.0.2.99:6443", InsecureSkipTLSVerify: true}
	kc.AuthInfos["me"] = &clientcmdapi.AuthInfo{Token: "secret-token"}
	kc.AuthInfos["them"] = &clientcmdapi.AuthInfo{Token: "other-token"}
	kc.Contexts["mine"] = &clientcmdapi.Context{Cluster: "mine", AuthInfo: "me"}
	kc.Contexts["other"] = &clientcmdapi.Context{Cluster: "other", AuthInfo: "them"}
	kc.CurrentContext = "mine"
	path := filepath.Join(dir, "config")
	if err := clientcmd.WriteToFile(*kc, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// apiserver is a TLS server answering /version and expecting the token.
func apiserver(t *testing.T) (*httptest.Server, []byte) {
	return apiserverDenying(t)
}

// apiserverDenying is apiserver that also answers SelfSubjectAccessReviews:
// allowed, but for the accesses denied names (as access.String says them).
func apiserverDenying(t *testing.T, denied ...string) (*httptest.Server, []byte) {
	t.Helper()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer secret-token" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		switch r.URL.Path {
		case "/version":
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"major":"1","minor":"34","gitVersion":"v1.34.2"}`)
		case "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews":
			var review authorizationv1.SelfSubjectAccessReview
			if err := json.NewDecoder(r.Body).Decode(&review); err != nil || review.Spec.ResourceAttributes == nil {
				http.Error(w, "bad review", http.StatusBadRequest)
				return
			}
			a := review.Spec.ResourceAttributes
			review.Status.Allowed = !slices.Contains(denied, access{a.Verb, a.Group, a.Resource, a.Subresource}.String())
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusCreated)
			_ = json.NewEncoder(w).Encode(&review)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
}

func TestCopyKubeconfig(t *testing.T) {
	srv, caPEM := apiserver(t)
	good := userKubeconfig(t, srv.URL, caPEM)

	brokenDir := t.TempDir()
	noCurrent := filepath.Join(brokenDir, "no-current")
	if err := os.WriteFile(noCurrent, []byte("apiVersion: v1\nkind: Config\nclusters: []\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(brokenDir, "dangling")
	if err := os.WriteFile(dangling, []byte("apiVersion: v1\nkind: Config\ncurrent-context: x\ncontexts:\n- name: x\n  context: {cluster: nowhere, user: nobody}\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name    string
		path    string
		env     string // KUBECONFIG
		wantErr string
	}{
		{name: "explicit path", path: good},
		{name: "from KUBECONFIG", env: good},
		{name: "missing file", path: filepath.Join(brokenDir, "absent"), wantErr: "absent"},
		{name: "no current context", path: noCurrent, wantErr: "no current context"},
		{name: "context without cluster", path: dangling, wantErr: "dangling"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("KUBECONFIG", tt.env)
			data, server, err := CopyKubeconfig(tt.path)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to mention %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if server != srv.URL {
				t.Errorf("server %q, want %q", server, srv.URL)
			}
			cfg, err := clientcmd.Load(data)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.CurrentContext != "mine" || len(cfg.Contexts) != 1 || len(cfg.Clusters) != 1 || len(cfg.AuthInfos) != 1 {
				t.Errorf("not minified:\n%s", data)
			}
			c := cfg.Clusters["mine"]
			if c == nil || c.CertificateAuthority != "" || !bytes.Equal(c.CertificateAuthorityData, caPEM) {
				t.Errorf("CA not embedded:\n%s", data)
			}
			if bytes.Contains(data, []byte("other-token")) {
				t.Error("the other context's credentials were copied")
			}
		})
	}
}

func testState(t *testing.T, kubeconfig, nodeAddressBase string) *cluster.State {
	t.Helper()
	return &cluster.State{
		Dir: filepath.Join(t.TempDir(), "state"),
		Config: &v1alpha1.Cluster{
			Name:       "demo",
			Backend:    v1alpha1.BackendExisting,
			Kubeconfig: kubeconfig,
			Networking: v1alpha1.Networking{NodeAddressBase: nodeAddressBase},
		},
	}
}

func TestPrepare(t *testing.T) {
	srv, caPEM := apiserver(t)
	first, firstErr := FirstIPv4()

	tests := []struct {
		name       string
		configured string
		want       string
	}{
		{name: "configured address", configured: "192.0.2.50", want: "192.0.2.50"},
		{name: "configured loopback address", configured: "127.10.0.2", want: "127.10.0.2"},
		// The stand-in listens on 127.0.0.1: the route to it is loopback,
		// so the first interface address is used.
		{name: "unset", want: first.String()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.configured == "" && firstErr != nil {
				t.Skipf("this machine has no address for the default: %v", firstErr)
			}
			src := userKubeconfig(t, srv.URL, caPEM)
			st := testState(t, src, tt.configured)
			var progress bytes.Buffer
			path, err := New().Prepare(context.Background(), st, &progress)
			if err != nil {
				t.Fatal(err)
			}
			if path != filepath.Join(st.Dir, "kubeconfig") {
				t.Errorf("path %s", path)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode() != 0o600 {
				t.Errorf("mode %v", fi.Mode())
			}
			if st.Ports.NodeAddressBase != tt.want {
				t.Errorf("NodeAddressBase %q, want %q", st.Ports.NodeAddressBase, tt.want)
			}
			if !strings.Contains(progress.String(), "v1.34.2") {
				t.Errorf("progress %q", progress.String())
			}
			// The copy works with the original gone.
			if err := os.RemoveAll(filepath.Dir(src)); err != nil {
				t.Fatal(err)
			}
			if _, err := ping(context.Background(), path); err != nil {
				t.Errorf("copied kubeconfig: %v", err)
			}

			comps, err := New().Components(st)
			if err != nil {
				t.Fatal(err)
			}
			if len(comps) != 2 || comps[1].Args[2] != filepath.Join(st.Dir, "simnode.yaml") {
				t.Errorf("components %+v", comps)
			}
			if err := New().Delete(context.Background(), st); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestPrepareUnreachable(t *testing.T) {
	srv, caPEM := apiserver(t)
	src := userKubeconfig(t, srv.URL, caPEM)
	srv.Close()
	st := testState(t, src, "192.0.2.50")
	_, err := New().Prepare(context.Background(), st, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "does not answer") || !strings.Contains(err.Error(), srv.URL) {
		t.Fatalf("err = %v", err)
	}
	if st.Ports.NodeAddressBase != "" {
		t.Errorf("NodeAddressBase set to %q", st.Ports.NodeAddressBase)
	}
}

// TestPrepareWithoutRights: a kubeconfig whose user may not do what simnode
// needs fails Prepare at once, naming what it may not do.
func TestPrepareWithoutRights(t *testing.T) {
	srv, caPEM := apiserverDenying(t, "create nodes", "update pods/status")
	st := testState(t, userKubeconfig(t, srv.URL, caPEM), "192.0.2.50")
	_, err := New().Prepare(context.Background(), st, io.Discard)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{srv.URL, "may not create nodes, update pods/status:", "cluster-admin"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

func TestComponentsBeforePrepare(t *testing.T) {
	if _, err := New().Components(testState(t, "", "")); err == nil {
		t.Error("no error")
	}
}

func TestFirstIPv4Of(t *testing.T) {
	ipnet := func(s string) net.Addr {
		ip, n, err := net.ParseCIDR(s)
		if err != nil {
			t.Fatal(err)
		}
		n.IP = ip
		return n
	}
	tests := []struct {
		name  string
		addrs []net.Addr
		want  string
	}{
		{name: "none"},
		{name: "IPv6 only", addrs: []net.Addr{ipnet("fe80::1/64"), ipnet("2001:db8::5/64")}},
		{name: "link-local skipped", addrs: []net.Addr{ipnet("169.254.3.4/16"), ipnet("10.1.2.3/8")}, want: "10.1.2.3"},
		{name: "loopback skipped", addrs: []net.Addr{ipnet("127.0.0.1/8"), ipnet("192.168.1.20/24")}, want: "192.168.1.20"},
		{name: "IPAddr", addrs: []net.Addr{&net.IPAddr{IP: net.ParseIP("172.16.0.9")}}, want: "172.16.0.9"},
		{name: "first wins", addrs: []net.Addr{ipnet("2001:db8::5/64"), ipnet("10.0.0.1/24"), ipnet("10.0.0.2/24")}, want: "10.0.0.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := firstIPv4(tt.addrs)
			if (got == nil && tt.want != "") || (got != nil && got.String() != tt.want) {
				t.Errorf("got %v, want %q", got, tt.want)
			}
		})
	}
}

func TestHostAddress(t *testing.T) {
	first, err := FirstIPv4()
	if err != nil {
		t.Skipf("no interface address: %v", err)
	}
	tests := []struct {
		name   string
		server string
	}{
		{name: "loopback apiserver", server: "https://127.0.0.1:6443"},
		{name: "localhost without port", server: "https://localhost"},
		{name: "remote apiserver", server: "https://" + first.String() + ":6443"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ip, err := HostAddress(tt.server)
			if err != nil {
				t.Fatal(err)
			}
			if ip.IsLoopback() || ip.IsUnspecified() {
				t.Errorf("got %s", ip)
			}
		})
	}
	if _, err := HostAddress("://bad"); err == nil {
		t.Error("bad URL accepted")
	}
}

func TestExpandHome(t *testing.T) {
	t.Setenv("HOME", "/home/w")
	tests := []struct{ in, want string }{
		{"~/.kube/config", "/home/w/.kube/config"},
		{"/etc/kubeconfig", "/etc/kubeconfig"},
		{"relative/config", "relative/config"},
		{"", ""},
		{"~other/config", "~other/config"},
	}
	for _, tt := range tests {
		t.Run("path="+tt.in, func(t *testing.T) {
			got, err := expandHome(tt.in)
			if err != nil || got != tt.want {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestVerifySample: Verify asks every node of a small cluster, and of a
// large one verifyMax spread from the first to the last, each once.
func TestVerifySample(t *testing.T) {
	names := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("n-%d", i)
		}
		return out
	}
	if got := verifySample(names(12)); len(got) != 12 {
		t.Errorf("12 nodes: asks %d, want all", len(got))
	}
	all := names(5000)
	got := verifySample(all)
	if len(got) != verifyMax || got[0] != all[0] || got[len(got)-1] != all[len(all)-1] {
		t.Fatalf("5,000 nodes: asks %d from %s to %s, want %d from %s to %s", len(got), got[0], got[len(got)-1], verifyMax, all[0], all[len(all)-1])
	}
	seen := map[string]bool{}
	for _, n := range got {
		if seen[n] {
			t.Errorf("asks %s twice", n)
		}
		seen[n] = true
	}
}
