package volumes

import (
	corev1 "k8s.io/api/core/v1"
)

// MaxTerminationMessage is how much of the termination message file the
// kubelet reads: its last 4 KiB (pkg/kubelet/container/runtime.go
// MaxContainerTerminationMessageLength, read with tail.ReadAtMost).
const MaxTerminationMessage = 4 * 1024

// terminationMount mounts the container's termination message file at its
// terminationMessagePath (kuberuntime_container.go makeMounts: a new empty
// file in the pod's container directory for each container instance, bind
// mounted read-write; on Windows the path is made absolute on C:,
// volumeutil.MakeAbsolutePath), unless a volumeMount is already there.
func (p *Pod) terminationMount(c *containerFS, ctr *corev1.Container) {
	if ctr.TerminationMessagePath == "" {
		return
	}
	target, err := parsePath(p.win, ctr.TerminationMessagePath)
	if err != nil || len(target.parts) == 0 || target.pipe != "" {
		return
	}
	for _, m := range c.mounts {
		if len(m.target.parts) == len(target.parts) && hasPrefix(p.win, target, m.target) {
			return
		}
	}
	st := newStore(p.win, p.node.clock)
	_ = st.put([]string{"f"}, kindFile, nil, 0o666)
	c.termLog = st
	c.mounts = append(c.mounts, mountPoint{target: target, st: st, base: []string{"f"}})
}

// TerminationMessage is what the container's current instance wrote to its
// terminationMessagePath (the last MaxTerminationMessage bytes); ok is
// false when the container has no such file (no path, or a volume mounted
// there), as getTerminationMessage finds no mount for it.
func (p *Pod) TerminationMessage(containerName string) (msg []byte, ok bool) {
	p.mu.Lock()
	c, _ := p.build(containerName)
	p.mu.Unlock()
	if c == nil || c.termLog == nil {
		return nil, false
	}
	data, kind, err := c.termLog.readFile([]string{"f"})
	if err != nil || kind != kindFile {
		return nil, false
	}
	if len(data) > MaxTerminationMessage {
		data = data[len(data)-MaxTerminationMessage:]
	}
	return data, true
}
