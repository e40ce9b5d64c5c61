package resources

import (
	"maps"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	statsapi "k8s.io/kubelet/pkg/apis/stats/v1alpha1"
)

// Simulated file system figures: every container's writable layer and log
// take a little of the node's ephemeral storage (the node's root file system
// serves as image file system too, as on a default Windows or Linux node).
const (
	rootfsUsedPerContainer = 8 << 20
	logsUsedPerContainer   = 64 << 10
	nodeFsBaseUsed         = 12 << 30 // OS, runtime and images
)

func u64(v int64) *uint64 {
	if v < 0 {
		v = 0
	}
	x := uint64(v)
	return &x
}

// Summary renders the snapshot as the kubelet's Summary API
// (k8s.io/kubelet/pkg/apis/stats/v1alpha1), as /stats/summary serves it.
// Pods are the running ones; their CPU and memory are the sums of their
// containers'. System containers: "pods" (the sum of all pods, as
// getSystemPodsCPUAndMemoryStats), plus on Windows ≥ v1.31
// "windows-global-commit-memory" (the commit charge: AvailableBytes =
// CommitLimit − CommitTotal, UsageBytes = CommitTotal) and on Linux
// "kubelet" and "runtime" (the system baseline, split).
func (s *Snapshot) Summary() *statsapi.Summary {
	now := metav1.NewTime(s.Time)
	fsUsed := s.nodeFsUsed()
	fs := func(now metav1.Time, used int64) *statsapi.FsStats { return s.fs(now, used, fsUsed) }

	pods := []statsapi.PodStats{}
	podIndex := map[string]int{}
	var podsCPU, podsCPUCum, podsWS, podsUsage int64
	for _, c := range s.Containers {
		key := c.Pod.Namespace + "/" + c.Pod.Name + "/" + string(c.Pod.UID)
		i, ok := podIndex[key]
		if !ok {
			ps := statsapi.PodStats{
				PodRef:    statsapi.PodReference{Name: c.Pod.Name, Namespace: c.Pod.Namespace, UID: string(c.Pod.UID)},
				StartTime: c.Pod.CreationTimestamp,
				CPU:       &statsapi.CPUStats{Time: now, UsageNanoCores: u64(0), UsageCoreNanoSeconds: u64(0)},
				Memory:    &statsapi.MemoryStats{Time: now, WorkingSetBytes: u64(0), UsageBytes: u64(0)},
			}
			if c.Pod.Status.StartTime != nil {
				ps.StartTime = *c.Pod.Status.StartTime
			}
			if !s.OS.IsWindows() {
				ps.Memory.RSSBytes = u64(0)
			}
			pods = append(pods, ps)
			i = len(pods) - 1
			podIndex[key] = i
		}
		ps := &pods[i]
		cs := statsapi.ContainerStats{
			Name:      c.Name,
			StartTime: metav1.NewTime(c.StartTime),
			CPU: &statsapi.CPUStats{
				Time:                 now,
				UsageNanoCores:       u64(c.MilliCPU * 1e6),
				UsageCoreNanoSeconds: &c.CPUCoreNanoSeconds,
			},
			Memory: &statsapi.MemoryStats{
				Time:            now,
				WorkingSetBytes: u64(c.WorkingSet),
				UsageBytes:      u64(c.Commit),
			},
		}
		rootfs, logs := s.containerDisk(c.Container)
		cs.Rootfs, cs.Logs = fs(now, rootfs), fs(now, logs)
		if !s.OS.IsWindows() {
			cs.Memory.RSSBytes = u64(c.WorkingSet)
		}
		if c.MemoryLimit > 0 {
			cs.Memory.AvailableBytes = u64(c.MemoryLimit - c.WorkingSet)
		}
		ps.Containers = append(ps.Containers, cs)
		*ps.CPU.UsageNanoCores += *cs.CPU.UsageNanoCores
		*ps.CPU.UsageCoreNanoSeconds += c.CPUCoreNanoSeconds
		*ps.Memory.WorkingSetBytes += *cs.Memory.WorkingSetBytes
		*ps.Memory.UsageBytes += *cs.Memory.UsageBytes
		if ps.Memory.RSSBytes != nil {
			*ps.Memory.RSSBytes += *cs.Memory.RSSBytes
		}
		podsCPU += c.MilliCPU * 1e6
		podsCPUCum += int64(c.CPUCoreNanoSeconds)
		podsWS += c.WorkingSet
		podsUsage += c.Commit
	}
	for i := range pods {
		var used uint64
		for _, c := range pods[i].Containers {
			used += *c.Rootfs.UsedBytes + *c.Logs.UsedBytes
		}
		pods[i].EphemeralStorage = fs(now, int64(used))
		// Measured (issue 22): the pod's total with its emptyDirs, and
		// each emptyDir's usage.
		if d, ok := s.Disk[types.UID(pods[i].PodRef.UID)]; ok {
			pods[i].EphemeralStorage = fs(now, d.Total)
			for _, name := range slices.Sorted(maps.Keys(d.EmptyDirs)) {
				pods[i].VolumeStats = append(pods[i].VolumeStats, statsapi.VolumeStats{Name: name, FsStats: *fs(now, d.EmptyDirs[name])})
			}
		}
	}

	podsSys := statsapi.ContainerStats{
		Name:      statsapi.SystemContainerPods,
		StartTime: metav1.NewTime(s.BootTime),
		CPU:       &statsapi.CPUStats{Time: now},
		Memory:    &statsapi.MemoryStats{Time: now},
	}
	// As getSystemPodsCPUAndMemoryStats: sums set only when not zero.
	if podsCPU != 0 {
		podsSys.CPU.UsageNanoCores = u64(podsCPU)
	}
	if podsCPUCum != 0 {
		podsSys.CPU.UsageCoreNanoSeconds = u64(podsCPUCum)
	}
	if podsWS != 0 {
		podsSys.Memory.WorkingSetBytes = u64(podsWS)
	}
	if podsUsage != 0 {
		podsSys.Memory.UsageBytes = u64(podsUsage)
	}
	var system []statsapi.ContainerStats
	switch {
	case s.OS.IsWindows():
		system = append(system, podsSys)
		if s.WindowsGlobalCommitMemory {
			system = append(system, statsapi.ContainerStats{
				Name:      statsapi.SystemContainerWindowsGlobalCommitMemory,
				StartTime: now,
				Memory: &statsapi.MemoryStats{
					Time:           now,
					AvailableBytes: u64(s.CommitLimit - s.CommitTotal),
					UsageBytes:     u64(s.CommitTotal),
				},
			})
		}
	default:
		half := s.System
		for _, name := range []string{statsapi.SystemContainerKubelet, statsapi.SystemContainerRuntime} {
			system = append(system, statsapi.ContainerStats{
				Name:      name,
				StartTime: metav1.NewTime(s.BootTime),
				CPU:       &statsapi.CPUStats{Time: now, UsageNanoCores: u64(half.MilliCPU * 1e6 / 4)},
				Memory:    &statsapi.MemoryStats{Time: now, WorkingSetBytes: u64(half.WorkingSet / 4), UsageBytes: u64(half.WorkingSet / 4)},
			})
		}
		system = append(system, podsSys)
	}

	nodeMem := &statsapi.MemoryStats{
		Time:            now,
		AvailableBytes:  u64(s.MemoryCapacity - s.NodeWorkingSet),
		WorkingSetBytes: u64(s.NodeWorkingSet),
		UsageBytes:      u64(s.NodeWorkingSet),
	}
	if s.OS.IsWindows() {
		// winstats: UsageBytes is the commit charge.
		nodeMem.UsageBytes = u64(s.CommitTotal)
	} else {
		nodeMem.RSSBytes = u64(s.NodeWorkingSet)
	}
	nodeFs := fs(now, fsUsed)
	return &statsapi.Summary{
		Node: statsapi.NodeStats{
			NodeName:         s.NodeName,
			SystemContainers: system,
			StartTime:        metav1.NewTime(s.BootTime),
			CPU: &statsapi.CPUStats{
				Time:                 now,
				UsageNanoCores:       u64(s.NodeMilliCPU * 1e6),
				UsageCoreNanoSeconds: &s.NodeCPUCoreNanoSeconds,
			},
			Memory:  nodeMem,
			Fs:      nodeFs,
			Runtime: &statsapi.RuntimeStats{ImageFs: fs(now, nodeFsBaseUsed)},
		},
		Pods: pods,
	}
}

// fs is a file system usage on the node's root file system, of which
// nodeUsed is used.
func (s *Snapshot) fs(now metav1.Time, used, nodeUsed int64) *statsapi.FsStats {
	capacity := s.EphemeralCapacity
	if capacity <= 0 {
		capacity = defaultEphemeralCapacity
	}
	return &statsapi.FsStats{
		Time:           now,
		AvailableBytes: u64(max(capacity-nodeUsed, 1<<30)),
		CapacityBytes:  u64(capacity),
		UsedBytes:      u64(used),
	}
}

// containerDisk is the writable layer and the logs of c: measured
// (Snapshot.Disk, issue 22) or the fixed figures of a container whose pod
// was not.
func (s *Snapshot) containerDisk(c Container) (rootfs, logs int64) {
	if d, ok := s.Disk[c.Pod.UID]; ok {
		logs = d.Logs[c.Name]
		return max(d.Containers[c.Name]-logs, 0), logs
	}
	return rootfsUsedPerContainer, logsUsedPerContainer
}

// nodeFsUsed is the node's root file system's usage: the OS, runtime and
// images, and what the containers wrote (their layers, logs and emptyDirs
// on disk).
func (s *Snapshot) nodeFsUsed() int64 {
	used := int64(nodeFsBaseUsed)
	for _, d := range s.Disk {
		used += d.Total
	}
	for _, c := range s.Containers {
		if _, ok := s.Disk[c.Pod.UID]; !ok {
			used += rootfsUsedPerContainer + logsUsedPerContainer
		}
	}
	return used
}
