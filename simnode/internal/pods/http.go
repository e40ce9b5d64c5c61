package pods

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"wink.dev/wink/simnode/agnhost"
	"wink.dev/wink/simnode/rules"
)

// What listening containers answer over HTTP (rules/http.yaml): the
// network model's HTTP handler, port-forward and httpGet probes use it.

type httpState struct {
	mu     sync.Mutex
	counts map[string]int // pod uid/container/client -> requests
}

// respond is c's answer to a request on port; nil when c does not listen
// there. With log, the server's log lines go to the container log.
func (m *machine) respond(rec *record, c *container, port int, method, path, client string, log bool) *HTTPResponse {
	if !c.running() {
		return nil
	}
	listening := false
	for _, l := range c.listens {
		if l == port {
			listening = true
		}
	}
	if !listening {
		return nil
	}
	h := m.rules.FindHTTP(m.spec(rec, c).Image, strings.Join(c.argv, " "), port, path)
	if wp, ok := agnhost.TestWebserverPort(c.argv); ok && wp == port && c.env != nil && c.env.Files != nil && (h == nil || h.Match.Image == "") {
		// agnhost test-webserver serves the container's own files (an
		// image's files wink knows are rules of their image: nautilus).
		started := m.now()
		if c.state.Running != nil {
			started = c.state.Running.StartedAt.Time
		}
		r := agnhost.TestWebserver(c.env.Files, c.env.OS == "windows", method, path, started.UTC().Format(http.TimeFormat))
		r.Headers["Date"] = m.now().UTC().Format(http.TimeFormat)
		if _, ok := r.Headers["Content-Length"]; !ok {
			r.Headers["Content-Length"] = strconv.Itoa(len(r.Body))
		}
		return &HTTPResponse{Status: r.Status, Headers: r.Headers, Body: r.Body}
	}
	if h == nil {
		return &HTTPResponse{Status: 200, Headers: map[string]string{"Content-Type": "text/html", "Content-Length": "0"}}
	}
	if m.http == nil {
		m.http = &httpState{counts: map[string]int{}}
	}
	m.http.mu.Lock()
	key := rec.uid + "/" + c.name + "/" + client
	m.http.counts[key]++
	count := m.http.counts[key]
	m.http.mu.Unlock()
	host := rec.podIP
	if port != 80 {
		host += ":" + strconv.Itoa(port)
	}
	now := m.now()
	data := rules.HTTPData{
		PodName: rec.pod.Name, PodIP: rec.podIP, Namespace: rec.pod.Namespace, Container: c.name,
		Path: path, URL: "http://" + host + path, ClientIP: client, Count: count,
		Now:    now.Format("2006-01-02 15:04:05.999999999 -0700 MST"),
		Uptime: now.Sub(c.state.Running.StartedAt.Time).Seconds(),
	}
	status, body, lines := h.Answer(data)
	if log && len(lines) > 0 {
		if b, err := m.logs.Get(logKey(rec, c, c.restartCount)); err == nil {
			for _, l := range lines {
				b.Append("stdout", now, l)
			}
		}
	}
	headers := map[string]string{}
	for k, v := range h.Headers {
		headers[k] = v
	}
	if loc := h.RedirectTo(data); loc != "" {
		headers["Location"] = loc
	}
	headers["Content-Length"] = strconv.Itoa(len(body))
	headers["Date"] = now.UTC().Format(time.RFC1123)
	return &HTTPResponse{Status: status, Headers: headers, Body: []byte(body)}
}

// statusText is what an HTTP/1.1 status line says.
func statusText(code int) string {
	switch code {
	case 200:
		return "OK"
	case 404:
		return "Not Found"
	case 500:
		return "Internal Server Error"
	}
	return fmt.Sprintf("Status %d", code)
}

// serveHTTP answers the HTTP/1.1 requests read from stream until the
// client closes it (port-forward).
func serveHTTP(ctx context.Context, stream io.ReadWriteCloser, answer func(method, path string) *HTTPResponse) error {
	defer stream.Close()
	go func() {
		<-ctx.Done()
		stream.Close()
	}()
	br := bufio.NewReader(stream)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || ctx.Err() != nil {
				return nil
			}
			return nil
		}
		_, _ = io.Copy(io.Discard, req.Body)
		req.Body.Close()
		resp := answer(req.Method, req.URL.RequestURI())
		if resp == nil {
			resp = &HTTPResponse{Status: 200, Headers: map[string]string{"Content-Length": "0"}}
		}
		var b strings.Builder
		fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", resp.Status, statusText(resp.Status))
		keys := make([]string, 0, len(resp.Headers))
		for k := range resp.Headers {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "%s: %s\r\n", k, resp.Headers[k])
		}
		if _, ok := resp.Headers["Content-Length"]; !ok {
			fmt.Fprintf(&b, "Content-Length: %d\r\n", len(resp.Body))
		}
		b.WriteString("\r\n")
		if _, err := io.WriteString(stream, b.String()); err != nil {
			return nil
		}
		if req.Method != http.MethodHead {
			if _, err := stream.Write(resp.Body); err != nil {
				return nil
			}
		}
		if req.Close {
			return nil
		}
	}
}
