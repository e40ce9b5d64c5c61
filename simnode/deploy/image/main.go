package main

import (
	"archive/tar"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// UID is the user the image runs as: nobody's conventional non-root ID of
// distroless images. The chart's fsGroup makes the volume claim its.
const UID = 65532

// File is a file the image holds.
type File struct {
	// Path in the image, absolute.
	Path string
	// Source on this machine.
	Source string
	Mode   int64
}

// Options describe the image.
type Options struct {
	Files []File
	// Arch is the platform's architecture (amd64, arm64).
	Arch string
	// Entrypoint and Cmd of the image's config.
	Entrypoint, Cmd []string
}

// Build returns the image: one layer holding the files (and /tmp, /etc/passwd
// naming UID), on an empty base.
func Build(o Options) (v1.Image, error) {
	for _, f := range o.Files {
		if _, err := os.Stat(f.Source); err != nil {
			return nil, err
		}
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		r, w := io.Pipe()
		go func() { w.CloseWithError(writeLayer(w, o.Files)) }()
		return r, nil
	})
	if err != nil {
		return nil, err
	}
	img, err := mutate.AppendLayers(empty.Image, layer)
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture = "linux", o.Arch
	cf.Created = v1.Time{Time: time.Unix(0, 0).UTC()}
	cf.Config.Entrypoint, cf.Config.Cmd = o.Entrypoint, o.Cmd
	cf.Config.User = fmt.Sprintf("%d:%d", UID, UID)
	cf.Config.Env = []string{"PATH=/", "SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt"}
	cf.Config.Labels = map[string]string{"org.opencontainers.image.source": "https://wink.dev/wink"}
	return mutate.ConfigFile(img, cf)
}

// writeLayer writes the layer's tar: directories, the generated /etc/passwd
// and /etc/group, and the files.
func writeLayer(w io.Writer, files []File) error {
	tw := tar.NewWriter(w)
	epoch := time.Unix(0, 0)
	for _, d := range []struct {
		path string
		mode int64
	}{{"etc/", 0o755}, {"etc/ssl/", 0o755}, {"etc/ssl/certs/", 0o755}, {"tmp/", 0o1777}, {"var/", 0o755}, {"var/lib/", 0o755}, {"var/lib/wink/", 0o755}} {
		hdr := &tar.Header{Typeflag: tar.TypeDir, Name: d.path, Mode: d.mode, ModTime: epoch}
		if d.path == "var/lib/wink/" {
			hdr.Uid, hdr.Gid = UID, UID
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
	}
	gen := map[string]string{
		"etc/passwd": fmt.Sprintf("root:x:0:0:root:/:/sbin/nologin\nnonroot:x:%d:%d:nonroot:/var/lib/wink:/sbin/nologin\n", UID, UID),
		"etc/group":  fmt.Sprintf("root:x:0:\nnonroot:x:%d:\n", UID),
	}
	for _, p := range []string{"etc/group", "etc/passwd"} {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: p, Mode: 0o644, Size: int64(len(gen[p])), ModTime: epoch}); err != nil {
			return err
		}
		if _, err := io.WriteString(tw, gen[p]); err != nil {
			return err
		}
	}
	for _, f := range files {
		if err := addFile(tw, f, epoch); err != nil {
			return err
		}
	}
	return tw.Close()
}

func addFile(tw *tar.Writer, f File, epoch time.Time) error {
	src, err := os.Open(f.Source)
	if err != nil {
		return err
	}
	defer src.Close()
	st, err := src.Stat()
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: f.Path[1:], Mode: f.Mode, Size: st.Size(), ModTime: epoch}); err != nil {
		return err
	}
	_, err = io.Copy(tw, src)
	return err
}

func main() {
	var (
		binary, tag, tarPath, layoutPath, caBundle string
		arch                                       = runtime.GOARCH
	)
	flag.StringVar(&binary, "binary", "", "the static wink binary (CGO_ENABLED=0) for the image's platform")
	flag.StringVar(&tag, "tag", "wink.dev/wink:dev", "the image's name, as docker load and kind load name it")
	flag.StringVar(&tarPath, "tarball", "", "write a docker load-able tarball here")
	flag.StringVar(&layoutPath, "layout", "", "write an OCI image layout directory here")
	flag.StringVar(&caBundle, "ca-bundle", "/etc/ssl/certs/ca-certificates.crt", "CA certificates for the image's registry lookups (images.resolve: registry)")
	flag.StringVar(&arch, "arch", arch, "the binary's architecture")
	flag.Parse()
	if err := run(binary, tag, tarPath, layoutPath, caBundle, arch); err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

func run(binary, tag, tarPath, layoutPath, caBundle, arch string) error {
	if binary == "" || (tarPath == "" && layoutPath == "") {
		return errors.New("--binary and one of --tarball, --layout are required")
	}
	ref, err := name.NewTag(tag)
	if err != nil {
		return err
	}
	img, err := Build(Options{
		Files:      []File{{Path: "/wink", Source: binary, Mode: 0o755}, {Path: "/etc/ssl/certs/ca-certificates.crt", Source: caBundle, Mode: 0o644}},
		Arch:       arch,
		Entrypoint: []string{"/wink", "simnode"},
	})
	if err != nil {
		return err
	}
	if tarPath != "" {
		if err := tarball.WriteToFile(tarPath, ref, img); err != nil {
			return err
		}
	}
	if layoutPath != "" {
		p, err := layout.Write(layoutPath, empty.Index)
		if err != nil {
			return err
		}
		if err := p.AppendImage(img, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": ref.String()})); err != nil {
			return err
		}
	}
	d, err := img.Digest()
	if err != nil {
		return err
	}
	fmt.Printf("%s %s\n", ref, d)
	return nil
}
