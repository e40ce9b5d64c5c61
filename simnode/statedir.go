package simnode

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// OwnStateDir makes dir, the root of simnode's state volume, owned by
// owner ("UID:GID") with mode 0750, creating it when missing. The chart's
// init container runs it as root (CAP_CHOWN only) before the non-root
// simnode starts: provisioners such as the in-tree host-path one (kind's
// fallback StorageClass) make each volume a root-owned 0750 directory and
// ignore the pod's fsGroup. Only the root is changed: simnode creates
// everything below it as its own user. A directory already theirs is left
// as it is.
func OwnStateDir(dir, owner string) error {
	u, g, ok := strings.Cut(owner, ":")
	uid, uerr := strconv.Atoi(u)
	gid, gerr := strconv.Atoi(g)
	if !ok || uerr != nil || gerr != nil || uid < 0 || gid < 0 {
		return fmt.Errorf("owner %q: want UID:GID (numbers)", owner)
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return err
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	// Already simnode's (a replica that comes back to its volume): left
	// as it is; root without CAP_FOWNER could not change its mode anyway.
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) == uid && int(st.Gid) == gid {
		return nil
	}
	// chmod first: once the directory is another user's, changing its mode
	// would need CAP_FOWNER, which the init container does not have.
	if err := os.Chmod(dir, 0o750); err != nil {
		return err
	}
	return os.Chown(dir, uid, gid)
}
