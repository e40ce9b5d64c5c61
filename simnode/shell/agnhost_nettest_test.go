package shell

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// nettestNet is fakeNet with an apiserver that answers /version and the
// Endpoints of nettest's Service (the peers come up after a while), peers
// whose /write answers their hostname, and a real socket for the
// program's own server.
type nettestNet struct {
	*fakeNet
	l net.Listener
	// ready is closed once the test saw /status running: the apiserver
	// answers from then on.
	ready  chan struct{}
	mu     sync.Mutex
	gets   int
	writes []string
}

func (n *nettestNet) Listen(context.Context, int) (net.Listener, error) { return n.l, nil }

func (n *nettestNet) Do(_ context.Context, req *HTTPRequest) (*HTTPResponse, error) {
	if req.Header["Authorization"] != "Bearer sa-token" || string(req.RootCAs) != "CLUSTER CA" {
		return &HTTPResponse{Status: 401}, nil
	}
	<-n.ready
	switch req.URL {
	case "https://10.96.0.1:443/version":
		return &HTTPResponse{Status: 200, Body: []byte(`{"gitVersion":"v1.35.4"}`)}, nil
	case "https://10.96.0.1:443/api/v1/namespaces/nettest-ns/endpoints/nettest":
		n.mu.Lock()
		defer n.mu.Unlock()
		n.gets++
		if n.gets < 3 { // the peers are not all up yet
			return &HTTPResponse{Status: 200, Body: []byte(`{"subsets":[{"addresses":[{"ip":"10.244.1.7"}],"ports":[{"port":8080}]}]}`)}, nil
		}
		return &HTTPResponse{Status: 200, Body: []byte(`{"subsets":[{"addresses":[{"ip":"10.244.1.7"},{"ip":"10.244.2.8"}],"ports":[{"port":8080}]}]}`)}, nil
	}
	return &HTTPResponse{Status: 404}, nil
}

func (n *nettestNet) HTTPBody(_ context.Context, method, url string, body []byte, _ bool) (*HTTPResponse, error) {
	n.mu.Lock()
	n.writes = append(n.writes, method+" "+url+" "+string(body))
	n.mu.Unlock()
	host := map[string]string{"http://10.244.1.7:8080/write": "nettest-0", "http://10.244.2.8:8080/write": "nettest-1"}[url]
	// The peer is a nettest too: it contacts this one.
	if resp, err := http.Post("http://"+n.l.Addr().String()+"/write", "application/json", strings.NewReader(`{"Source":"`+host+`"}`)); err == nil {
		resp.Body.Close()
	}
	return &HTTPResponse{Status: 200, Body: []byte(`{"Hostname":"` + host + `"}` + "\n")}, nil
}

// TestAgnhostNettestPeers (issue 21; rows E, H1): agnhost nettest's peer
// search as upstream's contactOthers: it waits for the Service's endpoints
// to reach --peers, POSTs /write to each, and its /status goes from
// running to pass once it has sent to and heard from its peers.
func TestAgnhostNettestPeers(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(Linux)
	n := &nettestNet{fakeNet: f.net, l: l, ready: make(chan struct{})}
	f.env.Net = n
	// The program's clock moves on its sleeps; its server then waits in
	// real time for the test to end it.
	f.env.Sleep = func(ctx context.Context, d time.Duration) error {
		if d >= time.Hour {
			<-ctx.Done()
			return ctx.Err()
		}
		return f.clock.Sleep(ctx, d)
	}
	f.env.Hostname = "nettest-2"
	f.env.Vars["KUBERNETES_SERVICE_HOST"] = "10.96.0.1"
	f.env.Vars["KUBERNETES_SERVICE_PORT"] = "443"
	f.fs.add("/var/run/secrets/kubernetes.io/serviceaccount/token", "sa-token")
	f.fs.add("/var/run/secrets/kubernetes.io/serviceaccount/ca.crt", "CLUSTER CA")
	status := func() string {
		resp, err := http.Get("http://" + l.Addr().String() + "/status")
		if err != nil {
			return err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	seen := make(chan []string, 1)
	go func() {
		var states []string
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			s := status()
			if len(states) == 0 || states[len(states)-1] != s {
				states = append(states, s)
			}
			if s == "running" && len(states) == 1 {
				close(n.ready)
			}
			if s == "pass" || s == "fail" {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		seen <- states
		f.clock.cancel()
	}()
	r := f.runFor(t, []string{"/agnhost", "nettest", "--service", "nettest", "--namespace", "nettest-ns", "--peers", "2"}, "", 25*time.Second)
	states := <-seen
	if len(states) != 2 || states[0] != "running" || states[1] != "pass" {
		t.Fatalf("/status went %q, want running then pass; %+v", states, r)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.gets < 3 || len(n.writes) == 0 {
		t.Fatalf("endpoints read %d times, writes %q", n.gets, n.writes)
	}
	var wp map[string]string
	if err := json.Unmarshal([]byte(n.writes[0][strings.Index(n.writes[0], "{"):]), &wp); err != nil || wp["Source"] != "nettest-2" || !strings.HasPrefix(n.writes[0], "POST http://10.244.1.7:8080/write ") {
		t.Fatalf("first write %q", n.writes[0])
	}
}
