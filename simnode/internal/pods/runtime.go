package pods

import (
	"context"
	"io"
	"io/fs"
	"net/netip"
	"time"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/shell/process"
)

// The ports below are what the simulated runtime needs from the packages
// around it: the shell (simnode/shell), the image catalog
// (simnode/images), the volumes (simnode/internal/volumes) and the
// network model (simnode/network). This package does not import them, so
// that it builds and is tested on its own; simnode/internal/pods/wire
// adapts the real packages to these interfaces. What a container's
// programs see (its file system, network, the node's accounts and power)
// has the types of the shell's leaf package simnode/shell/process, which
// the runtime passes through without looking inside.

// Env is everything a command of a container can observe (shell.Env).
type Env struct {
	OS       facts.OS
	Hostname string
	User     string
	Vars     map[string]string
	// Files, Net and Interfaces are the container's file system (its
	// volumes), network and network configuration (the network model).
	Files      process.FS
	Net        process.Network
	Interfaces process.NetConfig
	GMSADomain string
	// Server is the image's own main program (its catalog entrypoint, e.g.
	// /coredns or ServiceMonitor.exe) when the shell does not simulate it:
	// run as that program, it serves until the container stops.
	Server string
	// ImageCommand: the process is the image's own ENTRYPOINT and CMD (the
	// container gives neither command nor args).
	ImageCommand bool
	// Image is the container's image reference and HostProcess whether it
	// is a HostProcess container: what the shell needs to know which
	// programs the container has (shell.ImageOf).
	Image       string
	HostProcess bool
	Dir         string
	OSVersion   string
	Now         func() time.Time
	Sleep       func(ctx context.Context, d time.Duration) error
	// Writes, when set, is asked before each file write of a container's
	// process: false means the write is one the process made before a
	// simnode restart, which its resumed run skips (continuity.go).
	Writes WriteGate
	// Settle, when set, waits until the node's clock reaches the
	// process's own: a container process runs ahead of the clock while it
	// only prints and sleeps (lookahead.go) and settles before it observes
	// or changes anything outside itself (its files, the network, the
	// machine's meters). It returns the context's error at once when the
	// process is stopped first: the process then does not do it.
	Settle func() error
	// Exec: the command runs in a running container (a probe, a hook,
	// kubectl exec), not as its main process: a program wink does not know
	// ends at once with 0, as such commands do, instead of running until
	// stopped (open world).
	Exec bool
	// Completes: the command is the process of an init container or of a
	// pod whose restartPolicy is not Always (a Job's), of an image the
	// catalog does not know: real images run such programs to completion,
	// so a program wink does not know ends at once with 0 too (row E, all
	// kubelet versions). A catalog image's server (pause, coredns) still
	// runs until stopped.
	Completes bool
	// CPU, Memory, Accounts, Power and BootTime are the node machine's
	// parts a container sees (host.go; Accounts and Power: HostProcess
	// containers only).
	CPU      process.CPUMeter
	Memory   process.MemoryMeter
	Accounts process.LocalAccounts
	Power    process.Power
	BootTime time.Time
	// Limits bound the container's processes and Tracer hears what they
	// ran that wink does not simulate (limits.go, issue 18).
	Limits process.Limits
	Tracer process.Tracer
}

// Process is the environment of the shell's process (process.Env) for e:
// its programs are those wink knows of the image (process.ImageOf), and
// with a WriteGate its file writes are asked for first.
func (e *Env) Process() *process.Env {
	os := e.OS
	out := &process.Env{
		OS: os, Completes: e.Exec || e.Completes, Hostname: e.Hostname, User: e.User, Vars: e.Vars,
		Files: e.Files, Net: e.Net, Interfaces: e.Interfaces, GMSADomain: e.GMSADomain,
		Now: e.Now, Sleep: e.Sleep, Dir: e.Dir, Image: process.ImageOf(os, e.Image, e.HostProcess),
		OSVersion: e.OSVersion, CPU: e.CPU, Memory: e.Memory, Power: e.Power, Accounts: e.Accounts,
		BootTime: e.BootTime, Limits: e.Limits, Tracer: e.Tracer,
	}
	if e.Files != nil && e.Writes != nil {
		out.Files = gatedFS{Parts: process.Parts{FS: e.Files}, gate: e.Writes}
	}
	if e.Settle != nil {
		// A process that may run ahead settles first (settle.go).
		if out.Files != nil {
			out.Files = settledFS{Parts: process.Parts{FS: out.Files}, settle: e.Settle}
		}
		if out.Net != nil {
			out.Net = settledNet{Network: out.Net, settle: e.Settle, self: &selfEcho{answers: map[netip.Addr]echo{}}}
		}
	}
	return out
}

// Start is how e's process is started, what the shell's run-or-block rule
// reads (shell.RunProcess).
func (e *Env) Start() process.Start {
	return process.Start{Exec: e.Exec, Completes: e.Completes, Server: e.Server, ImageCommand: e.ImageCommand}
}

// gatedFS is a container process's file system when the runtime records
// its writes (WriteGate): a write the gate refuses is one the process made
// before a simnode restart, already on disk, and is skipped.
type gatedFS struct {
	process.Parts
	gate WriteGate
}

func (g gatedFS) WriteFile(path string, data []byte) error {
	if !g.gate.Write() {
		return nil
	}
	return g.FS.WriteFile(path, data)
}

// Remove is a write too: one made before a simnode restart is skipped.
func (g gatedFS) Remove(path string) error {
	if !g.gate.Write() {
		return nil
	}
	return removeFrom(g.FS, path)
}

// MkdirAll is a write too (cmd md, mkdir -p): one made before a simnode
// restart is skipped.
func (g gatedFS) MkdirAll(path string) error {
	if !g.gate.Write() {
		return nil
	}
	return mkdirIn(g.FS, path)
}

// mkdirIn creates a directory in f when f can (process.Mkdirer).
func mkdirIn(f process.FS, path string) error {
	m, ok := f.(process.Mkdirer)
	if !ok {
		return fs.ErrPermission
	}
	return m.MkdirAll(path)
}

// removeFrom removes path from f when f can delete (process.Remover).
func removeFrom(f process.FS, path string) error {
	r, ok := f.(process.Remover)
	if !ok {
		return fs.ErrPermission
	}
	return r.Remove(path)
}

// WriteGate decides whether a container process's file write is made.
type WriteGate interface {
	Write() bool
}

// Shell runs commands in a simulated container (shell.Run, shell.Present
// and shell.Found, shell.Listens).
type Shell interface {
	// Run runs argv and returns its exit code; it returns when the command
	// ends or ctx is done.
	Run(ctx context.Context, env *Env, argv []string, stdin io.Reader, stdout, stderr io.Writer) int
	// Found reports whether the image may have the program argv[0] (false
	// only where the simulation knows it is absent: the runtime's
	// StartError), and whether the shell simulates it. A program found but
	// not simulated runs until it is stopped (open world).
	Found(env *Env, argv []string) (found, simulated bool)
	// Listens returns the TCP ports argv listens on.
	Listens(argv []string) []int
	// ShutdownDelay reports how long argv keeps running after SIGTERM
	// before it exits with 0 by itself; false: it exits at once.
	ShutdownDelay(argv []string) (time.Duration, bool)
}

// ImageHost is what an image pull depends on (images.Host).
type ImageHost struct {
	OS      facts.OS
	Build   string // node.kubernetes.io/windows-build, e.g. 10.0.20348
	Handler string // RuntimeClass handler, "" for the default
}

// Image is what the runtime uses of a pulled image (images.Image).
type Image struct {
	// Ref and ID are the containerd reference and imageID; empty: derived
	// from the image name.
	Ref, ID string
	// Known: the image's ENTRYPOINT and CMD are known (a catalog or
	// registry image). Otherwise a container that gives only args runs the
	// image's unknown ENTRYPOINT with them, as containerd does.
	Known      bool
	Entrypoint []string
	Cmd        []string
	User       string
	WorkingDir string
	Env        map[string]string
	Ports      []int
	Size       int64
	// Fallback, when set, is why the image's registry gave nothing and the
	// catalog was used: the pull records one Warning event with it.
	Fallback string
}

// PullError is a failed pull (images.PullError): Reason is the waiting
// reason (ErrImagePull unless the catalog says otherwise).
type PullError struct {
	Reason, Message string
}

func (e *PullError) Error() string { return e.Message }

// Images is the image catalog.
type Images interface {
	// Pull resolves image ref for container of pod on host (the pod's
	// annotations and imagePullSecrets count); a failure is a *PullError
	// whose Message is the CRI's error text. Like the kubelet's serialized
	// image pulls it may take a while: a registry lookup is bounded by a
	// few seconds (images/registry).
	Pull(ref string, host ImageHost, pod *corev1.Pod, container string) (Image, error)
	// Sandbox checks that a sandbox can be created for host (RuntimeClass
	// handler); the error text goes into FailedCreatePodSandBox.
	Sandbox(host ImageHost) error
}

// Volumes mounts a pod's volumes at sandbox time (volumes.NewPod).
type Volumes interface {
	// Mount returns the pod's volumes; an error (errors.Join of one error
	// per volume) is one FailedMount event each, and the pod stays
	// ContainerCreating.
	Mount(ctx context.Context, pod *corev1.Pod) (PodVolumes, error)
}

// ContainerMountError is why a container cannot get its mounts: Reason is
// CreateContainerConfigError, CreateContainerError or StartError.
type ContainerMountError struct {
	Reason  string
	Message string
}

func (e *ContainerMountError) Error() string { return e.Message }

// PodVolumes are one pod's mounted volumes (*volumes.Pod).
type PodVolumes interface {
	// FS is the file system container sees (image files plus mounts).
	FS(container string) process.FS
	SetPodIPs(ips []string)
	// SetContainerID starts a new writable layer for a new instance.
	SetContainerID(container, id string)
	SetEnv(container string, env map[string]string)
	// SandboxMountPoint is CONTAINER_SANDBOX_MOUNT_POINT of a HostProcess
	// container (B10).
	SandboxMountPoint(container string) string
	// ContainerError is nil or a *ContainerMountError.
	ContainerError(container string) error
}

// Network gives a container its view of the cluster network
// (network.Model).
type Network interface {
	// From is the network as pod's containers see it.
	From(pod *corev1.Pod) process.Network
	// NetConfig is the pod's network configuration.
	NetConfig(pod *corev1.Pod) process.NetConfig
}

// RuntimeClasses returns the handler of a RuntimeClass (a lister); ok is
// false when it does not exist.
type RuntimeClasses func(name string) (handler string, ok bool)

// HTTPResponse is a simulated HTTP answer of a listening container.
type HTTPResponse struct {
	Status  int
	Headers map[string]string
	Body    []byte
}

// ContainerMetrics counts container starts as the kubelet's
// StartedContainersTotal and StartedContainersErrorsTotal do, and their
// HostProcess twins (kuberuntime_manager.go SyncPod: each start attempt
// after the back-off check, and each failed one by its error).
type ContainerMetrics interface {
	ContainerStarted(containerType string, hostProcess bool)
	ContainerStartFailed(containerType, code string, hostProcess bool)
}
