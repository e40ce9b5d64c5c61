// Package resources simulates the CPU and memory a node's containers use, and
// everything the kubelet derives from it: the Summary API (/stats/summary,
// B14), the resource metrics endpoint (/metrics/resource, read by
// metrics-server: B16 `kubectl top`, A24 HPA), Linux OOM kills, and memory
// pressure with eviction (B5, B6, N6, N7).
//
// # Usage model
//
// Every running container has a demand: a steady CPU rate and a memory size.
// By default it is small and depends on the image (defaults.go: e.g. 5m CPU
// and 30Mi for a nanoserver image, 80Mi for servercore). A test overrides it
// per container with pod annotations, read on every sample so that they can
// be changed on a running pod:
//
//	wink.dev/cpu-usage.<container>: 250m      # CPU the container tries to use
//	wink.dev/memory-usage.<container>: 600Mi  # memory it allocates (commit)
//
// The demand then meets the container's limits as the OS would:
//
//   - CPU, Windows (B7): the limit becomes the job object's CPU maximum,
//     10*milliCPU/NumCPU clamped to 1..10000 (calculateCPUMaximum in
//     pkg/kubelet/kuberuntime/kuberuntime_container_windows.go); the usage is
//     capped at the CPU that maximum allows, CpuMaximum*NumCPU/10 millicores
//     (the reverse formula, toKubeContainerResources in the same file).
//   - CPU, Linux: the CFS quota caps usage at the limit.
//   - CPU requests never cap anything (B7). Usage is also capped at the
//     node's capacity.
//   - Memory, Windows (B5): there is no OOM killer. A container above its
//     limit pages: its working set stays at the limit while its commit
//     charge keeps the whole demand. It never becomes OOMKilled.
//   - Memory, Linux: a container whose demand exceeds its limit is OOM
//     killed (see OOM kills below).
//
// # Node memory and the eviction signal
//
// The node runs a system baseline (defaults.go) besides its containers.
//
//   - Windows (≥ v1.31): memory.available is the global commit charge's
//     headroom, CommitLimit − CommitTotal, reported as the system container
//     windows-global-commit-memory (summary_sys_containers_windows.go,
//     eviction/helpers_windows.go makeMemoryAvailableSignalObservation). The
//     simulated node has no page file, so CommitLimit is its memory capacity;
//     CommitTotal is the system baseline's commit plus every container's
//     commit (its demand).
//   - Linux: memory.available is capacity − the node's working set
//     (cadvisor's root cgroup; eviction/helpers.go makeSignalObservations),
//     the working set being the system baseline plus every container's.
//
// # Eviction (B6, N6, N7, A21)
//
// Manager does what the kubelet's eviction manager does for
// memory.available every monitoring interval (10 s): when the signal is
// below the node's evictionHard threshold (pool evictionHard, else the
// version's default, facts.OS.EvictionHardDefault: 500Mi on Windows ≥
// v1.31, 100Mi on Linux) it sets MemoryPressure True
// (KubeletHasInsufficientMemory; the node lifecycle controller then adds the
// node.kubernetes.io/memory-pressure:NoSchedule taint), ranks the active
// pods as rankMemoryPressure does (pods above their memory request first,
// then lower priority, then larger usage above request — so BestEffort pods
// go first) and evicts one pod per interval: a Warning event `Evicted` with
// the kubelet's message (evictionMessage in eviction/helpers.go), then
// Evictor.Evict. The condition goes back to False once the pressure has been
// gone for the pressure transition period (5 min, the kubelet's
// --eviction-pressure-transition-period). A condition set whose
// pressureCanBecomeTrue is false (Windows before v1.31, N6) never reports
// pressure and never evicts, whatever the thresholds.
//
// # Local storage and DiskPressure (issue 22)
//
// With ManagerConfig.LocalStorage (the runtime's measure of each pod's
// emptyDirs, container layers and logs, PodStorage) every pass first does
// the kubelet's localStorageEviction: a pod with an emptyDir past its
// sizeLimit, or past its containers' ephemeral-storage limits, is evicted
// with the kubelet's message (LocalStorageMessage; grace 1 s, no
// DisruptionTarget condition, LocalStorageEvictor), and then nothing else
// that pass. On a Linux node (ManagerConfig.DiskPressure; a Windows
// node's DiskPressure is always False, N7) nodefs.available is the node's
// ephemeral-storage capacity less 12 GiB for the OS and images and what
// the pods wrote; below evictionHard's nodefs.available the node reports
// DiskPressure and, once no memory threshold is met, evicts one pod a
// pass ranked as rankDiskPressureFunc (RankDiskPressure) with the
// kubelet's ephemeral-storage message (DiskEvictionMessage). The Summary
// API shows the same measure (Config.DiskUsage). A Windows kubelet before
// v1.31 evicts nothing at all (N6).
//
// # OOM kills (Linux)
//
// Contract with the runtime: Resources.OOMKills delivers one Kill per
// container instance (container ID) whose memory demand exceeds its limit,
// at the first sample that sees it. The runtime must then terminate that
// container instance with exit code 137 and reason OOMKilled and restart it
// per the pod's restartPolicy (a new instance, a new ID, which is killed
// again if the demand still exceeds the limit: CrashLoopBackOff, as on a
// real node). The channel is buffered; kills that find it full are dropped
// and logged. The wiring (simnode/resources.go) hands each Kill to the
// runtime's HandleOOMKill when it implements OOMHandler. Windows containers
// are never reported (B5).
//
// # Runtime interface
//
// Pods.RunningContainers says which containers run. FromLister builds it
// from the node's pods in the shared informer (phase Running, container
// status running) until the runtime provides its own. The wiring uses the
// node's pod provider for Pods, Evictor and OOMHandler as soon as it
// implements them; until then evictions go through StatusEvictor, which
// writes the evicted pod's status through the API.
package resources
