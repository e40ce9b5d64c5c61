package pods

import (
	"context"
	"errors"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/internal/logs"
	"wink.dev/wink/simnode/internal/pods/containerenv"
	"wink.dev/wink/simnode/rules"
)

// Starting a container (kuberuntime_container.go startContainer): its
// config, its process in the shell, its exit, what it listens on.

// waiting sets c's waiting state, keeping a new start from being reported
// as a restart.
func (m *machine) waiting(c *container, reason, message string) {
	if c.state.Terminated != nil {
		c.lastState = corev1.ContainerState{Terminated: c.state.Terminated}
	}
	c.state = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: message}}
}

func (m *machine) renderEvent(id string, d rules.EventData) string {
	_, _, msg, err := m.rules.Event(id, m.node.KubeletVersion, d)
	if err != nil {
		panic(err)
	}
	return msg
}

func (m *machine) retryLater(rec *record, c *container, d time.Duration, now time.Time) {
	c.notBefore = now.Add(d)
	m.fx.after(rec, d, nil)
}

// configError is a CreateContainerConfigError (B8, B12).
func (m *machine) configError(rec *record, c *container, msg string, now time.Time) {
	m.countStartFailed(rec, c, "CreateContainerConfigError")
	m.event(rec.pod, c, rules.EventError, rules.EventData{Container: c.name, Image: c.image, Message: msg})
	m.waiting(c, "CreateContainerConfigError", msg)
	m.retryLater(rec, c, m.rules.Runtime.SyncRetry.Duration, now)
}

// startContainer is kuberuntime_container.go startContainer: pull, create
// the config, create, start, postStart.
func (m *machine) startContainer(rec *record, c *container, now time.Time) {
	if !m.ensureImage(rec, c, now) {
		return
	}
	spec := m.spec(rec, c)
	m.countStarted(rec, c)
	var allocatable corev1.ResourceList
	if n := m.rt.nodeObject(); n != nil {
		allocatable = n.Status.Allocatable
	}
	vars, err := containerenv.Resolve(&containerenv.Input{Pod: rec.pod, Container: spec, PodIP: rec.podIP, HostIP: rec.hostIP, Allocatable: allocatable, Objects: m.rt.objects})
	if err != nil {
		m.configError(rec, c, err.Error(), now)
		return
	}
	if err := verifyRunAsNonRoot(&m.rules.Runtime, m.node.OS, rec.pod, spec, c.img); err != nil {
		m.configError(rec, c, err.Error(), now)
		return
	}
	c.pulled = false // the next start goes through the image manager again
	c.notBefore = time.Time{}
	c.changed = false
	if c.state.Terminated != nil || (c.state.Waiting != nil && c.lastState.Terminated != nil && c.created) {
		if c.state.Terminated != nil {
			c.lastState = corev1.ContainerState{Terminated: c.state.Terminated}
		}
		c.restartCount++
	}
	for k, v := range c.img.Env {
		if _, ok := vars[k]; !ok {
			vars[k] = v
		}
	}
	env := m.containerEnv(rec, spec, c, vars)
	argv := argvOf(spec, c.img, vars)
	c.created = true
	c.imageRef, c.imageID = m.imageFor(c)
	c.id = containerID(rec.uid, c.name, c.restartCount)
	if rec.volumes != nil {
		// The mounts of this start are made with its environment: a
		// subPathExpr expands with the pod as it is now (kubelet_pods.go
		// makeMounts, each start attempt), so a pod update that sets the
		// missing value lets the next attempt start (issue 21, B11).
		rec.volumes.SetEnv(c.name, vars)
		if err := rec.volumes.ContainerError(c.name); err != nil {
			var ce *ContainerMountError
			if errors.As(err, &ce) && ce.Reason != "StartError" {
				m.countStartFailed(rec, c, ce.Reason)
				m.event(rec.pod, c, rules.EventError, rules.EventData{Container: c.name, Image: c.image, Message: ce.Message})
				m.waiting(c, ce.Reason, ce.Message)
				m.retryLater(rec, c, m.rules.Runtime.SyncRetry.Duration, now)
				return
			}
		}
		rec.volumes.SetContainerID(c.name, c.id)
		rec.volumes.SetEnv(c.name, vars)
		env.Files = rec.volumes.FS(c.name)
	}
	if facts.HostProcess(rec.pod) {
		env.Vars["CONTAINER_SANDBOX_MOUNT_POINT"] = SandboxMountPoint(c.id)
		if rec.volumes != nil {
			if mp := rec.volumes.SandboxMountPoint(c.name); mp != "" {
				env.Vars["CONTAINER_SANDBOX_MOUNT_POINT"] = mp
			}
		}
	}
	m.event(rec.pod, c, rules.EventCreated, rules.EventData{Container: c.name, Image: c.image})
	buf := m.logs.Open(logKey(rec, c, c.restartCount))

	// The runtime starts the task: the user must exist (B9) and the program
	// be in the image.
	id := strings.TrimPrefix(c.id, "containerd://")
	se := m.rules.Runtime.StartError
	startErr := ""
	asGroup := m.localGroup(rec, env.User)
	if asGroup {
		// B10: a HostProcess container running as a local group of the
		// node runs as a temporary user in it.
		env.User = temporaryUser(c.id)
	}
	switch {
	case m.node.OS.IsWindows() && !asGroup && !m.rules.Runtime.KnownUser(env.User, facts.HostProcess(rec.pod), m.nodeLabels()):
		startErr = m.rules.Runtime.Message("startError.unknownUser", rules.MessageData{ID: id})
	case rec.volumes != nil && rec.volumes.ContainerError(c.name) != nil:
		startErr = rec.volumes.ContainerError(c.name).Error()
	case len(argv) > 0 && m.rt.shell != nil && !m.found(env, argv) && !entrypoint(spec, c.img, argv):
		name := "startError.notFoundLinux"
		if m.node.OS.IsWindows() {
			name = "startError.notFoundWindows"
		}
		startErr = m.rules.Runtime.Message(name, rules.MessageData{ID: id, Program: argv[0]})
	}
	if startErr != "" {
		m.countStartFailed(rec, c, "RunContainerError")
		m.event(rec.pod, c, rules.EventError, rules.EventData{Container: c.name, Image: c.image, Message: startErr})
		c.state = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
			ExitCode: se.ExitCode, Reason: se.Reason, Message: startErr,
			StartedAt: metav1.NewTime(time.Unix(0, 0).UTC()), FinishedAt: metav1.NewTime(now), ContainerID: c.id,
		}}
		c.finishedAt = now
		c.ready, c.started = false, false
		buf.Close()
		m.fx.after(rec, 0, nil)
		return
	}

	if entrypoint(spec, c.img, argv) {
		env.Server = argv[0]
		env.ImageCommand = len(spec.Command) == 0 && len(spec.Args) == 0
	}
	c.opaque = m.opaque(spec, c, env, argv)
	m.event(rec.pod, c, rules.EventStarted, rules.EventData{Container: c.name, Image: c.image})
	c.state = corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(now)}}
	c.killing, c.stopped, c.partialTail = false, false, false
	c.env, c.argv = env, argv
	c.listens = m.listens(spec, c, argv)
	c.started = spec.StartupProbe == nil
	c.ready = c.started && spec.ReadinessProbe == nil
	if c.init || c.ephemeral {
		c.ready = false // ephemeral containers report ready false
	}
	st := procState{ID: c.id, Start: now}
	_ = saveJSON(m.procPath(rec, c), st)
	m.runProcess(rec, c, buf, st, false)
	if spec.Lifecycle != nil && spec.Lifecycle.PostStart != nil {
		m.postStart(rec, c, spec.Lifecycle.PostStart)
	}
	m.startProbes(rec, c, spec)
}

// runsToCompletion reports whether a pod's containers are not restarted
// when they exit (restartPolicy Never or OnFailure: a Job's); the API's
// default is Always.
func runsToCompletion(pod *corev1.Pod) bool {
	rp := pod.Spec.RestartPolicy
	return rp == corev1.RestartPolicyNever || rp == corev1.RestartPolicyOnFailure
}

// runProcess runs c's process on its own clock from st.Start (a resumed
// process, resumed, from the start its record has): out is its log, and
// its file writes are recorded in st (continuity.go).
func (m *machine) runProcess(rec *record, c *container, out logs.Writer, st procState, resumed bool) {
	c.instance++
	inst := c.instance
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	clock := &procClock{t: st.Start}
	j := &job{c: c, instance: inst, kind: "process", argv: c.argv, env: c.env, ctx: ctx, cancel: cancel, stdout: out, clock: clock,
		completes: (c.init || runsToCompletion(rec.pod)) && !c.img.Known}
	if path := m.procPath(rec, c); path != "" {
		j.writes = newWriteGate(clock, path, st, resumed)
	}
	j.done = func(code int, _ string) {
		if c.instance != inst || !c.running() || c.stopped {
			return
		}
		m.finishContainer(rec, c, int32(code), false, m.now())
		if j.oom.Load() && c.state.Terminated != nil {
			// Past its memory limit on Linux (row B5): as containerd
			// reports a container the kernel OOM-killed.
			c.state.Terminated.ExitCode, c.state.Terminated.Reason = oomExitCode, oomReason
		}
	}
	m.fx.spawn(rec, j)
}

// finishContainer records the exit of c's current instance.
func (m *machine) finishContainer(rec *record, c *container, code int32, killed bool, now time.Time) {
	if !c.running() {
		return
	}
	reason := "Completed"
	if code != 0 {
		reason = "Error"
	}
	c.state = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
		ExitCode: code, Reason: reason, StartedAt: c.state.Running.StartedAt,
		FinishedAt: metav1.NewTime(now), ContainerID: c.id,
		Message: m.terminationMessage(rec, c, code),
	}}
	c.finishedAt = now
	c.ready = false
	c.started = false
	c.killing = false
	c.probes = nil
	if c.init {
		c.ready = code == 0 // a completed regular init container reports ready
	}
	if b, err := m.logs.Get(logKey(rec, c, c.restartCount)); err == nil {
		b.Close()
	}
	if c.cancel != nil {
		c.cancel()
	}
	_ = killed
}

// containerEnv builds what the container's commands observe.
func (m *machine) containerEnv(rec *record, spec *corev1.Container, c *container, vars map[string]string) *Env {
	hostname := rec.pod.Name
	if rec.pod.Spec.Hostname != "" {
		hostname = rec.pod.Spec.Hostname
	}
	if facts.HostProcess(rec.pod) || (rec.pod.Spec.HostNetwork && m.node.OS.IsLinux()) {
		hostname = m.node.Name // B10: the host's name
	}
	user := ""
	if m.node.OS.IsWindows() {
		user = userFor(&m.rules.Runtime, rec.pod, spec, c.img)
	} else if c.img.User != "" {
		user = c.img.User
	} else {
		user = "root"
	}
	env := &Env{
		OS: m.node.OS, Hostname: hostname, User: user, Vars: vars,
		GMSADomain: gmsaDomain(rec.pod, spec), Dir: spec.WorkingDir, Now: m.now,
		Image: spec.Image, HostProcess: facts.HostProcess(rec.pod),
	}
	if env.Dir == "" {
		env.Dir = c.img.WorkingDir
	}
	env.Limits, env.Tracer = m.limits(spec), m.tracer(rec, c)
	m.hostEnv(rec, c, env)
	if rec.volumes != nil {
		env.Files = rec.volumes.FS(c.name)
	}
	if m.rt.network != nil {
		pod := rec.pod.DeepCopy()
		pod.Status.PodIP = rec.podIP
		pod.Status.HostIP = rec.hostIP
		if rec.podIP != "" {
			pod.Status.PodIPs = []corev1.PodIP{{IP: rec.podIP}}
		}
		env.Net = m.rt.network.From(pod)
		env.Interfaces = m.rt.network.NetConfig(pod)
	}
	if n := m.rt.nodeObject(); n != nil {
		env.OSVersion = n.Status.NodeInfo.KernelVersion
	}
	return env
}

// listens is what a container listens on: the image's ports, its
// containerPorts and what its command serves.
func (m *machine) listens(spec *corev1.Container, c *container, argv []string) []int {
	seen := map[int]bool{}
	var out []int
	add := func(p int) {
		if p > 0 && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range c.img.Ports {
		add(p)
	}
	for _, p := range spec.Ports {
		if p.Protocol == "" || p.Protocol == corev1.ProtocolTCP {
			add(int(p.ContainerPort))
		}
	}
	if m.rt.shell != nil {
		for _, p := range m.rt.shell.Listens(argv) {
			add(p)
		}
	}
	if c.opaque {
		// A program wink does not simulate serves what its probes check,
		// as it does on the real node the manifest was written for.
		for _, pr := range []*corev1.Probe{spec.StartupProbe, spec.LivenessProbe, spec.ReadinessProbe} {
			switch {
			case pr == nil:
			case pr.HTTPGet != nil:
				add(port(spec, pr.HTTPGet.Port))
			case pr.TCPSocket != nil:
				add(port(spec, pr.TCPSocket.Port))
			case pr.GRPC != nil:
				add(int(pr.GRPC.Port))
			}
		}
	}
	return out
}

// entrypoint reports whether argv runs the image's own ENTRYPOINT: its
// known main program (imageServer), or, for an image whose ENTRYPOINT wink
// does not know, a container that gives only args: containerd passes them
// to that ENTRYPOINT (CRI: args replace CMD, command replaces ENTRYPOINT),
// so the process is the image's program with these args, not args[0].
func entrypoint(spec *corev1.Container, img Image, argv []string) bool {
	if imageServer(img, argv) {
		return true
	}
	return !img.Known && len(spec.Command) == 0 && len(spec.Args) > 0 && len(argv) > 0
}

// found asks the shell whether the container may have program argv[0].
func (m *machine) found(env *Env, argv []string) bool {
	found, _ := m.rt.shell.Found(env, argv)
	return found
}

// opaque reports whether the container's process is a program wink does
// not simulate (open world): it runs until stopped, with no output, and
// listens on its declared ports and the ports its probes check.
func (m *machine) opaque(spec *corev1.Container, c *container, env *Env, argv []string) bool {
	if m.rt.shell == nil {
		return false
	}
	if len(argv) == 0 {
		return !c.img.Known // the image's unknown default process (argvOf)
	}
	found, simulated := m.rt.shell.Found(env, argv)
	return !simulated && (found || entrypoint(spec, c.img, argv))
}

// imageServer reports whether argv runs the image's own main program, the
// first element of its catalog entrypoint (a server such as /coredns or
// kube-proxy): the image has it even though the shell does not simulate it.
func imageServer(img Image, argv []string) bool {
	return len(img.Entrypoint) > 0 && len(argv) > 0 && argv[0] == img.Entrypoint[0]
}
