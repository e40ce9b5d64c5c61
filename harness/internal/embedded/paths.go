package embedded

import (
	"fmt"
	"path/filepath"
)

// MaxSocketPath is the longest path a Unix socket may have on Linux: the
// 108 bytes of sun_path, less the terminating NUL.
const MaxSocketPath = 107

// EgressSocket is simnode's egress proxy socket in a cluster's state
// directory, which the apiserver dials (see egressConfig).
func EgressSocket(dir string) string { return filepath.Join(dir, "run", "egress.sock") }

// CheckStateDir checks that a state directory can hold the cluster's Unix
// socket: a longer path fails only when simnode listens, long after
// `wink up` started, and the nodes never get Ready.
func CheckStateDir(dir string) error {
	sock := EgressSocket(dir)
	if len(sock) > MaxSocketPath {
		return fmt.Errorf("state directory %s is too deep: its egress socket %s would be %d bytes, and a Unix socket path has at most %d; "+
			"set WINK_HOME (or --home) to a shorter directory, e.g. WINK_HOME=/tmp/wink", dir, sock, len(sock), MaxSocketPath)
	}
	return nil
}
