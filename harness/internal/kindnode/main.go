package main

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// files are the node image's own files (see doc.go).
//
//go:embed files
var files embed.FS

// inputsLabel is the image label holding the digest of its inputs.
const inputsLabel = "dev.wink.kind-node.inputs"

// layout is where Build finds its inputs.
type layout struct {
	// Rootfs is the Debian root file system (debootstrap).
	Rootfs string
	// Bin holds the node's programs: containerd, ctr,
	// containerd-shim-runc-v2, runc, crictl, kubelet, kubeadm, kubectl,
	// kube-proxy, coredns, pause, and wink (static).
	Bin string
	// CNI holds the CNI plugins.
	CNI string
	// Kind is the sigs.k8s.io/kind module's directory.
	Kind string
	// Nginx is the root file system of the e2e nginx image's stand-in
	// (debootstrap with nginx and netcat-openbsd).
	Nginx string
}

// binaries are the programs of layout.Bin the image needs.
var binaries = []string{
	"containerd", "ctr", "containerd-shim-runc-v2", "runc", "crictl",
	"kubelet", "kubeadm", "kubectl", "kube-proxy", "coredns", "pause", "wink",
}

func main() {
	var l layout
	var tag, version string
	flag.StringVar(&l.Rootfs, "rootfs", "", "the Debian root file system (debootstrap)")
	flag.StringVar(&l.Bin, "bin", "", "directory of the node's programs: "+strings.Join(binaries, ", "))
	flag.StringVar(&l.CNI, "cni", "", "directory of the CNI plugins")
	flag.StringVar(&l.Kind, "kind", "", "directory of the sigs.k8s.io/kind module (its images/base/files)")
	flag.StringVar(&l.Nginx, "nginx-rootfs", "", "the root file system of the e2e nginx image's stand-in (debootstrap)")
	flag.StringVar(&tag, "tag", "", "the image's name, e.g. wink.dev/kind-node:v1.35.4")
	flag.StringVar(&version, "kubernetes-version", "", "the Kubernetes version of the binaries, e.g. v1.35.4")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	if err := run(ctx, l, tag, version); err != nil {
		fmt.Fprintln(os.Stderr, "kind-node-image:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, l layout, tag, version string) error {
	if l.Rootfs == "" || l.Bin == "" || l.CNI == "" || l.Kind == "" || l.Nginx == "" || tag == "" || version == "" {
		return errors.New("--rootfs, --nginx-rootfs, --bin, --cni, --kind, --tag and --kubernetes-version are required")
	}
	for _, b := range binaries {
		if _, err := os.Stat(filepath.Join(l.Bin, b)); err != nil {
			return fmt.Errorf("%s: build it first (make kind-node-image builds every input)", err)
		}
	}
	start := time.Now()
	digest, err := inputsDigest(l, version)
	if err != nil {
		return err
	}
	if out, err := exec.CommandContext(ctx, "docker", "image", "inspect", "--format", "{{index .Config.Labels \""+inputsLabel+"\"}}", tag).Output(); err == nil && strings.TrimSpace(string(out)) == digest {
		fmt.Printf("%s is up to date (inputs %s)\n", tag, digest[:12])
		return nil
	}
	work, err := os.MkdirTemp(filepath.Dir(l.Rootfs), "kind-node-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	stage := filepath.Join(work, "rootfs")
	if out, err := exec.CommandContext(ctx, "cp", "-a", l.Rootfs, stage).CombinedOutput(); err != nil {
		return fmt.Errorf("copying %s: %s", l.Rootfs, out)
	}
	refs, err := imageRefs(ctx, filepath.Join(l.Bin, "kubeadm"), version)
	if err != nil {
		return err
	}
	if err := writeImages(filepath.Join(stage, "kind", "images"), l, refs); err != nil {
		return fmt.Errorf("container images: %w", err)
	}
	if err := prepareNode(ctx, stage, l, version); err != nil {
		return fmt.Errorf("node file system: %w", err)
	}
	archive := filepath.Join(work, "image.tar")
	if err := writeNodeImage(ctx, archive, stage, tag, map[string]string{inputsLabel: digest}); err != nil {
		return fmt.Errorf("node image: %w", err)
	}
	previous, _ := exec.CommandContext(ctx, "docker", "image", "inspect", "--format", "{{.Id}}", tag).Output()
	cmd := exec.CommandContext(ctx, "docker", "load", "-i", archive)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("docker load: %w", err)
	}
	// The image the tag named before is left without a name: remove it
	// unless a node container still uses it (then docker refuses).
	current, _ := exec.CommandContext(ctx, "docker", "image", "inspect", "--format", "{{.Id}}", tag).Output()
	if id := strings.TrimSpace(string(previous)); id != "" && id != strings.TrimSpace(string(current)) {
		_ = exec.CommandContext(ctx, "docker", "image", "rm", id).Run()
	}
	fmt.Printf("built %s in %s\n", tag, time.Since(start).Round(time.Second))
	return nil
}

// inputsDigest is the digest of everything the image is made of: the
// binaries, the CNI plugins, kind's base files, the root file system's
// package list and this builder's own files.
func inputsDigest(l layout, version string) (string, error) {
	h := sha256.New()
	fmt.Fprintln(h, version)
	add := func(root string, fsys fs.FS) error {
		var paths []string
		err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				paths = append(paths, p)
			}
			return err
		})
		if err != nil {
			return err
		}
		sort.Strings(paths)
		for _, p := range paths {
			f, err := fsys.Open(p)
			if err != nil {
				return err
			}
			fmt.Fprintln(h, root, p)
			_, err = io.Copy(h, f)
			f.Close()
			if err != nil {
				return err
			}
		}
		return nil
	}
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	for _, in := range []struct {
		name string
		fsys fs.FS
	}{
		{"bin", os.DirFS(l.Bin)},
		{"cni", os.DirFS(l.CNI)},
		{"kind", os.DirFS(filepath.Join(l.Kind, "images", "base", "files"))},
		{"files", files},
		{"dpkg", os.DirFS(filepath.Join(l.Rootfs, "var", "lib", "dpkg", "info"))},
		{"nginx-dpkg", os.DirFS(filepath.Join(l.Nginx, "var", "lib", "dpkg", "info"))},
		// this builder: its own code decides the rest
		{"builder", fileFS{self}},
	} {
		if err := add(in.name, in.fsys); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// fileFS is an fs.FS of one file, named ".".
type fileFS struct{ path string }

func (f fileFS) Open(name string) (fs.File, error) {
	if name != "." {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return os.Open(f.path)
}
