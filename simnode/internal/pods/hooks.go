package pods

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"wink.dev/wink/simnode/rules"
)

// HookNetwork is a Network through which the kubelet sends an httpGet
// hook to another address (wire.Network).
type HookNetwork interface {
	// HookGet sends GET url from pod's node as the kubelet does (TLS
	// without verification) and reports the answer's status.
	HookGet(ctx context.Context, pod *corev1.Pod, url string) (status int, err error)
}

// remoteHook sends an httpGet hook whose host is another address than the
// container's own (upstream lifecycle_hook.go: a hook on a pause container
// calling the netexec pod at its IP) through the cluster network, in the
// background: the server sees and logs the request as on a real node.
// Its outcome does not kill the container (a simplification: the kubelet
// would on a failed postStart). It reports whether it sent the hook.
func (m *machine) remoteHook(rec *record, c *container, h *corev1.HTTPGetAction) bool {
	hn, ok := m.rt.network.(HookNetwork)
	if !ok || h.Host == "" || h.Host == rec.podIP {
		return false
	}
	scheme := strings.ToLower(string(h.Scheme))
	if scheme == "" {
		scheme = "http"
	}
	path := h.Path
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	url := fmt.Sprintf("%s://%s%s", scheme, net.JoinHostPort(h.Host, strconv.Itoa(port(m.spec(rec, c), h.Port))), path)
	pod := rec.pod
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = hn.HookGet(ctx, pod, url)
	}()
	return true
}

// runHook runs an exec hook in c (postStart, preStop); done gets its exit
// code.
func (m *machine) runHook(rec *record, c *container, kind string, argv []string, done func(code int)) {
	ctx, cancel := context.WithCancel(context.Background())
	inst := c.instance
	j := &job{c: c, instance: inst, kind: kind, argv: argv, env: c.env, ctx: ctx, cancel: cancel}
	j.done = func(code int, _ string) {
		cancel()
		if c.instance != inst {
			return
		}
		done(code)
	}
	m.fx.spawn(rec, j)
}

// postStart runs the postStart hook (exec; httpGet succeeds when the
// container listens): a failure kills the container, which then restarts
// per policy (kuberuntime_container.go: FailedPostStartHook).
func (m *machine) postStart(rec *record, c *container, h *corev1.LifecycleHandler) {
	fail := func() {
		m.event(rec.pod, c, rules.EventPostStartFailed, rules.EventData{Container: c.name})
		m.kill(rec, c, "FailedPostStartHook")
	}
	switch {
	case h.Exec != nil:
		m.runHook(rec, c, "postStart", h.Exec.Command, func(code int) {
			if code != 0 && c.running() {
				fail()
			}
		})
	case h.HTTPGet != nil && m.remoteHook(rec, c, h.HTTPGet):
		// The hook has returned: the pod sync goes on (a sidecar's
		// postStart gates the next containers).
		m.fx.after(rec, 0, nil)
	case h.HTTPGet != nil:
		if !m.listening(c, m.spec(rec, c), h.HTTPGet.Port) {
			fail()
		}
	}
}
