package network_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"

	"wink.dev/wink/simnode/network"
	"wink.dev/wink/simnode/shell"
)

// The real part of the test cluster: a kind worker no simnode simulates,
// with kind's CoreDNS (the kube-dns Service's only endpoint here), a
// user's nginx, and a pod that is not Ready.
//
//	kind-worker  172.18.0.3  10.244.5.0/24  Linux, real
const kindWorker = "kind-worker"

const (
	realDNSIP    = "10.244.5.10"
	realNginxIP  = "10.244.5.20"
	realNotReady = "10.244.5.30"
	realEchoIP   = "10.244.5.40"
	realNginxSvc = "10.96.0.70"
)

func ready(ok bool) podOpt {
	return func(p *corev1.Pod) {
		st := corev1.ConditionFalse
		if ok {
			st = corev1.ConditionTrue
		}
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: st}}
	}
}

// realCluster is the fixture plus the real node; the kube-dns Service's
// endpoint is the real CoreDNS.
func realCluster() *cluster {
	c := newCluster()
	n := node(kindWorker, "linux", "172.18.0.3", "10.244.5.0/24", "")
	c.nodes[n.Name] = n
	c.objs.NodeList = append(c.objs.NodeList, n)
	N := c.nodes
	coredns := c.addPod(pod("kube-system", "coredns-real", kindWorker, realDNSIP, N, ports(53, 9153), labels("k8s-app", "kube-dns"), ready(true)))
	nginx := c.addPod(pod("default", "nginx-real", kindWorker, realNginxIP, N, ports(80), ready(true)))
	c.addPod(pod("default", "not-ready-real", kindWorker, realNotReady, N, ports(53, 80), ready(false)))
	c.addPod(pod("default", "echo-real", kindWorker, realEchoIP, N, ports(7), ready(true)))
	for i, es := range c.objs.EndpointSliceList {
		if es.Labels[discoveryv1.LabelServiceName] == "kube-dns" {
			c.objs.EndpointSliceList[i] = slice(c.svcs["kube-system/kube-dns"], 53, coredns)
		}
	}
	s := svc("default", "nginx-real", realNginxSvc, sport("http", 80, corev1.ProtocolTCP))
	c.addSvc(s, slice(s, 80, nginx))
	return c
}

// fakeCluster is a ClusterDial over loopback: the real nginx is an
// httptest server, the echo pod a net.Pipe; every other address refuses,
// except blackhole, whose dial times out. It counts the connections it
// hands out that are still open.
type fakeCluster struct {
	nginx     string // loopback address of the real nginx
	blackhole string
	mu        sync.Mutex
	open      int
	wg        sync.WaitGroup
}

type countedConn struct {
	net.Conn
	once sync.Once
	f    *fakeCluster
}

func (c *countedConn) Close() error {
	c.once.Do(func() {
		c.f.mu.Lock()
		c.f.open--
		c.f.mu.Unlock()
	})
	return c.Conn.Close()
}

func (f *fakeCluster) count(c net.Conn) net.Conn {
	f.mu.Lock()
	f.open++
	f.mu.Unlock()
	return &countedConn{Conn: c, f: f}
}

func (f *fakeCluster) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if network != "tcp" {
		return nil, fmt.Errorf("dial %s %s: only tcp", network, addr)
	}
	switch addr {
	case realNginxIP + ":80":
		c, err := (&net.Dialer{}).DialContext(ctx, "tcp", f.nginx)
		if err != nil {
			return nil, err
		}
		return f.count(c), nil
	case realEchoIP + ":7":
		client, server := net.Pipe()
		f.wg.Add(1)
		go func() { // the echo server: one line back, then close
			defer f.wg.Done()
			defer server.Close()
			b := make([]byte, 64)
			n, _ := server.Read(b)
			server.Write([]byte("echo:" + string(b[:n])))
		}()
		return f.count(client), nil
	case f.blackhole:
		<-ctx.Done()
		return nil, &net.OpError{Op: "dial", Net: network, Err: ctx.Err()}
	}
	return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ECONNREFUSED}
}

func (f *fakeCluster) stillOpen() int {
	f.wg.Wait()
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.open
}

// realModel is the model as wink wires it beside real nodes: Listens
// knows the simulated nodes' pods only (wire.NetworkOptions), and dial is
// ClusterDial (nil: none).
func (c *cluster) realModel(dial func(ctx context.Context, network, addr string) (net.Conn, error)) *network.Model {
	return c.model(func(o *network.Options) {
		o.SimulatedNode = func(n *corev1.Node) bool { return n.Name != kindWorker }
		o.ClusterDial = dial
		o.Listens = func(p *corev1.Pod, i int) []int {
			if p.Spec.NodeName == kindWorker {
				return nil
			}
			var out []int
			for _, cp := range p.Spec.Containers[i].Ports {
				out = append(out, int(cp.ContainerPort))
			}
			return out
		}
	})
}

func newFakeCluster(t *testing.T) *fakeCluster {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "real nginx %s %s", r.Method, r.URL.Path)
	}))
	t.Cleanup(srv.Close)
	return &fakeCluster{nginx: srv.Listener.Addr().String(), blackhole: realNginxIP + ":81"}
}

// H1: a Windows pod resolves cluster and internet names through the kube-dns
// Service whose endpoint is CoreDNS on a real node (hybrid_network.go
// "should provide Internet connection and DNS for Windows containers"),
// with and without ClusterDial: the model answers as CoreDNS does.
func TestRealCoreDNSH1(t *testing.T) {
	c := realCluster()
	google := network.ExternalAddr("www.google.com").String()
	for _, withDial := range []bool{false, true} {
		var dial func(context.Context, string, string) (net.Conn, error)
		if withDial {
			dial = newFakeCluster(t).dial
		}
		m := c.realModel(dial)
		for _, who := range []string{"win-client", "linux-client"} {
			n := c.from(m, who)
			for _, tc := range []struct{ name, want string }{
				{"www.google.com", google},
				{"nginx.default.svc.cluster.local", "10.96.0.20"},
				{"kubernetes.default.svc.cluster.local", kubeAPI},
				{"no-such-host.invalid", "notfound"},
			} {
				as, err := n.Resolve(ctx, tc.name)
				got := outcome(err)
				if err == nil {
					got = as[0].String()
				}
				if got != tc.want {
					t.Errorf("H1 %s (ClusterDial %v): Resolve(%q) = %s, want %s", who, withDial, tc.name, got, tc.want)
				}
			}
			// dig/nslookup straight at the CoreDNS pod, UDP and TCP.
			for _, tcp := range []bool{false, true} {
				r, err := n.(shell.DNSClient).ExchangeDNS(ctx, addr(realDNSIP), tcp, "nginx.default.svc.cluster.local", "A")
				if err != nil || len(r.Answer) != 1 || r.Answer[0].Data != "10.96.0.20" {
					t.Errorf("H1 %s (ClusterDial %v) tcp=%v: ExchangeDNS at the real CoreDNS = %+v, %v", who, withDial, tcp, r, err)
				}
			}
		}
	}
}

// H1: a real pod that is not Ready is not listening: DNS through it times
// out and a UDP connection is refused, with a reason naming it.
func TestRealPodNotReadyH1(t *testing.T) {
	c := realCluster()
	cp := c.pods["coredns-real"].DeepCopy()
	ready(false)(cp)
	for i, p := range c.objs.PodList {
		if p.Name == "coredns-real" {
			c.objs.PodList[i] = cp
		}
	}
	m := c.realModel(newFakeCluster(t).dial)
	n := c.from(m, "win-client")
	if _, err := n.Resolve(ctx, "www.google.com"); !errors.Is(err, shell.ErrTimeout) {
		t.Errorf("H1 DNS through a CoreDNS that is not Ready: %v, want a timeout", err)
	}
	for _, tcp := range []bool{false, true} {
		if _, err := n.(shell.DNSClient).ExchangeDNS(ctx, addr(realDNSIP), tcp, "kubernetes.default.svc.cluster.local", "A"); err == nil {
			t.Errorf("H1 tcp=%v: ExchangeDNS at a CoreDNS that is not Ready answered", tcp)
		}
	}
	err := n.Dial(ctx, "udp", addr(realNotReady), 53)
	var re *network.RuleError
	if !errors.Is(err, shell.ErrRefused) || !errors.As(err, &re) || re.Rule != "H1" || !strings.Contains(re.Reason, "not Ready") {
		t.Errorf("H1 udp to a real pod not Ready: %v, want refused (H1, not Ready)", err)
	}
}

// H1: TCP connections and HTTP requests from simulated pods to pods on a
// real node are real (hybrid_network.go "should have stable networking for
// Linux and Windows pods": `curl.exe -4 <linux pod IP> --connect-timeout 10
// --fail`), directly or through a Service; without ClusterDial, or when
// the dial fails, the client sees the failure and the reason names it.
func TestRealPodTCPH1(t *testing.T) {
	c := realCluster()
	f := newFakeCluster(t)
	cases := []struct {
		id, name string
		dial     bool
		proto    string
		addr     string
		port     int
		want     string // outcome
		reason   string // in the RuleError's reason
	}{
		{"H1", "pod IP", true, "tcp", realNginxIP, 80, "ok", ""},
		{"H1", "Service VIP to the real endpoint", true, "tcp", realNginxSvc, 80, "ok", ""},
		{"H1", "real server refuses", true, "tcp", realNginxIP, 8080, "refused", "connection refused"},
		{"H1", "dial times out", true, "tcp", realNginxIP, 81, "timeout", "dialing real pod default/nginx-real"},
		{"H1", "not Ready: the real server still decides", true, "tcp", realNotReady, 80, "refused", "default/not-ready-real"},
		{"H1", "no ClusterDial", false, "tcp", realNginxIP, 80, "refused", "ClusterDial is nil"},
		{"H1", "no ClusterDial, through the Service", false, "tcp", realNginxSvc, 80, "refused", "ClusterDial is nil"},
	}
	for _, tc := range cases {
		var dial func(context.Context, string, string) (net.Conn, error)
		if tc.dial {
			dial = f.dial
		}
		m := c.realModel(dial)
		n := c.from(m, "win-client")
		dctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		err := n.Dial(dctx, tc.proto, addr(tc.addr), tc.port)
		cancel()
		if got := outcome(err); got != tc.want {
			t.Errorf("%s %s: Dial %s %s:%d = %s (%v), want %s", tc.id, tc.name, tc.proto, tc.addr, tc.port, got, err, tc.want)
			continue
		}
		var re *network.RuleError
		if tc.reason != "" && (!errors.As(err, &re) || re.Rule != tc.id || !strings.Contains(re.Reason, tc.reason)) {
			t.Errorf("%s %s: %v, want rule %s and a reason with %q", tc.id, tc.name, err, tc.id, tc.reason)
		}
	}

	// curl: the real server's answer, for the pod IP and the Service.
	m := c.realModel(f.dial)
	before := runtime.NumGoroutine()
	for _, url := range []string{"http://" + realNginxIP + "/index.html", realNginxSvc + "/", "nginx-real.default.svc.cluster.local"} {
		r, err := c.from(m, "win-client").HTTP(ctx, "GET", url, false)
		if err != nil {
			t.Errorf("H1 curl %s: %v", url, err)
			continue
		}
		if want := "real nginx GET /"; r.Status != 200 || !strings.HasPrefix(string(r.Body), want) {
			t.Errorf("H1 curl %s: %d %q, want 200 %q...", url, r.Status, r.Body, want)
		}
	}
	_, err := c.from(c.realModel(nil), "win-client").HTTP(ctx, "GET", "http://"+realNginxIP, false)
	var re *network.RuleError
	if !errors.Is(err, shell.ErrRefused) || !errors.As(err, &re) || !strings.Contains(re.Reason, "ClusterDial is nil") {
		t.Errorf("H1 curl without ClusterDial: %v, want refused naming ClusterDial", err)
	}
	_, err = c.from(m, "win-client").HTTP(ctx, "GET", "http://"+realNginxIP+":8080", false)
	if !errors.Is(err, shell.ErrRefused) || !errors.As(err, &re) || re.Rule != "H1" {
		t.Errorf("H1 curl to a real port nobody serves: %v, want refused (H1)", err)
	}

	// nc: the bytes reach the real server and its answer comes back.
	got, err := c.from(m, "linux-client").(converser).Converse(ctx, "tcp", addr(realEchoIP), 7, "hostName\n")
	if err != nil || got != "echo:hostName\n" {
		t.Errorf("H1 nc to a real pod: %q %v", got, err)
	}

	if n := f.stillOpen(); n != 0 {
		t.Errorf("%d dialed connections left open", n)
	}
	// Nothing of the requests keeps running (the server's side of a
	// closed connection ends soon after).
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the real requests, %d before", n, before)
	}
}

// H1: the apiserver's proxy never bridges to a real pod: it serves for
// itself.
func TestRealPodNotBridged(t *testing.T) {
	c := realCluster()
	m := c.realModel(nil)
	if conn, ok := m.Bridge(realNginxIP + ":80"); ok {
		conn.Close()
		t.Error("Bridge to a real pod: want false")
	}
	if conn, ok := m.Bridge("10.244.1.10:80"); !ok {
		t.Error("Bridge to a simulated pod: want true")
	} else {
		conn.Close()
	}
}

// TestListingH1: what a gateway from a real network relays (egress.Lister):
// the simulated nodes' podCIDRs and the simulated servers' addresses, none
// of a real node's (row H1: a port nothing listens on is refused).
func TestListingH1(t *testing.T) {
	c := realCluster()
	l := c.realModel(nil).Listing()
	local := map[string]bool{}
	for _, p := range l.Local {
		local[p.String()] = true
	}
	if !local["10.244.1.0/24"] || local["10.244.5.0/24"] {
		t.Errorf("Local = %v, want the simulated nodes' podCIDRs (10.244.1.0/24) and not the real node's", l.Local)
	}
	listening := map[string]bool{}
	for _, a := range l.Listening {
		listening[a.String()] = true
	}
	if !listening["10.244.1.10:80"] {
		t.Errorf("Listening = %v, want the simulated server 10.244.1.10:80", l.Listening)
	}
	for a := range listening {
		if strings.HasPrefix(a, "10.244.5.") {
			t.Errorf("Listening holds %s, a real pod's", a)
		}
	}
}
