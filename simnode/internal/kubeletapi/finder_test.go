package kubeletapi

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/remotecommand"
)

// finderBackend has pod "web" with container "c" running and container
// "stopped" not running (an evicted pod's, or a pod its node shut down).
type finderBackend struct{ fakeBackend }

func (finderBackend) FindContainer(ns, pod, container string) (bool, bool) {
	if ns != "default" || pod != "web" {
		return false, false
	}
	return true, container == "c"
}

// TestExecBeforeUpgrade checks that exec and attach are refused as the
// kubelet refuses them when the pod is unknown or the container does not
// run (B6, B15: nothing of a terminated pod runs), before any upgrade, so
// that kubectl shows the kubelet's text.
func TestExecBeforeUpgrade(t *testing.T) {
	srv := httptest.NewServer(Handler(&finderBackend{}))
	defer srv.Close()
	for _, tc := range []struct {
		name, path string
		wantCode   int
		wantBody   string
	}{
		{"exec, unknown pod", "/exec/default/ghost/c?command=whoami&output=1", http.StatusNotFound, "pod does not exist"},
		{"exec, stopped container", "/exec/default/web/stopped?command=whoami&output=1", http.StatusInternalServerError, `container not found ("stopped")`},
		{"attach, stopped container", "/attach/default/web/stopped?output=1", http.StatusInternalServerError, "container stopped not found in pod web_default"},
		{"exec, running container: on to the upgrade", "/exec/default/web/c?command=whoami&output=1", http.StatusBadRequest, "unable to upgrade"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := http.Get(srv.URL + tc.path)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.wantCode || !strings.Contains(string(body), tc.wantBody) {
				t.Fatalf("got %d %q, want %d %q", resp.StatusCode, body, tc.wantCode, tc.wantBody)
			}
		})
	}
	// What `kubectl exec` prints for a stopped container.
	u, _ := url.Parse(srv.URL + "/exec/default/web/stopped?command=whoami&output=1&error=1")
	ex, err := remotecommand.NewSPDYExecutor(&rest.Config{Host: srv.URL}, http.MethodPost, u)
	if err != nil {
		t.Fatal(err)
	}
	err = ex.StreamWithContext(context.Background(), remotecommand.StreamOptions{Stdout: io.Discard, Stderr: io.Discard})
	if err == nil || !strings.Contains(err.Error(), `container not found ("stopped")`) {
		t.Fatalf("exec error %v", err)
	}
}
