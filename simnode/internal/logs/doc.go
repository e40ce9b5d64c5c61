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
// (pkg/kubelet/logs/container_log_manager.go) with its defaults
// containerLogMaxSize 10Mi and containerLogMaxFiles 5: when the current file
// reaches the maximum size it is renamed to <n>.log.<YYYYMMDD-hhmmss>, the
// older rotated files are gzip-compressed (.gz), and at most MaxFiles-2
// rotated files are kept besides the newest rotated one and the current
// file. The kubelet checks sizes every 10 s; here the check happens on the
// write that crosses the limit. Like the kubelet, reads (`kubectl logs`)
// see the current file only.
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
// are kept in memory, at most MaxLines per instance.
package logs
