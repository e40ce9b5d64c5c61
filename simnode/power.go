package simnode

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/record"

	"wink.dev/wink/simnode/internal/nodes"
)

// ShutdownAnnotation shuts a simulated node's machine down, through the API
// (rows B15, N3):
//
//	kubectl annotate node <node> wink.dev/shutdown=now     # shut down, stay off
//	kubectl annotate node <node> wink.dev/shutdown-        # power on again
//	kubectl annotate node <node> wink.dev/shutdown=reboot  # shut down, boot again
//
// The node's kubelet then does what it does when its machine shuts down:
// with a node shutdown manager (B15: Windows kubelets from v1.34, Linux
// kubelets) the node goes NotReady and the pods are terminated; without one
// nothing. Then the kubelet stops: no more status or lease renewals, so the
// node lifecycle controller finds it silent after its grace period. With
// "now" the machine stays off until the annotation is removed; with
// "reboot" it boots again at once and simnode removes the annotation. Each
// boot has the next bootID (N3).
const ShutdownAnnotation = "wink.dev/shutdown"

// Values of ShutdownAnnotation.
const (
	ShutdownNow    = "now"
	ShutdownReboot = "reboot"
)

// EventInvalidShutdown is the Warning event (component wink-simnode) on a
// node whose ShutdownAnnotation has another value; the value is ignored.
const EventInvalidShutdown = "InvalidShutdownAnnotation"

// poweredOffFile in a node's state directory says that its machine is off;
// it holds the bootID of the boot that ended, so that a restart of simnode
// keeps the machine off and counts a reboot once.
const poweredOffFile = "powered-off"

// powerRequest is what ShutdownAnnotation asks for.
type powerRequest int

const (
	powerOn       powerRequest = iota // no annotation: the machine runs (or is to be powered on)
	powerShutdown                     // "now"
	powerReboot                       // "reboot"
	powerInvalid                      // any other value: ignored
)

// parsePowerRequest reads ShutdownAnnotation from a node's annotations and
// returns the request and the annotation's value.
func parsePowerRequest(annotations map[string]string) (powerRequest, string) {
	v, ok := annotations[ShutdownAnnotation]
	switch {
	case !ok:
		return powerOn, ""
	case v == ShutdownNow:
		return powerShutdown, v
	case v == ShutdownReboot:
		return powerReboot, v
	}
	return powerInvalid, v
}

// invalidShutdownMessage is the message of EventInvalidShutdown.
func invalidShutdownMessage(value string) string {
	return fmt.Sprintf("annotation %s=%q is ignored: the value must be %q (shut down and stay off until the annotation is removed) or %q (shut down and boot again)",
		ShutdownAnnotation, value, ShutdownNow, ShutdownReboot)
}

// power is one node's power switch: ShutdownAnnotation on its Node (from
// the shared Node informer) and poweredOffFile in its state directory.
type power struct {
	name     string
	dir      string
	node     func() *corev1.Node // the Node as the informer has it; nil when absent
	client   kubernetes.Interface
	recorder record.EventRecorder
	// wake is signalled on every change of the node's annotation.
	wake chan struct{}
	// retry is how long a wait sleeps without a signal; tests shorten it.
	retry time.Duration

	mu     sync.Mutex
	warned string // the invalid value last warned about
}

func newPower(name, dir string, node func() *corev1.Node, client kubernetes.Interface, recorder record.EventRecorder) *power {
	return &power{name: name, dir: dir, node: node, client: client, recorder: recorder, wake: make(chan struct{}, 1), retry: 5 * time.Second}
}

// notify wakes the node's waits (the Node informer's handler).
func (p *power) notify() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// request is what the annotation asks for now. An invalid value is
// reported once with a Warning event on the node.
func (p *power) request() powerRequest {
	n := p.node()
	if n == nil {
		return powerOn
	}
	r, v := parsePowerRequest(n.Annotations)
	p.mu.Lock()
	defer p.mu.Unlock()
	if r != powerInvalid {
		p.warned = ""
		return r
	}
	if p.warned != v {
		p.warned = v
		if p.recorder != nil {
			ref := &corev1.ObjectReference{APIVersion: "v1", Kind: "Node", Name: p.name}
			p.recorder.Event(ref, corev1.EventTypeWarning, EventInvalidShutdown, invalidShutdownMessage(v))
		}
	}
	return r
}

// sleep waits for a wake-up, the retry interval or ctx.
func (p *power) sleep(ctx context.Context) error {
	t := time.NewTimer(p.retry)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-p.wake:
	case <-t.C:
	}
	return nil
}

// waitShutdown blocks until the annotation asks for a shutdown (now or
// reboot); it returns false when ctx is done first.
func (p *power) waitShutdown(ctx context.Context) bool {
	for {
		if r := p.request(); r == powerShutdown || r == powerReboot {
			return true
		}
		if p.sleep(ctx) != nil {
			return false
		}
	}
}

// off reports whether the machine is off.
func (p *power) off() (bool, error) {
	_, err := os.Stat(filepath.Join(p.dir, poweredOffFile))
	if err == nil {
		return true, nil
	}
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	return false, fmt.Errorf("node %s: %w", p.name, err)
}

// markOff records that the boot bootID ended: the machine is off.
func (p *power) markOff(bootID string) error {
	if err := os.MkdirAll(p.dir, 0o755); err != nil {
		return fmt.Errorf("node %s: %w", p.name, err)
	}
	if err := os.WriteFile(filepath.Join(p.dir, poweredOffFile), []byte(bootID+"\n"), 0o644); err != nil {
		return fmt.Errorf("node %s: power off: %w", p.name, err)
	}
	return nil
}

// waitOn blocks while the machine is off, until the annotation is removed
// or says reboot (which it then removes), and switches the machine on: the
// bootID goes up by one (N3). It returns ctx's error when ctx is done
// first.
func (p *power) waitOn(ctx context.Context) error {
	for {
		switch p.request() {
		case powerOn:
			return p.switchOn()
		case powerReboot:
			err := p.clearReboot(ctx)
			if err == nil {
				return p.switchOn()
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
		if err := p.sleep(ctx); err != nil {
			return err
		}
	}
}

// switchOn starts the next boot: the bootID after the one poweredOffFile
// names (once: a restart between the two steps does not count twice), then
// the file goes.
func (p *power) switchOn() error {
	path := filepath.Join(p.dir, poweredOffFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("node %s: power on: %w", p.name, err)
	}
	cur, err := nodes.LoadBootID(p.dir)
	if err != nil {
		return err
	}
	if strings.TrimSpace(string(data)) == cur {
		if _, err := nodes.BumpBootID(p.dir); err != nil {
			return err
		}
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("node %s: power on: %w", p.name, err)
	}
	return nil
}

// clearReboot removes ShutdownAnnotation from the node if it still says
// reboot (a JSON patch with a test operation, so that a user's new value
// is never lost).
func (p *power) clearReboot(ctx context.Context) error {
	path := "/metadata/annotations/" + strings.ReplaceAll(strings.ReplaceAll(ShutdownAnnotation, "~", "~0"), "/", "~1")
	patch := fmt.Sprintf(`[{"op":"test","path":%q,"value":%q},{"op":"remove","path":%q}]`, path, ShutdownReboot, path)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	_, err := p.client.CoreV1().Nodes().Patch(ctx, p.name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("node %s: removing %s: %w", p.name, ShutdownAnnotation, err)
	}
	return nil
}
