package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// clusterLock serialises the commands that create, start, stop or delete
// one cluster (Up until its supervisor runs, Down, Delete), so that two
// `wink up --name X` at once do not both choose ports and make certificates.
// It is a flock on <home>/.<name>.lock: beside the state directory, so
// taking it creates nothing inside the directory, and only once the name
// has been checked.
type clusterLock struct {
	f          *os.File
	path       string
	home, name string
}

// lockPath is the lock file of a cluster.
func lockPath(home, name string) string { return filepath.Join(home, "."+name+".lock") }

// lockCluster takes a cluster's lock, waiting (and saying so on progress)
// while another wink process holds it, until ctx is done.
func lockCluster(ctx context.Context, home, name, what string, progress io.Writer) (*clusterLock, error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, err
	}
	path := lockPath(home, name)
	var holder string
	l, err := pollLock(ctx, func() (l *clusterLock, err error) {
		l, holder, err = tryLock(path)
		return l, err
	}, func() {
		fmt.Fprintf(progress, "Waiting for %s, which holds the lock of cluster %q (%s)\n", holder, name, path)
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("cluster %q is locked by %s (%s): wait for it to finish, or stop it: %w", name, holder, path, err)
		}
		return nil, err
	}
	l.home, l.name = home, name
	fmt.Fprintf(l.f, "%d %s\n", os.Getpid(), what)
	return l, nil
}

// pollLock calls try every 100ms until it returns a lock or an error, or
// ctx is done (its error); waiting is called once, after the first try
// that found the lock held.
func pollLock[L any](ctx context.Context, try func() (*L, error), waiting func()) (*L, error) {
	for said := false; ; said = true {
		l, err := try()
		if l != nil || err != nil {
			return l, err
		}
		if !said {
			waiting()
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// tryLock takes the lock at path if it is free. When it is not, it returns
// who holds it as recorded in the file ("pid N (wink up)").
func tryLock(path string) (*clusterLock, string, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, "", err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, "", fmt.Errorf("locking %s: %w", path, err)
		}
		return nil, lockHolder(path), nil
	}
	// Delete removes the file while it holds the lock: a lock taken on a
	// file no longer at path is no lock; take it again.
	var held, current syscall.Stat_t
	if syscall.Fstat(int(f.Fd()), &held) != nil || syscall.Stat(path, &current) != nil || held.Ino != current.Ino || held.Dev != current.Dev {
		f.Close()
		return tryLock(path)
	}
	if err := f.Truncate(0); err != nil {
		f.Close()
		return nil, "", err
	}
	return &clusterLock{f: f, path: path}, "", nil
}

// lockHolder reads who holds a lock from its file.
func lockHolder(path string) string {
	data, _ := os.ReadFile(path)
	pid, what, _ := strings.Cut(strings.TrimSpace(string(data)), " ")
	if _, err := strconv.Atoi(pid); err != nil {
		return "another wink process"
	}
	if what == "" {
		return "pid " + pid
	}
	return fmt.Sprintf("pid %s (%s)", pid, what)
}

// unlock releases the lock. Its file stays only beside a state directory
// wink made: after a Delete, or a refusal, it is removed (a process waiting
// for it sees the file gone and takes a new one).
func (l *clusterLock) unlock() {
	if l == nil || l.f == nil {
		return
	}
	if d, err := checkStateDir(l.home, l.name); err != nil || !d.marked {
		_ = os.Remove(l.path)
	}
	l.f.Close()
	l.f = nil
}
