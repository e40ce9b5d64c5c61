package volumes

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/shell"
)

// Source reads what volumes are made from (the provider implements it with
// informer listers and the client). A missing object should be reported
// with an error for which apierrors.IsNotFound is true; the package rewrites
// it into the kubelet's wording (`configmap "x" not found`).
type Source interface {
	ConfigMap(namespace, name string) (*corev1.ConfigMap, error)
	Secret(namespace, name string) (*corev1.Secret, error)
	ServiceAccountToken(ctx context.Context, namespace, serviceAccount string, audience string, expirationSeconds int64, pod *corev1.Pod) (string, error)
}

// Note records something the simulated kubelet did differently from what
// the pod asked, silently, the way the real one does (for events, logs and
// the report).
type Note struct {
	// Row is the behaviour catalog row, e.g. "B11".
	Row string
	// Volume and Container say what it is about ("" when not applicable).
	Volume    string
	Container string
	Message   string
}

type cachedToken struct {
	token string
	at    time.Time
}

// volumeState is one set-up volume of a pod.
type volumeState struct {
	name     string
	kind     string // the VolumeSource field name: emptyDir, configMap, ...
	st       *store
	base     []string // the volume's directory inside st
	readOnly bool     // always mounted read-only (configMap, secret, downwardAPI, projected, readOnly PVC)
	atomic   bool     // contents written by the kubelet's AtomicWriter, replaced on Refresh
	pipe     string   // named pipe (hostPath \\.\pipe\x)
	tokens   map[int]cachedToken
}

// Pod holds a pod's volumes: emptyDirs live as long as the pod (shared by its
// containers, kept across container restarts), configMap/secret/downwardAPI/
// projected contents are materialised at setup (and may be refreshed by
// Refresh).
type Pod struct {
	node *Node
	src  Source
	win  bool

	mu     sync.Mutex
	pod    *corev1.Pod
	vols   map[string]*volumeState
	order  []string
	notes  []Note
	podIPs []string
	hosts  *store // the kubelet-managed hosts file (podDir/etc-hosts)
	ids    map[string]string
	env    map[string]map[string]string
	ctrs   map[string]*containerFS
}

// NewPod sets up every volume of pod on node, in spec order. If some volumes
// cannot be set up it returns nil and the joined *MountError of each (see
// MountErrors); the kubelet retries, so the caller calls NewPod again later.
func NewPod(ctx context.Context, pod *corev1.Pod, node *Node, src Source) (*Pod, error) {
	p := &Pod{
		node: node,
		src:  src,
		win:  node.win,
		pod:  pod.DeepCopy(),
		vols: map[string]*volumeState{},
		ids:  map[string]string{},
		env:  map[string]map[string]string{},
		ctrs: map[string]*containerFS{},
	}
	var errs []error
	for _, v := range pod.Spec.Volumes {
		vs, err := p.setup(ctx, v)
		if err != nil {
			errs = append(errs, &MountError{Volume: v.Name, Err: err})
			continue
		}
		p.vols[v.Name] = vs
		p.order = append(p.order, v.Name)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return p, nil
}

func (p *Pod) note(row, vol, ctr, format string, args ...any) {
	n := Note{Row: row, Volume: vol, Container: ctr, Message: fmt.Sprintf(format, args...)}
	for _, old := range p.notes {
		if old == n {
			return
		}
	}
	p.notes = append(p.notes, n)
}

// Notes returns what was silently changed (for example `emptyDir medium
// "Memory" ignored` on Windows, row B11).
func (p *Pod) Notes() []Note {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Note(nil), p.notes...)
}

func (p *Pod) setup(ctx context.Context, v corev1.Volume) (*volumeState, error) {
	now := p.node.clock
	vs := &volumeState{name: v.Name}
	switch {
	case v.EmptyDir != nil:
		vs.kind = "emptyDir"
		vs.st = newStore(p.win, now)
		if f := p.node.diskPath("pods", string(p.pod.UID), "volumes", v.Name+".json"); f != "" && p.pod.UID != "" {
			vs.st.persist(f)
		}
		if v.EmptyDir.Medium == corev1.StorageMediumMemory && p.win {
			// pkg/volume/emptydir/empty_dir_unsupported.go: the medium
			// detector always answers "default"; the volume is a disk
			// directory and the pod runs.
			p.note("B11", v.Name, "", `emptyDir medium "Memory" ignored: Windows has no tmpfs, the volume is a directory on disk`)
		}
	case v.HostPath != nil:
		vs.kind = "hostPath"
		if err := p.setupHostPath(vs, v.HostPath); err != nil {
			return nil, err
		}
	case v.ConfigMap != nil, v.Secret != nil, v.DownwardAPI != nil, v.Projected != nil:
		vs.atomic, vs.readOnly = true, true
		vs.st = newStore(p.win, now)
		switch {
		case v.ConfigMap != nil:
			vs.kind = "configMap"
		case v.Secret != nil:
			vs.kind = "secret"
		case v.DownwardAPI != nil:
			vs.kind = "downwardAPI"
		default:
			vs.kind = "projected"
		}
		vs.st.root.mode = atomicRootMode(p.win, vs.kind)
		files, err := p.payload(ctx, vs, v, p.pod)
		if err != nil {
			return nil, err
		}
		if err := vs.st.atomicWrite(files, p.atomicSeed(v.Name), p.fsGroup()); err != nil {
			return nil, err
		}
	case v.PersistentVolumeClaim != nil:
		vs.kind = "persistentVolumeClaim"
		vs.st = p.node.claim(p.pod.Namespace, v.PersistentVolumeClaim.ClaimName)
		vs.readOnly = v.PersistentVolumeClaim.ReadOnly
	case v.Ephemeral != nil:
		vs.kind = "ephemeral"
		vs.st = p.node.claim(p.pod.Namespace, p.pod.Name+"-"+v.Name)
	default:
		vs.kind = "other"
		vs.st = newStore(p.win, now)
		p.note("", v.Name, "", "volume type not simulated: an empty writable directory")
	}
	return vs, nil
}

// atomicRootMode is the mode of an atomic volume's directory on Linux: the
// configMap plugin wraps a disk emptyDir (0777), secret, downwardAPI and
// projected wrap a tmpfs one, whose root is sticky and world-writable
// (wrappedVolumeSpec in each plugin; emptydir's perm 0777). On Windows
// there is no tmpfs and the mode bits say nothing (B11).
func atomicRootMode(win bool, kind string) fs.FileMode {
	if win || kind == "configMap" {
		return 0o777
	}
	return fs.ModeSticky | 0o777
}

// fsGroup reports whether the kubelet changes the ownership of the pod's
// volumes: a Linux pod with securityContext.fsGroup (on Windows
// SetVolumeOwnership does nothing: pkg/volume/volume_unsupported.go).
func (p *Pod) fsGroup() bool {
	sc := p.pod.Spec.SecurityContext
	return !p.win && sc != nil && sc.FSGroup != nil
}

// atomicSeed names a volume's timestamped directories (tsDirName).
func (p *Pod) atomicSeed(volume string) string {
	return string(p.pod.UID) + "/" + volume
}

// payload computes an atomic volume's files.
func (p *Pod) payload(ctx context.Context, vs *volumeState, v corev1.Volume, pod *corev1.Pod) (map[string]payloadFile, error) {
	switch {
	case v.ConfigMap != nil:
		optional := v.ConfigMap.Optional != nil && *v.ConfigMap.Optional
		cm, err := p.getConfigMap(pod.Namespace, v.ConfigMap.Name)
		if err != nil {
			if !(isNotFound(err) && optional) {
				return nil, err
			}
			cm = &corev1.ConfigMap{}
		}
		return configMapPayload(v.ConfigMap.Items, cm, v.ConfigMap.DefaultMode, optional)
	case v.Secret != nil:
		optional := v.Secret.Optional != nil && *v.Secret.Optional
		s, err := p.getSecret(pod.Namespace, v.Secret.SecretName)
		if err != nil {
			if !(isNotFound(err) && optional) {
				return nil, err
			}
			s = &corev1.Secret{}
		}
		return secretPayload(v.Secret.Items, s, v.Secret.DefaultMode, optional)
	case v.DownwardAPI != nil:
		return p.downwardPayload(v.DownwardAPI.Items, pod, v.DownwardAPI.DefaultMode)
	case v.Projected != nil:
		return p.projectedPayload(ctx, vs, v.Projected, pod)
	}
	return nil, nil
}

// setupHostPath is the hostPath plugin's SetUp and checkTypeInternal
// (pkg/volume/hostpath/host_path.go:241, :462) against the node's disk.
func (p *Pod) setupHostPath(vs *volumeState, hp *corev1.HostPathVolumeSource) error {
	path := hp.Path
	if hasBacksteps(p.win, path) {
		return fmt.Errorf("invalid HostPath `%s`: must not contain '..'", path)
	}
	typ := corev1.HostPathUnset
	if hp.Type != nil {
		typ = *hp.Type
	}
	vp, err := parsePath(p.win, path)
	if err != nil {
		return err
	}
	if vp.pipe != "" {
		// Named pipe (row B12): the pipe is neither a directory nor a file
		// nor a Unix socket for the kubelet's type checker.
		vs.pipe = vp.pipe
		vs.st = newStore(p.win, p.node.clock)
		switch typ {
		case corev1.HostPathUnset:
			return nil
		case corev1.HostPathDirectory, corev1.HostPathDirectoryOrCreate:
			return fmt.Errorf("hostPath type check failed: %s is not a directory", path)
		case corev1.HostPathFile, corev1.HostPathFileOrCreate:
			return fmt.Errorf("hostPath type check failed: %s is not a file", path)
		case corev1.HostPathSocket:
			return fmt.Errorf("hostPath type check failed: %s is not a socket file", path)
		case corev1.HostPathCharDev:
			return fmt.Errorf("hostPath type check failed: %s is not a character device", path)
		case corev1.HostPathBlockDev:
			return fmt.Errorf("hostPath type check failed: %s is not a block device", path)
		}
		return fmt.Errorf("%s is an invalid volume type", typ)
	}
	if p.win && vp.drive != 'C' {
		return fmt.Errorf("path %q does not exist", path)
	}
	vs.st, vs.base = p.node.host, vp.parts
	in, exists := p.node.host.stat(vp.parts)
	kindIs := func(k fileKind) bool { return exists && in.kind == k }
	switch typ {
	case corev1.HostPathUnset:
		if !exists {
			// containerd's CRI creates a missing bind-mount source as a
			// directory.
			if err := p.node.host.mkdirAll(vp.parts); err != nil {
				return err
			}
		}
	case corev1.HostPathDirectoryOrCreate:
		if !exists {
			if err := p.node.host.mkdirAll(vp.parts); err != nil {
				return fmt.Errorf("mkdir %s: %v", path, err)
			}
			return nil
		}
		fallthrough
	case corev1.HostPathDirectory:
		if !kindIs(kindDir) {
			return fmt.Errorf("hostPath type check failed: %s is not a directory", path)
		}
	case corev1.HostPathFileOrCreate:
		if !exists {
			if err := p.node.host.writeFile(vp.parts, nil, false); err != nil {
				return fmt.Errorf("open %s: %v", path, osText(p.win, err))
			}
			return nil
		}
		fallthrough
	case corev1.HostPathFile:
		if !kindIs(kindFile) {
			return fmt.Errorf("hostPath type check failed: %s is not a file", path)
		}
	case corev1.HostPathSocket:
		if !kindIs(kindSocket) {
			return fmt.Errorf("hostPath type check failed: %s is not a socket file", path)
		}
	case corev1.HostPathCharDev:
		if !kindIs(kindCharDev) {
			return fmt.Errorf("hostPath type check failed: %s is not a character device", path)
		}
	case corev1.HostPathBlockDev:
		if !kindIs(kindBlockDev) {
			return fmt.Errorf("hostPath type check failed: %s is not a block device", path)
		}
	default:
		return fmt.Errorf("%s is an invalid volume type", typ)
	}
	return nil
}

func osText(win bool, err error) string {
	if errors.Is(err, fs.ErrNotExist) {
		if win {
			return "The system cannot find the path specified."
		}
		return "no such file or directory"
	}
	return err.Error()
}

// Refresh brings configMap, secret, downwardAPI and projected volumes up to
// date with their sources and with pod (labels, annotations), like the
// kubelet's periodic remount. A subPath mount keeps what it had when its
// container started (the kubelet never updates subPath mounts). A volume
// whose source fails keeps its old contents; its *MountError is returned.
func (p *Pod) Refresh(ctx context.Context, pod *corev1.Pod) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pod = pod.DeepCopy()
	var errs []error
	for _, v := range pod.Spec.Volumes {
		vs := p.vols[v.Name]
		if vs == nil || !vs.atomic {
			continue
		}
		files, err := p.payload(ctx, vs, v, p.pod)
		if err != nil {
			errs = append(errs, &MountError{Volume: v.Name, Err: err})
			continue
		}
		if err := vs.st.atomicWrite(files, p.atomicSeed(v.Name), p.fsGroup()); err != nil {
			errs = append(errs, &MountError{Volume: v.Name, Err: err})
		}
	}
	return errors.Join(errs...)
}

// SetPodIPs tells the pod its IPs once the sandbox has them: the
// kubelet-managed hosts file (C:\Windows\System32\drivers\etc\hosts on
// Windows, /etc/hosts on Linux; pkg/kubelet/kubelet.go:197-198) is mounted
// into containers created afterwards, except HostProcess containers (row
// B10, shouldMountHostsFile, pkg/kubelet/kubelet_pods.go:268). Without it the
// IPs come from the pod's status.
func (p *Pod) SetPodIPs(ips []string) {
	p.mu.Lock()
	p.podIPs = append([]string(nil), ips...)
	p.mu.Unlock()
}

// SetContainerID records the runtime ID of the container instance now
// starting ("containerd://<hex>" or bare). A new ID is a new container: its
// writable layer starts again from the image and its subPath snapshots are
// taken again; emptyDir, hostPath and the other volumes are kept (row B11).
func (p *Pod) SetContainerID(containerName, id string) {
	id = strings.TrimPrefix(id, "containerd://")
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ids[containerName] != id {
		p.ids[containerName] = id
		delete(p.ctrs, containerName)
	}
}

// SetEnv gives the container's resolved environment, used to expand
// subPathExpr. Without it, literal values and the pod's fieldRefs are used.
func (p *Pod) SetEnv(containerName string, env map[string]string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.env[containerName] = env
	delete(p.ctrs, containerName)
}

func (p *Pod) containerID(name string) string {
	if id := p.ids[name]; id != "" {
		return id
	}
	sum := sha256.Sum256([]byte(fmt.Sprintf("container/%s/%s/0", p.pod.UID, name)))
	return hex.EncodeToString(sum[:])
}

// SandboxMountPoint is the value of CONTAINER_SANDBOX_MOUNT_POINT for a
// HostProcess container (row B10), with hcsshim's trailing backslash: `C:\hpc\`
// with the bind filter (default), `C:\hpc\<id>\` without, `C:\C\<id>\` for
// hcsshim 0.9. "" for other containers.
func (p *Pod) SandboxMountPoint(containerName string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.container(containerName)
	if c == nil || !p.hostProcess(c) {
		return ""
	}
	return p.sandbox(containerName)
}

func (p *Pod) sandbox(name string) string {
	_, _, _, layout := p.node.settings()
	switch layout {
	case LayoutNoBindFilter:
		return `C:\hpc\` + p.containerID(name) + `\`
	case LayoutLegacy:
		return `C:\C\` + p.containerID(name) + `\`
	}
	return `C:\hpc\`
}

// container finds an init, regular or ephemeral container by name.
func (p *Pod) container(name string) *corev1.Container {
	for i := range p.pod.Spec.InitContainers {
		if p.pod.Spec.InitContainers[i].Name == name {
			return &p.pod.Spec.InitContainers[i]
		}
	}
	for i := range p.pod.Spec.Containers {
		if p.pod.Spec.Containers[i].Name == name {
			return &p.pod.Spec.Containers[i]
		}
	}
	for i := range p.pod.Spec.EphemeralContainers {
		if p.pod.Spec.EphemeralContainers[i].Name == name {
			c := corev1.Container(p.pod.Spec.EphemeralContainers[i].EphemeralContainerCommon)
			return &c
		}
	}
	return nil
}

// hostProcess: on Windows, the container's effective
// windowsOptions.hostProcess (facts.ContainerHostProcess).
func (p *Pod) hostProcess(c *corev1.Container) bool {
	return p.win && facts.ContainerHostProcess(p.pod, c.SecurityContext)
}

// ContainerError reports why a container cannot get its mounts (nil when it
// can): an unknown volume or a bad subPath (CreateContainerConfigError, the
// kubelet's makeMounts texts), volumeDevices on Windows, a named pipe mount
// in a HostProcess container. The error is a *ContainerError.
func (p *Pod) ContainerError(containerName string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	c, err := p.build(containerName)
	if err != nil {
		return err
	}
	if c == nil {
		return &ContainerError{Container: containerName, Reason: ReasonCreateContainerConfigError, Err: fmt.Errorf("container %q not found in pod", containerName)}
	}
	return nil
}

// FS is the file system of one container (init, regular or ephemeral, by
// name): the image's own files plus each volumeMount at its mountPath. The
// same FS is returned until the container restarts (SetContainerID with a
// new ID). A subPath mount of a configMap, secret, downwardAPI or projected
// volume is a copy taken when the FS is first built (container start), so
// Refresh does not reach it, as with the kubelet. Nil if the pod has no such
// container. If ContainerError reports an error, FS holds the image files and
// the mounts that could be made.
func (p *Pod) FS(containerName string) shell.FS {
	p.mu.Lock()
	defer p.mu.Unlock()
	c, _ := p.build(containerName)
	if c == nil {
		return nil
	}
	return c
}

func isNotFound(err error) bool { return apierrors.IsNotFound(err) }
