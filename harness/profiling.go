package harness

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/harness/internal/embedded"
	"wink.dev/wink/harness/internal/pki"
)

// ProfilingEnv names the environment variable that, set to true when an
// embedded cluster comes up, makes its kube-apiserver and etcd serve Go's
// profiles (/debug/pprof). The benchmarks set it (suites/bench,
// WINK_BENCH_PROFILE).
const ProfilingEnv = embedded.ProfilingEnv

// EtcdClient is the etcd of an embedded cluster as its apiserver reaches
// it: its client URL and an HTTP client that trusts etcd's CA and presents
// the apiserver's etcd client certificate. With ProfilingEnv set when the
// cluster came up, etcd serves /debug/pprof at that URL.
func EtcdClient(opts Options) (string, *http.Client, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return "", nil, err
	}
	st, err := loadState(o, o.name())
	if err != nil {
		return "", nil, err
	}
	if b := st.Config.Backend; b != "" && b != v1alpha1.BackendEmbedded {
		return "", nil, fmt.Errorf("cluster %q runs backend %s: only an embedded cluster's etcd is wink's", o.name(), st.Config.Backend)
	}
	files := pki.Layout(filepath.Join(st.Dir, "pki"))
	ca, err := os.ReadFile(files.EtcdCA.Cert)
	if err != nil {
		return "", nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ca) {
		return "", nil, fmt.Errorf("%s: no PEM certificate", files.EtcdCA.Cert)
	}
	cert, err := tls.LoadX509KeyPair(files.APIServerEtcdClient.Cert, files.APIServerEtcdClient.Key)
	if err != nil {
		return "", nil, err
	}
	c := &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
	}}
	return "https://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(st.Ports.EtcdClient)), c, nil
}
