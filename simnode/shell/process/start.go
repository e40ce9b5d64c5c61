package process

// Start is how a container's process is started: what the run-or-block
// rule of shell.RunProcess reads (open world, row E, all kubelet
// versions). The pods runtime fills it from its Env (pods.Env.Start).
type Start struct {
	// Exec: the command runs in a running container (a probe, a hook,
	// kubectl exec), not as its main process.
	Exec bool
	// Completes: the process is an init container's or a pod's whose
	// restartPolicy is not Always (a Job's): it runs to completion.
	Completes bool
	// Server is the image's own main program when the shell does not
	// simulate it (its catalog entrypoint, e.g. /coredns): run as that
	// program, it serves until the container stops.
	Server string
	// ImageCommand: the process is the image's own ENTRYPOINT and CMD
	// (the container gives neither command nor args).
	ImageCommand bool
}
