package programs

import (
	"bytes"
	"context"
	"io/fs"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"wink.dev/wink/simnode/shell/process"
)

// memFS is a Linux container file system that deletes (remover).
type memFS struct{ m fstest.MapFS }

func key(path string) string { return strings.TrimPrefix(path, "/") }

func (f memFS) ReadFile(path string) ([]byte, error) {
	if e, ok := f.m[key(path)]; ok && !e.Mode.IsDir() {
		return e.Data, nil
	}
	return nil, fs.ErrNotExist
}

func (f memFS) WriteFile(path string, data []byte) error {
	f.m[key(path)] = &fstest.MapFile{Data: data}
	return nil
}

func (f memFS) ReadDir(path string) ([]fs.DirEntry, error) {
	k := strings.TrimSuffix(key(path), "/")
	if k == "" {
		k = "."
	}
	return fs.ReadDir(f.m, k)
}

// MkdirAll implements process.Mkdirer: a MapFS's directories are those
// its files' paths imply.
func (f memFS) MkdirAll(path string) error { return nil }

func (f memFS) Remove(path string) error {
	k := key(path)
	found := false
	for n := range f.m {
		if n == k || strings.HasPrefix(n, k+"/") {
			delete(f.m, n)
			found = true
		}
	}
	if !found {
		return fs.ErrNotExist
	}
	return nil
}

// Row E: busybox mv as upstream's StatefulSet specs run it (`mv -v
// /localhost.crt /tmp/` and back), a rename, a directory tree, and its
// errors, one after the other on one file system.
func TestMv(t *testing.T) {
	files := memFS{fstest.MapFS{
		"localhost.crt": {Data: []byte("CERT")},
		"tmp":           {Mode: fs.ModeDir},
		"tmp/keep":      {Data: []byte("k")},
		"etc/a/x":       {Data: []byte("x")},
	}}
	for _, tc := range []struct {
		name     string
		argv     []string
		out, err string
		code     int
		want     []string // the files after
	}{
		{name: "into a directory, -v", argv: []string{"mv", "-v", "/localhost.crt", "/tmp/"}, out: "'/localhost.crt' -> '/tmp/localhost.crt'\n",
			want: []string{"etc/a/x", "tmp/keep", "tmp/localhost.crt"}},
		{name: "back (restorePodHTTPProbe)", argv: []string{"mv", "-v", "/tmp/localhost.crt", "/"}, out: "'/tmp/localhost.crt' -> '/localhost.crt'\n",
			want: []string{"etc/a/x", "localhost.crt", "tmp/keep"}},
		{name: "rename", argv: []string{"mv", "/localhost.crt", "/c.pem"}, want: []string{"c.pem", "etc/a/x", "tmp/keep"}},
		{name: "a tree", argv: []string{"mv", "/etc/a", "/tmp"}, want: []string{"c.pem", "tmp/a/x", "tmp/keep"}},
		{name: "missing source", argv: []string{"mv", "-v", "/nope", "/tmp/"}, err: "mv: can't rename '/nope': No such file or directory\n", code: 1,
			want: []string{"c.pem", "tmp/a/x", "tmp/keep"}},
		{name: "usage", argv: []string{"mv", "/x"}, code: 1, err: "BusyBox", want: []string{"c.pem", "tmp/a/x", "tmp/keep"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			p := process.NewProc(context.Background(), &process.Env{OS: process.Linux, Files: files, Dir: "/"}, nil, nil, &out, &errOut)
			if code := Mv(p, tc.argv); code != tc.code {
				t.Fatalf("code %d, want %d (stderr %q)", code, tc.code, errOut.String())
			}
			if out.String() != tc.out || !strings.Contains(errOut.String(), tc.err) || (tc.err == "" && errOut.Len() > 0) {
				t.Fatalf("stdout %q stderr %q", out.String(), errOut.String())
			}
			var got []string
			for n, e := range files.m {
				if !e.Mode.IsDir() {
					got = append(got, n)
				}
			}
			sort.Strings(got)
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("files %v, want %v", got, tc.want)
			}
			if tc.name == "into a directory, -v" && string(files.m["tmp/localhost.crt"].Data) != "CERT" {
				t.Fatal("content not moved")
			}
		})
	}
}
