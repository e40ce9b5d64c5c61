package nodes

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/version"

	"wink.dev/wink/simnode/config"
	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/rules"
)

// Arch is the architecture every simulated node reports (N1, N3).
const Arch = "amd64"

// Spec identifies one simulated node.
type Spec struct {
	// ClusterName and Pool give the name <cluster>-<pool>-<index>.
	ClusterName string
	Pool        config.Pool
	Index       int
	// InternalIP of the node.
	InternalIP net.IP
	// DefaultKubeletVersion applies when the pool sets none.
	DefaultKubeletVersion string
	// BootID of the current boot (see LoadBootID).
	BootID string
	// KubeletPort is the port the node's kubelet API listens on.
	KubeletPort int32
}

// Info is what the rest of simnode needs to know about a built node.
type Info struct {
	Name           string
	OS             facts.OS
	InternalIP     string
	KubeletVersion *version.Version
	Profile        *rules.Profile
	Conditions     *rules.ConditionSet
}

// Build returns the Node object a real kubelet of the pool's kind would
// register, and its Info. now stamps the conditions.
func Build(r *rules.Rules, s Spec, now time.Time) (*corev1.Node, *Info, error) {
	name := config.NodeName(s.ClusterName, s.Pool.Name, s.Index)
	osName := s.Pool.OS
	if osName == "" {
		return nil, nil, fmt.Errorf("node %s: pool %q has no os", name, s.Pool.Name)
	}
	kv := s.Pool.KubeletVersion
	if kv == "" {
		kv = s.DefaultKubeletVersion
	}
	v, err := rules.ParseKubeletVersion(kv)
	if err != nil {
		return nil, nil, fmt.Errorf("node %s: %w", name, err)
	}
	build := ""
	if osName.IsWindows() {
		build = s.Pool.WindowsBuild
		if build == "" {
			build = config.DefaultWindowsBuild
		}
	}
	profile, err := r.Profile(osName, build)
	if err != nil {
		return nil, nil, fmt.Errorf("node %s: %w", name, err)
	}
	condSet, err := r.ConditionSet(osName, v)
	if err != nil {
		return nil, nil, fmt.Errorf("node %s: %w", name, err)
	}

	// Labels: the pool's (--node-labels), then the kubelet's own (N1, N2),
	// which win.
	labels := map[string]string{}
	for k, val := range s.Pool.Labels {
		labels[k] = val
	}
	own, err := r.NodeLabels(osName, v, rules.LabelData{OS: osName, Arch: Arch, Hostname: name, Build: build})
	if err != nil {
		return nil, nil, fmt.Errorf("node %s: %w", name, err)
	}
	for k, val := range own {
		labels[k] = val
	}

	capacity := corev1.ResourceList{}
	for k, q := range r.DefaultCapacity[osName] {
		capacity[k] = q.DeepCopy()
	}
	for k, q := range s.Pool.Capacity {
		capacity[k] = q.DeepCopy()
	}
	evictionHard := s.Pool.EvictionHard
	if evictionHard == nil {
		evictionHard = s.Pool.OS.EvictionHardDefault(v)
	}
	allocatable, err := Allocatable(capacity, s.Pool.KubeReserved, s.Pool.SystemReserved, evictionHard)
	if err != nil {
		return nil, nil, fmt.Errorf("node %s: %w", name, err)
	}

	machineID := name
	if profile.MachineID == "hash" {
		machineID = hashHex("machine-id/"+s.ClusterName+"/"+name, 32)
	}
	runtimeVersion := profile.ContainerRuntimeVersion
	if s.Pool.ContainerRuntimeVersion != "" {
		runtimeVersion = s.Pool.ContainerRuntimeVersion
	}

	nowT := metav1.NewTime(now)
	conds := make([]corev1.NodeCondition, len(condSet.Conditions))
	for i, c := range condSet.Conditions {
		c.LastHeartbeatTime = nowT
		c.LastTransitionTime = nowT
		conds[i] = c
	}
	ip := s.InternalIP.String()
	node := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name:   name,
			Labels: labels,
			Annotations: map[string]string{
				// Set by every kubelet with --enable-controller-attach-detach (default).
				"volumes.kubernetes.io/controller-managed-attach-detach": "true",
			},
		},
		Spec: corev1.NodeSpec{
			// N4: the taints the operator registered, verbatim.
			Taints: append([]corev1.Taint(nil), s.Pool.Taints...),
		},
		Status: corev1.NodeStatus{
			Capacity:    capacity,
			Allocatable: allocatable,
			Phase:       "",
			Conditions:  conds,
			Addresses: []corev1.NodeAddress{
				{Type: corev1.NodeInternalIP, Address: ip},
				{Type: corev1.NodeHostName, Address: name},
			},
			DaemonEndpoints: corev1.NodeDaemonEndpoints{
				KubeletEndpoint: corev1.DaemonEndpoint{Port: s.KubeletPort},
			},
			NodeInfo: corev1.NodeSystemInfo{
				MachineID:               machineID,
				SystemUUID:              uuidFrom("system-uuid/" + s.ClusterName + "/" + name),
				BootID:                  s.BootID,
				KernelVersion:           profile.KernelVersion,
				OSImage:                 profile.OSImage,
				ContainerRuntimeVersion: runtimeVersion,
				KubeletVersion:          "v" + strings.TrimPrefix(kv, "v"),
				// KubeProxyVersion is deprecated and left empty, as kubelets
				// >= v1.31 do.
				OperatingSystem: string(osName),
				Architecture:    Arch,
			},
		},
	}
	info := &Info{
		Name:           name,
		OS:             osName,
		InternalIP:     ip,
		KubeletVersion: v,
		Profile:        profile,
		Conditions:     condSet,
	}
	return node, info, nil
}

// Allocatable computes N5: capacity minus kubeReserved, systemReserved and
// the hard eviction thresholds for memory (memory.available) and
// ephemeral-storage (nodefs.available), as the kubelet's container manager
// GetNodeAllocatableReservation does; never below zero.
func Allocatable(capacity, kubeReserved, systemReserved corev1.ResourceList, evictionHard map[string]string) (corev1.ResourceList, error) {
	reservation := corev1.ResourceList{}
	add := func(name corev1.ResourceName, q resource.Quantity) {
		cur := reservation[name]
		cur.Add(q)
		reservation[name] = cur
	}
	for k, q := range kubeReserved {
		add(k, q)
	}
	for k, q := range systemReserved {
		add(k, q)
	}
	for signal, res := range map[string]corev1.ResourceName{
		"memory.available": corev1.ResourceMemory,
		"nodefs.available": corev1.ResourceEphemeralStorage,
	} {
		v, ok := evictionHard[signal]
		if !ok {
			continue
		}
		q, err := rules.ParseThreshold(v, capacity[res])
		if err != nil {
			return nil, fmt.Errorf("evictionHard %s: %w", signal, err)
		}
		add(res, q)
	}
	out := corev1.ResourceList{}
	for k, q := range capacity {
		a := q.DeepCopy()
		if r, ok := reservation[k]; ok {
			a.Sub(r)
			if a.Sign() < 0 {
				a = *resource.NewQuantity(0, q.Format)
			}
		}
		out[k] = a
	}
	return out, nil
}

func hashHex(s string, n int) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:n]
}

func uuidFrom(s string) string {
	h := hashHex(s, 32)
	return strings.Join([]string{h[0:8], h[8:12], "4" + h[13:16], "8" + h[17:20], h[20:32]}, "-")
}

// LoadBootID returns the node's bootID persisted under dir, creating it
// ("1") on first use. N3: the bootID is a decimal integer that only changes
// on a (simulated) reboot, so a simnode restart keeps it.
func LoadBootID(dir string) (string, error) {
	path := filepath.Join(dir, "boot-id")
	data, err := os.ReadFile(path)
	if err == nil {
		id := strings.TrimSpace(string(data))
		if _, err := strconv.ParseUint(id, 10, 64); err != nil {
			return "", fmt.Errorf("%s: bootID %q is not a decimal integer: %w", path, id, err)
		}
		return id, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("read bootID: %w", err)
	}
	if err := writeBootID(dir, "1"); err != nil {
		return "", err
	}
	return "1", nil
}

// BumpBootID records a simulated reboot: the persisted bootID goes up by one.
func BumpBootID(dir string) (string, error) {
	cur, err := LoadBootID(dir)
	if err != nil {
		return "", err
	}
	n, _ := strconv.ParseUint(cur, 10, 64)
	next := strconv.FormatUint(n+1, 10)
	return next, writeBootID(dir, next)
}

func writeBootID(dir, id string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("state dir: %w", err)
	}
	tmp := filepath.Join(dir, "boot-id.tmp")
	if err := os.WriteFile(tmp, []byte(id+"\n"), 0o644); err != nil {
		return fmt.Errorf("write bootID: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "boot-id")); err != nil {
		return fmt.Errorf("write bootID: %w", err)
	}
	return nil
}

// Provider is virtual-kubelet's NodeProvider for one simulated node: status
// changes are pushed through NotifyNodeStatus, never polled.
type Provider struct {
	mu     sync.Mutex
	node   *corev1.Node
	notify func(*corev1.Node)
}

// NewProvider returns a provider serving node.
func NewProvider(node *corev1.Node) *Provider {
	return &Provider{node: node.DeepCopy()}
}

// Ping reports the simulated kubelet healthy.
func (p *Provider) Ping(ctx context.Context) error { return ctx.Err() }

// NotifyNodeStatus registers the node controller's callback.
func (p *Provider) NotifyNodeStatus(_ context.Context, cb func(*corev1.Node)) {
	p.mu.Lock()
	p.notify = cb
	p.mu.Unlock()
}

// Node returns a copy of the node as the provider last built it.
func (p *Provider) Node() *corev1.Node {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.node.DeepCopy()
}

// Update changes the node (labels, annotations or status) and pushes it to
// the node controller. The callback may block, so it runs outside the lock
// and in its own goroutine.
func (p *Provider) Update(f func(*corev1.Node)) {
	p.mu.Lock()
	f(p.node)
	n := p.node.DeepCopy()
	cb := p.notify
	p.mu.Unlock()
	if cb != nil {
		go cb(n)
	}
}
