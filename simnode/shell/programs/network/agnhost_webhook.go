package network

import (
	"wink.dev/wink/simnode/shell/process"

	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"

	"wink.dev/wink/simnode/agnhost"
)

// agnhostNettest is `agnhost nettest [--port N] [--peers N] [--service S]
// [--namespace NS]`: its web server (simnode/agnhost nettest.go) on a real
// socket, reached by the apiserver's pods/proxy and by the pods' clients
// (wget --post-data), its state the program's own: a restarted container
// starts with none; and its peer search (nettestContactOthers), which
// takes /status from running to pass or fail. /quit ends it with 0.
// Without real sockets it serves no one.
func agnhostNettest(p *process.Proc, flags map[string]string) int {
	port, peers := 8080, 8
	if n, err := strconv.Atoi(flags["--port"]); err == nil {
		port = n
	}
	if n, err := strconv.Atoi(flags["--peers"]); err == nil {
		peers = n
	}
	service, namespace := "nettest", "default"
	if v := flags["--service"]; v != "" {
		service = v
	}
	if v := flags["--namespace"]; v != "" {
		namespace = v
	}
	state := agnhost.NewNettestState(p.Env.Hostname, peers)
	parent := p.Ctx
	ctx, quit := context.WithCancel(parent)
	defer quit()
	if sn, ok := p.Env.Net.(socketNetwork); ok {
		l, err := sn.Listen(p.Ctx, port)
		if err != nil {
			logf(p, "%v", err) // log.Fatal
			return 1
		}
		go func() { _ = agnhost.ServeHTTP(ctx, l, state.Handler(quit)) }()
	}
	p.Ctx = ctx
	if fatal := nettestContactOthers(p, state, service, namespace, peers); fatal != "" {
		logf(p, "%s", strings.TrimSuffix(fatal, "\n")) // log.Fatalf
		p.Ctx = parent
		return 1
	}
	code := p.Block()
	p.Ctx = parent
	if parent.Err() == nil {
		return 0 // /quit: os.Exit(0)
	}
	return code
}

// socketNetwork is a container's Network that lets a simulated server
// listen on a real socket, for clients outside the simulation (the
// apiserver calling an admission webhook; simnode/network sockets.go).
type socketNetwork interface {
	Listen(ctx context.Context, port int) (net.Listener, error)
}

// agnhostTLSServer runs one of agnhost's HTTPS servers for the apiserver
// (`agnhost webhook`: --tls-cert-file, --tls-private-key-file, --port,
// default 443): it reads the certificate and key from the container's
// files, serves h on the pod's port until the container stops, and fails
// as agnhost does (klog.Fatal, exit 255) when the files cannot be read.
// Row E (the e2e images' programs; kubelet versions: all).
func agnhostTLSServer(p *process.Proc, flags map[string]string, h http.Handler) int {
	port := 443
	if n, err := strconv.Atoi(flags["--port"]); err == nil {
		port = n
	}
	cert, err := p.ReadFile(flags["--tls-cert-file"])
	if err == nil {
		var key []byte
		if key, err = p.ReadFile(flags["--tls-private-key-file"]); err == nil {
			sn, ok := p.Env.Net.(socketNetwork)
			if !ok {
				// No real socket here (a unit test's network): the
				// server serves only simulated clients.
				return p.Block()
			}
			var l net.Listener
			if l, err = sn.Listen(p.Ctx, port); err == nil {
				klogf(p, 'I', "main.go:230", "serving on port %d", port)
				err = agnhost.ServeTLS(p.Ctx, l, cert, key, h)
				if p.Done() {
					return p.Killed()
				}
			}
		}
	}
	klogf(p, 'F', "config.go:33", "%v", err)
	return 255
}

// agnhostWebhook is `agnhost webhook` (test/images/agnhost/webhook).
func agnhostWebhook(p *process.Proc, flags map[string]string) int {
	return agnhostTLSServer(p, flags, agnhost.WebhookHandler(agnhost.WebhookOptions{SidecarImage: flags["--sidecar-image"]}))
}

// agnhostPorter is `agnhost porter [--json-response]`: every
// SERVE_PORT_<n> and SERVE_TLS_PORT_<n> of its environment served on a
// real socket (the apiserver's pods/proxy and services/proxy reach them),
// TLS with the image's localhost certificate. Without real sockets it
// serves only simulated clients, as other servers do.
func agnhostPorter(p *process.Proc, flags map[string]string) int {
	sn, ok := p.Env.Net.(socketNetwork)
	if !ok {
		return p.Block()
	}
	env := map[string]string{}
	for _, e := range p.Vars.Sorted() {
		env[e.Name] = e.Value
	}
	json := flags["--json-response"] == "true"
	for _, pp := range agnhost.PorterPorts(env) {
		l, err := sn.Listen(p.Ctx, pp.Port)
		if err != nil {
			logf(p, "server on port %q failed: %v", strconv.Itoa(pp.Port), err)
			continue
		}
		h := agnhost.PorterHandler(pp.Value, json)
		if pp.TLS {
			cert, key := agnhost.LocalhostCert()
			go func() { _ = agnhost.ServeTLS(p.Ctx, l, cert, key, h) }()
		} else {
			go func() { _ = agnhost.ServeHTTP(p.Ctx, l, h) }()
		}
	}
	return p.Block()
}

// converser is a container's Network that carries bytes to a simulated
// server and brings its answer back (simnode/network view.Converse).
type converser interface {
	Converse(ctx context.Context, proto string, addr netip.Addr, port int, data string) (string, error)
}

// ncConverse sends nc's stdin to the server at addr:port and prints what
// the server writes back (upstream's Service reachability check: `echo
// hostName | nc -v -t -w 2 svc 80` wants a non-empty answer; an agnhost
// HTTP server answers 400 Bad Request, netexec's UDP server the hostname).
func ncConverse(p *process.Proc, proto string, addr netip.Addr, port int) {
	data := p.ReadStdin()
	c, ok := p.Net().(converser)
	if !ok || len(data) == 0 {
		return
	}
	if answer, err := c.Converse(p.Ctx, proto, addr, port, string(data)); err == nil && answer != "" {
		fmt.Fprint(p.Stdout, answer)
	}
}
