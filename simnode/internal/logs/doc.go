// Package logs keeps the output of simulated containers the way the
// kubelet and containerd keep a real container's: one file per container
// instance in the CRI log format, in the kubelet's layout on the simulated
// node's disk,
//
//	/var/log/pods/<namespace>_<pod>_<uid>/<container>/<restartCount>.log
//	/var/log/containers/<pod>_<namespace>_<container>-<containerID>.log -> ../pods/...
//
// (C:\var\log\pods\... on Windows nodes), under a directory of the real disk
// that stands for the node's root (NewFileStore; simnode uses
// <state>/nodes/<node>/root). Each line is
//
//	2025-06-01T12:00:00.123456789Z stdout F <text>
//
// (containerd's cri logger; "P" marks a partial line). The files outlive
// the simnode process, so a restarted simnode reads (and appends to) the
// logs of the containers it adopts, and `kubectl logs --previous` reads the
// file of the instance before the last restart.
//
// Rotation is the kubelet's container log manager
// (pkg/kubelet/logs/container_log_manager.go, issue 22) with the node's
// KubeletConfiguration (Rotation; DefaultRotation is the kubelet's
// defaults: containerLogMaxSize 10Mi, containerLogMaxFiles 5,
// containerLogMaxWorkers 1, containerLogMonitorInterval 10s). Start runs
// its passes on the store's clock: every MonitorInterval each running
// container's current file of at least MaxSize is renamed to
// <n>.log.<YYYYMMDD-hhmmss> (the manager's clock), the older rotated
// files are gzip-compressed (.gz) and at most MaxFiles-2 of them are kept
// besides the newest rotated one and the current file, so that a
// container's logs stay within Rotation.Bound whatever it prints. Like the
// kubelet, reads (`kubectl logs`) see the current file only. When a
// container restarts, the logs of instances before the previous one go
// (the kubelet's container garbage collection); ContainerBytes is what a
// container's logs take on the disk (its ephemeral storage).
//
// The write path is bounded and cheap: a line longer than MaxLineSize
// arrives as partial ("P") records (AppendPartial) that reads join, a
// busy container's file stays open and its lines cost no allocation,
// and reads go a chunk at a time.
//
// Reads (`kubectl logs`, row B16) take the kubelet's log options (tail, timestamps, follow, since,
// limitBytes); a follower reads on across a rotation and stops when the
// container exits (Close) or its context ends.
//
// A line whose time is still to come (a container process running ahead
// of the node's clock, pods/lookahead.go) is held back: readers, the file
// and followers see it when the store's clock (SetClock) reaches its
// time; the lines that came due are written to the file in one write at
// the next append, read or Close, and Close drops those still to come.
//
// NewStore is the same without files (unit tests, pods.Simulate): lines
// are kept in memory, at most MaxLines and MaxMemoryBytes per instance.
//
// LineWriter turns a container's stdout or stderr into a Writer's lines,
// a line past MaxLineSize into partial records as containerd's logger does.
package logs
