package agnhost

import (
	"net/http"

	"k8s.io/kubernetes/test/images/agnhost/crd-conversion-webhook/converter"
)

// ConversionHandler serves `agnhost crd-conversion-webhook`'s paths:
// /crdconvert, upstream's own converter of the e2e CRD
// stable.example.com v1 <-> v2 (hostPort <-> host and port; the package
// is linked from k8s.io/kubernetes v1.35.4, not rewritten), and /readyz.
// The real server also verifies client certificates against the cluster's
// request-header CA when the client offers one; the apiserver's webhook
// client offers none.
func ConversionHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/crdconvert", converter.ServeExampleConvert)
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })
	return mux
}
