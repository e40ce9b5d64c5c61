package wire

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/agnhost"
	"wink.dev/wink/simnode/internal/pods"
	"wink.dev/wink/simnode/network"
	"wink.dev/wink/simnode/shell"
)

// agnhost netexec's servers that make connections of their own (row H1:
// pod-to-pod and Service traffic as the Networking Granular Checks see
// it): /dial on its HTTP port, hostname/echo/clientip on its UDP port.

// exchanger is the UDP side of a network view (network.view.Exchange).
type exchanger interface {
	Exchange(ctx context.Context, host string, port int, payload string) (string, error)
}

// netexecNet is agnhost.NetexecNetwork over the netexec pod's view.
type netexecNet struct{ n shell.Network }

func (x netexecNet) Get(ctx context.Context, url string) (string, error) {
	// netexec's client gives up after 5 s (createHTTPClient).
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	r, err := x.n.HTTP(ctx, http.MethodGet, url, false)
	if err != nil {
		return "", fmt.Errorf("Get %q: %v", url, err)
	}
	return string(r.Body), nil
}

func (x netexecNet) UDP(ctx context.Context, host string, port int, payload string) (string, error) {
	e, ok := x.n.(exchanger)
	if !ok {
		return "", fmt.Errorf("udp dial failed. err:no UDP in this network")
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	a, err := e.Exchange(ctx, host, port, payload)
	if err != nil {
		return "", fmt.Errorf("reading from udp connection failed. err:'%v'", err)
	}
	return a, nil
}

// netexecHTTP answers /dial when a netexec container of pod serves port.
func netexecHTTP(p *pods.Provider, pod *corev1.Pod, port int, req *network.HTTPRequest) *shell.HTTPResponse {
	path, query, _ := strings.Cut(req.Path, "?")
	if path != "/dial" || req.Server == nil {
		return nil
	}
	for _, argv := range p.Commands(pod) {
		if hp, _, ok := agnhost.NetexecPorts(argv); ok && hp == port {
			status, body := agnhost.NetexecDial(context.Background(), netexecNet{req.Server}, query)
			return &shell.HTTPResponse{Status: status, Body: []byte(body), Headers: map[string]string{
				"Content-Type": "text/plain; charset=utf-8", "Content-Length": strconv.Itoa(len(body)),
			}}
		}
	}
	return nil
}

// netexecUDP answers a datagram to a netexec container's UDP port.
func netexecUDP(p *pods.Provider, pod *corev1.Pod, port int, payload string, from netip.Addr) (string, bool) {
	for _, argv := range p.Commands(pod) {
		if _, up, ok := agnhost.NetexecPorts(argv); ok && up == port {
			client := ""
			if from.IsValid() {
				client = from.String()
			}
			return agnhost.NetexecUDP(payload, pod.Name, client, port)
		}
	}
	return "", false
}

// tcpAnswer is what an agnhost server of pod writes back to data sent to
// its TCP port (nc): an HTTP server answers a request as HTTP does, and
// anything else with Go's 400 Bad Request; serve-hostname --tcp writes the
// hostname. Other programs: nothing wink knows.
func tcpAnswer(p *pods.Provider, pod *corev1.Pod, port int, data string, from netip.Addr) (string, bool) {
	for _, argv := range p.Commands(pod) {
		joined := " " + strings.Join(argv, " ") + " "
		if strings.Contains(joined, " serve-hostname ") && strings.Contains(joined, "--tcp") {
			return pod.Name, true
		}
		if !agnhost.HTTPServer(argv, port) {
			continue
		}
		req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(data)))
		if err != nil {
			return agnhost.BadRequest, true
		}
		client := ""
		if from.IsValid() {
			client = from.String()
		}
		r := p.HTTP(pod, port, req.Method, req.URL.RequestURI(), client)
		if r == nil {
			r = &pods.HTTPResponse{Status: 200}
		}
		var b strings.Builder
		fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", r.Status, http.StatusText(r.Status))
		for k, v := range r.Headers {
			if !strings.EqualFold(k, "Content-Length") {
				fmt.Fprintf(&b, "%s: %s\r\n", k, v)
			}
		}
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(r.Body), r.Body)
		return b.String(), true
	}
	return "", false
}

// HookGet implements pods.HookNetwork: the kubelet's httpGet hook to
// another address, through the network as the hooked pod's node reaches
// it (TLS unverified, as the kubelet's hook client).
func (n Network) HookGet(ctx context.Context, pod *corev1.Pod, url string) (int, error) {
	r, err := n.Model.From(pod).HTTP(ctx, http.MethodGet, url, true)
	if err != nil {
		return 0, err
	}
	return r.Status, nil
}
