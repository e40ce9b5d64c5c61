package agnhost

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// winFiles maps Windows container paths (C:\results\x) onto a MapFS.
type winFiles struct {
	m   fstest.MapFS
	win bool
}

func (w winFiles) rel(p string) string {
	if w.win {
		p = strings.TrimPrefix(strings.ReplaceAll(p, `\`, "/"), "C:")
	}
	p = strings.Trim(p, "/")
	if p == "" {
		return "."
	}
	return p
}

func (w winFiles) ReadFile(p string) ([]byte, error) { return fs.ReadFile(w.m, w.rel(p)) }

func (w winFiles) ReadDir(p string) ([]fs.DirEntry, error) { return fs.ReadDir(w.m, w.rel(p)) }

// TestTestWebserver: agnhost test-webserver is http.FileServer over the
// container's root (dns_common.go reads /results/<file> through
// pods/proxy): files with their content and type, directory listings,
// redirects and 404s as Go's file server writes them.
func TestTestWebserver(t *testing.T) {
	m := fstest.MapFS{
		"results/agnhost_udp@kubernetes.default.svc.cluster.local": {Data: []byte("OK\n")},
		"results/jessie_udp@x":  {Data: []byte("foo.example.com.\n")},
		"html/index.html":       {Data: []byte("<p>hi</p>")},
		"html/data.json":        {Data: []byte(`{"a":1}`)},
		"var/run/secrets/token": {Data: []byte("t")},
	}
	const mod = "Mon, 24 Nov 2026 15:00:00 GMT"
	cases := []struct {
		name, uri        string
		win              bool
		status           int
		body, ctype, loc string
	}{
		{"a result file (Windows: C:\\results)", "/results/agnhost_udp@kubernetes.default.svc.cluster.local", true, 200, "OK\n", "text/plain; charset=utf-8", ""},
		{"escaped name", "/results/jessie_udp%40x", true, 200, "foo.example.com.\n", "text/plain; charset=utf-8", ""},
		{"linux", "/results/jessie_udp@x", false, 200, "foo.example.com.\n", "text/plain; charset=utf-8", ""},
		{"missing", "/results/nope", true, 404, "404 page not found\n", "text/plain; charset=utf-8", ""},
		{"json by extension", "/html/data.json", false, 200, `{"a":1}`, "application/json", ""},
		{"directory without slash redirects", "/results", false, 301, "", "", "results/"},
		{"listing", "/results/", false, 200, "<!doctype html>\n<meta name=\"viewport\" content=\"width=device-width\">\n<pre>\n" +
			"<a href=\"agnhost_udp@kubernetes.default.svc.cluster.local\">agnhost_udp@kubernetes.default.svc.cluster.local</a>\n" +
			"<a href=\"jessie_udp@x\">jessie_udp@x</a>\n</pre>\n", "text/html; charset=utf-8", ""},
		{"index.html", "/html/", false, 200, "<p>hi</p>", "text/html; charset=utf-8", ""},
		{"index.html redirects to ./", "/html/index.html", false, 301, "", "", "./"},
		{"root of an image wink knows nothing of", "/", true, 200, "<!doctype html>\n<meta name=\"viewport\" content=\"width=device-width\">\n<pre>\n</pre>\n", "text/html; charset=utf-8", ""},
	}
	for _, tc := range cases {
		files := winFiles{m: m, win: tc.win}
		if tc.name == "root of an image wink knows nothing of" {
			files.m = fstest.MapFS{}
		}
		r := TestWebserver(failRoot{files}, tc.win, "GET", tc.uri, mod)
		if r.Status != tc.status || string(r.Body) != tc.body || r.Headers["Content-Type"] != tc.ctype || r.Headers["Location"] != tc.loc {
			t.Errorf("%s: GET %s = %d %q type %q location %q, want %d %q %q %q", tc.name, tc.uri, r.Status, r.Body, r.Headers["Content-Type"], r.Headers["Location"], tc.status, tc.body, tc.ctype, tc.loc)
		}
		if r.Headers["Cache-Control"] != "private" || r.Headers["Access-Control-Allow-Origin"] != "*" {
			t.Errorf("%s: headers %v lack test-webserver's own", tc.name, r.Headers)
		}
	}
	if p, ok := TestWebserverPort([]string{"/agnhost", "test-webserver", "--port", "8080"}); !ok || p != 8080 {
		t.Errorf("TestWebserverPort = %d %v", p, ok)
	}
	if _, ok := TestWebserverPort([]string{"/agnhost", "netexec"}); ok {
		t.Error("netexec is not test-webserver")
	}
}

// failRoot is a file system whose root cannot be listed unless it has
// entries (a container file system that knows only its mounts).
type failRoot struct{ winFiles }

func (f failRoot) ReadDir(p string) ([]fs.DirEntry, error) {
	e, err := f.winFiles.ReadDir(p)
	if err == nil && len(e) == 0 {
		return nil, fs.ErrNotExist
	}
	return e, err
}
