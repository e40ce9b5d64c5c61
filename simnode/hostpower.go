package simnode

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"wink.dev/wink/simnode/shell"
)

// osShutdown is shutdown.exe's way to the node's power switch (a
// shell.Power, for HostProcess containers: B15, N3). When the delay is
// over, the machine shuts down as ShutdownAnnotation asks: simnode sets it
// on the Node, and the node's power loop does the rest (a reboot boots
// again and removes it). A boot's pending shutdown ends with the boot.
type osShutdown struct {
	pw  *power
	ctx context.Context // the boot
	log *slog.Logger

	mu    sync.Mutex
	timer *time.Timer
}

var errShutdownPending = errors.New("a system shutdown has already been scheduled")

// Schedule implements shell.Power.
func (o *osShutdown) Schedule(reboot bool, delay time.Duration) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.timer != nil {
		return errShutdownPending
	}
	value := ShutdownNow
	if reboot {
		value = ShutdownReboot
	}
	o.log.Info("shutdown scheduled by the OS", "value", value, "delay", delay)
	o.timer = time.AfterFunc(delay, func() { o.fire(value) })
	return nil
}

// Abort implements shell.Power.
func (o *osShutdown) Abort() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.timer == nil {
		return false
	}
	stopped := o.timer.Stop()
	o.timer = nil
	return stopped
}

// stop drops a pending shutdown when the boot ends.
func (o *osShutdown) stop() { o.Abort() }

func (o *osShutdown) fire(value string) {
	o.mu.Lock()
	o.timer = nil
	o.mu.Unlock()
	if o.ctx.Err() != nil {
		return
	}
	patch, _ := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]string{ShutdownAnnotation: value}}})
	if _, err := o.pw.client.CoreV1().Nodes().Patch(o.ctx, o.pw.name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		o.log.Error("shutdown by the OS", "err", err)
		return
	}
	o.pw.notify()
}

// accounts are node name's local groups (net localgroup in a HostProcess
// container, B10); they live as long as simnode, across the node's boots.
func (s *shared) accounts(name string) *shell.MemAccounts {
	a, _ := s.localAccounts.LoadOrStore(name, &shell.MemAccounts{})
	return a.(*shell.MemAccounts)
}
