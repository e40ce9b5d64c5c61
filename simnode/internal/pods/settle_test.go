package pods

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"wink.dev/wink/simnode/shell/process"
)

// countingNet answers every echo and counts the model's answers.
type countingNet struct {
	process.Network
	pings int
}

func (n *countingNet) Ping(context.Context, netip.Addr) (time.Duration, error) {
	n.pings++
	return 40 * time.Microsecond, nil
}

// A process that may run ahead (Env.Settle) settles before it reads or
// writes a file and before it reaches the network, but for an echo to
// localhost, which the model answers once; a process stopped before its
// time (Settle fails) does not write.
func TestSettle(t *testing.T) {
	settles := 0
	var stopped error
	files := &settleFS{files: map[string]string{`C:\in.txt`: "x"}}
	net := &countingNet{}
	env := (&Env{OS: "windows", Files: files, Net: net, Vars: map[string]string{}, Settle: func() error {
		settles++
		return stopped
	}}).Process()
	ctx := context.Background()
	for range 3 {
		if _, err := env.Net.Ping(ctx, netip.MustParseAddr("127.0.0.1")); err != nil {
			t.Fatal(err)
		}
		if _, err := env.Net.Ping(ctx, netip.IPv6Loopback()); err != nil {
			t.Fatal(err)
		}
	}
	if settles != 0 || net.pings != 2 {
		t.Fatalf("6 echoes to localhost: %d settles, %d model answers; want 0 and 2", settles, net.pings)
	}
	if _, err := env.Net.Ping(ctx, netip.MustParseAddr("10.244.1.7")); err != nil || settles != 1 || net.pings != 3 {
		t.Fatalf("an echo to a pod: err %v, %d settles, %d answers; want 1 settle, 3 answers", err, settles, net.pings)
	}
	if _, err := env.Files.ReadFile(`C:\in.txt`); err != nil || settles != 2 {
		t.Fatalf("a read: err %v, %d settles, want 2", err, settles)
	}
	stopped = context.Canceled
	if err := env.Files.WriteFile(`C:\out.txt`, []byte("y")); !errors.Is(err, context.Canceled) {
		t.Fatalf("a write of a stopped process: %v", err)
	}
	if _, ok := files.files[`C:\out.txt`]; ok {
		t.Fatal("a process stopped before its write's time wrote")
	}
	var out strings.Builder
	testShell{}.Run(ctx, &Env{OS: "windows", Files: files, Vars: map[string]string{}}, []string{"cmd", "/c", `type C:\in.txt`}, strings.NewReader(""), &out, &out)
	if out.String() != "x" {
		t.Fatalf("without Settle: %q", out.String())
	}
}

// settleFS is a file system in memory.
type settleFS struct{ files map[string]string }

func (m *settleFS) ReadFile(p string) ([]byte, error) {
	if d, ok := m.files[p]; ok {
		return []byte(d), nil
	}
	return nil, fs.ErrNotExist
}
func (m *settleFS) WriteFile(p string, d []byte) error    { m.files[p] = string(d); return nil }
func (m *settleFS) ReadDir(string) ([]fs.DirEntry, error) { return nil, nil }

// listeningNet is a network with real sockets and conversations.
type listeningNet struct{ countingNet }

func (listeningNet) Listen(context.Context, int) (net.Listener, error) { return nil, errListened }
func (listeningNet) Converse(context.Context, string, netip.Addr, int, string) (string, error) {
	return "answer", nil
}

var errListened = errors.New("listened")

// A process that may run ahead keeps its network's real sockets and
// conversations (agnhost webhook's Listen, nc's Converse): the apiserver's
// admission webhook specs timed out when the wrapper hid them.
func TestSettleKeepsSocketsAndConversations(t *testing.T) {
	env := (&Env{OS: "windows", Net: &listeningNet{}, Vars: map[string]string{}, Settle: func() error { return nil }}).Process()
	sn, ok := env.Net.(socketNetwork)
	if !ok {
		t.Fatal("the settled network hides Listen")
	}
	if _, err := sn.Listen(context.Background(), 443); !errors.Is(err, errListened) {
		t.Fatalf("Listen: %v, want the network's own", err)
	}
	c, ok := env.Net.(converser)
	if !ok {
		t.Fatal("the settled network hides Converse")
	}
	if got, _ := c.Converse(context.Background(), "tcp", netip.MustParseAddr("10.0.0.1"), 80, "x"); got != "answer" {
		t.Fatalf("Converse: %q", got)
	}
}

// dnsNet is a network that carries DNS messages and Go clients' requests.
type dnsNet struct{ countingNet }

func (dnsNet) ExchangeDNS(context.Context, netip.Addr, bool, string, string) (*process.DNSReply, error) {
	return &process.DNSReply{Rcode: process.RcodeNoError}, nil
}

func (dnsNet) Do(context.Context, *process.HTTPRequest) (*process.HTTPResponse, error) {
	return &process.HTTPResponse{Status: 204}, nil
}

// A process that may run ahead keeps dig's DNS messages and agnhost's HTTP
// client: upstream's DNS probe loops wrote no result file when the
// wrapper hid them (dig found no server).
func TestSettleKeepsDNSAndHTTPClient(t *testing.T) {
	env := (&Env{OS: "windows", Net: &dnsNet{}, Vars: map[string]string{}, Settle: func() error { return nil }}).Process()
	d, ok := env.Net.(process.DNSClient)
	if !ok {
		t.Fatal("the settled network hides ExchangeDNS")
	}
	if r, err := d.ExchangeDNS(context.Background(), netip.MustParseAddr("10.96.0.10"), false, "x.", "A"); err != nil || r.Rcode != process.RcodeNoError {
		t.Fatalf("ExchangeDNS: %+v %v, want the network's own", r, err)
	}
	h, ok := env.Net.(process.HTTPClient)
	if !ok {
		t.Fatal("the settled network hides Do")
	}
	if r, err := h.Do(context.Background(), &process.HTTPRequest{Method: "GET", URL: "https://10.96.0.1/"}); err != nil || r.Status != 204 {
		t.Fatalf("Do: %+v %v, want the network's own", r, err)
	}
}
