package network

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/shell"
)

// Real pods. A simulated node may share its cluster with real ones (the
// kind backend: kind's own nodes run CoreDNS and the user's Linux pods).
// Their pods are in the snapshot like any other, but no simulated program
// answers for them: what they serve is decided by the real server, reached
// through Options.ClusterDial (row H1: pod to pod works both ways between
// Windows and Linux nodes).

// realConverseWait bounds how long a conversation with a real server (nc
// writing a line) waits for its answer when the client set no deadline.
const realConverseWait = 2 * time.Second

// realReadLimit bounds what is kept of a real server's answer to a
// conversation.
const realReadLimit = 1 << 20

// realPod reports whether p runs on a node no wink simnode simulates
// (Options.SimulatedNode). A pod whose node is not in the snapshot counts
// as simulated: nothing says otherwise.
func (m *Model) realPod(s *snapshot, p *corev1.Pod) bool {
	if p == nil || m.opts.SimulatedNode == nil {
		return false
	}
	n := s.nodeByName[p.Spec.NodeName]
	return n != nil && !m.opts.SimulatedNode(n)
}

// podReady reports whether p's Ready condition is True.
func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// realListens reports whether a real pod is taken as listening on port: it
// is Ready and a running container declares the port. Only the servers
// the model answers for (the cluster DNS, UDP) are judged this way; TCP
// goes to the real server (dialReal).
func realListens(p *corev1.Pod, port int) bool {
	if p.Status.Phase != corev1.PodRunning || !podReady(p) {
		return false
	}
	for i, c := range p.Spec.Containers {
		if !containerRunning(p, i) {
			continue
		}
		for _, cp := range c.Ports {
			if int(cp.ContainerPort) == port {
				return true
			}
		}
	}
	return false
}

// realNotListening is the refusal of a real pod that realListens says
// does not listen on port.
func realNotListening(p *corev1.Pod, port int, rule string) error {
	return &RuleError{Err: shell.ErrRefused, Rule: rule, Reason: fmt.Sprintf("pod %s/%s on real node %s is not Ready or declares no containerPort %d", p.Namespace, p.Name, p.Spec.NodeName, port)}
}

func (t *target) realName() string {
	return fmt.Sprintf("pod %s/%s (%s:%d on node %s)", t.pod.Namespace, t.pod.Name, t.addr, t.port, t.pod.Spec.NodeName)
}

// dialReal opens a real TCP connection to the real pod of t through
// Options.ClusterDial. The error is what the client sees: refused when
// the pod is out of reach or the server refuses, timeout when the dial
// times out; its reason names the pod and the cause. The caller closes the
// connection.
func (m *Model) dialReal(ctx context.Context, t *target) (net.Conn, error) {
	if m.opts.ClusterDial == nil {
		return nil, &RuleError{Err: shell.ErrRefused, Rule: t.rule, Reason: t.realName() +
			" runs on a node no wink simnode simulates and Options.ClusterDial is nil: real pods are out of reach"}
	}
	ctx, cancel := context.WithTimeout(ctx, realTimeout)
	defer cancel()
	c, err := m.opts.ClusterDial(ctx, ProtoTCP, net.JoinHostPort(t.addr.String(), strconv.Itoa(t.port)))
	if err != nil {
		return nil, &RuleError{Err: dialOutcome(ctx, err), Rule: t.rule, Reason: fmt.Sprintf("dialing real %s: %v", t.realName(), err)}
	}
	return c, nil
}

// dialOutcome is the shell error a client sees for a failed real dial.
func dialOutcome(ctx context.Context, err error) error {
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) || ctx.Err() != nil {
		return shell.ErrTimeout
	}
	return shell.ErrRefused
}

// probeReal is a TCP connect to the real pod of t, closed at once (nc -z,
// Test-NetConnection).
func (m *Model) probeReal(ctx context.Context, t *target) error {
	c, err := m.dialReal(ctx, t)
	if err != nil {
		return err
	}
	return c.Close()
}

// converseReal writes data to the real pod of t and returns what its
// server writes back until it closes the connection or the client's
// deadline (realConverseWait without one) passes.
func (m *Model) converseReal(ctx context.Context, t *target, data string) (string, error) {
	c, err := m.dialReal(ctx, t)
	if err != nil {
		return "", err
	}
	defer c.Close()
	deadline := time.Now().Add(realConverseWait)
	if d, ok := ctx.Deadline(); ok {
		deadline = d
	}
	if err := c.SetDeadline(deadline); err != nil {
		return "", err
	}
	if data != "" {
		if _, err := io.WriteString(c, data); err != nil {
			return "", &RuleError{Err: shell.ErrRefused, Rule: t.rule, Reason: fmt.Sprintf("writing to real %s: %v", t.realName(), err)}
		}
	}
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite() // nc sends EOF after its input
	}
	b, _ := io.ReadAll(io.LimitReader(c, realReadLimit)) // a deadline ends the answer, not the conversation
	return string(b), nil
}
