package pods

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/virtual-kubelet/virtual-kubelet/errdefs"
	corev1 "k8s.io/api/core/v1"
	utilexec "k8s.io/utils/exec"

	"wink.dev/wink/simnode/internal/logs"
	"wink.dev/wink/simnode/shell/process"
)

// The Provider drives the machine: timers on its clock, commands in
// goroutines, every callback under p.mu followed by a sync of the pod and a
// status notification.

var _ effects = (*Provider)(nil)

func (p *Provider) now() time.Time { return p.cfg.Clock.Now() }

// current reports whether rec is still the pod's record.
func (p *Provider) currentLocked(rec *record) bool {
	cur, ok := p.pods[rec.key]
	return ok && cur == rec
}

func (p *Provider) after(rec *record, d time.Duration, f func()) {
	p.cfg.Clock.AfterFunc(max(d, 0), func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if !p.currentLocked(rec) {
			return
		}
		if f != nil {
			f()
		}
		p.m.sync(rec)
		p.enqueue(rec.key)
	})
}

// jobState tracks whether a job computes (busy) or waits.
type jobState struct {
	p      *Provider
	mu     sync.Mutex
	busy   bool
	exited bool
}

func (s *jobState) set(b bool) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy == b || (b && s.exited) {
		return
	}
	s.busy = b
	if b {
		s.p.busy.Add(1)
	} else {
		s.p.busy.Add(-1)
	}
}

// forever is a sleep that only ends with its context.
const forever = time.Duration(1 << 62)

// sleeper returns an Env.Sleep on the provider's clock that marks js idle
// while it waits.
func (p *Provider) sleeper(js *jobState) func(ctx context.Context, d time.Duration) error {
	return func(ctx context.Context, d time.Duration) error {
		if d <= 0 {
			return ctx.Err()
		}
		if d >= forever/2 {
			js.set(false)
			<-ctx.Done()
			return ctx.Err()
		}
		ch := make(chan struct{})
		t := p.cfg.Clock.AfterFunc(d, func() {
			js.set(true)
			close(ch)
		})
		js.set(false)
		select {
		case <-ch:
			return nil
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
}

// syncWriter serialises writes of stdout and stderr into one buffer.
type syncWriter struct {
	mu sync.Mutex
	b  *collect
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(b)
}

func (p *Provider) spawn(rec *record, j *job) {
	js := &jobState{p: p}
	js.set(true)
	// Cancelling a job wakes it: it computes until it returns.
	orig := j.cancel
	j.cancel = func() {
		js.set(true)
		orig()
	}
	if j.kind == "process" {
		j.c.cancel = j.cancel
	}
	env := *j.env
	vars := make(map[string]string, len(env.Vars))
	for k, v := range env.Vars {
		vars[k] = v
	}
	env.Vars = vars
	env.Now = p.cfg.Clock.Now
	env.Sleep = p.sleeper(js)
	env.Writes = nil
	env.Exec = j.kind != "process"
	env.Completes = j.completes
	env.Limits.OOMKilled = nil
	if j.kind == "process" {
		// The container's own process: the kernel OOM-kills it (row B5).
		env.Limits.OOMKilled = func() { j.oom.Store(true) }
	}
	var pt *procTimer
	if j.clock != nil {
		pt = p.procTimer(js, j.clock, &env)
		env.Now = j.clock.now
		env.Sleep = pt.sleep
		env.Settle = func() error { return pt.settle(j.ctx) }
		pt.settleMeters(&env)
		if j.writes != nil {
			env.Writes = settledGate{j.writes, env.Settle}
		}
	}
	now := env.Now
	go func() {
		var stdout, stderr io.Writer
		var out *collect
		var lws []*logs.LineWriter
		if j.stdout != nil {
			o := &logs.LineWriter{W: j.stdout, Stream: "stdout", Now: now}
			e := &logs.LineWriter{W: j.stdout, Stream: "stderr", Now: now}
			if pt != nil {
				o.Settle = func() error { return pt.settle(j.ctx) }
				e.Settle = o.Settle
			}
			lws = []*logs.LineWriter{o, e}
			stdout, stderr = o, e
		} else {
			out = &collect{max: process.MaxWrite}
			if j.kind == "probe" {
				out.max = maxProbeOutput
			}
			sw := &syncWriter{b: out}
			stdout, stderr = sw, sw
		}
		code := p.cfg.Shell.Run(j.ctx, &env, j.argv, strings.NewReader(""), stdout, stderr)
		partial := false
		for _, l := range lws {
			partial = l.Flush() || partial
		}
		if pt != nil {
			// A process that ran ahead exits at its own time.
			_ = pt.settle(j.ctx)
		}
		output := ""
		if out != nil {
			output = out.String()
		}
		p.mu.Lock()
		if p.currentLocked(rec) && j.done != nil {
			if j.kind == "process" && j.c.instance == j.instance {
				j.c.partialTail = partial
			}
			j.done(code, output)
			p.m.sync(rec)
			p.enqueue(rec.key)
		}
		p.mu.Unlock()
		js.mu.Lock()
		js.exited = true
		if js.busy {
			js.busy = false
			p.busy.Add(-1)
		}
		js.mu.Unlock()
	}()
}

// Idle reports whether no command is computing (for Simulate and tests).
func (p *Provider) Idle() bool { return p.busy.Load() == 0 }

// containerFor finds a running container of a pod for exec, attach and
// port-forward.
func (p *Provider) containerFor(namespace, name, container string) (*record, *container, error) {
	rec, ok := p.pods[namespace+"/"+name]
	if !ok {
		return nil, nil, errdefs.AsNotFound(fmt.Errorf("pod %s/%s not found", namespace, name))
	}
	for _, c := range rec.withEphemeral() {
		if c.name == container || (container == "" && !c.init && !c.sidecar) {
			if !c.running() || c.env == nil {
				return nil, nil, errdefs.AsInvalidInput(fmt.Errorf("container %s is not running", c.name))
			}
			return rec, c, nil
		}
	}
	return nil, nil, errdefs.AsNotFound(fmt.Errorf("container not found (%q)", container))
}

// Exec runs cmd in a running container (B16) and returns like the CRI
// streaming server: nil for exit 0, a utilexec.CodeExitError otherwise, so
// that `kubectl exec` exits with the command's code.
func (p *Provider) Exec(ctx context.Context, namespace, name, container string, cmd []string, stdin io.Reader, stdout, stderr io.Writer) error {
	p.mu.Lock()
	rec, c, err := p.containerFor(namespace, name, container)
	if err != nil {
		p.mu.Unlock()
		return err
	}
	env := *c.env
	vars := make(map[string]string, len(env.Vars))
	for k, v := range env.Vars {
		vars[k] = v
	}
	env.Vars = vars
	env.Now = p.cfg.Clock.Now
	env.Sleep = p.sleeper(nil)
	env.Exec = true
	inst := c.instance
	p.mu.Unlock()
	_ = rec
	// The exec ends when the container does.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				p.mu.Lock()
				alive := c.instance == inst && c.running()
				p.mu.Unlock()
				if !alive {
					cancel()
					return
				}
			}
		}
	}()
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	if stdout == nil {
		stdout = io.Discard
	}
	if stderr == nil {
		stderr = io.Discard
	}
	code := p.cfg.Shell.Run(ctx, &env, cmd, stdin, stdout, stderr)
	if code != 0 {
		return utilexec.CodeExitError{Err: fmt.Errorf("command '%s' exited with %d", strings.Join(cmd, " "), code), Code: code}
	}
	return nil
}

// Attach streams the container's output from now on until it exits (the
// container's stdin is not connected: simulated processes read none).
func (p *Provider) Attach(ctx context.Context, namespace, name, container string, stdout, stderr io.Writer) error {
	p.mu.Lock()
	rec, c, err := p.containerFor(namespace, name, container)
	if err != nil {
		p.mu.Unlock()
		return err
	}
	buf := p.cfg.Logs.Open(logKey(rec, c, c.restartCount))
	p.mu.Unlock()
	r := buf.Reader(ctx, logs.Options{Follow: true, TailSet: true, Tail: 0}, p.now())
	defer r.Close()
	if stdout == nil {
		stdout = io.Discard
	}
	_, err = io.Copy(stdout, r)
	if errors.Is(err, io.ErrClosedPipe) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// HTTP answers a request that reached pod on port (the network model's
// HTTP handler): the response of the container listening there, nil when
// none does.
func (p *Provider) HTTP(pod *corev1.Pod, port int, method, path, client string) *HTTPResponse {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.pods[podKey(pod)]
	if !ok || rec.uid != string(pod.UID) {
		return nil
	}
	for _, c := range rec.containers {
		if r := p.m.respond(rec, c, port, method, path, client, true); r != nil {
			return r
		}
	}
	return nil
}

// Listens returns the ports the containers of pod listen on, by container
// index in spec.containers (the network model's Listens).
func (p *Provider) Listens(pod *corev1.Pod, index int) []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.pods[podKey(pod)]
	if !ok || rec.uid != string(pod.UID) || index < 0 || index >= len(pod.Spec.Containers) {
		return nil
	}
	name := pod.Spec.Containers[index].Name
	for _, c := range rec.containers {
		if c.name == name && c.running() {
			return append([]int(nil), c.listens...)
		}
	}
	return nil
}

// PortForward serves one forwarded connection to port of a pod (B16):
// when a container listens there, each HTTP/1.1 request read from stream
// gets the container's simulated response; otherwise the kubelet's error.
func (p *Provider) PortForward(ctx context.Context, namespace, name string, port int32, stream io.ReadWriteCloser) error {
	p.mu.Lock()
	rec, ok := p.pods[namespace+"/"+name]
	listening := false
	var pod *corev1.Pod
	if ok {
		pod = rec.pod
		for _, c := range rec.containers {
			if c.running() {
				for _, l := range c.listens {
					if l == int(port) {
						listening = true
					}
				}
			}
		}
	}
	p.mu.Unlock()
	if !ok {
		return errdefs.AsNotFound(fmt.Errorf("pod %s/%s not found", namespace, name))
	}
	if !listening {
		return fmt.Errorf("failed to connect to localhost:%d inside namespace %q: dial tcp 127.0.0.1:%d: connect: connection refused", port, strings.TrimPrefix(sandboxID(string(pod.UID)), "containerd://"), port)
	}
	return serveHTTP(ctx, stream, func(method, path string) *HTTPResponse {
		return p.HTTP(pod, int(port), method, path, "127.0.0.1")
	})
}

// OOMKill kills a container that went over its memory limit on a Linux node
// (row B5, Linux side): terminated with exit code 137 and reason OOMKilled,
// then restarted as its restartPolicy says. It reports whether the
// container (of that containerID, when given) was running.
func (p *Provider) OOMKill(namespace, name, container, containerID string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.pods[namespace+"/"+name]
	if !ok {
		return false
	}
	for _, c := range rec.containers {
		if c.name != container || !c.running() || (containerID != "" && c.id != containerID) {
			continue
		}
		p.m.finishContainer(rec, c, oomExitCode, true, p.m.now())
		c.state.Terminated.Reason = oomReason
		p.m.sync(rec)
		p.enqueue(rec.key)
		return true
	}
	return false
}

// How containerd reports an OOM-killed container (SIGKILL).
const (
	oomExitCode = 137
	oomReason   = "OOMKilled"
)
