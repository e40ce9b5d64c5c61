package pods

import (
	"bytes"
	"context"
	"fmt"
	"net"
	neturl "net/url"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"wink.dev/wink/simnode/rules"
)

// Probes (B13), as pkg/kubelet/prober does them: one worker per probe of a
// running container instance, first run after initialDelaySeconds, then
// every periodSeconds; successThreshold/failureThreshold consecutive
// results flip the result. Exec probes run in the container's shell (exit
// 0 = success); httpGet and tcpSocket succeed when the container listens on
// the port (and, for httpGet, the simulated answer is 2xx/3xx). Liveness
// and readiness wait for the startup probe.

type probeState struct {
	kind      string // Liveness, Readiness, Startup
	probe     *corev1.Probe
	successes int32
	failures  int32
	result    bool
	instance  int
}

func (m *machine) startProbes(rec *record, c *container, spec *corev1.Container) {
	c.probes = map[string]*probeState{}
	add := func(kind string, p *corev1.Probe) {
		if p == nil {
			return
		}
		ps := &probeState{kind: kind, probe: p, instance: c.instance}
		c.probes[kind] = ps
		m.fx.after(rec, time.Duration(p.InitialDelaySeconds)*time.Second, func() { m.runProbe(rec, c, ps) })
	}
	if spec.StartupProbe != nil {
		add("Startup", spec.StartupProbe)
		return
	}
	add("Liveness", spec.LivenessProbe)
	add("Readiness", spec.ReadinessProbe)
}

func period(p *corev1.Probe) time.Duration {
	if p.PeriodSeconds <= 0 {
		return 10 * time.Second
	}
	return time.Duration(p.PeriodSeconds) * time.Second
}

func (ps *probeState) current(c *container) bool {
	return c.probes != nil && c.probes[ps.kind] == ps && c.instance == ps.instance && c.running() && !c.killing
}

// runProbe runs ps once and schedules the next run.
func (m *machine) runProbe(rec *record, c *container, ps *probeState) {
	if !ps.current(c) || rec.stage != stageRunning {
		return
	}
	spec := m.spec(rec, c)
	p := ps.probe
	switch {
	case p.Exec != nil:
		timeout := time.Duration(max(p.TimeoutSeconds, 1)) * time.Second
		ctx, cancel := context.WithCancel(context.Background())
		j := &job{c: c, instance: c.instance, kind: "probe", argv: p.Exec.Command, env: c.env, ctx: ctx, cancel: cancel}
		timedOut := false
		m.fx.after(rec, timeout, func() { timedOut = true; j.cancel() })
		j.done = func(code int, out string) {
			cancel()
			if timedOut {
				m.probeResult(rec, c, ps, false, fmt.Sprintf("command %q timed out", strings.Join(p.Exec.Command, " ")))
				return
			}
			m.probeResult(rec, c, ps, code == 0, out)
		}
		m.fx.spawn(rec, j)
		return
	case p.HTTPGet != nil:
		ok, msg := m.httpProbe(rec, c, spec, p.HTTPGet)
		m.probeResult(rec, c, ps, ok, msg)
	case p.TCPSocket != nil:
		ok, msg := true, ""
		if !m.listening(c, spec, p.TCPSocket.Port) {
			ok, msg = false, m.refused(rec, c, spec, p.TCPSocket.Host, p.TCPSocket.Port)
		}
		m.probeResult(rec, c, ps, ok, msg)
	case p.GRPC != nil:
		ok := m.listening(c, spec, intstr.FromInt32(p.GRPC.Port))
		msg := ""
		if !ok {
			msg = m.refused(rec, c, spec, "", intstr.FromInt32(p.GRPC.Port))
		}
		m.probeResult(rec, c, ps, ok, msg)
	default:
		m.probeResult(rec, c, ps, true, "")
	}
}

// probeResult applies one probe result (worker.go doProbe).
func (m *machine) probeResult(rec *record, c *container, ps *probeState, ok bool, output string) {
	if !ps.current(c) {
		return
	}
	p := ps.probe
	spec := m.spec(rec, c)
	if ok && strings.HasPrefix(output, probeWarning) {
		m.event(rec.pod, c, rules.EventProbeWarning, rules.EventData{Container: c.name, Probe: ps.kind, Message: output})
	}
	if ok {
		ps.failures = 0
		ps.successes++
		if ps.successes >= max(p.SuccessThreshold, 1) {
			ps.result = true
		}
	} else {
		ps.successes = 0
		ps.failures++
		m.event(rec.pod, c, rules.EventUnhealthy, rules.EventData{Container: c.name, Probe: ps.kind, Message: output})
		if ps.failures >= failureThreshold(p) {
			ps.result = false
		}
	}
	failed := !ok && ps.failures >= failureThreshold(p)
	switch ps.kind {
	case "Startup":
		if ps.result {
			c.started = true
			delete(c.probes, "Startup")
			c.ready = spec.ReadinessProbe == nil && !c.init
			m.startLater(rec, c, "Liveness", spec.LivenessProbe)
			m.startLater(rec, c, "Readiness", spec.ReadinessProbe)
			return
		}
		if failed {
			m.kill(rec, c, m.killMessage(rec, c, "startup"))
			return
		}
	case "Liveness":
		if failed {
			m.kill(rec, c, m.killMessage(rec, c, "liveness"))
			return
		}
	case "Readiness":
		if ok && ps.result {
			c.ready = true
		} else if failed {
			c.ready = false
		}
	}
	m.fx.after(rec, period(p), func() { m.runProbe(rec, c, ps) })
}

func failureThreshold(p *corev1.Probe) int32 {
	if p.FailureThreshold <= 0 {
		return 3
	}
	return p.FailureThreshold
}

func (m *machine) startLater(rec *record, c *container, kind string, p *corev1.Probe) {
	if p == nil {
		return
	}
	ps := &probeState{kind: kind, probe: p, instance: c.instance}
	c.probes[kind] = ps
	m.fx.after(rec, 0, func() { m.runProbe(rec, c, ps) })
}

// killMessage is computePodActions': "Container %s failed liveness probe"
// with ", will be restarted" when the restart policy restarts it.
func (m *machine) killMessage(rec *record, c *container, probe string) string {
	msg := fmt.Sprintf("Container %s failed %s probe", c.name, probe)
	if c.sidecar || restartPolicy(rec) != corev1.RestartPolicyNever {
		msg += ", will be restarted"
	}
	return msg
}

// port resolves a probe port (number or containerPort name).
func port(spec *corev1.Container, p intstr.IntOrString) int {
	if p.Type == intstr.Int {
		return p.IntValue()
	}
	for _, cp := range spec.Ports {
		if cp.Name == p.StrVal {
			return int(cp.ContainerPort)
		}
	}
	n, _ := strconv.Atoi(p.StrVal)
	return n
}

func (m *machine) listening(c *container, spec *corev1.Container, p intstr.IntOrString) bool {
	n := port(spec, p)
	for _, l := range c.listens {
		if l == n {
			return true
		}
	}
	return false
}

func (m *machine) probeHost(rec *record, host string) string {
	if host != "" {
		return host
	}
	return rec.podIP
}

func (m *machine) refused(rec *record, c *container, spec *corev1.Container, host string, p intstr.IntOrString) string {
	addr := net.JoinHostPort(m.probeHost(rec, host), strconv.Itoa(port(spec, p)))
	name := "probeRefused.linux"
	if m.node.OS.IsWindows() {
		name = "probeRefused.windows"
	}
	return m.rules.Runtime.Message(name, rules.MessageData{Message: addr})
}

func (m *machine) httpProbe(rec *record, c *container, spec *corev1.Container, h *corev1.HTTPGetAction) (bool, string) {
	scheme := strings.ToLower(string(h.Scheme))
	if scheme == "" {
		scheme = "http"
	}
	path := h.Path
	if path == "" {
		path = "/"
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	n := port(spec, h.Port)
	url := fmt.Sprintf("%s://%s%s", scheme, net.JoinHostPort(m.probeHost(rec, h.Host), strconv.Itoa(n)), path)
	if !m.listening(c, spec, h.Port) {
		return false, m.rules.Runtime.Message("httpProbeError", rules.MessageData{Image: url, Message: m.refused(rec, c, spec, h.Host, h.Port)})
	}
	resp := m.respond(rec, c, n, "GET", path, rec.hostIP, false)
	// probe/http/http.go: redirects to the same host are followed (at
	// most 10), one to another host is not: the probe succeeds with a
	// warning and the response body.
	host := m.probeHost(rec, h.Host)
	for hops := 0; resp != nil && resp.Status >= 300 && resp.Status < 400 && resp.Headers["Location"] != ""; hops++ {
		loc, err := neturl.Parse(resp.Headers["Location"])
		if err != nil || hops >= 10 {
			break
		}
		if loc.IsAbs() && loc.Hostname() != host {
			body := string(resp.Body)
			if len(body) > maxProbeBody {
				body = body[:maxProbeBody]
			}
			return true, probeWarning + body
		}
		next := loc.RequestURI()
		if !strings.HasPrefix(next, "/") {
			next = "/" + next
		}
		resp = m.respond(rec, c, n, "GET", next, rec.hostIP, false)
	}
	if resp != nil && (resp.Status < 200 || resp.Status >= 400) {
		return false, m.rules.Runtime.Message("httpProbeStatus", rules.MessageData{Message: strconv.Itoa(resp.Status)})
	}
	return true, ""
}

// probeWarning starts the output of an HTTP probe that succeeded on a
// redirect to another host (probe/http/http.go), with at most
// maxProbeBody bytes of the body (maxRespBodyLength).
const (
	probeWarning = "Probe terminated redirects, Response body: "
	maxProbeBody = 10 << 10
)

// collect is an io.Writer that keeps a job's output: at most max bytes,
// the rest is discarded (issue 18: no output grows simnode). An exec
// probe keeps maxProbeOutput, as the kubelet's exec prober reads at most
// that (probe/exec/exec.go maxReadLength, LimitWriter); a hook or an
// exec keeps process.MaxWrite.
type collect struct {
	bytes.Buffer
	max int
}

// maxProbeOutput is the exec prober's maxReadLength.
const maxProbeOutput = 10 << 10

func (c *collect) Write(b []byte) (int, error) {
	if n := c.max - c.Len(); len(b) > n {
		c.Buffer.Write(b[:max(n, 0)])
		return len(b), nil
	}
	return c.Buffer.Write(b)
}
