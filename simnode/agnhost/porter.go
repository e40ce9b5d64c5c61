package agnhost

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"wink.dev/wink/simnode/certs"
)

// agnhost porter (test/images/agnhost/porter): serves the value of each
// environment variable SERVE_PORT_<port> over HTTP and SERVE_TLS_PORT_<port>
// over HTTPS on that port (--json-response: {"Method":...,"Body":...}).
// upstream's Proxy specs read them through the apiserver's pods/proxy and
// services/proxy (test/e2e/network/proxy.go), so they are real sockets.

// PorterPort is one port porter serves.
type PorterPort struct {
	Port  int
	TLS   bool
	Value string
}

// PorterPorts reads porter's ports from the container's environment.
func PorterPorts(env map[string]string) []PorterPort {
	var out []PorterPort
	for k, v := range env {
		for prefix, tls := range map[string]bool{"SERVE_PORT_": false, "SERVE_TLS_PORT_": true} {
			if p, ok := strings.CutPrefix(k, prefix); ok {
				if n, err := strconv.Atoi(p); err == nil && n > 0 && n < 65536 {
					out = append(out, PorterPort{Port: n, TLS: tls, Value: v})
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Port < out[j].Port })
	return out
}

// PorterHandler answers every request with value.
func PorterHandler(value string, jsonResponse bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := value
		if jsonResponse {
			b, _ := json.Marshal(struct{ Method, Body string }{r.Method, value})
			w.Header().Set("Content-Type", "application/json")
			body = string(b)
		}
		fmt.Fprint(w, body)
	})
}

// ServeHTTP serves h over l until ctx is done.
func ServeHTTP(ctx context.Context, l net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 30 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	err := srv.Serve(l)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// LocalhostCert is the certificate and key of the image's localhost.crt
// and localhost.key (porter's TLS ports): a certificate for localhost
// (simnode/certs), made once per process. Clients of porter (the
// apiserver's proxy) do not verify it.
var LocalhostCert = sync.OnceValues(func() ([]byte, []byte) {
	const validity = 10 * 365 * 24 * time.Hour
	now := time.Now()
	ca, err := certs.NewCA("agnhost", validity, now)
	if err != nil {
		panic(err)
	}
	der, key, err := ca.Issue(certs.Leaf{
		CommonName: "localhost", DNSNames: []string{"localhost"},
		Usages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, Validity: validity,
	}, now)
	if err != nil {
		panic(err)
	}
	keyPEM, err := certs.EncodeKey(key)
	if err != nil {
		panic(err)
	}
	return certs.EncodeCert(der), keyPEM
})
