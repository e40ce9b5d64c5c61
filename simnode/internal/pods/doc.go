// Package pods is the simulated container runtime and pod lifecycle of one
// node: kubelet admission (B1-B3, from the rule tables), sandbox and pod IP
// (from the node's podCIDR), container creation with the kubelet's events,
// graceful termination, and adoption of running pods after a restart (or,
// after a reboot, their restart in a new sandbox: N3). Terminate is the
// kubelet's own kill of a pod, shared by eviction (B6) and graceful node
// shutdown (B15): the containers stop and the pod keeps its terminal status
// in the API. It implements virtual-kubelet's PodLifecycleHandler and
// PodNotifier.
//
// Container state lives in one place, the container records of a pod
// record (machine.go); the pod status sent to the API is always derived
// from them by buildStatus.
//
// # Continuity: containers outlive simnode
//
// A real node's containers keep running while the kubelet restarts, and
// their logs are files on the node. simnode's containers are simulated
// processes inside the simnode process, so a restart of simnode (killed
// and restarted by the supervisor, or `wink down` and `wink up`) is made to
// look the same from the API, kubectl and the containers themselves
// (continuity.go):
//
//   - Logs are files on the node's disk, in the kubelet's layout and
//     rotation (simnode/internal/logs): a restarted simnode appends to them
//     and reads the ones from before, `--previous` included.
//   - What a container's process does is a function of its start time. Each
//     process runs on its own clock (procClock): it starts at the
//     instance's start and moves only when the process sleeps, so the
//     lines it prints and the files it writes come at the same
//     process-clock times on every run. The exact start is recorded on the
//     node's disk (Config.StateDir: pods/<uid>/containers/<name>-<n>.json).
//   - After a restart an adopted running container (an ephemeral one too)
//     keeps its containerID, startedAt and restartCount (the API's), and
//     its process is re-run
//     from its recorded start. Sleeps that ended in the past return at once,
//     so it fast-forwards to now. Side effects already recorded are not
//     repeated: lines up to the last line of its log file (by time, and by
//     count at that time) are dropped (resumeFilter), and file writes up to
//     the last one recorded are skipped (writeGate, through Env.Writes).
//     What the process would have done while simnode was down is done now,
//     with the times it would have had, as a real container's output
//     during a kubelet restart is in its log.
//   - Its files are where it left them: the pod's emptyDirs, claims and the
//     container's writable layer are files on the node's disk
//     (volumes.Node.SetStateDir), mounted again on adoption.
//   - The images the node has are recorded with what their pull resolved
//     (entrypoint, cmd, env, user, ports: StateDir/images.json), so adopted
//     containers and new pods of an image already present run as the first
//     pull made them; an image the node has without a record is resolved
//     again by the catalog lookup the pull uses.
//   - Containers adopted while not running (exited, in back-off) restart per
//     restartPolicy; their back-off starts afresh, as the kubelet's (kept in
//     memory) does after its restart.
//
// Limits of the model: a resumed process reads files as they are now, not
// as they were at that point of its first run (its reads during the
// fast-forward can differ when it reads what it wrote); an exec'd command,
// a hook or a probe that was running when simnode stopped is not resumed
// (its client saw the connection end, as with a kubelet restart).
//
// # A waiting container costs nothing
//
// A process that only prints and sleeps runs up to 10 s ahead of the
// node's clock on its own clock (lookahead.go): its lines carry their
// times and the log holds them back until they are due, so `ping -t`
// wakes once per 10 s, not once per line. It settles to the node's
// clock before anything else (files, network but its own loopback, the
// machine's meters, its exit), so what others observe of it happens at
// its time. Resuming still only needs the process to be a function of
// its clock: lines held back when simnode stopped are printed again.
//
// # Files
//
// The pod sync is lifecycle.go; the sandbox sandbox.go, image pulls
// images.go, a container's start start.go and its configuration config.go,
// its stop stop.go and hooks hooks.go, probes probes.go. A container's
// environment is package containerenv, pod IPs package ipam.
package pods
