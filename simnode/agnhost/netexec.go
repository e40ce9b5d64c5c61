package agnhost

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// agnhost netexec (test/images/agnhost/netexec): the parts that make
// connections of their own. /dial?request=R&protocol=http|udp&host=H&port=P
// &tries=N asks H:P N times for R from the netexec pod (upstream's
// Networking Granular Checks: `curl .../dial?request=hostname&...` in a
// test pod) and answers {"responses":[...],"errors":[...]}; its UDP server
// answers hostname, echo and clientip.

// NetexecNetwork is the cluster network as a netexec pod sees it.
type NetexecNetwork interface {
	// Get fetches url over HTTP; err is what the client reports.
	Get(ctx context.Context, url string) (body string, err error)
	// UDP sends payload to host:port and returns the answer.
	UDP(ctx context.Context, host string, port int, payload string) (string, error)
}

// NetexecPorts reports whether argv runs agnhost netexec, and its HTTP and
// UDP ports (--http-port, default 8080; --udp-port, default 8081).
func NetexecPorts(argv []string) (httpPort, udpPort int, ok bool) {
	httpPort, udpPort = 8080, 8081
	for i, a := range argv {
		if a != "netexec" {
			continue
		}
		ok = true
		args := argv[i+1:]
		for j := 0; j < len(args); j++ {
			k, v, has := strings.Cut(args[j], "=")
			if !has && j+1 < len(args) && !strings.HasPrefix(args[j+1], "-") {
				v = args[j+1]
			}
			n, err := strconv.Atoi(v)
			if err != nil {
				continue
			}
			switch strings.TrimLeft(k, "-") {
			case "http-port":
				httpPort = n
			case "udp-port":
				udpPort = n
			}
		}
		return httpPort, udpPort, ok
	}
	return 0, 0, false
}

// NetexecDial answers GET /dial with query rawQuery: the status and body.
func NetexecDial(ctx context.Context, n NetexecNetwork, rawQuery string) (int, string) {
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return http.StatusBadRequest, fmt.Sprintf("%v\n", err)
	}
	host, port, request, protocol := q.Get("host"), q.Get("port"), q.Get("request"), q.Get("protocol")
	tries := 1
	if t := q.Get("tries"); t != "" {
		if tries, err = strconv.Atoi(t); err != nil {
			return http.StatusBadRequest, fmt.Sprintf("tries parameter is invalid. %v\n", err)
		}
	}
	if request == "" {
		return http.StatusBadRequest, "request parameter not specified. <nil>\n"
	}
	p, err := strconv.Atoi(port)
	if err != nil || p < 0 || p > 65535 {
		return http.StatusBadRequest, fmt.Sprintf("host and/or port param are invalid. address %s: invalid port\n", net.JoinHostPort(host, port))
	}
	var dial func() (string, error)
	switch strings.ToLower(protocol) {
	case "", "http":
		dial = func() (string, error) {
			return n.Get(ctx, fmt.Sprintf("http://%s/%s", net.JoinHostPort(host, port), request))
		}
	case "udp":
		dial = func() (string, error) { return n.UDP(ctx, host, p, request) }
	default:
		return http.StatusBadRequest, fmt.Sprintf("unsupported protocol. %s\n", protocol)
	}
	var responses, errs []string
	last := ""
	for i := 0; i < tries; i++ {
		r, err := dial()
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		responses, last = append(responses, r), r
	}
	out := map[string][]string{}
	if last != "" {
		out["responses"] = responses
	}
	if len(errs) > 0 {
		out["errors"] = errs
	}
	b, _ := json.Marshal(out)
	return http.StatusOK, string(b)
}

// NetexecUDP is netexec's UDP server on port answering payload (lower
// cased, as upstream reads it: `echo hostName | nc -u` gets the hostname);
// ok is false for a request it ignores.
func NetexecUDP(payload, hostname, clientIP string, port int) (answer string, ok bool) {
	payload = strings.ToLower(strings.TrimSpace(payload))
	switch {
	case payload == "hostname":
		return hostname, true
	case strings.HasPrefix(payload, "echo "):
		return strings.TrimPrefix(payload, "echo "), true
	case payload == "clientip":
		return clientIP, true
	case payload == "serverport":
		return strconv.Itoa(port), true
	}
	return "", false
}

// BadRequest is what a Go net/http server (every agnhost HTTP server)
// writes to a connection whose first line is not an HTTP request, such as
// the `echo hostName | nc -t` of upstream's Service reachability checks.
const BadRequest = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request"

// HTTPServer reports whether argv runs an agnhost HTTP server on port
// (netexec's HTTP port, test-webserver, serve-hostname without --tcp or
// --udp, porter's SERVE_PORT_ ports are looked up by the caller).
func HTTPServer(argv []string, port int) bool {
	if hp, _, ok := NetexecPorts(argv); ok {
		return hp == port
	}
	joined := " " + strings.Join(argv, " ") + " "
	switch {
	case strings.Contains(joined, " test-webserver "):
		return flagPort(argv, "--port", 80) == port
	case strings.Contains(joined, " serve-hostname "):
		return !strings.Contains(joined, "--tcp") && !strings.Contains(joined, "--udp") && flagPort(argv, "--port", 9376) == port
	}
	return false
}

func flagPort(argv []string, flag string, def int) int {
	for i, a := range argv {
		if v, ok := strings.CutPrefix(a, flag+"="); ok {
			if n, err := strconv.Atoi(v); err == nil {
				return n
			}
		}
		if a == flag && i+1 < len(argv) {
			if n, err := strconv.Atoi(argv[i+1]); err == nil {
				return n
			}
		}
	}
	return def
}
