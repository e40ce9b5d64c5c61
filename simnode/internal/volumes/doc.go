// Package volumes is what a simulated container sees on disk: the image's
// own files plus the pod's volumes at their mountPaths, with the kubelet's
// rules for Windows and Linux nodes (rows B10, B11, B12 of
// simnode/facts/windows-behaviors.md).
//
// # API
//
//	NewNode(os) *Node
//
// is one node's host disk: hostPath volumes and named pipes
// (\\.\pipe\containerd-containerd; AddNamedPipe adds more) live there and are
// shared by every pod on the node; HostProcess containers see it at C:\.
// SetAllocatable, SetClusterDomain, SetHostname, SetHostProcessLayout and
// SetClock configure it; Node.FS is the host's own view. SetStateDir keeps
// the node's disk on the real one, so that it outlives the simnode process:
// the host disk, claims, each pod's emptyDirs and each container's writable
// layer (by container ID) are saved on every change and read back when the
// pod is mounted again (persist.go has the layout). SetLogDirs shows the
// kubelet's container log directories (C:\var\log\pods,
// /var/log/containers), which are real directories, on the host disk.
//
//	NewPod(ctx, pod, node, src) (*Pod, error)
//
// sets up every volume of the pod: emptyDir (a directory on disk, shared by
// the pod's containers, kept across container restarts), hostPath (with the
// kubelet's type checks), configMap, secret, downwardAPI and projected
// (materialised from src; always read-only), persistentVolumeClaim and
// generic ephemeral volumes (a per-claim disk on the node). A volume that
// cannot be set up yields a *MountError whose Error() is the kubelet's
// FailedMount event message, e.g.
//
//	MountVolume.SetUp failed for volume "config" : configmap "x" not found
//
// NewPod then returns nil and all MountErrors joined (MountErrors splits
// them); the runtime emits one Warning event with reason ReasonFailedMount
// per error and tries again later.
//
//	(*Pod).FS(containerName) shell.FS
//
// is one container's file system (init, regular or ephemeral): the image's
// files (C:\Windows\System32\..., C:\Users\ContainerUser on Windows; /etc,
// /bin, /tmp on Linux), each volumeMount at its mountPath (subPath and
// subPathExpr honoured), and the kubelet-managed hosts file once the pod
// has IPs (SetPodIPs or status.podIPs; not for HostProcess containers). The
// same FS is returned until the container restarts: call SetContainerID with
// each new container ID so its writable layer starts afresh.
// ContainerError says why a container cannot start (bad subPath, unknown
// volume, volumeDevices on Windows, a named pipe mount in a HostProcess
// container) as a *ContainerError with the container Reason to report.
// Refresh propagates ConfigMap, Secret, label and annotation changes.
// SandboxMountPoint is $env:CONTAINER_SANDBOX_MOUNT_POINT of a HostProcess
// container. Notes lists what was silently changed (emptyDir medium Memory
// on Windows, mount propagation forced private, readOnlyRootFilesystem
// ignored on Windows).
//
// # Paths
//
// Windows: `\` and `/` are both separators, names are case-insensitive, a
// path without a drive letter is on C: (so mountPath "/etc/x" is C:\etc\x,
// the kubelet's MakeAbsolutePath), `\\?\C:\x` is C:\x and `\\.\pipe\x` is a
// named pipe. Linux: POSIX. A path is cleaned lexically (`.`, `..`) before it
// is matched against the mount table, longest mountPath first, so no path
// leaves the mount it resolves into.
//
// # Behaviour by row
//
//   - B11: a write to a read-only mount (readOnly: true, or a configMap,
//     secret, downwardAPI or projected volume) returns ErrAccessDenied on
//     Windows (text "Access is denied.") and ErrReadOnlyFS on Linux (text
//     "Read-only file system"); both satisfy errors.Is(err,
//     fs.ErrPermission). On Linux readOnlyRootFilesystem makes the image
//     layer read-only the same way; on Windows it is ignored (noted).
//     emptyDir medium Memory is a disk directory on Windows (noted).
//     volumeDevices is ErrVolumeDevicesUnsupported on Windows. Mount
//     propagation is private on Windows (noted when the pod asked otherwise).
//   - B12: configMap and secret keys become files (items, path, binaryData,
//     optional); on Windows the modes mean nothing beyond the owner-write
//     bit, which becomes the read-only attribute (Mode 0444, else 0666);
//     secrets are plain files. A named pipe hostPath
//     mount (\\.\pipe\docker_engine) exists in the container; reading or
//     writing it returns ErrPipeBusy when the node has that pipe and
//     fs.ErrNotExist when not.
//   - B10: a HostProcess container sees the node's disk at C:\ (writes reach
//     the node), its image and volumes under SandboxMountPoint (`C:\hpc\`
//     with the bind filter, where mounts also appear at their mountPath;
//     see HostProcessLayout) and every node pipe; no hosts file is mounted.
//
// # Atomic volumes
//
// configMap, secret, downwardAPI and projected volumes are laid out by the
// kubelet's AtomicWriter (pkg/volume/util/atomic_writer.go; atomic.go) on
// Linux and Windows alike: the payload in a timestamped directory
// `..2026_11_28_08_40_00.123456789`, a `..data` symbolic link to it and one
// link `<name> -> ..data/<name>` (`..data\<name>` on Windows) per top-level
// name. Refresh writes a new directory only when some content changed, swaps
// `..data`, adds and removes the top-level links and drops the old directory,
// so a volume holds one copy of its payload. The container FS follows links
// (at most 40 in one path) and implements process.Symlinks (Lstat, Stat,
// Readlink, Symlink; links.go). The volume directory is drwxrwxrwx for a
// configMap (a disk emptyDir) and drwxrwxrwt for the others (tmpfs) on Linux.
package volumes
