package agnhost

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Row E: agnhost nettest's /write, /read, /status and /quit as upstream's
// PreStop spec (pre_stop.go) uses them.
func TestNettest(t *testing.T) {
	quit := false
	srv := httptest.NewServer(NettestHandler("server", 8, func() { quit = true }))
	defer srv.Close()
	do := func(method, path, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := do("POST", "/write", `{"Source": "prestop"}`); code != 200 || body != "{\"Hostname\":\"server\"}\n" {
		t.Fatalf("/write: %d %q", code, body)
	}
	do("POST", "/write", `{"Source": "prestop"}`)
	do("POST", "/write", `{}`)
	do("POST", "/write", `not json`)
	_, body := do("GET", "/read", "")
	var state struct {
		Hostname             string
		Received             map[string]int
		Sent                 map[string]int
		Errors               []string
		StillContactingPeers bool
	}
	if err := json.Unmarshal([]byte(body), &state); err != nil {
		t.Fatalf("/read %q: %v", body, err)
	}
	if state.Hostname != "server" || state.Received["prestop"] != 2 || len(state.Received) != 1 || state.Sent != nil || !state.StillContactingPeers {
		t.Fatalf("/read state %+v", state)
	}
	if len(state.Errors) != 3 || state.Errors[0] != "server: Got request with no source" || !strings.Contains(state.Errors[1], "invalid character") {
		t.Fatalf("/read errors %q", state.Errors)
	}
	if !strings.HasPrefix(body, "{\n\t\"Hostname\": \"server\",\n\t\"Sent\": null,\n\t\"Received\": {") {
		t.Fatalf("/read is not nettest's indented State: %q", body)
	}
	if _, s := do("GET", "/status", ""); s != "running" {
		t.Fatalf("/status %q", s)
	}
	if do("GET", "/quit", ""); !quit {
		t.Fatal("/quit did not end the program")
	}
}
