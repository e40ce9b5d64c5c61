package main

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"

	"wink.dev/wink/harness/internal/kindcluster"
)

// controlPlane are the images kubeadm asks for that wink's binary serves,
// by repository name: it runs each by the name it is started as.
var controlPlane = []string{"kube-apiserver", "kube-controller-manager", "kube-scheduler", "etcd"}

// e2eNginx is e2e's nginx image (k8s.io/kubernetes test/utils/image's
// Nginx; images_test.go checks it), which upstream's Hybrid network specs
// run on a Linux node.
const e2eNginx = "registry.k8s.io/e2e-test-images/nginx:1.14-4"

// kindPause is the sandbox image kind's containerd config names
// (etc/containerd/config.toml), beside the one kubeadm asks for.
const kindPause = "registry.k8s.io/pause:3.10"

// imageRefs are the images kubeadm version needs, as `kubeadm config
// images list` prints them.
func imageRefs(ctx context.Context, kubeadm, version string) ([]string, error) {
	out, err := exec.CommandContext(ctx, kubeadm, "config", "images", "list", "--kubernetes-version", version).Output()
	if err != nil {
		return nil, fmt.Errorf("kubeadm config images list: %w", err)
	}
	refs := strings.Fields(string(out))
	if len(refs) == 0 {
		return nil, fmt.Errorf("kubeadm config images list printed no image")
	}
	return refs, nil
}

// repository is a reference's last path element without tag:
// registry.k8s.io/coredns/coredns:v1.13.1 is coredns.
func repository(ref string) string {
	r, _, _ := strings.Cut(path.Base(ref), ":")
	return r
}

// file is one file of an image layer.
type file struct {
	path string // absolute, in the image
	// source on this machine; or link, a symlink's target
	source, link string
	mode         int64
}

// writeImages writes a docker archive per image into dir: the control plane
// (wink, under every control-plane name), kube-proxy on the Debian root
// file system, CoreDNS and pause. The control-plane image is also
// metrics-server's, which the kind backend installs. The e2e nginx image,
// which upstream's Hybrid network specs run on a Linux node, is Debian's
// nginx with netcat-openbsd (their `nc -vz <address> <port> -w <s>`).
func writeImages(dir string, l layout, refs []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	bin := func(name string) string { return filepath.Join(l.Bin, name) }
	wink := []file{{path: "/usr/local/bin/wink", source: bin("wink"), mode: 0o755}}
	for _, c := range controlPlane {
		wink = append(wink, file{path: "/usr/local/bin/" + c, link: "wink", mode: 0o777})
	}
	// metrics-server's image runs /metrics-server: the same image under
	// its name (the kind backend's manifest gives that command).
	wink = append(wink, file{path: "/metrics-server", link: "usr/local/bin/wink", mode: 0o777})
	byRepo := map[string][]string{}
	for _, r := range refs {
		byRepo[repository(r)] = append(byRepo[repository(r)], r)
	}
	byRepo["pause"] = append(byRepo["pause"], kindPause)
	cpRefs := []string{kindcluster.MetricsServerImage}
	for _, c := range controlPlane {
		cpRefs = append(cpRefs, byRepo[c]...)
	}
	images := []struct {
		file       string
		refs       []string
		base       string // a root file system under the files, or ""
		files      []file
		entrypoint []string
	}{
		{"control-plane.tar", cpRefs, "", wink, nil},
		{"kube-proxy.tar", byRepo["kube-proxy"], l.Rootfs, kubeProxyFiles(bin("kube-proxy")), nil},
		{"coredns.tar", byRepo["coredns"], "", []file{{path: "/coredns", source: bin("coredns"), mode: 0o755}}, []string{"/coredns"}},
		{"pause.tar", byRepo["pause"], "", []file{{path: "/pause", source: bin("pause"), mode: 0o755}}, []string{"/pause"}},
		{"nginx.tar", []string{e2eNginx}, l.Nginx, nil, []string{"nginx", "-g", "daemon off;"}},
	}
	for _, im := range images {
		if len(im.refs) == 0 {
			return fmt.Errorf("%s: kubeadm asks for no such image (refs %v)", im.file, refs)
		}
		var layers []v1.Layer
		if im.base != "" {
			base, err := dirLayer(im.base)
			if err != nil {
				return err
			}
			layers = append(layers, base)
		}
		top, err := filesLayer(im.files)
		if err != nil {
			return err
		}
		img, err := imageOf(append(layers, top), im.entrypoint, map[string]string{})
		if err != nil {
			return err
		}
		tags := map[name.Reference]v1.Image{}
		for _, r := range im.refs {
			t, err := name.NewTag(r)
			if err != nil {
				return err
			}
			tags[t] = img
		}
		if err := tarball.MultiRefWriteToFile(filepath.Join(dir, im.file), tags); err != nil {
			return fmt.Errorf("%s: %w", im.file, err)
		}
	}
	return nil
}

// kubeProxyFiles are kube-proxy and the iptables that picks the node's
// iptables mode, over the root file system's.
func kubeProxyFiles(kubeProxy string) []file {
	fs := []file{{path: "/usr/local/bin/kube-proxy", source: kubeProxy, mode: 0o755}}
	for _, c := range []string{"iptables", "iptables-save", "iptables-restore", "ip6tables", "ip6tables-save", "ip6tables-restore"} {
		fs = append(fs, file{path: "/usr/sbin/" + c, source: "files/iptables-wrapper", mode: 0o755})
	}
	return fs
}

// imageOf is an image of layers for linux/amd64 with the entrypoint,
// labels and PATH.
func imageOf(layers []v1.Layer, entrypoint []string, labels map[string]string) (v1.Image, error) {
	img, err := mutate.AppendLayers(empty.Image, layers...)
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture = "linux", "amd64"
	cf.Created = v1.Time{Time: time.Unix(0, 0).UTC()}
	cf.Config.Entrypoint = entrypoint
	cf.Config.Env = []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
	cf.Config.Labels = labels
	return mutate.ConfigFile(img, cf)
}

// filesLayer is a layer of files, each with its parent directories.
func filesLayer(files []file) (v1.Layer, error) {
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		r, w := io.Pipe()
		go func() { w.CloseWithError(writeFiles(w, files)) }()
		return r, nil
	}, tarball.WithCompressionLevel(gzip.NoCompression))
}

func writeFiles(w io.Writer, files []file) error {
	tw := tar.NewWriter(w)
	epoch := time.Unix(0, 0)
	dirs := map[string]bool{}
	for _, f := range files {
		var parents []string
		for d := path.Dir(f.path); d != "/" && !dirs[d]; d = path.Dir(d) {
			parents = append(parents, d)
			dirs[d] = true
		}
		for i := len(parents) - 1; i >= 0; i-- {
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: parents[i][1:] + "/", Mode: 0o755, ModTime: epoch}); err != nil {
				return err
			}
		}
		if f.link != "" {
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeSymlink, Name: f.path[1:], Linkname: f.link, Mode: f.mode, ModTime: epoch}); err != nil {
				return err
			}
			continue
		}
		if err := copyFile(tw, f, epoch); err != nil {
			return err
		}
	}
	return tw.Close()
}

// copyFile writes f into tw, from this machine or, when its source starts
// with "files/", from the embedded files.
func copyFile(tw *tar.Writer, f file, epoch time.Time) error {
	var src fs.File
	var err error
	if strings.HasPrefix(f.source, "files/") {
		src, err = files.Open(f.source)
	} else {
		src, err = os.Open(f.source)
	}
	if err != nil {
		return err
	}
	defer src.Close()
	st, err := src.Stat()
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: f.path[1:], Mode: f.mode, Size: st.Size(), ModTime: epoch}); err != nil {
		return err
	}
	_, err = io.Copy(tw, src)
	return err
}

// dirLayer is a layer of a directory tree as GNU tar archives it (owners,
// modes, links and device files kept).
func dirLayer(dir string) (v1.Layer, error) {
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		cmd := exec.Command("tar", "--numeric-owner", "--xattrs", "-C", dir, "-c", ".")
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		return &waitCloser{ReadCloser: out, cmd: cmd}, nil
	}, tarball.WithCompressionLevel(gzip.NoCompression))
}

// waitCloser closes a command's output and waits for it.
type waitCloser struct {
	io.ReadCloser
	cmd *exec.Cmd
}

func (w *waitCloser) Close() error {
	_, _ = io.Copy(io.Discard, w.ReadCloser)
	err := w.ReadCloser.Close()
	if werr := w.cmd.Wait(); werr != nil {
		return werr
	}
	return err
}
