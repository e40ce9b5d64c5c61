package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
)

// BringUpsAtOnce is how many clusters this machine brings up at the same
// time: one per CPU. Starting etcd, the apiserver and the controllers, and
// registering the nodes, keeps about a core busy for seconds; a running
// cluster mostly waits. Clusters brought up beyond this starve one another
// (none gets its nodes Ready in time), so Up waits for a slot instead.
func BringUpsAtOnce() int { return max(1, runtime.NumCPU()) }

// bringUpDir holds the slots' lock files: one place per machine and user,
// shared by every wink process whatever its WINK_HOME, since the CPU is.
func bringUpDir() string {
	return filepath.Join(os.TempDir(), "wink-"+strconv.Itoa(os.Getuid())+"-bringup")
}

// bringUpSlot is a flock on one of BringUpsAtOnce files of bringUpDir,
// held from before a cluster's supervisor starts until its nodes are Ready
// or Up gives up. The kernel releases it when the process ends, however it
// ends.
type bringUpSlot struct{ f *os.File }

// takeBringUpSlot waits for a free slot, saying once on progress that it
// waits, until ctx is done.
func takeBringUpSlot(ctx context.Context, name string, progress io.Writer) (*bringUpSlot, error) {
	dir := bringUpDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	n := BringUpsAtOnce()
	s, err := pollLock(ctx, func() (*bringUpSlot, error) {
		for i := range n {
			f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("slot-%d", i)), os.O_CREATE|os.O_RDWR, 0o600)
			if err != nil {
				return nil, err
			}
			err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
			if err == nil {
				return &bringUpSlot{f: f}, nil
			}
			f.Close()
			if !errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, fmt.Errorf("locking %s: %w", f.Name(), err)
			}
		}
		return nil, nil
	}, func() {
		fmt.Fprintf(progress, "Waiting to bring cluster %q up: %d other cluster(s) are being brought up on this machine (%d at once, one per CPU)\n", name, n, n)
	})
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("cluster %q: waiting for one of the %d clusters being brought up on this machine to finish (%s): %w", name, n, dir, err)
	}
	return s, err
}

// release frees the slot; a nil slot is a no-op.
func (s *bringUpSlot) release() {
	if s != nil && s.f != nil {
		s.f.Close()
		s.f = nil
	}
}
