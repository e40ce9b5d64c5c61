package kubeletapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"wink.dev/wink/simnode/internal/logs"
)

// Issue 21 (B16): `kubectl logs --tail=0` (tailLines=0) prints nothing, as
// the kubelet does; with -f it prints only the lines that come after. Without
// tailLines every line is printed.
func TestLogsTailZero(t *testing.T) {
	store := logs.NewStore()
	buf := store.Open(logs.Key{PodUID: "u", Container: "c"})
	at := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	buf.Append("stdout", at, "line one")
	buf.Append("stdout", at.Add(time.Second), "line two")
	srv := httptest.NewServer(Handler(&fakeBackend{buf: buf}))
	defer srv.Close()
	get := func(query string) string {
		t.Helper()
		resp, err := http.Get(srv.URL + "/containerLogs/default/web/c" + query)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", query, resp.StatusCode, body)
		}
		return string(body)
	}
	if got := get(""); got != "line one\nline two\n" {
		t.Errorf("no tailLines: %q", got)
	}
	if got := get("?tailLines=0"); got != "" {
		t.Errorf("tailLines=0: %q, want nothing", got)
	}
	if got := get("?tailLines=1"); got != "line two\n" {
		t.Errorf("tailLines=1: %q", got)
	}
	followed := make(chan string, 1)
	go func() { followed <- get("?tailLines=0&follow=true") }()
	time.Sleep(100 * time.Millisecond) // the follow request is under way
	buf.Append("stdout", at.Add(2*time.Second), "line three")
	buf.Close()
	if got := <-followed; got != "line three\n" {
		t.Errorf("-f --tail=0: %q, want only the new line", got)
	}
}
