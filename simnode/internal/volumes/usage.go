package volumes

import corev1 "k8s.io/api/core/v1"

// DiskUsage is what a pod's containers wrote to the node's disk, as the
// kubelet's stats count it for local ephemeral storage (issue 22; rows
// B5–B7 have none for disk): the bytes of the files of each emptyDir and
// of each running container's writable layer (what it wrote over its
// image).
type DiskUsage struct {
	// EmptyDirs is every emptyDir by volume name (the pod's VolumeStats).
	EmptyDirs map[string]int64
	// DiskEmptyDirs is the emptyDirs that are on the node's disk: not a
	// tmpfs (medium Memory on Linux), which counts as memory.
	DiskEmptyDirs int64
	// Layers is each container's writable layer by container name
	// (its Rootfs stats).
	Layers map[string]int64
}

// DiskUsage measures the pod's emptyDirs and container layers.
func (p *Pod) DiskUsage() DiskUsage {
	p.mu.Lock()
	defer p.mu.Unlock()
	u := DiskUsage{EmptyDirs: map[string]int64{}, Layers: map[string]int64{}}
	for _, v := range p.pod.Spec.Volumes {
		vs := p.vols[v.Name]
		if v.EmptyDir == nil || vs == nil || vs.st == nil {
			continue
		}
		n := vs.st.bytes()
		u.EmptyDirs[v.Name] = n
		if p.win || v.EmptyDir.Medium != corev1.StorageMediumMemory {
			u.DiskEmptyDirs += n
		}
	}
	for name, c := range p.ctrs {
		if c.layer != nil {
			u.Layers[name] = max(c.layer.bytes()-c.seedBytes, 0)
		}
	}
	return u
}

// bytes is the size of the files of s.
func (s *store) bytes() int64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var walk func(e *entry) int64
	walk = func(e *entry) int64 {
		n := int64(len(e.data))
		for _, k := range e.kids {
			n += walk(k)
		}
		return n
	}
	return walk(s.root)
}
