package shell

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"wink.dev/wink/simnode/shell/process"
)

// endlessInput reads x forever (the other end of `yes |`).
type endlessInput struct{}

func (endlessInput) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = 'x'
	}
	return len(b), nil
}

// Issue 18, row B5: a Linux process that reads more than its container's
// memory is OOM-killed (137); simnode holds at most that much of it.
func TestOOMKilledOnLinux(t *testing.T) {
	fx := newFixture(Linux)
	fx.env.Limits.Memory = 1 << 20
	var out bytes.Buffer
	if code := Run(context.Background(), fx.env, []string{"hexdump", "-C"}, endlessInput{}, &out, &out); code != process.ExitOOMKilled {
		t.Errorf("hexdump of an endless input: exit %d, want %d", code, process.ExitOOMKilled)
	}
}

// Issue 18: a `yes` prints at the pace of its simulated CPU: one second
// of its clock gives about StepsPerSecond lines, then it is stopped.
func TestYesIsPaced(t *testing.T) {
	fx := newFixture(Linux)
	fx.env.Limits.StepsPerSecond = 2000
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fx.clock.cancel = cancel
	fx.clock.limit = fakeEpoch.Add(time.Second)
	var out bytes.Buffer
	code := Run(ctx, fx.env, []string{"yes"}, nil, &out, &out)
	lines := strings.Count(out.String(), "y\n")
	if code != process.ExitKilledLinux || lines < 1900 || lines > 2200 {
		t.Errorf("yes for 1 s of its clock at 2,000 steps/s: exit %d, %d lines; want %d and about 2,000", code, lines, process.ExitKilledLinux)
	}
}
