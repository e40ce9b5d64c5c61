package simnode

import (
	"fmt"
	"log/slog"

	vklog "github.com/virtual-kubelet/virtual-kubelet/log"
	vkslog "github.com/virtual-kubelet/virtual-kubelet/log/slog"
)

// vkLogger is virtual-kubelet's slog adapter with arguments of any type:
// the adapter (v1.13.0) asserts its first argument is a string and panics
// on virtual-kubelet's own `log.G(ctx).Error(err)` (PodController.Run, when
// a node boot ends as its pod controller starts).
type vkLogger struct{ vklog.Logger }

func newVKLogger(l *slog.Logger) vklog.Logger { return vkLogger{vkslog.FromSlog(l)} }

func (l vkLogger) Debug(a ...any) { l.Logger.Debug(fmt.Sprint(a...)) }
func (l vkLogger) Info(a ...any)  { l.Logger.Info(fmt.Sprint(a...)) }
func (l vkLogger) Warn(a ...any)  { l.Logger.Warn(fmt.Sprint(a...)) }
func (l vkLogger) Error(a ...any) { l.Logger.Error(fmt.Sprint(a...)) }
func (l vkLogger) Fatal(a ...any) { l.Logger.Fatal(fmt.Sprint(a...)) }

func (l vkLogger) WithField(k string, v any) vklog.Logger { return vkLogger{l.Logger.WithField(k, v)} }
func (l vkLogger) WithFields(f vklog.Fields) vklog.Logger { return vkLogger{l.Logger.WithFields(f)} }
func (l vkLogger) WithError(err error) vklog.Logger       { return vkLogger{l.Logger.WithError(err)} }
