package main

import (
	"archive/tar"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

func testOptions(t *testing.T) Options {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "wink")
	if err := os.WriteFile(bin, []byte("#!not really wink\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return Options{Files: []File{{Path: "/wink", Source: bin, Mode: 0o755}}, Arch: "amd64", Entrypoint: []string{"/wink", "simnode"}}
}

// Issue 19: the image is the binary on an empty base, run as non-root
// with entrypoint `wink simnode`; the same input gives the same digest.
func TestBuild(t *testing.T) {
	o := testOptions(t)
	img, err := Build(o)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cf.Config.Entrypoint, []string{"/wink", "simnode"}) || cf.Config.User != "65532:65532" || cf.OS != "linux" || cf.Architecture != "amd64" {
		t.Errorf("config: entrypoint %q user %q platform %s/%s", cf.Config.Entrypoint, cf.Config.User, cf.OS, cf.Architecture)
	}
	layers, err := img.Layers()
	if err != nil || len(layers) != 1 {
		t.Fatalf("%d layers (%v), want 1: an empty base", len(layers), err)
	}
	rc, err := layers[0].Uncompressed()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	files := map[string]*tar.Header{}
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		files[h.Name] = h
	}
	if h := files["wink"]; h == nil || h.Mode != 0o755 || h.Uid != 0 || !h.ModTime.Equal(files["etc/passwd"].ModTime) {
		t.Errorf("/wink in the layer: %+v", h)
	}
	if h := files["var/lib/wink/"]; h == nil || h.Uid != UID {
		t.Errorf("/var/lib/wink, simnode's state directory, not the non-root user's: %+v", h)
	}
	again, err := Build(o)
	if err != nil {
		t.Fatal(err)
	}
	d1, _ := img.Digest()
	d2, _ := again.Digest()
	if d1 != d2 {
		t.Errorf("two builds of the same binary: digests %s and %s", d1, d2)
	}
}

// Issue 19: the tarball reads back as the image under its tag (what
// docker load and kind load docker-image read), and the OCI layout holds it.
func TestRunWritesTarballAndLayout(t *testing.T) {
	o := testOptions(t)
	dir := t.TempDir()
	tarPath, layoutPath := filepath.Join(dir, "wink.tar"), filepath.Join(dir, "oci")
	ca := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(ca, []byte("-----BEGIN CERTIFICATE-----\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(o.Files[0].Source, "wink.dev/wink:test", tarPath, layoutPath, ca, "amd64"); err != nil {
		t.Fatal(err)
	}
	tag, _ := name.NewTag("wink.dev/wink:test")
	img, err := tarball.ImageFromPath(tarPath, &tag)
	if err != nil {
		t.Fatalf("tarball: %v", err)
	}
	p, err := layout.FromPath(layoutPath)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := p.ImageIndex()
	if err != nil {
		t.Fatal(err)
	}
	m, err := idx.IndexManifest()
	if err != nil || len(m.Manifests) != 1 {
		t.Fatalf("layout index: %v, %v", m, err)
	}
	d, _ := img.Digest()
	if m.Manifests[0].Digest != d {
		t.Errorf("layout holds %s, the tarball %s", m.Manifests[0].Digest, d)
	}
}
