package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// install says where each program of layout.Bin goes in the node, as
// kind's base image and its node image build put them.
var install = map[string]string{
	"containerd":              "/usr/local/bin/containerd",
	"ctr":                     "/usr/local/bin/ctr",
	"containerd-shim-runc-v2": "/usr/local/bin/containerd-shim-runc-v2",
	"crictl":                  "/usr/local/bin/crictl",
	"runc":                    "/usr/local/sbin/runc",
	"kubelet":                 "/usr/bin/kubelet",
	"kubeadm":                 "/usr/bin/kubeadm",
	"kubectl":                 "/usr/bin/kubectl",
}

// ownFiles are files/ entries and where they go in the node.
var ownFiles = map[string]string{
	"files/wink-entrypoint":     "/usr/local/bin/wink-entrypoint",
	"files/wink-cni":            "/kind/bin/wink-cni",
	"files/wink-images.service": "/etc/systemd/system/wink-images.service",
	"files/wink-cni.service":    "/etc/systemd/system/wink-cni.service",
	"files/default-cni.yaml":    "/kind/manifests/default-cni.yaml",
}

// enabled are the units the node starts, as kind's base image enables
// them, and wink's own.
var enabled = []string{"kubelet.service", "containerd.service", "undo-mount-hacks.service", "wink-images.service", "wink-cni.service"}

// notWanted are the units debootstrap's systemd would start that kind's
// base image removes (a container has no udev, no local file systems of
// its own to mount, no initctl), as globs under the root.
var notWanted = []string{
	"lib/systemd/system/sysinit.target.wants/systemd-tmpfiles-setup.service",
	"lib/systemd/system/multi-user.target.wants/*",
	"etc/systemd/system/*.wants/*",
	"lib/systemd/system/local-fs.target.wants/*",
	"lib/systemd/system/sockets.target.wants/*udev*",
	"lib/systemd/system/sockets.target.wants/*initctl*",
	"lib/systemd/system/basic.target.wants/*",
}

// prepareNode turns the copy of the root file system at root into the
// node's: kind's base files, the programs, wink's files and the units.
func prepareNode(ctx context.Context, root string, l layout, version string) error {
	at := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	for _, g := range notWanted {
		matches, err := filepath.Glob(at(g))
		if err != nil {
			return err
		}
		for _, m := range matches {
			if err := os.Remove(m); err != nil {
				return err
			}
		}
	}
	kindFiles := filepath.Join(l.Kind, "images", "base", "files")
	if out, err := exec.CommandContext(ctx, "cp", "-r", "--no-preserve=ownership", kindFiles+"/.", root).CombinedOutput(); err != nil {
		return fmt.Errorf("kind's base files: %s", out)
	}
	// The module cache is read-only; the node's copies are not.
	if err := filepath.WalkDir(kindFiles, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(kindFiles, p)
		mode := os.FileMode(0o644)
		if d.IsDir() || strings.HasPrefix(rel, "usr/local/bin/") || strings.HasPrefix(rel, "kind/bin/") {
			mode = 0o755
		}
		return os.Chmod(filepath.Join(root, rel), mode)
	}); err != nil {
		return err
	}
	for name, dst := range install {
		if err := copyInto(at(dst), filepath.Join(l.Bin, name), 0o755); err != nil {
			return err
		}
	}
	plugins, err := os.ReadDir(l.CNI)
	if err != nil {
		return err
	}
	for _, p := range plugins {
		if err := copyInto(at("/opt/cni/bin/"+p.Name()), filepath.Join(l.CNI, p.Name()), 0o755); err != nil {
			return err
		}
	}
	for src, dst := range ownFiles {
		data, err := files.ReadFile(src)
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if !strings.Contains(src, ".") {
			mode = 0o755
		}
		if err := writeInto(at(dst), data, mode); err != nil {
			return err
		}
	}
	spec, err := baseRuntimeSpec(ctx, filepath.Join(l.Bin, "ctr"))
	if err != nil {
		return err
	}
	if err := writeInto(at("/etc/containerd/cri-base.json"), spec, 0o644); err != nil {
		return err
	}
	if err := writeInto(at("/kind/version"), []byte(version+"\n"), 0o644); err != nil {
		return err
	}
	for _, u := range enabled {
		if err := symlink(at("/etc/systemd/system/multi-user.target.wants/"+u), "/etc/systemd/system/"+u); err != nil {
			return err
		}
	}
	if err := symlink(at("/etc/systemd/system/systemd-binfmt.service"), "/dev/null"); err != nil {
		return err
	}
	journald, err := os.OpenFile(at("/etc/systemd/journald.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := journald.WriteString("ReadKMsg=no\n"); err != nil {
		journald.Close()
		return err
	}
	if err := journald.Close(); err != nil {
		return err
	}
	return os.MkdirAll(at("/etc/kubernetes/manifests"), 0o755)
}

// baseRuntimeSpec is containerd's default OCI spec as kind's base image
// makes /etc/containerd/cri-base.json: without rlimits, with kind's
// createContainer hook that mounts the node's product files.
func baseRuntimeSpec(ctx context.Context, ctr string) ([]byte, error) {
	out, err := exec.CommandContext(ctx, ctr, "oci", "spec").Output()
	if err != nil {
		return nil, fmt.Errorf("ctr oci spec: %w", err)
	}
	var spec map[string]any
	if err := json.Unmarshal(out, &spec); err != nil {
		return nil, fmt.Errorf("ctr oci spec: %w", err)
	}
	if p, ok := spec["process"].(map[string]any); ok {
		delete(p, "rlimits")
	}
	hooks, _ := spec["hooks"].(map[string]any)
	if hooks == nil {
		hooks = map[string]any{}
	}
	cc, _ := hooks["createContainer"].([]any)
	hooks["createContainer"] = append(cc, map[string]any{"path": "/kind/bin/mount-product-files.sh"})
	spec["hooks"] = hooks
	return json.MarshalIndent(spec, "", "  ")
}

func copyInto(dst, src string, mode os.FileMode) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return writeInto(dst, data, mode)
}

func writeInto(dst string, data []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(dst, data, mode); err != nil {
		return err
	}
	return os.Chmod(dst, mode)
}

func symlink(at, target string) error {
	if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
		return err
	}
	_ = os.Remove(at)
	return os.Symlink(target, at)
}

// writeNodeImage writes the node image, root as its one layer, to a
// docker archive tagged tag.
func writeNodeImage(ctx context.Context, archive, root, tag string, labels map[string]string) error {
	layer, err := dirLayer(root)
	if err != nil {
		return err
	}
	img, err := imageOf([]v1.Layer{layer}, []string{"/usr/local/bin/wink-entrypoint", "/sbin/init"}, labels)
	if err != nil {
		return err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return err
	}
	cf = cf.DeepCopy()
	// systemd reads container= to know it runs in one
	// (systemd.io/CONTAINER_INTERFACE); it exits on SIGRTMIN+3, where
	// SIGTERM would re-execute it.
	cf.Config.Env = append(cf.Config.Env, "container=docker")
	cf.Config.StopSignal = "SIGRTMIN+3"
	if img, err = mutate.ConfigFile(img, cf); err != nil {
		return err
	}
	t, err := name.NewTag(tag)
	if err != nil {
		return err
	}
	return tarball.WriteToFile(archive, t, img)
}
