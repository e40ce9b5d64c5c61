package simnode

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"os"
	"time"
)

// PprofEnv names the environment variable that, set to an address such as
// 127.0.0.1:6060, makes simnode serve Go's profiles (/debug/pprof/) there:
// how the benchmarks' figures are explained (`go tool pprof
// http://127.0.0.1:6060/debug/pprof/profile?seconds=20`). Unset: nothing
// is served.
const PprofEnv = "WINK_SIMNODE_PPROF"

// servePprof serves the profiles on $WINK_SIMNODE_PPROF until ctx is done.
func servePprof(ctx context.Context, log *slog.Logger) {
	addr := os.Getenv(PprofEnv)
	if addr == "" {
		return
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	go func() {
		if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("pprof not served", "env", PprofEnv, "addr", addr, "err", err)
		}
	}()
}
