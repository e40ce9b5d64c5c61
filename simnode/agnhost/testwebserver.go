package agnhost

import (
	"errors"
	"fmt"
	"html"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
)

// This file is `agnhost test-webserver` (test/images/agnhost/test-webserver,
// v1.35.4): an HTTP file server of the container's root directory,
// http.StripPrefix("/", http.FileServer(http.Dir("/"))), with CORS and
// Cache-Control headers. Upstream's DNS specs read their probes' result
// files through it (dns_common.go assertFilesContain: pods/<pod>/proxy/
// results/<file>), so it serves exactly the files the container has (row
// E, H1: every kubelet version).

// Files is the part of a container's file system the server reads; paths
// are as the container sees them (C:\dir\file on Windows, /dir/file on
// Linux).
type Files interface {
	ReadFile(path string) ([]byte, error)
	ReadDir(path string) ([]fs.DirEntry, error)
}

// TestWebserverPort is the port argv's test-webserver listens on (--port,
// default 80); false when argv does not run it.
func TestWebserverPort(argv []string) (int, bool) {
	joined := " " + strings.Join(argv, " ") + " "
	if !strings.Contains(joined, " test-webserver ") && (len(argv) == 0 || argv[0] != "test-webserver") {
		return 0, false
	}
	return flagPort(argv, "--port", 80), true
}

// WebResponse is what the server writes: status, headers and body.
type WebResponse struct {
	Status  int
	Headers map[string]string
	Body    []byte
}

// TestWebserver answers method and the request URI (path and query) from
// files, as Go's http.FileServer over the root directory does (Windows:
// C:\). modTime is the Last-Modified value (RFC 1123) files get.
func TestWebserver(files Files, windows bool, method, requestURI, modTime string) *WebResponse {
	h := map[string]string{
		"Cache-Control":                    "private",
		"Access-Control-Allow-Origin":      "*",
		"Access-Control-Allow-Credentials": "true",
		"Access-Control-Allow-Methods":     "GET, POST, OPTIONS",
		"Access-Control-Allow-Headers":     "DNT,X-Mx-ReqToken,Keep-Alive,User-Agent,X-Requested-With,Cache-Control,Content-Type",
	}
	text := func(status int, body string) *WebResponse {
		h["Content-Type"] = "text/plain; charset=utf-8"
		h["X-Content-Type-Options"] = "nosniff"
		return &WebResponse{Status: status, Headers: h, Body: []byte(body)}
	}
	raw, _, _ := strings.Cut(requestURI, "?")
	upath, err := url.PathUnescape(raw)
	if err != nil {
		return text(http.StatusBadRequest, "400 Bad Request\n")
	}
	if !strings.HasPrefix(upath, "/") {
		upath = "/" + upath
	}
	// http.FileServer redirects .../index.html to ./
	if strings.HasSuffix(upath, "/index.html") {
		h["Location"] = "./"
		return &WebResponse{Status: http.StatusMovedPermanently, Headers: h}
	}
	name := path.Clean(upath)
	local := name
	if windows {
		local = `C:` + strings.ReplaceAll(name, "/", `\`)
	}
	serve := func(name string, data []byte) *WebResponse {
		h["Accept-Ranges"] = "bytes"
		h["Last-Modified"] = modTime
		ctype := mime.TypeByExtension(path.Ext(name))
		if ctype == "" {
			ctype = http.DetectContentType(data)
		}
		h["Content-Type"] = ctype
		h["Content-Length"] = strconv.Itoa(len(data))
		if method == http.MethodHead {
			data = nil
		}
		return &WebResponse{Status: http.StatusOK, Headers: h, Body: data}
	}
	data, ferr := files.ReadFile(local)
	if ferr == nil {
		return serve(name, data)
	}
	entries, derr := files.ReadDir(local)
	if derr != nil && name == "/" {
		// The root always exists, whatever wink knows of the image's files.
		entries, derr = nil, nil
	}
	if derr != nil {
		if errors.Is(ferr, fs.ErrPermission) || errors.Is(derr, fs.ErrPermission) {
			return text(http.StatusForbidden, "403 Forbidden\n")
		}
		return text(http.StatusNotFound, "404 page not found\n")
	}
	if !strings.HasSuffix(upath, "/") {
		h["Location"] = path.Base(upath) + "/"
		return &WebResponse{Status: http.StatusMovedPermanently, Headers: h}
	}
	sep := "/"
	if windows {
		sep = `\`
	}
	for _, e := range entries {
		if e.Name() == "index.html" && !e.IsDir() {
			if data, err := files.ReadFile(strings.TrimSuffix(local, sep) + sep + "index.html"); err == nil {
				return serve("index.html", data)
			}
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var b strings.Builder
	b.WriteString("<!doctype html>\n<meta name=\"viewport\" content=\"width=device-width\">\n<pre>\n")
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() {
			n += "/"
		}
		u := url.URL{Path: n}
		fmt.Fprintf(&b, "<a href=\"%s\">%s</a>\n", u.String(), html.EscapeString(n))
	}
	b.WriteString("</pre>\n")
	h["Content-Type"] = "text/html; charset=utf-8"
	h["Last-Modified"] = modTime
	return &WebResponse{Status: http.StatusOK, Headers: h, Body: []byte(b.String())}
}
