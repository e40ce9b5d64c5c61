// Package wire adapts the simulated shell, network model, image catalog and
// volumes to the runtime ports of simnode/internal/pods (pods/runtime.go),
// which does not import them.
package wire

import (
	"context"
	"errors"
	"io"
	"net/netip"
	"path"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	corev1listers "k8s.io/client-go/listers/core/v1"
	nodev1listers "k8s.io/client-go/listers/node/v1"

	"wink.dev/wink/simnode/images"
	"wink.dev/wink/simnode/images/registry"
	"wink.dev/wink/simnode/internal/pods"
	"wink.dev/wink/simnode/internal/volumes"
	"wink.dev/wink/simnode/network"
	"wink.dev/wink/simnode/shell"
)

// Shell is pods.Shell over simnode/shell.
type Shell struct{}

var _ pods.Shell = Shell{}

// Run implements pods.Shell with the shell's run-or-block rule
// (shell.RunProcess, row E).
func (Shell) Run(ctx context.Context, env *pods.Env, argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return shell.RunProcess(ctx, env.Process(), env.Start(), argv, stdin, stdout, stderr)
}

// Found implements pods.Shell: present as far as wink knows (the open
// world of shell.Present), and simulated by the shell.
func (Shell) Found(e *pods.Env, argv []string) (found, simulated bool) {
	return shell.Lookup(e.OS, e.Image, e.HostProcess, argv)
}

// Listens implements pods.Shell.
func (Shell) Listens(argv []string) []int { return shell.Listens(argv) }

// ShutdownDelay implements pods.Shell.
func (Shell) ShutdownDelay(argv []string) (time.Duration, bool) { return shell.ShutdownDelay(argv) }

// Images is pods.Images over the registry resolver and the catalog: the
// one lookup every pull goes through.
type Images struct {
	Catalog *images.Catalog
	// Strict makes unknown images fail to pull.
	Strict bool
	// Registry, when set, says what an image is before the catalog does
	// (images.resolve: registry, or the cache when offline).
	Registry Resolver
	// Secrets reads the pods' imagePullSecrets for the registry.
	Secrets corev1listers.SecretLister
}

// Resolver is images/registry.Resolver.
type Resolver interface {
	Resolve(ctx context.Context, ref string, secrets []corev1.Secret) (*images.Manifest, error)
}

var _ pods.Images = Images{}

func host(h pods.ImageHost) images.Host {
	return images.Host{OS: h.OS, Build: h.Build, Handler: h.Handler}
}

// Pull implements pods.Images.
func (i Images) Pull(ref string, h pods.ImageHost, pod *corev1.Pod, container string) (pods.Image, error) {
	opts := images.Options{Strict: i.Strict, Container: container}
	fallback := ""
	if i.Registry != nil {
		m, err := i.Registry.Resolve(context.Background(), ref, i.pullSecrets(pod))
		var un *registry.Unavailable
		switch {
		case errors.As(err, &un):
			if un.First {
				fallback = un.Err.Error()
			}
		case err != nil:
			return pods.Image{}, pullError(err)
		default:
			opts.Manifest = m
		}
	}
	img, err := i.Catalog.Pull(ref, host(h), pod.Annotations, opts)
	if err != nil {
		return pods.Image{}, pullError(err)
	}
	out := pods.Image{Ref: img.Ref, ID: img.ImageID(), Known: img.Known, Entrypoint: img.Entrypoint, Cmd: img.Cmd, User: img.User, Size: img.Size,
		Env: img.Env, WorkingDir: img.WorkingDir, Fallback: fallback}
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

func (p podVolumes) FS(c string) shell.FS                   { return p.p.FS(c) }
func (p podVolumes) SetPodIPs(ips []string)                 { p.p.SetPodIPs(ips) }
func (p podVolumes) SetContainerID(c, id string)            { p.p.SetContainerID(c, id) }
func (p podVolumes) SetEnv(c string, env map[string]string) { p.p.SetEnv(c, env) }
func (p podVolumes) SandboxMountPoint(c string) string      { return p.p.SandboxMountPoint(c) }

// SetEphemeralContainers gives the ephemeral containers added to the pod.
func (p podVolumes) SetEphemeralContainers(ecs []corev1.EphemeralContainer) {
	p.p.SetEphemeralContainers(ecs)
}

// TerminationMessage is the container's termination message file (B13).
func (p podVolumes) TerminationMessage(c string) ([]byte, bool) { return p.p.TerminationMessage(c) }

// Refresh brings the pod's volumes up to date (the provider's periodic
// remount, pods/remount.go: ConfigMap, Secret and downward API updates,
// B12); without it the remount loop skipped every production pod.
func (p podVolumes) Refresh(ctx context.Context, pod *corev1.Pod) error {
	return p.p.Refresh(ctx, pod)
}
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
func (n Network) From(pod *corev1.Pod) shell.Network { return n.Model.From(pod) }

// NetConfig implements pods.Network.
func (n Network) NetConfig(pod *corev1.Pod) shell.NetConfig { return n.Model.NetConfig(pod) }

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

// SimulatedLabel is the label the simnode chart (simnode/deploy/chart)
// gives every node it simulates, whichever replica serves it.
const SimulatedLabel = "wink.dev/simulated"

// SimulatedNodes is a network.Options.SimulatedNode for the wink nodes
// named names (simnode/config Config.NodeNames: every shard's), and any
// node that carries SimulatedLabel.
func SimulatedNodes(names []string) func(node *corev1.Node) bool {
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	return func(node *corev1.Node) bool { return set[node.Name] || node.Labels[SimulatedLabel] == "true" }
}

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
		if r := netexecHTTP(p, pod, port, req); r != nil {
			return r
		}
		r := p.HTTP(pod, port, req.Method, req.Path, client)
		if r == nil {
			return nil
		}
		return &shell.HTTPResponse{Status: r.Status, Headers: r.Headers, Body: r.Body}
	}
	opts.TCPHandler = func(pod *corev1.Pod, port int, data string, from netip.Addr) (string, bool) {
		if p := providers(pod.Spec.NodeName); p != nil {
			return tcpAnswer(p, pod, port, data, from)
		}
		return "", false
	}
	opts.DNSServer = func(pod *corev1.Pod) *network.DNSServer {
		if p := providers(pod.Spec.NodeName); p != nil {
			return coreDNS(p, pod)
		}
		return nil
	}
	opts.UDPHandler = func(pod *corev1.Pod, port int, payload string, from netip.Addr) (string, bool) {
		if p := providers(pod.Spec.NodeName); p != nil {
			return netexecUDP(p, pod, port, payload, from)
		}
		return "", false
	}
	return opts
}

// coreDNS is the CoreDNS server a container of pod runs (`/coredns
// [-conf FILE]`, default ./Corefile in its working directory /): its
// Corefile as its files have it (a ConfigMap volume). Issue 21, H1.
func coreDNS(p *pods.Provider, pod *corev1.Pod) *network.DNSServer {
	for _, pr := range p.Processes(pod) {
		if path.Base(pr.Argv[0]) != "coredns" || pr.Files == nil {
			continue
		}
		conf := "/Corefile"
		for i, a := range pr.Argv[1:] {
			switch {
			case (a == "-conf" || a == "--conf") && i+2 < len(pr.Argv):
				conf = pr.Argv[i+2]
			case strings.HasPrefix(a, "-conf="), strings.HasPrefix(a, "--conf="):
				_, conf, _ = strings.Cut(a, "=")
			}
		}
		if !strings.HasPrefix(conf, "/") {
			conf = "/" + conf
		}
		data, err := pr.Files.ReadFile(conf)
		if err != nil {
			continue
		}
		return &network.DNSServer{Corefile: string(data), ReadFile: pr.Files.ReadFile}
	}
	return nil
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

func pullError(err error) error {
	var pe *images.PullError
	if errors.As(err, &pe) {
		return &pods.PullError{Reason: pe.Reason, Message: pe.Error()}
	}
	return &pods.PullError{Reason: images.ReasonErrImagePull, Message: err.Error()}
}

// pullSecrets are the pod's imagePullSecrets that exist; like the kubelet
// (kubelet_pods.go getPullSecretsForPod) a missing one is skipped.
func (i Images) pullSecrets(pod *corev1.Pod) []corev1.Secret {
	if i.Secrets == nil {
		return nil
	}
	var out []corev1.Secret
	for _, ref := range pod.Spec.ImagePullSecrets {
		if s, err := i.Secrets.Secrets(pod.Namespace).Get(ref.Name); err == nil {
			out = append(out, *s)
		}
	}
	return out
}

// DiskUsage is what the pod's containers wrote (issue 22): its emptyDirs
// by name, those on disk, and each container's writable layer.
func (p podVolumes) DiskUsage() (emptyDirs map[string]int64, onDisk int64, layers map[string]int64) {
	u := p.p.DiskUsage()
	return u.EmptyDirs, u.DiskEmptyDirs, u.Layers
}
