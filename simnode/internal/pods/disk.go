package pods

import (
	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/internal/logs"
	"wink.dev/wink/simnode/internal/resources"
)

// diskUser is the part of PodVolumes that measures what the containers
// wrote (wire.podVolumes).
type diskUser interface {
	DiskUsage() (emptyDirs map[string]int64, onDisk int64, layers map[string]int64)
}

// DiskUsage measures pod's local ephemeral storage as the kubelet's
// stats count it (issue 22): its emptyDirs, each container's writable
// layer and logs; ok is false for a pod
// the runtime does not run.
func (p *Provider) DiskUsage(pod *corev1.Pod) (resources.PodStorage, bool) {
	p.mu.Lock()
	rec, ok := p.pods[pod.Namespace+"/"+pod.Name]
	if !ok || rec.uid != string(pod.UID) {
		p.mu.Unlock()
		return resources.PodStorage{}, false
	}
	vols, _ := rec.volumes.(diskUser)
	var keys []logs.Key
	for _, c := range rec.containers {
		keys = append(keys, logKey(rec, c, c.restartCount))
	}
	p.mu.Unlock()
	// Measured without the provider's lock: walking a disk takes time.
	d := resources.PodStorage{EmptyDirs: map[string]int64{}, Containers: map[string]int64{}}
	var layers map[string]int64
	if vols != nil {
		var onDisk int64
		d.EmptyDirs, onDisk, layers = vols.DiskUsage()
		d.Total += onDisk
	}
	d.Logs = map[string]int64{}
	for _, k := range keys {
		logs := p.m.logs.ContainerBytes(k)
		d.Logs[k.Container] = logs
		d.Containers[k.Container] = layers[k.Container] + logs
		d.Total += layers[k.Container] + logs
	}
	return d, true
}
