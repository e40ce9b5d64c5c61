// Package dockershim lets kind create its node containers on a Docker
// engine that refuses `--privileged`.
//
// Docker 20.10 gives a privileged container every capability the kernel
// knows, not the ones the engine holds (moby#42906, fixed in later engines
// by moby#42933), so on a machine whose capability bounding set lacks one
// (CAP_SYS_RESOURCE on many CI VMs) runc fails with "unable to apply caps".
// kind always passes `--privileged` to `docker run` and `docker exec`, and
// runs the docker CLI by name on PATH. So wink puts a `docker` of its own
// first on PATH for kind: a shell script that runs `wink kind docker-shim`,
// which rewrites `run --privileged` into the flags privileged stands for
// on that engine (every capability it can grant, seccomp, AppArmor and
// /proc, /sys masks off, every device allowed, /dev/kmsg and /dev/fuse
// passed in) and drops `--privileged` from `exec`, then runs the real CLI.
//
// Probe asks the engine once whether it needs that; the answer is kept per
// engine ID under the wink home. On an engine that accepts --privileged no
// shim is made and kind's calls are untouched.
package dockershim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// probeImage is an image with no files: a container of it fails at exec,
// after runc has applied its capabilities, so the error says which step
// refused. It is imported from an empty tar, since nothing can be assumed
// pullable.
const probeImage = "wink.dev/probe:empty"

// capabilities are the Linux capabilities Docker can add by name, in the
// kernel's order (capability.h). Names the engine does not know are
// skipped by Probe.
var capabilities = []string{
	"CHOWN", "DAC_OVERRIDE", "DAC_READ_SEARCH", "FOWNER", "FSETID", "KILL",
	"SETGID", "SETUID", "SETPCAP", "LINUX_IMMUTABLE", "NET_BIND_SERVICE",
	"NET_BROADCAST", "NET_ADMIN", "NET_RAW", "IPC_LOCK", "IPC_OWNER",
	"SYS_MODULE", "SYS_RAWIO", "SYS_CHROOT", "SYS_PTRACE", "SYS_PACCT",
	"SYS_ADMIN", "SYS_BOOT", "SYS_NICE", "SYS_RESOURCE", "SYS_TIME",
	"SYS_TTY_CONFIG", "MKNOD", "LEASE", "AUDIT_WRITE", "AUDIT_CONTROL",
	"SETFCAP", "MAC_OVERRIDE", "MAC_ADMIN", "SYSLOG", "WAKE_ALARM",
	"BLOCK_SUSPEND", "AUDIT_READ", "PERFMON", "BPF", "CHECKPOINT_RESTORE",
}

// devices are the host devices a privileged kind node uses that a
// non-privileged container only has when passed: the kubelet reads
// /dev/kmsg (its OOM watcher) and fuse-overlayfs needs /dev/fuse.
var devices = []string{"/dev/kmsg", "/dev/fuse"}

// Engine is what Probe learnt of a Docker engine.
type Engine struct {
	// ID is the engine's `docker info` ID.
	ID string `json:"id"`
	// Privileged is true when the engine runs --privileged containers.
	Privileged bool `json:"privileged"`
	// DropCaps are the capabilities it cannot grant (outside its bounding
	// set), to drop from ALL.
	DropCaps []string `json:"dropCaps,omitempty"`
	// Devices are the host devices of `devices` the engine has.
	Devices []string `json:"devices,omitempty"`
	// CgroupV1 is true on a cgroup v1 host, where kubelet 1.35 must be
	// told failCgroupV1: false.
	CgroupV1 bool `json:"cgroupV1,omitempty"`
}

// NeedsShim reports whether kind needs the shim on this engine.
func (e Engine) NeedsShim() bool { return !e.Privileged }

// outcome is what one probe container's failure says.
type outcome int

const (
	started    outcome = iota // runc got as far as exec: the flags are fine
	capsDenied                // "unable to apply caps"
	unknownCap                // the engine does not know a capability name
	noDevice                  // the engine host lacks a device
)

var (
	capsDeniedRE = regexp.MustCompile(`unable to apply caps`)
	unknownCapRE = regexp.MustCompile(`unknown capability`)
	noDeviceRE   = regexp.MustCompile(`error gathering device information`)
)

// Docker runs the docker CLI.
type Docker struct {
	// Path is the docker CLI.
	Path string
}

func (d Docker) output(ctx context.Context, stdin []byte, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, d.Path, args...)
	cmd.WaitDelay = time.Second
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// try runs the probe image with flags and says how far it got.
func (d Docker) try(ctx context.Context, flags ...string) (outcome, error) {
	args := append([]string{"run", "--rm", "--network", "none", "--log-driver", "none"}, flags...)
	out, err := d.output(ctx, nil, append(args, probeImage, "/wink-probe")...)
	switch {
	case err == nil:
		return 0, fmt.Errorf("docker %s: a container of the empty probe image ran", strings.Join(args, " "))
	case capsDeniedRE.MatchString(out):
		return capsDenied, nil
	case unknownCapRE.MatchString(out):
		return unknownCap, nil
	case noDeviceRE.MatchString(out):
		return noDevice, nil
	case strings.Contains(out, "/wink-probe"):
		return started, nil
	}
	return 0, fmt.Errorf("docker %s: %s", strings.Join(args, " "), strings.TrimSpace(out))
}

// Probe asks the engine whether it runs --privileged containers and, when
// not, which capabilities it cannot grant and which devices it has.
func Probe(ctx context.Context, d Docker) (Engine, error) {
	info, err := d.output(ctx, nil, "info", "--format", "{{.ID}} {{.CgroupVersion}}")
	if err != nil {
		return Engine{}, fmt.Errorf("docker info: %s", strings.TrimSpace(info))
	}
	id, cgroup, _ := strings.Cut(strings.TrimSpace(info), " ")
	e := Engine{ID: id, CgroupV1: cgroup == "1"}
	if out, err := d.output(ctx, nil, "image", "inspect", probeImage); err != nil {
		if !strings.Contains(strings.ToLower(out), "no such image") {
			return Engine{}, fmt.Errorf("docker image inspect %s: %s", probeImage, strings.TrimSpace(out))
		}
		// An empty tar archive: 1024 zero bytes.
		if out, err := d.output(ctx, make([]byte, 1024), "import", "-", probeImage); err != nil {
			return Engine{}, fmt.Errorf("docker import %s: %s", probeImage, strings.TrimSpace(out))
		}
	}
	o, err := d.try(ctx, "--privileged")
	if err != nil {
		return Engine{}, err
	}
	switch o {
	case started:
		e.Privileged = true
		return e, nil
	case capsDenied:
	default:
		return Engine{}, fmt.Errorf("docker run --privileged: unexpected refusal (%d)", o)
	}
	for _, c := range capabilities {
		o, err := d.try(ctx, "--cap-add", c)
		if err != nil {
			return Engine{}, err
		}
		if o == capsDenied {
			e.DropCaps = append(e.DropCaps, c)
		}
	}
	for _, dev := range devices {
		o, err := d.try(ctx, "--device", dev)
		if err != nil {
			return Engine{}, err
		}
		if o == started {
			e.Devices = append(e.Devices, dev)
		}
	}
	// The flags privileged becomes must start a container, or the shim
	// would only move kind's failure.
	if o, err := d.try(ctx, PrivilegedFlags(e)...); err != nil || o != started {
		return Engine{}, fmt.Errorf("the engine refuses --privileged and also the flags it stands for (%s): %v", strings.Join(PrivilegedFlags(e), " "), err)
	}
	return e, nil
}

// Cached is Probe's answer for the engine the docker CLI talks to, kept in
// dir (one file per engine ID) so that an engine is probed once.
func Cached(ctx context.Context, d Docker, dir string) (Engine, error) {
	out, err := d.output(ctx, nil, "info", "--format", "{{.ID}}")
	if err != nil {
		return Engine{}, fmt.Errorf("docker info: %s", strings.TrimSpace(out))
	}
	file := filepath.Join(dir, fileName(strings.TrimSpace(out))+".json")
	if data, err := os.ReadFile(file); err == nil {
		var e Engine
		if err := json.Unmarshal(data, &e); err == nil {
			return e, nil
		}
	}
	e, err := Probe(ctx, d)
	if err != nil {
		return Engine{}, err
	}
	data, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return Engine{}, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Engine{}, err
	}
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return Engine{}, err
	}
	return e, os.Rename(tmp, file)
}

// fileName makes an engine ID (letters, digits and colons) a file name.
func fileName(id string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '_'
	}, id)
}

// PrivilegedFlags are the `docker run` flags that stand for --privileged
// on engine e: every capability it can grant, no seccomp or AppArmor
// profile, no masked /proc and /sys paths, every device allowed by the
// device cgroup, and the devices a kind node uses.
func PrivilegedFlags(e Engine) []string {
	flags := []string{"--cap-add", "ALL"}
	for _, c := range e.DropCaps {
		flags = append(flags, "--cap-drop", c)
	}
	flags = append(flags,
		"--security-opt", "seccomp=unconfined",
		"--security-opt", "apparmor=unconfined",
		"--security-opt", "systempaths=unconfined",
		"--device-cgroup-rule", "a *:* rwm",
	)
	for _, d := range e.Devices {
		flags = append(flags, "--device", d)
	}
	return flags
}

// Install writes the shim for engine e into dir/docker: a script running
// `wink kind docker-shim` (wink is the wink executable) with the real
// docker CLI and e's flags. It returns dir.
func Install(dir, wink string, real Docker, e Engine) (string, error) {
	if !filepath.IsAbs(dir) || !filepath.IsAbs(wink) || !filepath.IsAbs(real.Path) {
		return "", errors.New("dockershim: the shim directory, wink and docker must be absolute paths (Go ignores relative PATH entries)")
	}
	args := []string{wink, "kind", "docker-shim", "--docker", real.Path}
	for _, c := range e.DropCaps {
		args = append(args, "--cap-drop", c)
	}
	for _, d := range e.Devices {
		args = append(args, "--device", d)
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	script := "#!/bin/sh\n# docker for kind on an engine that refuses --privileged (made by wink).\nexec " +
		strings.Join(quoted, " ") + ` -- "$@"` + "\n"
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	file := filepath.Join(dir, "docker")
	if old, err := os.ReadFile(file); err == nil && string(old) == script {
		return dir, nil
	}
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, []byte(script), 0o700); err != nil {
		return "", err
	}
	return dir, os.Rename(tmp, file)
}

// RealDocker finds the docker CLI on PATH, passing over shim directories
// (a directory whose docker is a wink shim), so that a PATH that already
// holds the shim still gives the real CLI.
func RealDocker() (Docker, error) {
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, "docker")
		st, err := os.Stat(p)
		if err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			continue
		}
		if head, err := readHead(p, 128); err == nil && bytes.Contains(head, []byte("made by wink")) {
			continue
		}
		return Docker{Path: p}, nil
	}
	return Docker{}, errors.New("no docker CLI on PATH")
}

func readHead(path string, n int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, n)
	k, err := f.Read(buf)
	if k > 0 {
		err = nil
	}
	return buf[:k], err
}

// homeDir is the directory under the wink home that holds the probed
// engines and their shims; a leading dot keeps it apart from every cluster
// name.
const homeDir = ".docker-shim"

// Setup probes the engine the docker CLI on PATH talks to (once: Cached,
// under the wink home) and, where it refuses --privileged, installs its
// shim for the wink executable wink. It returns the shim's directory, ""
// when the engine needs none, and what it knows of the engine.
func Setup(ctx context.Context, home, wink string) (string, Engine, error) {
	dir := filepath.Join(home, homeDir)
	docker, err := RealDocker()
	if err != nil {
		return "", Engine{}, err
	}
	e, err := Cached(ctx, docker, dir)
	if err != nil {
		return "", Engine{}, fmt.Errorf("probing the Docker engine for kind: %w", err)
	}
	if !e.NeedsShim() {
		return "", e, nil
	}
	shim, err := Install(filepath.Join(dir, "shim-"+fileName(e.ID)), wink, docker, e)
	return shim, e, err
}
