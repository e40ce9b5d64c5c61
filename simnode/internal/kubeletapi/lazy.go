package kubeletapi

import (
	"net/http"
	"sync"
)

// Lazy is the handler build makes, built on the first request. A node's
// routes (Handler) cost about 100 KiB (a gorilla/mux router's compiled
// patterns, a runtime.Scheme of virtual-kubelet's /pods handler), and most
// of 5,000 idle nodes are never asked for logs, exec or their pods; the
// stats and metrics that are asked for all the time are served in front
// of it (WithStats).
func Lazy(build func() http.Handler) http.Handler {
	var once sync.Once
	var h http.Handler
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { h = build() })
		h.ServeHTTP(w, r)
	})
}
