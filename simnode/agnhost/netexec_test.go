package agnhost

import (
	"context"
	"errors"
	"testing"
)

type fakeNet struct{ calls []string }

func (f *fakeNet) Get(_ context.Context, url string) (string, error) {
	f.calls = append(f.calls, url)
	if url == "http://10.244.2.3:8083/hostname" {
		return "netserver-0", nil
	}
	return "", errors.New("connection refused")
}

func (f *fakeNet) UDP(_ context.Context, host string, port int, payload string) (string, error) {
	if host == "10.244.2.3" && port == 8081 {
		a, _ := NetexecUDP(payload, "netserver-0", "10.244.0.3", 8081)
		return a, nil
	}
	return "", errors.New("i/o timeout")
}

// TestNetexecDial: netexec's /dial as common/network/utils.go reads it
// (row H1, all kubelet versions).
func TestNetexecDial(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		status      int
		body        string
	}{
		{"http", "request=hostname&protocol=http&host=10.244.2.3&port=8083&tries=2", 200, `{"responses":["netserver-0","netserver-0"]}`},
		{"udp", "request=hostname&protocol=udp&host=10.244.2.3&port=8081&tries=1", 200, `{"responses":["netserver-0"]}`},
		{"udp hostName (jig reachability)", "request=hostName&protocol=udp&host=10.244.2.3&port=8081", 200, `{"responses":["netserver-0"]}`},
		{"udp echo", "request=echo%20hi&protocol=udp&host=10.244.2.3&port=8081", 200, `{"responses":["hi"]}`},
		{"refused", "request=hostname&host=10.244.2.9&port=8083&tries=1", 200, `{"errors":["connection refused"]}`},
		{"no request", "host=10.244.2.3&port=8083", 400, "request parameter not specified. <nil>\n"},
		{"bad protocol", "request=x&protocol=sctp2&host=10.244.2.3&port=1", 400, "unsupported protocol. sctp2\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := NetexecDial(context.Background(), &fakeNet{}, tc.query)
			if status != tc.status || body != tc.body {
				t.Errorf("got %d %q, want %d %q", status, body, tc.status, tc.body)
			}
		})
	}
}

func TestNetexecPorts(t *testing.T) {
	for _, tc := range []struct {
		argv      []string
		http, udp int
		ok        bool
	}{
		{[]string{"/agnhost", "netexec", "--http-port=8083", "--udp-port=8081"}, 8083, 8081, true},
		{[]string{"netexec", "--http-port", "9080"}, 9080, 8081, true},
		{[]string{"/agnhost", "pause"}, 0, 0, false},
	} {
		h, u, ok := NetexecPorts(tc.argv)
		if h != tc.http || u != tc.udp || ok != tc.ok {
			t.Errorf("%v: %d %d %v, want %d %d %v", tc.argv, h, u, ok, tc.http, tc.udp, tc.ok)
		}
	}
}
