package simnode

import (
	"errors"
	"log/slog"
	"strings"
	"testing"
)

// virtual-kubelet logs errors, not only strings (PodController.Run's
// `log.G(ctx).Error(err)`): the adapter prints them instead of panicking.
func TestVKLoggerTakesAnyArguments(t *testing.T) {
	var b strings.Builder
	l := newVKLogger(slog.New(slog.NewTextHandler(&b, nil)))
	l.Error(errors.New("handler was not added to shared informer because it has stopped already"))
	l.WithField("node", "n1").Warn(42, "x")
	if !strings.Contains(b.String(), "has stopped already") || !strings.Contains(b.String(), "42") {
		t.Fatalf("logged %q", b.String())
	}
}
