// Package wire adapts the simulated shell, network model, image catalog and
// volumes to the runtime ports of simnode/internal/pods (pods/runtime.go),
// which does not import them.
package wire

import (
	"context"
	"errors"
	"io"

	corev1 "k8s.io/api/core/v1"
	corev1listers "k8s.io/client-go/listers/core/v1"
	nodev1listers "k8s.io/client-go/listers/node/v1"

	"wink.dev/wink/simnode/internal/images"
	"wink.dev/wink/simnode/internal/pods"
	"wink.dev/wink/simnode/internal/volumes"
	"wink.dev/wink/simnode/network"
	"wink.dev/wink/simnode/shell"
)

// Shell is pods.Shell over simnode/shell.
type Shell struct{}

var _ pods.Shell = Shell{}

// Env converts a pods.Env.
func Env(e *pods.Env) *shell.Env {
	out := &shell.Env{
		OS: shell.OS(e.OS), Hostname: e.Hostname, User: e.User, Vars: e.Vars,
		GMSADomain: e.GMSADomain, Now: e.Now, Sleep: e.Sleep, Dir: e.Dir, OSVersion: e.OSVersion,
	}
	if fs, ok := e.Files.(shell.FS); ok {
		out.Files = fs
	}
	if n, ok := e.Net.(shell.Network); ok {
		out.Net = n
	}
	if nc, ok := e.Interfaces.(shell.NetConfig); ok {
		out.Interfaces = nc
	}
	if e.CPU != nil {
		out.CPU = e.CPU
	}
	if e.Memory != nil {
		out.Memory = e.Memory
	}
	if a, ok := e.Accounts.(shell.LocalAccounts); ok {
		out.Accounts = a
	}
	if pw, ok := e.Power.(shell.Power); ok {
		out.Power = pw
	}
	out.BootTime = e.BootTime
	return out
}

// Run implements pods.Shell. The image's own server program, which the
// shell does not simulate, serves until the container stops and then exits
// as a stopped process does.
func (Shell) Run(ctx context.Context, env *pods.Env, argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if env.Server != "" && len(argv) > 0 && argv[0] == env.Server && !shell.Found(shell.OS(env.OS), argv) {
		<-ctx.Done()
		if env.OS == string(shell.Windows) {
			return shell.ExitKilledWindows
		}
		return shell.ExitKilledLinux
	}
	return shell.Run(ctx, Env(env), argv, stdin, stdout, stderr)
}

// Found implements pods.Shell.
func (Shell) Found(os string, argv []string) bool { return shell.Found(shell.OS(os), argv) }

// Listens implements pods.Shell.
func (Shell) Listens(argv []string) []int { return shell.Listens(argv) }

// Images is pods.Images over the catalog.
type Images struct {
	Catalog *images.Catalog
	// Strict makes unknown images fail to pull.
	Strict bool
}

var _ pods.Images = Images{}

func host(h pods.ImageHost) images.Host {
	return images.Host{OS: h.OS, Build: h.Build, Handler: h.Handler}
}

// Pull implements pods.Images.
func (i Images) Pull(ref string, h pods.ImageHost, annotations map[string]string, container string) (pods.Image, error) {
	img, err := i.Catalog.Pull(ref, host(h), annotations, images.Options{Strict: i.Strict, Container: container})
	if err != nil {
		var pe *images.PullError
		if errors.As(err, &pe) {
			return pods.Image{}, &pods.PullError{Reason: pe.Reason, Message: pe.Error()}
		}
		return pods.Image{}, &pods.PullError{Reason: images.ReasonErrImagePull, Message: err.Error()}
	}
	out := pods.Image{Ref: img.Ref, ID: img.ImageID(), Entrypoint: img.Entrypoint, Cmd: img.Cmd, User: img.User, Size: img.Size}
	for _, p := range img.Ports {
		out.Ports = append(out.Ports, int(p))
	}
	return out, nil
}

// Sandbox implements pods.Images.
func (i Images) Sandbox(h pods.ImageHost) error { return i.Catalog.Sandbox(host(h)) }

// Volumes is pods.Volumes over simnode/internal/volumes.
type Volumes struct {
	Node   *volumes.Node
	Source volumes.Source
}

// Mount implements pods.Volumes.
func (v Volumes) Mount(ctx context.Context, pod *corev1.Pod) (pods.PodVolumes, error) {
	p, err := volumes.NewPod(ctx, pod, v.Node, v.Source)
	if err != nil {
		return nil, err
	}
	return podVolumes{p}, nil
}

type podVolumes struct{ p *volumes.Pod }

func (p podVolumes) FS(c string) any                        { return p.p.FS(c) }
func (p podVolumes) SetPodIPs(ips []string)                 { p.p.SetPodIPs(ips) }
func (p podVolumes) SetContainerID(c, id string)            { p.p.SetContainerID(c, id) }
func (p podVolumes) SetEnv(c string, env map[string]string) { p.p.SetEnv(c, env) }
func (p podVolumes) SandboxMountPoint(c string) string      { return p.p.SandboxMountPoint(c) }
func (p podVolumes) ContainerError(c string) error {
	err := p.p.ContainerError(c)
	if err == nil {
		return nil
	}
	var ce *volumes.ContainerError
	if errors.As(err, &ce) {
		return &pods.ContainerMountError{Reason: ce.Reason, Message: ce.Error()}
	}
	return &pods.ContainerMountError{Reason: volumes.ReasonCreateContainerConfigError, Message: err.Error()}
}

// Network is pods.Network over the network model.
type Network struct{ Model *network.Model }

// From implements pods.Network.
func (n Network) From(pod *corev1.Pod) any { return n.Model.From(pod) }

// NetConfig implements pods.Network.
func (n Network) NetConfig(pod *corev1.Pod) any { return n.Model.NetConfig(pod) }

// RuntimeClasses returns a pods.RuntimeClasses over a lister.
func RuntimeClasses(l nodev1listers.RuntimeClassLister) pods.RuntimeClasses {
	return func(name string) (string, bool) {
		rc, err := l.Get(name)
		if err != nil {
			return "", false
		}
		return rc.Handler, true
	}
}

// Providers finds the runtime of a node by name (the simnode process's
// nodes).
type Providers func(node string) *pods.Provider

// NetworkOptions fills the model's Listens and HTTPHandler from the nodes'
// runtimes: the ports running containers listen on (image ports,
// containerPorts, commands) and their simulated HTTP answers.
func NetworkOptions(opts network.Options, providers Providers) network.Options {
	opts.Listens = func(pod *corev1.Pod, container int) []int {
		if p := providers(pod.Spec.NodeName); p != nil {
			return p.Listens(pod, container)
		}
		return nil
	}
	opts.HTTPHandler = func(pod *corev1.Pod, port int, req *network.HTTPRequest) *shell.HTTPResponse {
		if pod == nil {
			return nil
		}
		p := providers(pod.Spec.NodeName)
		if p == nil {
			return nil
		}
		client := ""
		if req.From.IsValid() {
			client = req.From.String()
		}
		r := p.HTTP(pod, port, req.Method, req.Path, client)
		if r == nil {
			return nil
		}
		return &shell.HTTPResponse{Status: r.Status, Headers: r.Headers, Body: r.Body}
	}
	return opts
}

// Source is a volumes.Source over listers (ServiceAccountToken: a fake,
// stable token; a real TokenRequest would need the client).
type Source struct {
	ConfigMaps corev1listers.ConfigMapLister
	Secrets    corev1listers.SecretLister
	Token      func(ctx context.Context, namespace, serviceAccount, audience string, expirationSeconds int64, pod *corev1.Pod) (string, error)
}

// ConfigMap implements volumes.Source.
func (s Source) ConfigMap(ns, name string) (*corev1.ConfigMap, error) {
	return s.ConfigMaps.ConfigMaps(ns).Get(name)
}

// Secret implements volumes.Source.
func (s Source) Secret(ns, name string) (*corev1.Secret, error) {
	return s.Secrets.Secrets(ns).Get(name)
}

// ServiceAccountToken implements volumes.Source.
func (s Source) ServiceAccountToken(ctx context.Context, ns, sa, audience string, exp int64, pod *corev1.Pod) (string, error) {
	if s.Token != nil {
		return s.Token(ctx, ns, sa, audience, exp, pod)
	}
	return "", errors.New("service account tokens are not available")
}
